// The basin descent (engine/reform/basin.h) against the proven optimum of
// modular n = 11 and 12 (ctest label `slow`): 203 decks into a cycle of 66,
// and 7 decks into a cycle (a 9-deck dead end exists and loses), as
// reform-stats gave them (docs/reform-records.md; search_slow_test.cc checks
// ReformStats() itself at these sizes). Eight seeds each, a fixed amount of
// work (the slowest seed needs ~350,000 units at n = 12).
#include <catch2/catch.hpp>

#include "engine/reform/basin.h"
#include "engine/reform/follow.h"

namespace eulerdeck {
namespace {

TEST_CASE("basin: reaches the optimum on modular n = 11 and 12, eight seeds") {
  struct Case {
    int n;
    uint64_t length;
  };
  for (const Case& c : {Case{11, 203}, Case{12, 7}}) {
    const GameSpec spec{Game::kModular, c.n, 1};
    for (uint64_t seed = 1; seed <= 8; ++seed) {
      INFO("modular n=" << c.n << " seed " << seed);
      auto move = MakeBasinMove(spec, seed);
      for (uint64_t done = 0; done < 1000000;) done += move->Step(10000);
      CHECK(move->best_score().cyclic);
      CHECK(move->best_score().length == c.length);
      const ReformScore replay = internal::SequenceFollower(spec).Follow(move->best_deck().data());
      CHECK(replay.cyclic);
      CHECK(replay.length == c.length);
    }
  }
}

}  // namespace
}  // namespace eulerdeck
