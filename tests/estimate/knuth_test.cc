// The tree estimator (engine/estimate/knuth.h) against exact counts
// (Count(), engine/eulerian/enumerate.h, itself checked against brute
// force): unbiased within its error, its 95% intervals covering the exact
// value about as often as they claim, the same on any thread count.
#include "engine/estimate/knuth.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "engine/eulerian/enumerate.h"

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

TEST_CASE("estimate: every level within 4.5 standard errors of the exact count", "[estimate]") {
  for (const GameSpec& spec : kSmall) {
    const CountResult exact = Exact(spec);
    for (int exact_levels : {0, 2, 4})
      for (bool lookahead : {false, true}) {
        if (exact_levels >= spec.cards()) continue;
        EstimateOptions options;
        options.samples = 20000;
        options.seed = 11;
        options.exact_levels = exact_levels;
        options.lookahead = lookahead;
        EstimateResult r;
        REQUIRE(Estimate(spec, options, &r).ok());
        for (int j = 1; j <= spec.cards(); ++j) {
          INFO(GameName(spec.game)
               << " m=" << spec.ranks << " s=" << spec.suits << " exact levels " << exact_levels
               << " lookahead " << lookahead << " level " << j << ": " << r.level[j].mean << " +- "
               << r.level[j].std_error << ", exact " << exact.level[j]);
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
  options.seed = 4;
  EstimateResult c;
  REQUIRE(Estimate(spec, options, &c).ok());
  CHECK(c.winning().mean != a.winning().mean);
}

// The small coverage check: over 10 games and 20 seeds of 2,000 samples,
// the 95% intervals of the number of winning decks must cover the exact
// value at least 85% of the time (the estimator is heavy-tailed, so the CLT
// interval covers somewhat less than it claims on few samples; 192 of 200
// with lookahead, 183 of 200 without, when written).
TEST_CASE("estimate: 95% intervals cover the exact count of winning decks", "[estimate]") {
  for (bool lookahead : {false, true}) {
    int covered = 0, trials = 0;
    for (const GameSpec& spec : kSmall) {
      const double exact = static_cast<double>(Exact(spec).winning());
      for (uint64_t seed = 1; seed <= 20; ++seed) {
        EstimateOptions options;
        options.samples = 2000;
        options.seed = seed;
        options.exact_levels = 2;
        options.lookahead = lookahead;
        EstimateResult r;
        REQUIRE(Estimate(spec, options, &r).ok());
        ++trials;
        covered += r.winning().low <= exact && exact <= r.winning().high;
      }
    }
    INFO(covered << " of " << trials << " intervals cover the exact count, lookahead "
                 << lookahead);
    CHECK(covered >= 0.85 * trials);
    CHECK(covered < trials);  // they are intervals, not certainties
  }
}

TEST_CASE("estimate: refuses no samples and too many exact levels", "[estimate]") {
  EstimateResult r;
  EstimateOptions options;
  options.samples = 0;
  CHECK(Estimate(GameSpec{Game::kMousetrap, 8, 1}, options, &r).IsInvalidArgument());
  options.samples = 10;
  options.exact_levels = 8;
  CHECK(Estimate(GameSpec{Game::kMousetrap, 8, 1}, options, &r).IsInvalidArgument());
}

}  // namespace
}  // namespace eulerdeck
