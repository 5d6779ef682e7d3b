// The multiset derangements of m values with s cards each (value v at none
// of its s positions of the count), by the rook-polynomial formula of
// Dundee's advance bids (engine/dundee/advance.h): Pr(no match) for advance
// bids b_i = s, times the number of decks. Treize's winning decks
// (tests/cards/treize_test.cc) and the decks modular and hlm remove no card
// from (tests/removal/removed_test.cc).
#ifndef EULERDECK_TESTS_SUPPORT_ROOK_WINS_H_
#define EULERDECK_TESTS_SUPPORT_ROOK_WINS_H_

#include <gmpxx.h>

#include <catch2/catch.hpp>
#include <vector>

#include "engine/cards/combinatorics.h"
#include "engine/dundee/advance.h"

namespace eulerdeck {

inline mpz_class RookWins(const GameSpec& spec) {
  const std::vector<int> counts(spec.ranks, spec.suits);
  const mpq_class wins = AdvanceWin(counts, counts) * mpq_class(TotalDecks(spec));
  REQUIRE(wins.get_den() == 1);
  return wins.get_num();
}

}  // namespace eulerdeck

#endif  // EULERDECK_TESTS_SUPPORT_ROOK_WINS_H_
