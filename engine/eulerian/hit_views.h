// Sub-decks that are not built: views that answer "does a card in positions
// [lo, hi) of this sub-deck have hit count h = w?" (h_i = card + distance
// from the end, children.h). Internal to engine/enumerate.cc.
//
// A built sub-deck D of k cards answers from a table: positions[w] has bit i
// set when h_i = w. Its child C = D[k-q..k-1], x, D[0..k-q-1] (k+1 cards,
// removal at count t, q = (t-1) mod (k+1), s = k+1-q) has h values
//   C[j], j <  q: D's index k-q+j, with h + s;
//   C[q]:        the removed card x, with h = x + s;
//   C[j], j >  q: D's index j-q-1, with h - q;
// so a range of C is at most two ranges of D plus x: ChildView answers in
// O(1) from its base, and a child of a ChildView is again a ChildView. When S
// has few elements below a level's limit (ChildRule::Viewable), the blocked
// counts follow from a few such queries, and the last levels are counted
// through views without building a sub-deck.
//
// Header-only code for the host and a CUDA device (engine/base/hd.h): the
// walk (stack_walk.h) counts its last levels through these on both.
#ifndef EULERDECK_ENGINE_EULERIAN_HIT_VIEWS_H_
#define EULERDECK_ENGINE_EULERIAN_HIT_VIEWS_H_

#include <cstdint>

#include "engine/base/hd.h"
#include "engine/eulerian/rule_core.h"

namespace eulerdeck::internal {

// Bits lo..hi-1 (0 <= lo, hi <= 64).
EULERDECK_HD_INLINE uint64_t RangeMask(int lo, int hi) {
  if (lo >= hi) return 0;
  const uint64_t upto = hi >= 64 ? ~uint64_t{0} : (uint64_t{1} << hi) - 1;
  return upto & (~uint64_t{0} << lo);
}

// h values never exceed ranks + cards <= 128; the views query up to w plus
// two removal slots, below this bound.
inline constexpr int kHitTableSize = 4 * kMaxEnumCards;

// A built sub-deck, through its table of h values -> positions: kSize
// entries, more than the largest h (ranks + cards), so that an entry past
// the table has no hit. The CPU walk's table has kHitTableSize entries; the
// GPU's fewer, for the specs whose h fit them (engine/gpu/).
template <int kSize = kHitTableSize>
struct TableView {
  const uint64_t* positions;  // kSize entries
  EULERDECK_HD bool HasHit(int w, int lo, int hi) const {
    return w >= 0 && w < kSize && (positions[w] & RangeMask(lo, hi)) != 0;
  }
};

// The child of `base` (k cards) that removes x at count t.
template <class Base>
struct ChildView {
  const Base& base;
  int k;  // cards in base; the view has k+1
  int q;  // position of the removed card
  int s;  // k+1-q: shift of the cards that end up in front of it
  Card x;

  EULERDECK_HD ChildView(const Base& b, int base_cards, uint32_t t, Card removed)
      : base(b), k(base_cards), q(RemovalSlot(base_cards, t)), s(base_cards + 1 - q), x(removed) {}

  EULERDECK_HD bool HasHit(int w, int lo, int hi) const {
    // Positions [lo, min(hi, q)): base positions k-q+lo.., h + s.
    if (lo < hd::Min(hi, q) && base.HasHit(w - s, k - q + lo, k - q + hd::Min(hi, q))) {
      return true;
    }
    if (lo <= q && q < hi && w == x + s) return true;
    // Positions [max(lo, q+1), hi): base positions 0.., h - q.
    const int from = hd::Max(lo, q + 1);
    return from < hi && base.HasHit(w + q, from - q - 1, hi - q - 1);
  }
};

}  // namespace eulerdeck::internal

#endif  // EULERDECK_ENGINE_EULERIAN_HIT_VIEWS_H_
