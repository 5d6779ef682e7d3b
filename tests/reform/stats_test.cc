// ReformStats() (engine/reform/stats.h) against a brute-force
// classification: every deck of the size followed with Reform()
// (engine/cards/reform.h, the `eulerdeck reform` of one deck), on the sizes
// listed below for the three games (one suit n <= 9; up to 113,400 decks).
// (The seeds' worked sequences are tests of Reform() itself, in
// tests/cards/rules_test.cc.)
#include "engine/reform/stats.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "engine/cards/combinatorics.h"
#include "engine/cards/reform.h"
#include "tests/support/reform_brute.h"

namespace eulerdeck {
namespace {

TEST_CASE("reform-stats: equals following every deck, three games", "[reform]") {
  struct Size {
    int ranks, suits;
  };
  const std::vector<Size> sizes = {{1, 1}, {2, 1}, {3, 1}, {4, 1}, {5, 1}, {6, 1},
                                   {7, 1}, {8, 1}, {9, 1}, {2, 2}, {3, 2}, {4, 2},
                                   {5, 2}, {2, 3}, {3, 3}, {2, 4}, {3, 4}};
  int checked = 0;
  for (Game game : {Game::kMousetrap, Game::kModular, Game::kHlm}) {
    for (const Size& size : sizes) {
      const GameSpec spec{game, size.ranks, size.suits};
      if (!ValidateSpec(spec).ok()) continue;
      INFO(GameName(game) << " m=" << size.ranks << " s=" << size.suits);
      ReformStatsResult fast;
      const Status st = ReformStats(spec, ReformStatsOptions{}, &fast);
      INFO(st.ToString());
      REQUIRE(st.ok());
      testing::ExpectEqualsBruteForce(spec, fast);
      ++checked;
    }
  }
  CHECK(checked >= 45);
}

TEST_CASE("reform-stats: the same on 1 and 2 threads", "[reform]") {
  for (const GameSpec& spec : {GameSpec{Game::kModular, 9, 1}, GameSpec{Game::kHlm, 4, 2}}) {
    ReformStatsOptions one, two;
    one.threads = 1;
    two.threads = 2;
    ReformStatsResult a, b;
    REQUIRE(ReformStats(spec, one, &a).ok());
    REQUIRE(ReformStats(spec, two, &b).ok());
    // Every field, against the same brute force.
    testing::ExpectEqualsBruteForce(spec, a);
    testing::ExpectEqualsBruteForce(spec, b);
  }
}

TEST_CASE("reform-stats: refuses treize", "[reform]") {
  ReformStatsResult r;
  CHECK(ReformStats(GameSpec{Game::kTreize, 4, 1}, ReformStatsOptions{}, &r).IsNotSupported());
}

}  // namespace
}  // namespace eulerdeck
