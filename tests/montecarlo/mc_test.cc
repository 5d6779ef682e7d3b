// Monte Carlo (engine/montecarlo/montecarlo.h, engine/base/shuffle.h): intervals against exact
// probabilities (from count/brute and Bersani's tables), coverage over many
// seeds, uniformity of the shuffle, and independence from the thread count.
#include <atomic>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <string>
#include <thread>

#include "engine/base/shuffle.h"
#include "engine/base/stats.h"
#include "engine/cards/brute.h"
#include "engine/cards/combinatorics.h"
#include "engine/montecarlo/montecarlo.h"

namespace eulerdeck {
namespace {

McTally Run(const GameSpec& spec, uint64_t decks, uint64_t seed, int threads = 0,
            bool best_only = false) {
  McOptions o;
  o.seed = seed;
  o.threads = threads;
  o.best_only = best_only;
  McTally t;
  REQUIRE(MonteCarlo(spec, 0, decks, o, &t).ok());
  return t;
}

struct Exact {
  GameSpec spec;
  uint64_t wins;  // winning decks (brute force / Bersani 2010 Tables 2, 4, 5)
};

TEST_CASE("mc: the 95% interval contains the exact probability") {
  const Exact cases[] = {
      {{Game::kMousetrap, 10, 1}, 65503},  // A007709
      {{Game::kMousetrap, 4, 2}, 147},     // Table 4
      {{Game::kModular, 7, 1}, 3186},      // Table 5
      {{Game::kModular, 4, 2}, 1182},      // Table 5
      {{Game::kHlm, 2, 3}, 4},             // Table 2
      {{Game::kHlm, 3, 3}, 4},             // Table 2
  };
  for (const Exact& e : cases) {
    INFO(GameName(e.spec.game) << " m=" << e.spec.ranks << " s=" << e.spec.suits);
    const McTally t = Run(e.spec, 1'000'000, 2026);
    const double p = static_cast<double>(e.wins) / *TotalDecks64(e.spec);
    const Interval ci = Wilson95(t.wins, t.decks);
    CHECK(t.decks == 1'000'000);
    CHECK(ci.low <= p);
    CHECK(p <= ci.high);
  }
}

TEST_CASE("mc: Wilson intervals cover the exact probability about 95% of the time") {
  // modular m=4 s=2: p = 1182/2520. 400 independent runs of 2000 decks
  // (seeds 1..400). Coverage c has a binomial spread of about 1.1% around
  // 95%; the bounds are 4 sigma wide, and the seeds are fixed.
  const GameSpec spec{Game::kModular, 4, 2};
  const double p = 1182.0 / 2520.0;
  int covered = 0;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    const McTally t = Run(spec, 2000, seed, 1);
    const Interval ci = Wilson95(t.wins, t.decks);
    covered += ci.low <= p && p <= ci.high;
  }
  CHECK(covered >= 362);  // 90.5%
  CHECK(covered <= 396);  // 99%
}

TEST_CASE("mc: the shuffle is uniform over the distinct decks (chi-square)") {
  // m=3 s=2: 90 distinct decks; 180,000 shuffles, 2000 expected each.
  // Chi-square with 89 degrees of freedom: 99.9% quantile about 135.
  const GameSpec spec{Game::kHlm, 3, 2};
  const Deck sorted = SortedDeck(spec);
  const DeckShuffler shuffler(12345);
  std::map<std::string, int> seen;
  const int draws = 180'000;
  for (int i = 0; i < draws; ++i) {
    Deck d = sorted;
    shuffler.Shuffle(i, d.data(), static_cast<int>(d.size()));
    ++seen[std::string(d.begin(), d.end())];
  }
  REQUIRE(seen.size() == 90);
  const double expected = draws / 90.0;
  double chi2 = 0;
  for (const auto& [deck, n] : seen) chi2 += (n - expected) * (n - expected) / expected;
  CHECK(chi2 < 135);
  CHECK(chi2 > 50);  // 0.1% quantile about 55: too regular would be wrong too
}

TEST_CASE("mc: same seed, same result, whatever the number of threads") {
  const GameSpec spec{Game::kHlm, 6, 3};
  const McTally a = Run(spec, 300'000, 9, 1);
  const McTally b = Run(spec, 300'000, 9, 2);
  const McTally c = Run(spec, 300'000, 9, 3);
  CHECK(a.wins == b.wins);
  CHECK(a.removed == b.removed);
  CHECK(a.score == c.score);
  CHECK(a.best_score == c.best_score);
  CHECK(a.best_score_deck == c.best_score_deck);
  CHECK(a.best_removed_index == b.best_removed_index);
  // Splitting the index range changes nothing either.
  McOptions o;
  o.seed = 9;
  McTally split;
  REQUIRE(MonteCarlo(spec, 0, 100'000, o, &split).ok());
  REQUIRE(MonteCarlo(spec, 100'000, 200'000, o, &split).ok());
  CHECK(split.score == a.score);
}

TEST_CASE("mc: distributions agree with brute force (hlm m=7 s=1, all 5040 decks)") {
  // Table 3's best score for m=7 is 18 (deck 3 7 1 5 2 6 4); with 200,000
  // random decks every one of the 5040 decks is met many times.
  const GameSpec spec{Game::kHlm, 7, 1};
  const McTally t = Run(spec, 200'000, 77);
  BruteResult brute;
  REQUIRE(Brute(spec, BruteOptions{}, &brute).ok());
  CHECK(t.best_score == 18);
  CHECK(static_cast<int>(brute.score.size()) - 1 == 18);
  for (size_t v = 0; v < brute.score.size(); ++v) {
    INFO("score " << v);
    const double p = static_cast<double>(brute.score[v]) / brute.total_decks;
    const uint64_t k = v < t.score.size() ? t.score[v] : 0;
    // A wide (99.99%) band: 19 scores are checked at once.
    const double sd = std::sqrt(p * (1 - p) / t.decks);
    CHECK(std::abs(static_cast<double>(k) / t.decks - p) <= 4 * sd + 1e-9);
  }
}

TEST_CASE("mc: --best-only finds the same best as a full run") {
  const GameSpec spec{Game::kHlm, 9, 1};
  const McTally full = Run(spec, 400'000, 5);
  const McTally best = Run(spec, 400'000, 5, 0, true);
  CHECK(best.best_score == full.best_score);
  CHECK(best.best_score_index == full.best_score_index);
  CHECK(best.best_score_deck == full.best_score_deck);
  CHECK(full.best_score <= 31);  // Table 3: 31 is the best for m = 9
}

TEST_CASE("mc: Wilson interval of edge cases") {
  const Interval none = Wilson95(0, 100);
  CHECK(none.low == 0.0);
  CHECK(none.high == Approx(0.0370).epsilon(0.01));
  const Interval all = Wilson95(100, 100);
  CHECK(all.high == 1.0);
  CHECK(all.low == Approx(0.9630).epsilon(0.01));
}

TEST_CASE("mc: a stop flag gives Cancelled and the tally of a prefix of whole chunks") {
  const GameSpec spec{Game::kModular, 8, 1};
  std::atomic<bool> stop{true};
  McOptions options;
  options.seed = 3;
  options.stop = &stop;
  McTally before;
  CHECK(MonteCarlo(spec, 0, 1'000'000, options, &before).IsCancelled());
  CHECK(before.decks == 0);
  CHECK(before.wins == 0);

  // Set while running: the decks played are 0..d-1 for a multiple d of the
  // chunk, and the tally is exactly that of a run of d decks (any threads).
  const uint64_t count = 200'000'000;  // many seconds: stopped long before
  stop = false;
  std::atomic<uint64_t> done{0};
  options.threads = 2;
  options.decks_done = &done;
  std::thread watcher([&] {
    while (done.load() < 3 * kMcChunk) std::this_thread::yield();
    stop = true;
  });
  McTally t;
  const Status s = MonteCarlo(spec, 0, count, options, &t);
  watcher.join();
  INFO(s.ToString());
  REQUIRE(s.IsCancelled());
  CHECK(s.message() ==
        "interrupted after " + std::to_string(t.decks) + " of " + std::to_string(count) + " decks");
  CHECK(t.decks % kMcChunk == 0);
  CHECK(t.decks >= 3 * kMcChunk);
  CHECK(t.decks < count);
  CHECK(done.load() == t.decks);
  const McTally same = Run(spec, t.decks, 3, 1);
  CHECK(same.decks == t.decks);
  CHECK(same.wins == t.wins);
  CHECK(same.removed == t.removed);
  CHECK(same.score == t.score);
  CHECK(same.best_score == t.best_score);
  CHECK(same.best_score_index == t.best_score_index);
  CHECK(same.best_removed_index == t.best_removed_index);
  for (int i = 0; i < 3; ++i) CHECK(same.outcomes[i] == t.outcomes[i]);
  CHECK(t.outcomes[0] == t.wins);
  CHECK(t.outcomes[0] + t.outcomes[1] + t.outcomes[2] == t.decks);
}

}  // namespace
}  // namespace eulerdeck
