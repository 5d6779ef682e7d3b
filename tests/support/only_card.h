// Brute force for OEIS A028306 (decks removing exactly one card, by which
// card): every deck of 1..n played forward. Shared by the default and the
// slow tests of engine/removal/prefix.h.
#ifndef EULERDECK_TESTS_SUPPORT_ONLY_CARD_H_
#define EULERDECK_TESTS_SUPPORT_ONLY_CARD_H_

#include <algorithm>
#include <cstdint>
#include <vector>

#include "engine/cards/rules.h"

namespace eulerdeck::testing {

// row[k - 1]: the decks of mousetrap with n cards (one suit) whose only
// removed card is k.
inline std::vector<uint64_t> OnlyCardRowByBruteForce(int n) {
  const GameSpec spec{Game::kMousetrap, n, 1};
  std::vector<Card> deck(n), order(n);
  for (int v = 1; v <= n; ++v) deck[v - 1] = static_cast<Card>(v);
  std::vector<uint64_t> row(n, 0);
  do {
    if (PlayOrder(spec, deck.data(), n, order.data()).removed == 1) ++row[order[0] - 1];
  } while (std::next_permutation(deck.begin(), deck.end()));
  return row;
}

}  // namespace eulerdeck::testing

#endif  // EULERDECK_TESTS_SUPPORT_ONLY_CARD_H_
