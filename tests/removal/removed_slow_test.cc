// The expensive checks of CountRemoved() (ctest label `slow`; CI skips
// them): brute force on the largest sizes it finishes in minutes, and
// OEIS A007710's last published term.
#include <catch2/catch.hpp>

#include "engine/cards/brute.h"
#include "engine/cards/combinatorics.h"
#include "engine/removal/removed.h"

namespace eulerdeck {
namespace {

std::vector<uint64_t> Removed(const GameSpec& spec) {
  RemovedResult r;
  REQUIRE(CountRemoved(spec, RemovedOptions{}, &r).ok());
  return r.removed;
}

TEST_CASE("removed: brute force agrees on mousetrap n = 12, 13 and modular n = 12") {
  for (const GameSpec& spec : {GameSpec{Game::kMousetrap, 12, 1}, GameSpec{Game::kMousetrap, 13, 1},
                               GameSpec{Game::kModular, 12, 1}}) {
    BruteResult brute;
    BruteOptions options;
    options.max_decks = 10'000'000'000ULL;
    REQUIRE(Brute(spec, options, &brute).ok());
    INFO(GameName(spec.game) << " m=" << spec.ranks);
    CHECK(Removed(spec) == brute.removed);
  }
}

TEST_CASE("removed: OEIS A007710(14) and A007709(14)") {
  const std::vector<uint64_t> row = Removed(GameSpec{Game::kMousetrap, 14, 1});
  CHECK(row[1] == 21042127239ULL);  // A007710, n = 14
  CHECK(row[14] == 266242729ULL);   // A007709, n = 14
}

}  // namespace
}  // namespace eulerdeck
