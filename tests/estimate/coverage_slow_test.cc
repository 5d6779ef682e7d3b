// The honesty of `estimate`'s 95% intervals (issue 18), in the slow suite:
// on 33 games whose winning decks are known exactly (all three games,
// s = 1..4), 20 seeds each, the intervals must cover the exact count about
// 95% of the time, overall and on every game. The populations are kept
// narrow (width 32, 200 samples) so that no game is counted exactly by a
// population as wide as its tree, which would cover trivially. The last
// test runs the default width on the largest exactly known cases the issue
// names: hlm s = 2 m = 15, hlm s = 4 m = 7 and mousetrap n = 16.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "engine/estimate/knuth.h"

namespace eulerdeck {
namespace {

struct Known {
  GameSpec spec;
  double winning;
};

// Bersani 2010 (seed 000), Tables 2, 4 and 5; mousetrap s = 1: OEIS
// A007709; hlm s = 4 m = 7: 396,847,883, not the printed 411,488,689
// (docs/errata.md: two enumerations and a forward replay of every deck).
const std::vector<Known> kKnown = {{{Game::kMousetrap, 10, 1}, 65503},
                                   {{Game::kMousetrap, 12, 1}, 3674670},
                                   {{Game::kMousetrap, 14, 1}, 266242729},
                                   {{Game::kMousetrap, 15, 1}, 2527701273},
                                   {{Game::kMousetrap, 5, 2}, 2322},
                                   {{Game::kMousetrap, 6, 2}, 71629},
                                   {{Game::kMousetrap, 7, 2}, 2214258},
                                   {{Game::kMousetrap, 8, 2}, 118228868},
                                   {{Game::kMousetrap, 4, 3}, 5232},
                                   {{Game::kMousetrap, 5, 3}, 476042},
                                   {{Game::kMousetrap, 6, 3}, 111660352},
                                   {{Game::kMousetrap, 3, 4}, 675},
                                   {{Game::kMousetrap, 4, 4}, 210069},
                                   {{Game::kMousetrap, 5, 4}, 119375881},
                                   {{Game::kModular, 9, 1}, 132684},
                                   {{Game::kModular, 11, 1}, 25232230},
                                   {{Game::kModular, 12, 1}, 50436488},
                                   {{Game::kModular, 5, 2}, 63063},
                                   {{Game::kModular, 6, 2}, 1797350},
                                   {{Game::kModular, 7, 2}, 364572156},
                                   {{Game::kModular, 4, 3}, 173053},
                                   {{Game::kModular, 5, 3}, 86636303},
                                   {{Game::kModular, 3, 4}, 22898},
                                   {{Game::kHlm, 10, 2}, 656},
                                   {{Game::kHlm, 12, 2}, 76823},
                                   {{Game::kHlm, 13, 2}, 986994},
                                   {{Game::kHlm, 15, 2}, 320152788},
                                   {{Game::kHlm, 7, 3}, 36144},
                                   {{Game::kHlm, 8, 3}, 1677968},
                                   {{Game::kHlm, 9, 3}, 127255522},
                                   {{Game::kHlm, 5, 4}, 10568},
                                   {{Game::kHlm, 6, 4}, 1212483},
                                   {{Game::kHlm, 7, 4}, 396847883}};

constexpr int kSeeds = 20;

// Of kSeeds runs (seeds 1..kSeeds, `samples` of `width`, the last 6 levels
// or fewer counted exactly), how many intervals cover the exact count;
// *exact counts the runs with no error at all.
int CoveringSeeds(const Known& k, uint32_t width, uint64_t samples, int* exact) {
  int covered = 0;
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    EstimateOptions options;
    options.samples = samples;
    options.width = width;
    options.seed = seed;
    options.exact_levels = std::min(6, k.spec.cards() - 1);
    EstimateResult r;
    REQUIRE(Estimate(k.spec, options, &r).ok());
    const LevelEstimate& w = r.winning();
    covered += w.low <= k.winning && k.winning <= w.high;
    *exact += w.std_error == 0;
  }
  return covered;
}

TEST_CASE("estimate coverage: 95% intervals cover 33 exact counts about 95% of the time") {
  int covered = 0, trials = 0, exact = 0;
  for (const Known& k : kKnown) {
    const int game_covered = CoveringSeeds(k, 32, 200, &exact);
    INFO(GameName(k.spec.game) << " m=" << k.spec.ranks << " s=" << k.spec.suits << ": "
                               << game_covered << " of " << kSeeds << " cover " << k.winning);
    // Below 14 of 20 has probability 3.4·10^-5 for an honest interval.
    CHECK(game_covered >= 14);
    covered += game_covered;
    trials += kSeeds;
  }
  INFO(covered << " of " << trials << " intervals cover the exact count, " << exact
               << " of them exact");
  // 660 trials at 95%: 627 expected, standard deviation 5.6.
  CHECK(covered >= 0.92 * trials);
  CHECK(covered <= 0.985 * trials);
  CHECK(exact == 0);  // no population was as wide as its tree
}

TEST_CASE("estimate coverage: the default width on the largest exactly known cases") {
  // Bersani 2010 Table 2 (hlm s = 2 m = 15), the erratum above (hlm s = 4
  // m = 7), OEIS A007709 (mousetrap n = 16, its last term).
  const std::vector<Known> largest = {{{Game::kHlm, 15, 2}, 320152788},
                                      {{Game::kHlm, 7, 4}, 396847883},
                                      {{Game::kMousetrap, 16, 1}, 25749021720.0}};
  int covered = 0;
  for (const Known& k : largest) {
    int exact = 0;
    const int game_covered = CoveringSeeds(k, 1000, 100, &exact);
    INFO(GameName(k.spec.game) << " m=" << k.spec.ranks << " s=" << k.spec.suits << ": "
                               << game_covered << " of " << kSeeds << " cover " << k.winning);
    CHECK(game_covered >= 16);
    covered += game_covered;
  }
  INFO(covered << " of 60 cover");
  CHECK(covered >= 54);
}

}  // namespace
}  // namespace eulerdeck
