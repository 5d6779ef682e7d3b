// Bersani 2010 ("An eulerian approach to a class of matching problems"),
// Table 3: the best score of He Loves Me, He Loves Me Not with one suit,
// against C_max; the numbers of stored cards ("6/9": 6 stored of the 9 the
// weak conjecture asks for); the number of best decks and, where there is
// one, the deck.
#ifndef EULERDECK_TESTS_REMOVAL_TABLE3_H_
#define EULERDECK_TESTS_REMOVAL_TABLE3_H_

#include <cstdint>
#include <vector>

#include "engine/cards/deck.h"

namespace eulerdeck {

struct Table3Row {
  int m;
  int best;
  int c_max;
  std::vector<int> stored;  // the stored-card counts of the best decks
  uint64_t decks;
  Deck deck;  // the best deck where it is unique (Table 3 prints it to m = 10)
};

inline std::vector<Table3Row> Table3() {
  return {
      {2, 1, 1, {1}, 1, {1, 2}},
      {3, 3, 4, {1, 2}, 3, {}},
      {4, 6, 8, {3}, 1, {2, 1, 3, 4}},
      {5, 9, 13, {3}, 1, {2, 5, 1, 4, 3}},
      {6, 14, 19, {4}, 1, {6, 1, 4, 3, 5, 2}},
      {7, 18, 26, {4}, 1, {3, 7, 1, 5, 2, 6, 4}},
      {8, 25, 34, {5}, 1, {8, 1, 5, 2, 6, 4, 7, 3}},
      {9, 31, 43, {7}, 1, {4, 1, 2, 6, 9, 7, 3, 8, 5}},
      {10, 39, 53, {6}, 1, {10, 1, 6, 2, 7, 3, 8, 5, 9, 4}},
      {11, 47, 64, {8, 9}, 6, {}},
      {12, 56, 76, {7, 10}, 3, {}},
      {13, 67, 89, {11}, 2, {}},
      {14, 79, 103, {12}, 2, {}},
      {15, 93, 118, {13}, 2, {}},
      {16, 108, 134, {14}, 2, {}},
  };
}

}  // namespace eulerdeck

#endif  // EULERDECK_TESTS_REMOVAL_TABLE3_H_
