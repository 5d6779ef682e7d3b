// The chain move (engine/reform/chains.h) against the proven optima at
// mousetrap n = 13..16 (ctest label `slow`): 5 decks at 13, 14 and 15, 6 at
// 16 (one deck only: 1 16 12 15 6 8 14 10 9 3 4 11 13 2 7 5; reform-stats,
// docs/results.md). A fixed amount of work (not of time) and seed 1: about
// 10, 6, 20 and 100 seconds on one core.
#include <catch2/catch.hpp>

#include "engine/reform/chains.h"
#include "engine/reform/follow.h"

namespace eulerdeck {
namespace {

TEST_CASE("chains: the move reaches the optimum at mousetrap n = 13..16") {
  struct Case {
    int n;
    uint64_t length;
    uint64_t work;
  };
  for (const Case& c : {Case{13, 5, 30000000}, Case{14, 5, 20000000}, Case{15, 5, 80000000},
                        Case{16, 6, 300000000}}) {
    const GameSpec spec{Game::kMousetrap, c.n, 1};
    INFO("mousetrap n=" << c.n);
    auto move = MakeChainMove(spec, 1);
    for (uint64_t done = 0; done < c.work && move->best_score().length < c.length;) {
      const uint64_t step = move->Step(100000);
      if (step == 0) break;
      done += step;
    }
    CHECK_FALSE(move->best_score().cyclic);
    CHECK(move->best_score().length == c.length);
    const ReformScore s = internal::SequenceFollower(spec).Follow(move->best_deck().data());
    CHECK(s.length == move->best_score().length);
  }
}

}  // namespace
}  // namespace eulerdeck
