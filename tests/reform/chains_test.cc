// The chain move (engine/reform/chains.h) against the optimum the reform
// statistics prove, with a fixed amount of work (not of time) and a seed.
#include "engine/reform/chains.h"

#include <catch2/catch.hpp>

#include "engine/reform/follow.h"
#include "engine/reform/stats.h"
#include "tests/support/reform_optimum.h"

namespace eulerdeck {
namespace {

ReformScore Optimum(const GameSpec& spec) { return ReformOptimum(spec); }

// Steps of 100,000 units until `work` is done or the move has covered all it
// can reach.
void Run(ReformMove* move, uint64_t work) {
  for (uint64_t done = 0; done < work;) {
    const uint64_t step = move->Step(std::min<uint64_t>(100000, work - done));
    if (step == 0) break;
    done += step;
  }
}

void CheckReplays(const GameSpec& spec, const ReformMove& move) {
  REQUIRE_FALSE(move.best_deck().empty());
  const ReformScore s = internal::SequenceFollower(spec).Follow(move.best_deck().data());
  CHECK(s.cyclic == move.best_score().cyclic);
  CHECK(s.length == move.best_score().length);
}

TEST_CASE("chains: the move reaches the optimum at mousetrap n = 5..12", "[reform]") {
  for (int n = 5; n <= 12; ++n) {
    const GameSpec spec{Game::kMousetrap, n, 1};
    INFO("mousetrap n=" << n);
    auto move = MakeChainMove(spec, 1);
    CHECK(std::string(move->name()) == "chains");
    Run(move.get(), n <= 11 ? 500000 : 4000000);
    const ReformScore best = Optimum(spec);
    CHECK(move->best_score().cyclic == best.cyclic);
    CHECK(move->best_score().length == best.length);
    CheckReplays(spec, *move);
  }
}

TEST_CASE("chains: a seed and the steps repeat a run, and Seed(Keep()) keeps the best",
          "[reform]") {
  const GameSpec spec{Game::kMousetrap, 13, 1};
  auto a = MakeChainMove(spec, 7);
  auto b = MakeChainMove(spec, 7);
  Run(a.get(), 300000);
  Run(b.get(), 300000);
  CHECK(a->best_deck() == b->best_deck());
  CHECK(a->best_score().length == b->best_score().length);
  CHECK(a->best_score().length >= 4);
  CheckReplays(spec, *a);

  const std::vector<Deck> kept = a->Keep(8);
  REQUIRE_FALSE(kept.empty());
  CHECK(kept.size() <= 8);
  CHECK(kept.front() == a->best_deck());
  auto c = MakeChainMove(spec, 99);
  c->Seed(kept);
  CHECK_FALSE(BetterReform(a->best_score(), c->best_score()));
  Run(c.get(), 10000);
  CHECK_FALSE(BetterReform(a->best_score(), c->best_score()));
  CheckReplays(spec, *c);
  // Wrong decks are ignored.
  auto d = MakeChainMove(spec, 1);
  d->Seed({Deck{1, 2, 3}, Deck(13, 1)});
  CHECK(d->best_deck().empty());
}

}  // namespace
}  // namespace eulerdeck
