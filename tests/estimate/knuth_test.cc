// The tree estimator (engine/estimate/knuth.h) against exact counts
// (Count(), engine/eulerian/enumerate.h, itself checked against brute
// force): unbiased within its error, its 95% intervals covering the exact
// value about as often as they claim, the same on any thread count.
#include "engine/estimate/knuth.h"

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <thread>
#include <vector>

#include "engine/base/stats.h"
#include "engine/eulerian/children.h"
#include "engine/eulerian/enumerate.h"
#include "engine/eulerian/subtrees.h"

namespace eulerdeck {
namespace {

CountResult Exact(const GameSpec& spec) {
  CountResult r;
  REQUIRE(Count(spec, CountOptions{}, &r).ok());
  return r;
}

const std::vector<GameSpec> kSmall = {{Game::kMousetrap, 8, 1}, {Game::kMousetrap, 4, 2},
                                      {Game::kMousetrap, 3, 3}, {Game::kModular, 8, 1},
                                      {Game::kModular, 4, 2},   {Game::kModular, 3, 3},
                                      {Game::kHlm, 9, 1},       {Game::kHlm, 5, 2},
                                      {Game::kHlm, 3, 3},       {Game::kHlm, 2, 4}};

// Widths 3 and 8 thin the population on most games here; where the tree is
// narrower (hlm 3x3 and 2x4 at width 8) or has no winning deck (hlm 9x1,
// 5x2) the estimate is exact, which the check holds too.
TEST_CASE("estimate: every level within 4.5 standard errors of the exact count", "[estimate]") {
  for (const GameSpec& spec : kSmall) {
    const CountResult exact = Exact(spec);
    for (int exact_levels : {0, 2, 4})
      for (bool lookahead : {false, true})
        for (uint32_t width : {1, 3, 8}) {
          if (exact_levels >= spec.cards()) continue;
          EstimateOptions options;
          options.samples = 20000 / width;
          options.seed = 11;
          options.exact_levels = exact_levels;
          options.lookahead = lookahead;
          options.width = width;
          EstimateResult r;
          REQUIRE(Estimate(spec, options, &r).ok());
          for (int j = 1; j <= spec.cards(); ++j) {
            INFO(GameName(spec.game)
                 << " m=" << spec.ranks << " s=" << spec.suits << " exact levels " << exact_levels
                 << " lookahead " << lookahead << " width " << width << " level " << j << ": "
                 << r.level[j].mean << " +- " << r.level[j].std_error << ", exact "
                 << exact.level[j]);
            const double err = std::fabs(r.level[j].mean - static_cast<double>(exact.level[j]));
            CHECK(err <= 4.5 * r.level[j].std_error + 1e-9 * exact.level[j]);
          }
          // Level 1 is known: every descent starts with the roots.
          CHECK(r.level[1].std_error == 0);
        }
  }
}

TEST_CASE("estimate: counted exactly below the root, hlm's single root gives the exact count",
          "[estimate]") {
  const GameSpec spec{Game::kHlm, 6, 2};
  const CountResult exact = Exact(spec);
  EstimateOptions options;
  options.samples = 10;
  options.exact_levels = spec.cards() - 1;
  EstimateResult r;
  REQUIRE(Estimate(spec, options, &r).ok());
  for (int j = 1; j <= spec.cards(); ++j) {
    CHECK(r.level[j].mean == static_cast<double>(exact.level[j]));
    CHECK(r.level[j].std_error == 0);
  }
}

TEST_CASE("estimate: a population as wide as the tree counts it exactly", "[estimate]") {
  for (const GameSpec& spec : kSmall) {
    const CountResult exact = Exact(spec);
    uint64_t widest = 0;
    for (int j = 1; j <= spec.cards(); ++j) widest = std::max(widest, exact.level[j]);
    for (bool lookahead : {false, true}) {
      EstimateOptions options;
      options.samples = 3;
      options.exact_levels = 0;
      options.lookahead = lookahead;
      options.width = static_cast<uint32_t>(widest);
      EstimateResult r;
      REQUIRE(Estimate(spec, options, &r).ok());
      for (int j = 1; j <= spec.cards(); ++j) {
        INFO(GameName(spec.game) << " m=" << spec.ranks << " s=" << spec.suits << " level " << j);
        CHECK(r.level[j].mean == static_cast<double>(exact.level[j]));
        CHECK(r.level[j].std_error == 0);
      }
      // Narrower: the levels up to the first wider than the population
      // are still exact (made from complete populations), not the next.
      options.width = static_cast<uint32_t>(std::max<uint64_t>(2, widest / 3));
      REQUIRE(Estimate(spec, options, &r).ok());
      int first_over = 1;
      while (first_over < spec.cards() && exact.level[first_over] <= options.width) ++first_over;
      bool later_inexact = false;
      for (int j = 1; j <= spec.cards(); ++j) {
        INFO(GameName(spec.game) << " m=" << spec.ranks << " s=" << spec.suits << " width "
                                 << options.width << " level " << j);
        if (j <= first_over) CHECK(r.level[j].mean == static_cast<double>(exact.level[j]));
        if (j > first_over) later_inexact |= r.level[j].std_error > 0;
      }
      if (first_over < spec.cards()) CHECK(later_inexact);
    }
  }
}

TEST_CASE("estimate: until_rel takes the samples its pilot says, and sets the pilot aside",
          "[estimate]") {
  const GameSpec spec{Game::kHlm, 4, 3};  // 9 winning decks (Bersani 2010, Table 2)
  EstimateOptions options;
  options.samples = 1000000;
  options.width = 4;
  options.exact_levels = 2;
  options.until_rel = 0.05;
  EstimateResult r;
  REQUIRE(Estimate(spec, options, &r).ok());
  CHECK(r.pilot_samples == 100);
  CHECK(r.samples >= 100);
  CHECK(r.samples < options.samples);
  // Near the aim, not bounded by it.
  const double reached = (r.winning().high - r.winning().mean) / r.winning().mean;
  CHECK(reached > 0.5 * options.until_rel);
  CHECK(reached < 2.0 * options.until_rel);
  // The pilot alone: the first 100 samples of a fixed run. Its estimate is
  // not the result's (the main stage draws samples 100 onwards).
  EstimateOptions pilot = options;
  pilot.until_rel = 0;
  pilot.samples = 100;
  EstimateResult p;
  REQUIRE(Estimate(spec, pilot, &p).ok());
  CHECK(p.winning().mean != r.winning().mean);
  // A cap below the pilot: a fixed run of that many.
  options.samples = 50;
  REQUIRE(Estimate(spec, options, &r).ok());
  pilot.samples = 50;
  REQUIRE(Estimate(spec, pilot, &p).ok());
  CHECK(r.samples == 50);
  CHECK(r.pilot_samples == 0);
  CHECK(r.winning().mean == p.winning().mean);
}

// The 97.5% quantiles of Student's t for 1, 15 and 100 degrees of freedom
// and the normal limit, as tabled in the NIST/SEMATECH e-Handbook of
// Statistical Methods, section 1.3.6.7.2 (to three decimals).
TEST_CASE("estimate: the interval factor is Student's t for N - 1 degrees of freedom",
          "[estimate]") {
  CHECK(StudentT95(2) == Approx(12.706).margin(5e-4));
  CHECK(StudentT95(16) == Approx(2.131).margin(5e-4));
  CHECK(StudentT95(101) == Approx(1.984).margin(5e-4));
  CHECK(StudentT95(100000000) == Approx(1.960).margin(5e-4));
  // The forecast's 16 samples: the interval is 2.131 standard errors wide
  // on each side, not the normal 1.96.
  const GameSpec spec{Game::kHlm, 6, 3};
  EstimateOptions options;
  options.samples = 16;
  options.width = 4;
  EstimateResult r;
  REQUIRE(Estimate(spec, options, &r).ok());
  for (int j = 1; j <= spec.cards(); ++j) {
    const LevelEstimate& e = r.level[j];
    if (e.std_error == 0) continue;  // an exact level
    CHECK((e.high - e.mean) / e.std_error == Approx(2.131).margin(5e-4));
    CHECK((e.mean - e.low) / e.std_error == Approx(2.131).margin(5e-4));
  }
  CHECK(r.winning().std_error > 0);  // the check above is not empty
}

// Stopping when the interval first looks narrow enough covers too rarely
// (it stops when the mean came out high); the two stages must cover as a
// fixed sample size does.
TEST_CASE("estimate: until_rel intervals cover the exact count", "[estimate]") {
  int covered = 0, trials = 0;
  for (const GameSpec& spec : kSmall) {
    const double exact = static_cast<double>(Exact(spec).winning());
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      EstimateOptions options;
      options.samples = 1000000;
      options.width = 2;
      options.seed = seed;
      options.exact_levels = 1;
      options.lookahead = false;
      options.until_rel = 0.1;
      EstimateResult r;
      REQUIRE(Estimate(spec, options, &r).ok());
      // An exact estimate (no winning deck, or a tree no wider than the
      // population) covers whatever the method: not a trial.
      if (r.winning().std_error == 0) continue;
      ++trials;
      covered += r.winning().low <= exact && exact <= r.winning().high;
    }
  }
  INFO(covered << " of " << trials << " cover");
  CHECK(trials >= 120);
  CHECK(covered >= 0.88 * trials);
  CHECK(covered < trials);
}

TEST_CASE("estimate: a seed repeats a run on any thread count", "[estimate]") {
  const GameSpec spec{Game::kMousetrap, 10, 1};
  EstimateResult a, b;
  EstimateOptions options;
  options.samples = 5000;
  options.seed = 3;
  options.exact_levels = 3;
  options.threads = 1;
  REQUIRE(Estimate(spec, options, &a).ok());
  options.threads = 2;
  REQUIRE(Estimate(spec, options, &b).ok());
  for (int j = 1; j <= spec.cards(); ++j) {
    CHECK(a.level[j].mean == b.level[j].mean);
    CHECK(a.level[j].std_error == b.level[j].std_error);
    CHECK(a.level[j].max_share == b.level[j].max_share);
  }
  EstimateResult wa, wb;
  options.width = 16;
  options.threads = 1;
  REQUIRE(Estimate(spec, options, &wa).ok());
  options.threads = 2;
  REQUIRE(Estimate(spec, options, &wb).ok());
  for (int j = 1; j <= spec.cards(); ++j) {
    CHECK(wa.level[j].mean == wb.level[j].mean);
    CHECK(wa.level[j].std_error == wb.level[j].std_error);
  }
  // Another seed, the width of `a`: another estimate.
  options.width = 1;
  options.seed = 4;
  EstimateResult c;
  REQUIRE(Estimate(spec, options, &c).ok());
  CHECK(c.winning().mean != a.winning().mean);
}

// Runs Estimate() with a stop flag raised once `after` samples are done
// (options.samples_done, counted per block before its merge).
EstimateResult StoppedAfter(const GameSpec& spec, EstimateOptions options, uint64_t after) {
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> done{0};
  options.stop = &stop;
  options.samples_done = &done;
  std::thread watcher([&] {
    while (done.load() < after) std::this_thread::sleep_for(std::chrono::microseconds(50));
    stop.store(true);
  });
  EstimateResult r;
  const Status s = Estimate(spec, options, &r);
  watcher.join();
  REQUIRE(s.ok());
  return r;
}

void CheckSameEstimate(const EstimateResult& a, const EstimateResult& b, int cards) {
  REQUIRE(a.samples == b.samples);
  for (int j = 1; j <= cards; ++j) {
    CHECK(a.level[j].mean == b.level[j].mean);
    CHECK(a.level[j].std_error == b.level[j].std_error);
    CHECK(a.level[j].max_share == b.level[j].max_share);
  }
  CHECK(a.nodes.mean == b.nodes.mean);
}

// Ctrl-C keeps what was drawn: the blocks merged before the stop, which are
// exactly the run asked for that many samples (the same blocks, merged in
// the same order), whatever the thread count.
TEST_CASE("estimate: a stopped run is the run asked for the samples it drew", "[estimate]") {
  const GameSpec spec{Game::kMousetrap, 11, 1};
  EstimateOptions options;
  options.samples = UINT64_MAX / 2;  // never reached: only the stop ends the run
  options.seed = 5;
  options.exact_levels = 2;
  for (int threads : {1, 2}) {
    options.threads = threads;
    // The first round has 4 blocks of 256 descents: a 5th block done means
    // the first round is merged.
    const EstimateResult r = StoppedAfter(spec, options, 5 * 256);
    CHECK(r.interrupted);
    CHECK(r.pilot_samples == 0);
    CHECK(r.samples >= 4 * 256);
    EstimateOptions again = options;
    again.samples = r.samples;
    EstimateResult full;
    REQUIRE(Estimate(spec, again, &full).ok());
    CHECK_FALSE(full.interrupted);
    CheckSameEstimate(r, full, spec.cards());
  }
  // Width 16: blocks of 16 samples, the last one possibly cut by the stop.
  options.width = 16;
  const EstimateResult w = StoppedAfter(spec, options, 5 * 16);
  CHECK(w.interrupted);
  EstimateOptions again = options;
  again.samples = w.samples;
  EstimateResult full;
  REQUIRE(Estimate(spec, again, &full).ok());
  CheckSameEstimate(w, full, spec.cards());
}

TEST_CASE("estimate: until_rel stopped in its main stage reports that stage's samples",
          "[estimate]") {
  const GameSpec spec{Game::kMousetrap, 11, 1};
  EstimateOptions options;
  options.samples = UINT64_MAX / 2;
  options.until_rel = 1e-6;  // some 10^10 samples: only the stop ends the run
  options.exact_levels = 2;
  options.threads = 2;
  // The pilot (100 samples, one block), then 5 blocks of the main stage.
  const EstimateResult r = StoppedAfter(spec, options, 100 + 5 * 256);
  CHECK(r.interrupted);
  CHECK(r.pilot_samples == 100);
  CHECK(r.samples >= 4 * 256);
  CHECK(r.winning().mean > 0);
}

TEST_CASE("estimate: stopped before the first sample, nothing to report", "[estimate]") {
  std::atomic<bool> stop{true};
  EstimateOptions options;
  options.stop = &stop;
  EstimateResult r;
  CHECK(Estimate({Game::kMousetrap, 8, 1}, options, &r).IsCancelled());
  options.until_rel = 0.01;
  CHECK(Estimate({Game::kMousetrap, 8, 1}, options, &r).IsCancelled());
}

// The small coverage check (the large one is coverage_slow_test.cc): over
// 10 games and 20 seeds, the 95% intervals of the number of winning decks
// must cover the exact value at least 85% of the time, counting only the
// runs that are not exact (two of the games have no winning deck, and a
// population may be as wide as a small tree). Single descents (2,000 a run)
// are heavy-tailed, so their CLT interval covers somewhat less than it
// claims (152 of 160 with lookahead, 143 of 160 without, when written);
// populations of width 8 (250 a run) cover 130 of 140.
TEST_CASE("estimate: 95% intervals cover the exact count of winning decks", "[estimate]") {
  struct Mode {
    bool lookahead;
    uint32_t width;
  };
  for (const Mode mode : {Mode{false, 1}, Mode{true, 1}, Mode{true, 8}}) {
    int covered = 0, trials = 0;
    for (const GameSpec& spec : kSmall) {
      const double exact = static_cast<double>(Exact(spec).winning());
      for (uint64_t seed = 1; seed <= 20; ++seed) {
        EstimateOptions options;
        options.samples = 2000 / mode.width;
        options.width = mode.width;
        options.seed = seed;
        options.exact_levels = 2;
        options.lookahead = mode.lookahead;
        EstimateResult r;
        REQUIRE(Estimate(spec, options, &r).ok());
        if (r.winning().std_error == 0) continue;  // exact: not a trial
        ++trials;
        covered += r.winning().low <= exact && exact <= r.winning().high;
      }
    }
    CHECK(trials >= 120);
    INFO(covered << " of " << trials << " intervals cover the exact count, lookahead "
                 << mode.lookahead << ", width " << mode.width);
    CHECK(covered >= 0.85 * trials);
    CHECK(covered < trials);  // they are intervals, not certainties
  }
}

TEST_CASE("estimate: refuses no samples, too many exact levels and width 0", "[estimate]") {
  EstimateResult r;
  EstimateOptions options;
  options.samples = 0;
  CHECK(Estimate(GameSpec{Game::kMousetrap, 8, 1}, options, &r).IsInvalidArgument());
  options.samples = 10;
  options.exact_levels = 8;
  CHECK(Estimate(GameSpec{Game::kMousetrap, 8, 1}, options, &r).IsInvalidArgument());
  options.exact_levels = 2;
  options.width = 0;
  CHECK(Estimate(GameSpec{Game::kMousetrap, 8, 1}, options, &r).IsInvalidArgument());
}

// The winning sub-decks of `k` cards, flattened, built level by level from
// the roots with the child rule (as the count's split level holds them).
std::vector<Card> LevelNodes(const GameSpec& spec, int k) {
  const ChildRule rule(spec);
  std::vector<Card> level;
  for (Card r : rule.Roots()) level.push_back(r);
  for (int j = 1; j < k; ++j) {
    std::vector<Card> next;
    Card node[kNodeBytes] = {}, child[kNodeBytes] = {};
    for (size_t i = 0; i < level.size() / j; ++i) {
      std::copy(&level[i * j], &level[i * j] + j, node);
      rule.ForEachChild(node, j, [&](uint32_t t, Card x) {
        ChildRule::MakeChild(node, j, t, x, child);
        next.insert(next.end(), child, child + j + 1);
      });
    }
    level.swap(next);
  }
  return level;
}

// The exact sub-decks of each level below `roots` (k cards each).
std::vector<uint64_t> ExactBelow(const GameSpec& spec, int k, const std::vector<Card>& roots) {
  std::vector<uint64_t> sum(spec.cards() + 1, 0), below;
  SubtreeCounter counter(spec);
  Card node[kNodeBytes] = {};
  for (size_t i = 0; i < roots.size() / k; ++i) {
    std::copy(&roots[i * k], &roots[i * k] + k, node);
    REQUIRE(counter.Count(node, k, &below));
    for (int j = k + 1; j <= spec.cards(); ++j) sum[j] += below[j];
  }
  sum[k] = roots.size() / k;
  return sum;
}

TEST_CASE("estimate below: from the tree's roots it is the estimate of the tree", "[estimate]") {
  for (const GameSpec& spec : {GameSpec{Game::kMousetrap, 8, 1}, GameSpec{Game::kModular, 4, 2},
                               GameSpec{Game::kHlm, 3, 3}}) {
    for (uint32_t width : {1, 8}) {
      EstimateOptions options;
      options.samples = 500;
      options.seed = 5;
      options.width = width;
      EstimateResult tree, below;
      REQUIRE(Estimate(spec, options, &tree).ok());
      REQUIRE(EstimateBelow(spec, 1, ChildRule(spec).Roots(), options, &below).ok());
      INFO(GameName(spec.game) << " m=" << spec.ranks << " s=" << spec.suits << " width " << width);
      for (int j = 1; j <= spec.cards(); ++j) {
        CHECK(below.level[j].mean == tree.level[j].mean);
        CHECK(below.level[j].std_error == tree.level[j].std_error);
      }
      CHECK(below.nodes.mean == tree.nodes.mean);
    }
  }
}

TEST_CASE("estimate below: as wide as the roots, counted exactly below them, it is exact",
          "[estimate]") {
  const GameSpec spec{Game::kMousetrap, 8, 1};
  const int k = 3;
  const std::vector<Card> roots = LevelNodes(spec, k);
  const uint64_t count = roots.size() / k;
  REQUIRE(count > 8);  // more than a narrow population's width
  const std::vector<uint64_t> exact = ExactBelow(spec, k, roots);
  EstimateOptions options;
  options.samples = 3;
  options.width = static_cast<uint32_t>(count);
  options.exact_levels = spec.cards() - k;
  EstimateResult r;
  REQUIRE(EstimateBelow(spec, k, roots, options, &r).ok());
  double nodes = 0;
  for (int j = 1; j <= spec.cards(); ++j) {
    INFO("level " << j);
    CHECK(r.level[j].mean == static_cast<double>(j < k ? 0 : exact[j]));
    CHECK(r.level[j].std_error == 0);
    nodes += static_cast<double>(j < k ? 0 : exact[j]);
  }
  CHECK(r.nodes.mean == nodes);
}

TEST_CASE("estimate below: every level within 4.5 standard errors of the exact sum below",
          "[estimate]") {
  for (const GameSpec& spec : {GameSpec{Game::kMousetrap, 9, 1}, GameSpec{Game::kModular, 4, 2},
                               GameSpec{Game::kHlm, 4, 4}}) {
    const int k = 4;
    // Every other sub-deck of level 4: a set of subtrees that is not a level.
    const std::vector<Card> level = LevelNodes(spec, k);
    std::vector<Card> roots;
    for (size_t i = 0; i < level.size() / k; i += 2) {
      roots.insert(roots.end(), &level[i * k], &level[i * k] + k);
    }
    const std::vector<uint64_t> exact = ExactBelow(spec, k, roots);
    for (int exact_levels : {0, 2})
      for (uint32_t width : {1, 3, 8}) {
        EstimateOptions options;
        options.samples = 20000 / width;
        options.seed = 3;
        options.exact_levels = exact_levels;
        options.width = width;
        EstimateResult r;
        REQUIRE(EstimateBelow(spec, k, roots, options, &r).ok());
        CHECK(r.level[k].mean == static_cast<double>(roots.size() / k));
        for (int j = k + 1; j <= spec.cards(); ++j) {
          INFO(GameName(spec.game)
               << " m=" << spec.ranks << " s=" << spec.suits << " exact levels " << exact_levels
               << " width " << width << " level " << j << ": " << r.level[j].mean << " +- "
               << r.level[j].std_error << ", exact " << exact[j]);
          const double err = std::fabs(r.level[j].mean - static_cast<double>(exact[j]));
          CHECK(err <= 4.5 * r.level[j].std_error + 1e-9 * exact[j]);
        }
        CHECK(r.nodes.std_error > 0);  // the roots were sampled: not an exact sum
      }
  }
}

TEST_CASE("estimate below: refuses roots of no cards, of every card, or cut short", "[estimate]") {
  const GameSpec spec{Game::kMousetrap, 8, 1};
  const std::vector<Card> roots = LevelNodes(spec, 2);
  EstimateOptions options;
  options.samples = 10;
  EstimateResult r;
  CHECK(EstimateBelow(spec, 0, roots, options, &r).IsInvalidArgument());
  CHECK(EstimateBelow(spec, 8, roots, options, &r).IsInvalidArgument());
  CHECK(EstimateBelow(spec, 2, std::vector<Card>(roots.begin(), roots.end() - 1), options, &r)
            .IsInvalidArgument());
  CHECK(EstimateBelow(spec, 2, {}, options, &r).IsInvalidArgument());
  CHECK(EstimateBelow(spec, 2, roots, options, &r).ok());
}

}  // namespace
}  // namespace eulerdeck
