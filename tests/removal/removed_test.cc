// CountRemoved() (engine/removal/removed.h): the decks by number of cards
// removed. Checked against brute force (every deck played forward) on every
// size of every game with at most 10^7 decks, against OEIS A028305's
// published rows and A007710's published terms, against the published
// winning-deck counts (the distribution's last column), and, for modular and
// hlm, column 0 against the rook-polynomial count of multiset derangements.
#include "engine/removal/removed.h"

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/cards/brute.h"
#include "engine/cards/combinatorics.h"
#include "tests/support/published.h"
#include "tests/support/rook_wins.h"

namespace eulerdeck {
namespace {

// count --removed with these options (level_entries 0: the default).
RemovedResult CountWith(const GameSpec& spec, int depth, int threads, bool baseline,
                        uint64_t level_entries = 0) {
  RemovedOptions options;
  options.split_depth = depth;
  options.threads = threads;
  options.baseline = baseline;
  options.level_entries = level_entries;
  RemovedResult r;
  const Status s = CountRemoved(spec, options, &r);
  INFO(s.ToString());
  REQUIRE(s.ok());
  return r;
}

std::vector<uint64_t> Removed(const GameSpec& spec, int split_depth = 0, int threads = 0) {
  const RemovedResult r = CountWith(spec, split_depth, threads, /*baseline=*/false);
  REQUIRE(r.total_decks == *TotalDecks64(spec));
  return r.removed;
}

std::string Name(const GameSpec& spec) {
  return std::string(GameName(spec.game)) + " m=" + std::to_string(spec.ranks) +
         " s=" + std::to_string(spec.suits);
}

// OEIS A028305, "Triangle of numbers of permutations eliminating just k
// cards out of n in game of Mousetrap", rows n = 1..10 as its data section
// publishes them (T(n, k), k = 0..n).
const std::vector<std::vector<uint64_t>> kA028305 = {
    {0, 1},
    {1, 0, 1},
    {2, 2, 0, 2},
    {9, 6, 3, 0, 6},
    {44, 31, 19, 11, 0, 15},
    {265, 180, 105, 54, 32, 0, 84},
    {1854, 1255, 771, 411, 281, 138, 0, 330},
    {14833, 9949, 6052, 3583, 2057, 1366, 668, 0, 1812},
    {133496, 89162, 55340, 32135, 19026, 12685, 6753, 4305, 0, 9978},
    {1334961, 886837, 547922, 331930, 193538, 117323, 79291, 45536, 25959, 0, 65503},
};

// OEIS A007710, "Number of permutations of n cards in which only 1 card is
// removed" in Mousetrap (= A028305's column k = 1), n = 1..14.
const std::vector<uint64_t> kA007710 = {
    1, 0, 2, 6, 31, 180, 1255, 9949, 89162, 886837, 9722814, 116236256, 1507191024, 21042127239};

TEST_CASE("removed: equals brute force on every size with at most 10^7 decks", "[removed]") {
  int cases = 0;
  for (Game game : {Game::kMousetrap, Game::kModular, Game::kHlm}) {
    for (int suits = 1; suits <= 4; ++suits) {
      for (int ranks = (game == Game::kHlm ? 2 : 1);; ++ranks) {
        const GameSpec spec{game, ranks, suits};
        const std::optional<uint64_t> total = TotalDecks64(spec);
        if (!total || *total > 10'000'000) break;
        BruteResult brute;
        REQUIRE(Brute(spec, BruteOptions{}, &brute).ok());
        INFO(Name(spec));
        CHECK(Removed(spec) == brute.removed);
        ++cases;
      }
    }
  }
  CHECK(cases >= 60);
}

TEST_CASE("removed: OEIS A028305 rows 1..10 and A007710 to n = 13", "[removed]") {
  for (size_t i = 0; i < kA028305.size(); ++i) {
    const GameSpec spec{Game::kMousetrap, static_cast<int>(i + 1), 1};
    INFO(Name(spec));
    CHECK(Removed(spec) == kA028305[i]);
  }
  for (int n = 1; n <= 13; ++n) {
    INFO("A007710(" << n << ")");
    CHECK(Removed(GameSpec{Game::kMousetrap, n, 1})[1] == kA007710[n - 1]);
  }
}

TEST_CASE("removed: the last column is the published count of winning decks", "[removed]") {
  // hlm is left out: a deck that stores all but one card wins only when
  // that card is a 2.
  for (const Published& p : PublishedCounts()) {
    if (p.game == Game::kHlm || p.seconds > 2) continue;
    const GameSpec spec{p.game, p.ranks, p.suits};
    const std::optional<uint64_t> total = TotalDecks64(spec);
    if (!total || *total > 500'000'000ULL) continue;
    INFO(p.source << " " << Name(spec));
    CHECK(Removed(spec).back() == p.winning);
  }
}

// Modular and hlm remove (store) no card exactly when no card is ever named
// by the count, i.e. value v sits at none of the positions v, v + m, ...:
// the multiset derangements, Treize's winning decks, which the rook
// polynomials of Dundee's advance bids count in closed form (treize_test.cc;
// OEIS A000166, A000459, A059074). Past brute force's 10^7 decks, up to
// hlm s = 2 m = 7's 6.8·10^8. Mousetrap is left out: its count stops at m.
TEST_CASE("removed: column 0 of modular and hlm is the multiset derangements", "[removed]") {
  for (const GameSpec& spec : {GameSpec{Game::kModular, 11, 1}, GameSpec{Game::kHlm, 7, 2},
                               GameSpec{Game::kHlm, 5, 3}, GameSpec{Game::kHlm, 4, 4}}) {
    INFO(Name(spec));
    CHECK(mpz_class(std::to_string(Removed(spec)[0])) == RookWins(spec));
  }
  // A059074(4) = 748,521, published: the same count on 4 suits.
  CHECK(Removed(GameSpec{Game::kHlm, 4, 4})[0] == 748521);
}

TEST_CASE("removed: every split depth and thread count gives the same rows", "[removed]") {
  for (const GameSpec& spec : {GameSpec{Game::kMousetrap, 11, 1}, GameSpec{Game::kModular, 10, 1},
                               GameSpec{Game::kHlm, 5, 2}, GameSpec{Game::kMousetrap, 5, 2}}) {
    INFO(Name(spec));
    const std::vector<uint64_t> first = Removed(spec, 1, 1);
    for (int depth = 2; depth <= 5; ++depth) CHECK(Removed(spec, depth, 2) == first);
  }
}

// The plan (PlanRemoved) that a resumable count hands out in pieces: its
// tasks counted in any ranges, in any order, and added to top(), are the
// rows of CountRemoved(); the same spec and depth always give the same
// fingerprint, another depth or game another one.
TEST_CASE("removed: a plan's tasks in ranges add up to the rows", "[removed]") {
  const std::vector<GameSpec> specs = {
      GameSpec{Game::kMousetrap, 9, 1}, GameSpec{Game::kModular, 8, 1},
      GameSpec{Game::kMousetrap, 4, 2}, GameSpec{Game::kHlm, 4, 2}};
  for (const GameSpec& spec : specs) {
    for (int depth : {1, 2, 3}) {
      INFO(Name(spec) << " depth " << depth);
      RemovedOptions options;
      options.split_depth = depth;
      std::unique_ptr<RemovedPlan> plan;
      REQUIRE(PlanRemoved(spec, options, &plan).ok());
      REQUIRE(plan->split_depth() == depth);
      const uint64_t tasks = plan->tasks();
      REQUIRE(tasks > 0);
      // Ranges of 3 from the end backwards, then the last partial one.
      std::vector<uint64_t> sum = plan->top();
      uint64_t first = tasks;
      while (first > 0) {
        const uint64_t count = first >= 3 ? 3 : first;
        first -= count;
        REQUIRE(plan->CountTasks(first, count, &sum).ok());
      }
      CHECK(sum == Removed(spec, depth, 1));
      std::unique_ptr<RemovedPlan> again;
      REQUIRE(PlanRemoved(spec, options, &again).ok());
      CHECK(again->fingerprint() == plan->fingerprint());
      options.split_depth = depth + 1;
      REQUIRE(PlanRemoved(spec, options, &again).ok());
      CHECK(again->fingerprint() != plan->fingerprint());
      std::vector<uint64_t> out;
      CHECK(plan->CountTasks(tasks, 1, &out).IsOutOfRange());
      CHECK(plan->CountTasks(tasks, 0, &out).ok());
      std::atomic<bool> stop{true};
      CHECK(plan->CountTasks(0, 1, &out, &stop).IsCancelled());
    }
  }
  std::unique_ptr<RemovedPlan> a, b;
  REQUIRE(PlanRemoved(GameSpec{Game::kMousetrap, 9, 1}, RemovedOptions{}, &a).ok());
  REQUIRE(PlanRemoved(GameSpec{Game::kModular, 9, 1}, RemovedOptions{}, &b).ok());
  CHECK(a->fingerprint() != b->fingerprint());
}

// The one-suit solver's fast path (issue 43: only the counts that name a
// value left, the permanents of 4 to 6 cards from a table, the table of
// 4-card plays) against its path before issue 43 (options.baseline), past
// the sizes brute force reaches.
TEST_CASE("removed: the one-suit solver equals its baseline path", "[removed]") {
  for (const GameSpec& spec : {GameSpec{Game::kMousetrap, 11, 1}, GameSpec{Game::kModular, 10, 1},
                               GameSpec{Game::kMousetrap, 5, 1}, GameSpec{Game::kModular, 5, 1}}) {
    INFO(Name(spec));
    RemovedOptions options;
    options.baseline = true;
    RemovedResult base, fast;
    REQUIRE(CountRemoved(spec, options, &base).ok());
    CHECK(std::string(base.method) == "leaf-table-baseline");
    options.baseline = false;
    REQUIRE(CountRemoved(spec, options, &fast).ok());
    CHECK(std::string(fast.method) == "leaf-table");
    CHECK(fast.removed == base.removed);
  }
}

// The one-suit solver counts the plays of 5 and 4 cards level by level
// (issue 50): gathered over a range of tasks, merged and counted once each.
// Its rows against brute force and its path before issue 43, for several
// split depths, threads and sizes of the gathered levels (small ones make
// a level be counted many times within a range), and a plan's tasks in
// ranges of several sizes, the ranges' sums against each task alone.
TEST_CASE("removed: one suit level by level equals brute force and the baseline", "[removed]") {
  for (Game game : {Game::kMousetrap, Game::kModular}) {
    for (int n = 5; n <= 10; ++n) {
      const GameSpec spec{game, n, 1};
      BruteResult brute;
      REQUIRE(Brute(spec, BruteOptions{}, &brute).ok());
      for (int depth : {1, 3, std::min(5, n - 4)}) {
        if (depth > n - 4) continue;
        for (int threads : {1, 2}) {
          for (uint64_t entries : {uint64_t{0}, uint64_t{7}, uint64_t{1000}}) {
            if (entries == 7 && n > 8) continue;  // the time of the test
            INFO(Name(spec) << " depth " << depth << " threads " << threads << " entries "
                            << entries);
            const RemovedResult r = CountWith(spec, depth, threads, false, entries);
            CHECK(std::string(r.method) == "leaf-table");
            CHECK(r.removed == brute.removed);
          }
        }
      }
    }
  }
  for (const GameSpec& spec : {GameSpec{Game::kMousetrap, 11, 1}, GameSpec{Game::kMousetrap, 12, 1},
                               GameSpec{Game::kModular, 10, 1}}) {
    const std::vector<uint64_t> base = CountWith(spec, 0, 2, true).removed;
    for (int depth : {1, 3, 5}) {
      for (int threads : {1, 2}) {
        if (spec.ranks == 12 && (threads == 1 || depth != 3)) continue;  // the time of the test
        INFO(Name(spec) << " depth " << depth << " threads " << threads);
        CHECK(CountWith(spec, depth, threads, false).removed == base);
      }
    }
    INFO(Name(spec) << " small levels");
    CHECK(CountWith(spec, 3, 2, false, 4096).removed == base);
  }
}

TEST_CASE("removed: one suit ranges of tasks count exactly their own share", "[removed]") {
  for (const GameSpec& spec : {GameSpec{Game::kMousetrap, 10, 1}, GameSpec{Game::kModular, 9, 1},
                               GameSpec{Game::kMousetrap, 6, 1}}) {
    for (int depth : {1, 2, 3}) {
      for (uint64_t entries : {uint64_t{0}, uint64_t{5}}) {
        INFO(Name(spec) << " depth " << depth << " entries " << entries);
        RemovedOptions options;
        options.split_depth = depth;
        options.level_entries = entries;
        std::unique_ptr<RemovedPlan> plan;
        REQUIRE(PlanRemoved(spec, options, &plan).ok());
        const uint64_t tasks = plan->tasks();
        const std::vector<uint64_t> rows = CountWith(spec, depth, 1, false).removed;
        // Each task alone, then ranges of 1, 2, 7 and all tasks, from the end
        // backwards: every sum is the rows less top().
        std::vector<std::vector<uint64_t>> single(tasks);
        for (uint64_t i = 0; i < tasks; ++i) REQUIRE(plan->CountTasks(i, 1, &single[i]).ok());
        for (uint64_t size : {uint64_t{1}, uint64_t{2}, uint64_t{7}, tasks}) {
          std::vector<uint64_t> sum = plan->top();
          uint64_t first = tasks;
          while (first > 0) {
            const uint64_t count = std::min(first, size);
            first -= count;
            std::vector<uint64_t> part, parts(spec.cards() + 1, 0);
            REQUIRE(plan->CountTasks(first, count, &part).ok());
            for (uint64_t i = first; i < first + count; ++i) {
              for (size_t k = 0; k < single[i].size(); ++k) parts[k] += single[i][k];
            }
            CHECK(part == parts);
            REQUIRE(plan->CountTasks(first, count, &sum).ok());
          }
          CHECK(sum == rows);
        }
        // A range cancelled midway adds nothing the next range keeps.
        std::atomic<bool> stop{true};
        std::vector<uint64_t> out;
        CHECK(plan->CountTasks(0, tasks, &out, &stop).IsCancelled());
        std::vector<uint64_t> again = plan->top();
        REQUIRE(plan->CountTasks(0, tasks, &again).ok());
        CHECK(again == rows);
      }
    }
  }
}

TEST_CASE("removed: refuses games that remove nothing and sizes past 2^64 decks", "[removed]") {
  RemovedResult r;
  CHECK(CountRemoved(GameSpec{Game::kTreize, 5, 1}, RemovedOptions{}, &r).IsNotSupported());
  CHECK(CountRemoved(GameSpec{Game::kMousetrap, 13, 4}, RemovedOptions{}, &r).IsOutOfRange());
  CHECK(CountRemoved(GameSpec{Game::kHlm, 1, 1}, RemovedOptions{}, &r).IsInvalidArgument());
}

}  // namespace
}  // namespace eulerdeck
