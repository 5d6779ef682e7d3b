#include "tests/support/paper_faithful.h"

#include <algorithm>
#include <cstring>

#include "engine/cards/deck.h"
#include "engine/cards/rules.h"

namespace eulerdeck::bench {

namespace {

// Rebuilds into deck[0..r) the sub-deck that would remove the r cards of
// `string` in order: the i-th card goes to the slot reached by counting its
// value along the empty slots, starting at the slot after the previous one
// (wrapping). hlm's final card, burned rather than stored, takes the last
// empty slot.
void Rebuild(const GameSpec& spec, const Card* string, int r, Card* deck) {
  std::memset(deck, 0, r);
  int p = 0;  // next slot to count from
  for (int i = 0; i < r; ++i) {
    int count = (spec.game == Game::kHlm && i == r - 1) ? 1 : string[i];
    while (true) {
      if (deck[p] == 0 && --count == 0) break;
      p = (p + 1 == r) ? 0 : p + 1;
    }
    deck[p] = string[i];
  }
}

}  // namespace

std::vector<uint64_t> PaperFaithfulLevels(const GameSpec& spec) {
  const int n = spec.cards();
  std::vector<uint64_t> level(n + 1, 0);
  // Level k's strings, k bytes each, one after another (the paper kept them
  // in a file per level).
  std::vector<Card> strings;
  if (spec.game == Game::kHlm) {
    strings.push_back(2);
  } else {
    for (int v = 1; v <= spec.ranks; ++v) strings.push_back(static_cast<Card>(v));
  }
  level[1] = strings.size();
  Card candidate[kMaxCards], deck[kMaxCards], order[kMaxCards];
  std::vector<int> copies(spec.ranks + 1);
  for (int k = 1; k < n; ++k) {
    std::vector<Card> next;
    for (size_t at = 0; at < strings.size(); at += k) {
      const Card* s = strings.data() + at;
      std::fill(copies.begin(), copies.end(), 0);
      for (int i = 0; i < k; ++i) ++copies[s[i]];
      std::memcpy(candidate + 1, s, k);
      for (int x = 1; x <= spec.ranks; ++x) {
        if (copies[x] == spec.suits) continue;
        candidate[0] = static_cast<Card>(x);
        Rebuild(spec, candidate, k + 1, deck);
        const QuickResult r = PlayOrder(spec, deck, k + 1, order);
        if (r.outcome == Outcome::kWin && std::memcmp(order, candidate, k + 1) == 0) {
          next.insert(next.end(), candidate, candidate + k + 1);
        }
      }
    }
    strings = std::move(next);
    level[k + 1] = strings.size() / (k + 1);
  }
  return level;
}

}  // namespace eulerdeck::bench
