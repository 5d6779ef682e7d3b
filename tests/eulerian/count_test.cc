// The eulerian enumerator (engine/eulerian/enumerate.h) against forward brute force
// and against the published counts. Sources: OEIS A007709 (mousetrap, one
// suit); A. M. Bersani, "An eulerian approach to a class of matching
// problems" (Bersani 2010), Tables 2, 4, 5. The expensive entries are in
// count_slow_test.cc (ctest label `slow`).
#include <atomic>
#include <catch2/catch.hpp>
#include <thread>

#include "engine/base/thousands.h"
#include "engine/cards/brute.h"
#include "engine/cards/combinatorics.h"
#include "engine/eulerian/enumerate.h"
#include "tests/support/paper_faithful.h"
#include "tests/support/published.h"

namespace eulerdeck {
namespace {

CountResult RunCount(const GameSpec& spec, bool verify, int threads = 0) {
  CountOptions options;
  options.threads = threads;
  options.verify_leaves = verify;
  CountResult r;
  const Status s = Count(spec, options, &r);
  INFO(s.ToString());
  REQUIRE(s.ok());
  return r;
}

// Every (game, m, s) with at most `max_decks` decks.
std::vector<GameSpec> SmallSpecs(uint64_t max_decks) {
  std::vector<GameSpec> specs;
  for (Game g : {Game::kMousetrap, Game::kModular, Game::kHlm}) {
    for (int s = 1; s <= 16; ++s) {
      for (int m = (g == Game::kHlm ? 2 : 1); m * s <= 64; ++m) {
        const GameSpec spec{g, m, s};
        const auto total = TotalDecks64(spec);
        if (!total || *total > max_decks) break;
        specs.push_back(spec);
      }
    }
  }
  return specs;
}

TEST_CASE("count equals brute force for every game and (m, s) with <= 2e7 decks") {
  const std::vector<GameSpec> specs = SmallSpecs(20'000'000);
  REQUIRE(specs.size() > 60);
  for (const GameSpec& spec : specs) {
    INFO(GameName(spec.game) << " m=" << spec.ranks << " s=" << spec.suits);
    BruteResult brute;
    REQUIRE(Brute(spec, BruteOptions{}, &brute).ok());
    // With --verify-leaves every winning deck is built and replayed forward;
    // without it the last two levels are counted, not built. Both must agree.
    const CountResult verified = RunCount(spec, true);
    const CountResult fast = RunCount(spec, false);
    CHECK(verified.winning() == brute.winning_decks);
    CHECK(verified.leaves_verified == brute.winning_decks);
    CHECK(fast.level == verified.level);
  }
}

TEST_CASE("count equals brute force level by level (winning sub-decks of k cards)") {
  for (const GameSpec& spec : SmallSpecs(4'000'000)) {
    INFO(GameName(spec.game) << " m=" << spec.ranks << " s=" << spec.suits);
    std::vector<uint64_t> levels;
    REQUIRE(BruteLevels(spec, BruteOptions{}, &levels).ok());
    CHECK(RunCount(spec, false).level == levels);
  }
}

TEST_CASE("count equals the paper-faithful procedure (rebuild and replay) level by level") {
  // An independent method: tests/support/paper_faithful.cc rebuilds each
  // candidate string into a sub-deck and replays it (Bersani §4).
  const GameSpec specs[] = {
      {Game::kMousetrap, 8, 1}, {Game::kMousetrap, 4, 2}, {Game::kMousetrap, 3, 3},
      {Game::kHlm, 10, 2},      {Game::kHlm, 6, 3},       {Game::kHlm, 4, 4},
      {Game::kHlm, 3, 5},       {Game::kHlm, 8, 1},
  };
  for (const GameSpec& spec : specs) {
    INFO(GameName(spec.game) << " m=" << spec.ranks << " s=" << spec.suits);
    CHECK(RunCount(spec, false).level == bench::PaperFaithfulLevels(spec));
  }
}

TEST_CASE("count reproduces the published counts (fast entries)") {
  for (const Published& p : PublishedCounts()) {
    if (p.seconds > 2.0) continue;  // the rest run under the `slow` label
    INFO(p.source << ": " << GameName(p.game) << " m=" << p.ranks << " s=" << p.suits);
    CHECK(RunCount(GameSpec{p.game, p.ranks, p.suits}, false).winning() == p.winning);
  }
}

TEST_CASE("count does not depend on the number of threads") {
  for (const GameSpec spec : {GameSpec{Game::kMousetrap, 11, 1}, GameSpec{Game::kModular, 5, 2},
                              GameSpec{Game::kHlm, 11, 2}}) {
    INFO(GameName(spec.game) << " m=" << spec.ranks << " s=" << spec.suits);
    const CountResult one = RunCount(spec, false, 1);
    CHECK(RunCount(spec, false, 2).level == one.level);
    CHECK(RunCount(spec, false, 3).level == one.level);
    CHECK(one.nodes == RunCount(spec, false, 2).nodes);
  }
}

TEST_CASE("count: hlm s=2 levels of Proposition 4.1 for larger m") {
  // Bersani, Prop. 4.1, with no bound on the values (m >= 10): 4 four-strings,
  // 3 five-strings, 1 six-string, 2 seven-, 4 eight-, 9 nine-strings. The
  // paper says 21 ten-strings; forward play of all 3,958,113,600 sequences of
  // ten cards finds 20 (docs/errata.md).
  const CountResult r = RunCount(GameSpec{Game::kHlm, 10, 2}, false);
  CHECK(r.level[4] == 4);
  CHECK(r.level[5] == 3);
  CHECK(r.level[6] == 1);
  CHECK(r.level[7] == 2);
  CHECK(r.level[8] == 4);
  CHECK(r.level[9] == 9);
  CHECK(r.level[10] == 20);
}

TEST_CASE("count refuses what it cannot enumerate") {
  CountResult r;
  CHECK(Count(GameSpec{Game::kMousetrap, 65, 1}, CountOptions{}, &r).IsOutOfRange());
  CHECK(Count(GameSpec{Game::kMousetrap, 13, 5}, CountOptions{}, &r).IsOutOfRange());
  CHECK(Count(GameSpec{Game::kHlm, 1, 3}, CountOptions{}, &r).IsInvalidArgument());
}

TEST_CASE("count: a stop flag gives Cancelled, saying how far it got") {
  const GameSpec spec{Game::kMousetrap, 13, 1};  // seconds of work: stopped long before
  std::atomic<bool> stop{true};
  CountOptions options;
  options.stop = &stop;
  CountResult r;
  Status s = Count(spec, options, &r);
  CHECK(s.IsCancelled());

  // Set while running: once the subtrees are handed out.
  stop = false;
  std::atomic<uint64_t> done{0}, total{0};
  options.threads = 1;
  options.tasks_done = &done;
  options.tasks_total = &total;
  std::thread watcher([&] {
    while (total.load() == 0) std::this_thread::yield();
    stop = true;
  });
  s = Count(spec, options, &r);
  watcher.join();
  INFO(s.ToString());
  REQUIRE(s.IsCancelled());
  CHECK(s.message().find("interrupted after " + GroupThousands(done.load()) + " of " +
                         GroupThousands(total.load()) + " subtrees (") == 0);
  CHECK(done.load() < total.load());

  // Not set: the count is unchanged (A007709), and the live counter of
  // sub-decks ends at the number of nodes.
  stop = false;
  options.threads = 0;
  std::atomic<uint64_t> counted{0};
  options.sub_decks_counted = &counted;
  REQUIRE(Count(GameSpec{Game::kMousetrap, 10, 1}, options, &r).ok());
  CHECK(r.winning() == 65503);
  CHECK(counted.load() == r.nodes);
}

// The flag is also polled inside a subtree; a walk it cuts short must never
// be taken for a finished one. Set during the last subtree: either that
// subtree finished first (OK, and the exact count), or Cancelled.
TEST_CASE("count: a stop inside the last subtree never gives a wrong count") {
  const GameSpec spec{Game::kMousetrap, 12, 1};
  for (int trial = 0; trial < 3; ++trial) {
    std::atomic<bool> stop{false};
    std::atomic<uint64_t> done{0}, total{0};
    CountOptions options;
    options.threads = 1;
    options.stop = &stop;
    options.tasks_done = &done;
    options.tasks_total = &total;
    std::thread watcher([&] {
      while (total.load() == 0 || done.load() + 1 < total.load()) std::this_thread::yield();
      stop = true;
    });
    CountResult r;
    const Status s = Count(spec, options, &r);
    watcher.join();
    INFO(s.ToString());
    if (s.ok()) {
      CHECK(r.winning() == 3674670);  // OEIS A007709(12)
    } else {
      CHECK(s.IsCancelled());
    }
  }
}

}  // namespace
}  // namespace eulerdeck
