// The basin descent (engine/reform/basin.h) against the proven optimum: the
// reform statistics (every deck classified) for modular n = 4..10, and the
// optimum they gave at n = 11 (docs/reform-records.md; ReformStats() takes
// ~15 min there), with a fixed amount of work and a seed, so the same on
// any machine. More seeds and n = 12 in basin_slow_test.cc.
#include "engine/reform/basin.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "engine/reform/follow.h"
#include "engine/reform/stats.h"
#include "tests/support/reform_optimum.h"

namespace eulerdeck {
namespace {

ReformScore Optimum(const GameSpec& spec) { return ReformOptimum(spec); }

// Steps of `step` units until `work` units are done.
void Run(ReformMove* move, uint64_t work, uint64_t step = 10000) {
  for (uint64_t done = 0; done < work;) {
    const uint64_t d = move->Step(step);
    REQUIRE(d > 0);
    done += d;
  }
}

// The best deck replays to its score (SequenceFollower, follow.h).
void CheckReplays(const GameSpec& spec, const ReformMove& move) {
  REQUIRE(move.best_deck().size() == static_cast<size_t>(spec.cards()));
  const ReformScore replay = internal::SequenceFollower(spec).Follow(move.best_deck().data());
  CHECK(replay.cyclic == move.best_score().cyclic);
  CHECK(replay.length == move.best_score().length);
  CHECK(replay.preperiod == move.best_score().preperiod);
  CHECK(replay.cycle == move.best_score().cycle);
  BasinCounters c;
  REQUIRE(GetBasinCounters(move, &c));
  CHECK(c.mismatches == 0);
}

TEST_CASE("basin: reaches the optimum on modular n = 4..10", "[reform][basin]") {
  for (int n = 4; n <= 10; ++n) {
    const GameSpec spec{Game::kModular, n, 1};
    INFO("modular n=" << n);
    const ReformScore best = Optimum(spec);
    for (uint64_t seed : {1, 2}) {
      INFO("seed " << seed);
      auto move = MakeBasinMove(spec, seed);
      CHECK(std::string(move->name()) == "basin-descent");
      Run(move.get(), 50000);
      CHECK(move->best_score().cyclic == best.cyclic);
      CHECK(move->best_score().length == best.length);
      CheckReplays(spec, *move);
    }
  }
}

TEST_CASE("basin: reaches the optimum on modular n = 11", "[reform][basin]") {
  // 203 decks, 137 into a cycle of 66 (not the identity's basin); more
  // seeds, and n = 12, in basin_slow_test.cc.
  const GameSpec spec{Game::kModular, 11, 1};
  auto move = MakeBasinMove(spec, 1);
  Run(move.get(), 100000);
  CHECK(move->best_score().cyclic);
  CHECK(move->best_score().length == 203);
  CHECK(move->best_score().cycle == 66);
  CheckReplays(spec, *move);
}

TEST_CASE("basin: a seed and the work repeat a run", "[reform][basin]") {
  const GameSpec spec{Game::kModular, 13, 1};
  auto a = MakeBasinMove(spec, 7), b = MakeBasinMove(spec, 7);
  Run(a.get(), 100000);
  Run(b.get(), 100000);
  CHECK(a->best_deck() == b->best_deck());
  CHECK(a->best_score().length == b->best_score().length);
  CHECK(a->Keep(100) == b->Keep(100));
}

TEST_CASE("basin: Seed(Keep()) resumes at least as well", "[reform][basin]") {
  for (int n : {11, 13, 14}) {
    const GameSpec spec{Game::kModular, n, 1};
    INFO("modular n=" << n);
    auto a = MakeBasinMove(spec, 3);
    Run(a.get(), 100000);
    const std::vector<Deck> kept = a->Keep(1000);
    REQUIRE(!kept.empty());
    CHECK(kept.size() <= 1000);
    CHECK(std::find(kept.begin(), kept.begin() + std::min<size_t>(2, kept.size()),
                    a->best_deck()) != kept.begin() + std::min<size_t>(2, kept.size()));
    CHECK(a->Keep(1).size() == 1);
    CHECK(a->Keep(0).empty());
    auto b = MakeBasinMove(spec, 4);
    b->Seed(kept);
    // Seeding replays the best: it is reported at once.
    CHECK_FALSE(BetterReform(a->best_score(), b->best_score()));
    CheckReplays(spec, *b);
    Run(b.get(), 50000);
    CHECK_FALSE(BetterReform(a->best_score(), b->best_score()));
    CheckReplays(spec, *b);
  }
}

TEST_CASE("basin: Seed ignores decks that are not permutations of the size", "[reform][basin]") {
  const GameSpec spec{Game::kModular, 6, 1};
  auto move = MakeBasinMove(spec, 1);
  move->Seed({Deck{1, 2, 3}, Deck{1, 1, 2, 3, 4, 5}, Deck{1, 2, 3, 4, 5, 7}, Deck{}});
  CHECK(move->best_deck().empty());
  move->Seed({Deck{1, 2, 3, 4, 5, 6}});
  CHECK(move->best_score().cyclic);  // the identity is a fixed point
  CHECK(move->best_score().length == 1);
  CHECK(move->Keep(10).front() == Deck({1, 2, 3, 4, 5, 6}));
}

TEST_CASE("basin: the memory stays within its bound", "[reform][basin]") {
  const GameSpec spec{Game::kModular, 13, 1};
  BasinOptions options;
  options.memory_bytes = size_t{1} << 20;
  options.max_frontier = 5000;
  auto move = MakeBasinMove(spec, 5, options);
  Run(move.get(), 300000);
  BasinCounters c;
  REQUIRE(GetBasinCounters(*move, &c));
  CHECK(c.memory_bytes <= options.memory_bytes);
  CHECK(c.frontier <= options.max_frontier);
  CHECK(c.memory_decks > 0);
  CheckReplays(spec, *move);
}

}  // namespace
}  // namespace eulerdeck
