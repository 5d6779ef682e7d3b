// ReformSearch()'s heuristic moves alone against the proven optimum where
// classifying every deck takes minutes (ctest label `slow`): modular n = 11
// (203 decks, a cycle of 66) and 12 (a cyclic sequence of 7), the sizes of
// seed 001's contest range (n >= 10) beyond the exhaustive phase's reach.
// With n <= 10 modular and n <= 12 mousetrap in search_test.cc, every n <= 12
// of both games is covered.
#include <catch2/catch.hpp>

#include "engine/reform/search.h"
#include "engine/reform/stats.h"

namespace eulerdeck {
namespace {

TEST_CASE("reform-search: the heuristic reaches the optimum at modular n = 11 and 12") {
  for (int n : {11, 12}) {
    const GameSpec spec{Game::kModular, n, 1};
    INFO("modular n=" << n);
    ReformStatsResult stats;
    REQUIRE(ReformStats(spec, ReformStatsOptions{}, &stats).ok());
    // Both sizes have cyclic sequences, so the contest's best is the longest
    // of those.
    REQUIRE(stats.longest_cyclic_sequence.length > 0);
    ReformSearchOptions options;
    options.exhaustive = false;
    options.seconds = 1e6;
    options.max_decks = 400000;  // a fixed amount of work, not of time
    ReformSearchResult r;
    REQUIRE(ReformSearch(spec, options, &r).ok());
    CHECK_FALSE(r.optimal);
    CHECK(r.score.cyclic);
    CHECK(r.score.length == stats.longest_cyclic_sequence.length);
  }
}

}  // namespace
}  // namespace eulerdeck
