// The number of ways to finish a lazily dealt deck: the positions whose
// value is still unknown, each with the set of values it may hold, filled
// with the values left. Shared by the removed-cards distribution
// (removed.h) and the best-score search (best.h). Internal to
// engine/removal.
#ifndef EULERDECK_ENGINE_REMOVAL_COMPLETIONS_H_
#define EULERDECK_ENGINE_REMOVAL_COMPLETIONS_H_

#include <cstdint>
#include <vector>

namespace eulerdeck::internal {

using ValueMask = uint64_t;  // bit v-1: the position may hold value v

// Counts the ways to fill `positions` with the multiset `avail` (avail[v-1]
// copies of value v; the sizes match), each position taking a value of its
// mask: the permanent of the position-by-value 0/1 matrix with value v's
// column repeated avail[v-1] times, divided by the orderings of equal cards
// (distinct decks, not labelled cards). A dynamic programme over the
// multiset used so far, positions in order: O(prod(avail + 1) * ranks).
// Count is uint64_t or unsigned __int128 (for decks past 20 cards: the
// caller makes sure the answer fits).
template <typename Count>
Count CompletionsOf(const std::vector<ValueMask>& positions, const std::vector<uint8_t>& avail);

inline uint64_t Completions(const std::vector<ValueMask>& positions,
                            const std::vector<uint8_t>& avail) {
  return CompletionsOf<uint64_t>(positions, avail);
}

// One removal of the lazy deal: *out = the circle after the card at `pos`
// is removed as the value of `bit`, the cards after it first (the count
// restarts there), with the value cleared from every mask when `last` (its
// last copy is gone). False when some card is left with no value to hold.
inline bool CircleAfterRemoval(const std::vector<ValueMask>& circle, uint32_t pos, ValueMask bit,
                               bool last, std::vector<ValueMask>* out) {
  const uint32_t r = static_cast<uint32_t>(circle.size());
  out->clear();
  out->reserve(r - 1);
  bool dead = false;
  for (uint32_t i = 1; i < r; ++i) {
    ValueMask x = circle[(pos + i) % r];
    if (last) x &= ~bit;
    dead |= x == 0;
    out->push_back(x);
  }
  return !dead;
}

// The number of entries CompletionsOf's table needs: prod(avail + 1), or 2^k
// for k available values when none repeats. Callers bound memory with it.
uint64_t CompletionsTableSize(const std::vector<uint8_t>& avail);

}  // namespace eulerdeck::internal

#endif  // EULERDECK_ENGINE_REMOVAL_COMPLETIONS_H_
