// The published numbers of winning decks, with their sources, for the tests.
// Values from OEIS A007709 and Bersani 2010 (A. M. Bersani, "An eulerian approach
// to a class of matching problems", Tables 2, 4, 5). The two entries of Table 2 that independent
// computations contradict (hlm s=2 m=14, s=4 m=7) are NOT here: see
// docs/errata.md and count_slow_test.cc.
#ifndef EULERDECK_TESTS_SUPPORT_PUBLISHED_H_
#define EULERDECK_TESTS_SUPPORT_PUBLISHED_H_

#include <cstdint>
#include <vector>

#include "engine/cards/game.h"

namespace eulerdeck {

struct Published {
  const char* source;
  Game game;
  int ranks;
  int suits;
  uint64_t winning;
  // Rough wall time of `eulerdeck count` on 2 cores (docs/performance.md):
  // entries above 2 s run only under the `slow` ctest label.
  double seconds;
};

inline std::vector<Published> PublishedCounts() {
  constexpr Game M = Game::kMousetrap, MM = Game::kModular, H = Game::kHlm;
  return {
      // OEIS A007709 (mousetrap s = 1), n = 1..15; 000 §5 extends it to 15.
      // A007709's data goes on to n = 16 (25,749,021,720): a half-hour
      // count, reproduced in docs/results.md rather than in a test.
      {"A007709", M, 1, 1, 1, 0},
      {"A007709", M, 2, 1, 1, 0},
      {"A007709", M, 3, 1, 2, 0},
      {"A007709", M, 4, 1, 6, 0},
      {"A007709", M, 5, 1, 15, 0},
      {"A007709", M, 6, 1, 84, 0},
      {"A007709", M, 7, 1, 330, 0},
      {"A007709", M, 8, 1, 1812, 0},
      {"A007709", M, 9, 1, 9978, 0},
      {"A007709", M, 10, 1, 65503, 0},
      {"A007709", M, 11, 1, 449719, 0.02},
      {"A007709", M, 12, 1, 3674670, 0.2},
      {"A007709", M, 13, 1, 28886593, 1.6},
      {"A007709", M, 14, 1, 266242729, 17},
      {"A007709", M, 15, 1, 2527701273, 180},
      // 000 Table 2, hlm.
      {"000 Table 2", H, 2, 2, 3, 0},
      {"000 Table 2", H, 3, 2, 0, 0},
      {"000 Table 2", H, 4, 2, 0, 0},
      {"000 Table 2", H, 5, 2, 0, 0},
      {"000 Table 2", H, 6, 2, 1, 0},
      {"000 Table 2", H, 7, 2, 7, 0},
      {"000 Table 2", H, 8, 2, 8, 0},
      {"000 Table 2", H, 9, 2, 105, 0},
      {"000 Table 2", H, 10, 2, 656, 0},
      {"000 Table 2", H, 11, 2, 6745, 0},
      {"000 Table 2", H, 12, 2, 76823, 0.02},
      {"000 Table 2", H, 13, 2, 986994, 0.3},
      {"000 Table 2", H, 15, 2, 320152788, 300},
      {"000 Table 2", H, 2, 3, 4, 0},
      {"000 Table 2", H, 3, 3, 4, 0},
      {"000 Table 2", H, 4, 3, 9, 0},
      {"000 Table 2", H, 5, 3, 63, 0},
      {"000 Table 2", H, 6, 3, 1177, 0},
      {"000 Table 2", H, 7, 3, 36144, 0.01},
      {"000 Table 2", H, 8, 3, 1677968, 0.4},
      {"000 Table 2", H, 9, 3, 127255522, 23},
      {"000 Table 2", H, 2, 4, 15, 0},
      {"000 Table 2", H, 3, 4, 5, 0},
      {"000 Table 2", H, 4, 4, 229, 0},
      {"000 Table 2", H, 5, 4, 10568, 0},
      {"000 Table 2", H, 6, 4, 1212483, 0.3},
      // 000 Table 4, mousetrap.
      {"000 Table 4", M, 2, 2, 3, 0},
      {"000 Table 4", M, 3, 2, 12, 0},
      {"000 Table 4", M, 4, 2, 147, 0},
      {"000 Table 4", M, 5, 2, 2322, 0},
      {"000 Table 4", M, 6, 2, 71629, 0},
      {"000 Table 4", M, 7, 2, 2214258, 0.2},
      {"000 Table 4", M, 8, 2, 118228868, 9},
      {"000 Table 4", M, 2, 3, 4, 0},
      {"000 Table 4", M, 3, 3, 90, 0},
      {"000 Table 4", M, 4, 3, 5232, 0},
      {"000 Table 4", M, 5, 3, 476042, 0.05},
      {"000 Table 4", M, 6, 3, 111660352, 12},
      {"000 Table 4", M, 2, 4, 15, 0},
      {"000 Table 4", M, 3, 4, 675, 0},
      {"000 Table 4", M, 4, 4, 210069, 0.03},
      {"000 Table 4", M, 5, 4, 119375881, 18},
      // 000 Table 5, modular.
      {"000 Table 5", MM, 2, 1, 1, 0},
      {"000 Table 5", MM, 3, 1, 4, 0},
      {"000 Table 5", MM, 4, 1, 9, 0},
      {"000 Table 5", MM, 5, 1, 76, 0},
      {"000 Table 5", MM, 6, 1, 190, 0},
      {"000 Table 5", MM, 7, 1, 3186, 0},
      {"000 Table 5", MM, 8, 1, 11351, 0},
      {"000 Table 5", MM, 9, 1, 132684, 0},
      {"000 Table 5", MM, 10, 1, 884371, 0.1},
      {"000 Table 5", MM, 11, 1, 25232230, 1.5},
      {"000 Table 5", MM, 12, 1, 50436488, 3},
      {"000 Table 5", MM, 13, 1, 3936227868, 600},
      {"000 Table 5", MM, 2, 2, 5, 0},
      {"000 Table 5", MM, 3, 2, 60, 0},
      {"000 Table 5", MM, 4, 2, 1182, 0},
      {"000 Table 5", MM, 5, 2, 63063, 0},
      {"000 Table 5", MM, 6, 2, 1797350, 0.1},
      {"000 Table 5", MM, 7, 2, 364572156, 29},
      {"000 Table 5", MM, 2, 3, 19, 0},
      {"000 Table 5", MM, 3, 3, 1081, 0},
      {"000 Table 5", MM, 4, 3, 173053, 0.01},
      {"000 Table 5", MM, 5, 3, 86636303, 5},
      {"000 Table 5", MM, 2, 4, 69, 0},
      {"000 Table 5", MM, 3, 4, 22898, 0},
  };
}

}  // namespace eulerdeck

#endif  // EULERDECK_TESTS_SUPPORT_PUBLISHED_H_
