// ReformSearch() (engine/reform/search.h) against the optimum the reform
// statistics prove (every deck classified): the contest's best entry, a
// cyclic sequence if any deck has one, else the longest.
#include "engine/reform/search.h"

#include <catch2/catch.hpp>

#include "engine/reform/stats.h"
#include "tests/support/reform_optimum.h"

namespace eulerdeck {
namespace {

ReformScore Optimum(const GameSpec& spec) { return ReformOptimum(spec); }

TEST_CASE("reform-search: the exhaustive phase gives the optimum, both games", "[reform]") {
  for (Game game : {Game::kMousetrap, Game::kModular}) {
    for (int n = 2; n <= 9; ++n) {
      const GameSpec spec{game, n, 1};
      INFO(GameName(game) << " n=" << n);
      ReformSearchResult r;
      REQUIRE(ReformSearch(spec, ReformSearchOptions{}, &r).ok());
      const ReformScore best = Optimum(spec);
      CHECK(r.optimal);
      CHECK(r.score.cyclic == best.cyclic);
      CHECK(r.score.length == best.length);
    }
  }
}

// The heuristic moves alone, a fixed amount of work (not of time: the same
// on any machine), seeded.
TEST_CASE("reform-search: the heuristic moves alone reach the optimum", "[reform]") {
  struct Case {
    Game game;
    int n;
    uint64_t decks;
  };
  for (const Case& c : {Case{Game::kModular, 4, 100000}, Case{Game::kModular, 5, 100000},
                        Case{Game::kModular, 6, 100000}, Case{Game::kModular, 7, 100000},
                        Case{Game::kModular, 8, 100000}, Case{Game::kModular, 9, 200000},
                        Case{Game::kModular, 10, 200000}, Case{Game::kMousetrap, 5, 100000},
                        Case{Game::kMousetrap, 6, 100000}, Case{Game::kMousetrap, 7, 200000},
                        Case{Game::kMousetrap, 8, 400000}, Case{Game::kMousetrap, 9, 1000000},
                        Case{Game::kMousetrap, 10, 1000000}, Case{Game::kMousetrap, 11, 1000000},
                        Case{Game::kMousetrap, 12, 1000000}}) {
    const GameSpec spec{c.game, c.n, 1};
    INFO(GameName(c.game) << " n=" << c.n);
    ReformSearchOptions options;
    options.exhaustive = false;
    options.seconds = 1e6;
    options.max_decks = c.decks;
    ReformSearchResult r;
    REQUIRE(ReformSearch(spec, options, &r).ok());
    const ReformScore best = Optimum(spec);
    CHECK_FALSE(r.optimal);
    CHECK(r.score.cyclic == best.cyclic);
    CHECK(r.score.length == best.length);
  }
}

TEST_CASE("reform-search: a seed and a thread count repeat a run", "[reform]") {
  ReformSearchOptions options;
  options.exhaustive = false;
  options.seconds = 1e6;
  options.max_decks = 200000;
  options.threads = 2;
  options.seed = 7;
  ReformSearchResult a, b;
  REQUIRE(ReformSearch(GameSpec{Game::kMousetrap, 11, 1}, options, &a).ok());
  REQUIRE(ReformSearch(GameSpec{Game::kMousetrap, 11, 1}, options, &b).ok());
  CHECK(a.deck == b.deck);
  CHECK(a.thread == b.thread);
  CHECK(a.found_after == b.found_after);
  CHECK(a.decks_followed == b.decks_followed);
  CHECK(a.score.length >= 4);
}

}  // namespace
}  // namespace eulerdeck
