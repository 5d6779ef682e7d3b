// ForecastCount (engine/estimate/forecast.h) against the count it forecasts:
// the node count within a factor of 2 of Count()'s on every game and suit
// count tried (issue 18), and a time at all only when the tree is big
// enough to time.
#include "engine/estimate/forecast.h"

#include <catch2/catch.hpp>

#include "engine/eulerian/enumerate.h"

namespace eulerdeck {
namespace {

TEST_CASE("forecast: the nodes within a factor of 2 of the count's", "[estimate]") {
  for (const GameSpec& spec : {GameSpec{Game::kMousetrap, 12, 1}, GameSpec{Game::kMousetrap, 6, 2},
                               GameSpec{Game::kModular, 11, 1}, GameSpec{Game::kModular, 4, 3},
                               GameSpec{Game::kHlm, 12, 2}, GameSpec{Game::kHlm, 6, 3},
                               GameSpec{Game::kHlm, 5, 4}, GameSpec{Game::kMousetrap, 3, 1}}) {
    CountResult exact;
    REQUIRE(Count(spec, CountOptions{}, &exact).ok());
    CountForecast f;
    REQUIRE(ForecastCount(spec, 2, 1.0, &f).ok());
    INFO(GameName(spec.game) << " m=" << spec.ranks << " s=" << spec.suits << ": forecast "
                             << f.nodes.mean << ", exact " << exact.nodes);
    CHECK(f.nodes.mean >= 0.5 * static_cast<double>(exact.nodes));
    CHECK(f.nodes.mean <= 2.0 * static_cast<double>(exact.nodes));
    CHECK(f.threads == 2);
    CHECK(f.samples >= 1000);
    if (f.rate > 0) CHECK(f.seconds == f.nodes.mean / (f.rate * 2));
  }
}

}  // namespace
}  // namespace eulerdeck
