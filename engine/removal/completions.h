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
uint64_t Completions(const std::vector<ValueMask>& positions, const std::vector<uint8_t>& avail);

}  // namespace eulerdeck::internal

#endif  // EULERDECK_ENGINE_REMOVAL_COMPLETIONS_H_
