// The expensive checks of ReformStats() (ctest label `slow`): the
// brute-force classification of every deck at n = 10 (three games) and on
// multisuit sizes up to 10^7 decks, and the published OEIS terms at n = 13
// and 14 (A007712, A055459, A067950; the data sections as of 2026).
#include <catch2/catch.hpp>

#include "engine/reform/stats.h"
#include "tests/support/reform_brute.h"

namespace eulerdeck {
namespace {

TEST_CASE("reform-stats: equals following every deck, n = 10 and multisuit to 10^7 decks") {
  for (Game game : {Game::kMousetrap, Game::kModular, Game::kHlm}) {
    for (const GameSpec& spec : {GameSpec{game, 10, 1}, GameSpec{game, 6, 2}, GameSpec{game, 4, 3},
                                 GameSpec{game, 3, 4}}) {
      INFO(GameName(game) << " m=" << spec.ranks << " s=" << spec.suits);
      ReformStatsResult fast;
      REQUIRE(ReformStats(spec, ReformStatsOptions{}, &fast).ok());
      testing::ExpectEqualsBruteForce(spec, fast);
    }
  }
}

TEST_CASE("reform-stats: OEIS A007712, A055459, A067950 at n = 13 and 14") {
  struct Row {
    int n;
    uint64_t once, twice, thrice;
  };
  for (const Row& row : {Row{13, 28758111, 127876, 605}, Row{14, 265434293, 805947, 2485}}) {
    ReformStatsResult r;
    REQUIRE(ReformStats(GameSpec{Game::kMousetrap, row.n, 1}, ReformStatsOptions{}, &r).ok());
    INFO("n = " << row.n);
    REQUIRE(r.reformable.size() > 3);
    CHECK(r.cyclic_decks == 0);
    CHECK(r.reformable[1] == row.once);
    CHECK(r.reformable[2] == row.twice);
    CHECK(r.reformable[3] == row.thrice);
  }
}

}  // namespace
}  // namespace eulerdeck
