// The expensive published counts (ctest label `slow`; CI skips them):
// scripts/test.sh --slow runs them. Same sources as count_test.cc.
#include <catch2/catch.hpp>

#include "engine/estimate/forecast.h"
#include "engine/eulerian/enumerate.h"
#include "tests/support/paper_faithful.h"
#include "tests/support/published.h"

namespace eulerdeck {
namespace {

uint64_t Winning(Game g, int m, int s) {
  CountResult r;
  REQUIRE(Count(GameSpec{g, m, s}, CountOptions{}, &r).ok());
  return r.winning();
}

// Each count also checks the forecast `eulerdeck count` prints before it
// starts (engine/estimate/forecast.h, issue 18): its node count within a
// factor of 2 of the count's. Its time is not asserted (no timing in tests:
// a loaded machine would fail it); the forecast's time is the node count
// over a rate measured by the same walk, see docs/estimates.md.
TEST_CASE("count reproduces the published counts (slow entries), and the forecast its nodes") {
  for (const Published& p : PublishedCounts()) {
    // Those of 2 s or less are counted by count_test.cc; from 1 s the
    // forecast is checked here (the issue: every count over a second).
    if (p.seconds <= 1.0) continue;
    INFO(p.source << ": " << GameName(p.game) << " m=" << p.ranks << " s=" << p.suits);
    const GameSpec spec{p.game, p.ranks, p.suits};
    CountResult r;
    REQUIRE(Count(spec, CountOptions{}, &r).ok());
    CHECK(r.winning() == p.winning);
    CountForecast f;
    REQUIRE(ForecastCount(spec, 2, 1.0, &f).ok());
    INFO("forecast " << f.nodes.mean << " nodes, counted " << r.nodes);
    CHECK(f.nodes.mean >= 0.5 * static_cast<double>(r.nodes));
    CHECK(f.nodes.mean <= 2.0 * static_cast<double>(r.nodes));
  }
}

TEST_CASE("count: the two entries of Table 2 listed in docs/errata.md") {
  // Printed 17,175,636 and 411,488,689; docs/errata.md gives the evidence
  // for the values below. Replaying every enumerated deck forward (the
  // verify-leaves test below) shows that none is counted wrongly, not that
  // none is missed; the paper-faithful case next checks that with another
  // method.
  CHECK(Winning(Game::kHlm, 14, 2) == 17156400);
  CHECK(Winning(Game::kHlm, 7, 4) == 396847883);
}

TEST_CASE("count: hlm s=2 m=14 (an erratum) equals the paper-faithful procedure level by level") {
  // Bersani's own procedure (tests/support/paper_faithful.h: every string
  // extended by every value, rebuilt into a sub-deck and replayed forward)
  // shares no code with the enumerator's child rule, so a winning deck the
  // rule missed would show here. About 6 min of one core and 2.8 GB
  // (161,649,087 strings in all); hlm s=4 m=7 would need some 50 GB of
  // strings in memory.
  const GameSpec spec{Game::kHlm, 14, 2};
  CountResult r;
  REQUIRE(Count(spec, CountOptions{}, &r).ok());
  const std::vector<uint64_t> paper = bench::PaperFaithfulLevels(spec);
  CHECK(paper == r.level);
  CHECK(paper.back() == 17156400);
}

TEST_CASE("count --verify-leaves on the errata cases: every enumerated deck wins") {
  CountOptions options;
  options.verify_leaves = true;
  CountResult r;
  REQUIRE(Count(GameSpec{Game::kHlm, 14, 2}, options, &r).ok());
  CHECK(r.leaves_verified == 17156400);
}

}  // namespace
}  // namespace eulerdeck
