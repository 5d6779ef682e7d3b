// The backward ("eulerian") step: the winning (k+1)-card sub-decks whose last
// k cards, after their first removal, are a given winning k-card sub-deck.
//
// A winning sub-deck C of k+1 cards first removes a card x at some count t;
// the k cards left, read from the next card round the circle, are a winning
// sub-deck D (counting restarts at 1). Conversely, given D, put x = value(t)
// at position q = (t-1) mod (k+1) and D after it round the circle:
//     C = D[k-q .. k-1], x, D[0 .. k-q-1].
// C first removes x at count t if and only if
//   (1) t <= CountLimit(k+1),
//   (2) no earlier count u < t names the card it visits, and
//   (3) D holds fewer than `suits` cards of value x.
// Each C arises from exactly one (D, t), so the winning sub-decks form a tree.
//
// Condition (2) in closed form: count u visits the card D[i] when the
// distance w = t - u from it to the removal is i's distance from the end of D,
// d_i = k - i, plus a multiple of k+1 (the circle). Count u names D[i] when
// u = D[i] + a*ranks (a >= 0; mousetrap and hlm never reach a > 0). So t is
// blocked exactly when
//     t - (D[i] + d_i)  is in  S = { a*ranks + b*(k+1) : a, b >= 0 }
// for some i. With h_i = D[i] + d_i, the blocked counts are the union of the
// sets h_i + S, computed as shifted copies of a precomputed bitset of S. The
// removed card itself never blocks: it is visited again only lcm(k+1, ranks)
// counts later, past the limit. Tests check this rule against brute force.
#ifndef EULERDECK_ENGINE_EULERIAN_CHILDREN_H_
#define EULERDECK_ENGINE_EULERIAN_CHILDREN_H_

#include <cstdint>
#include <cstring>
#include <vector>

#include "engine/cards/game.h"

namespace eulerdeck {

// Limits of the enumerator (a deck and its counts must fit the bitsets).
inline constexpr int kMaxEnumCards = 64;
inline constexpr int kMaxEnumRanks = 64;
// Buffers holding a sub-deck for MakeChild() have this many bytes, so that it
// can move fixed 64-byte blocks (a few vector moves) instead of calling
// memmove with variable sizes; bytes past the sub-deck are scratch.
inline constexpr int kNodeBytes = 2 * kMaxEnumCards;

// out[0..out_words) |= in[0..in_words) << shift; bits past the top are lost.
inline void OrShiftedWords(uint64_t* out, const uint64_t* in, int out_words, int in_words,
                           uint32_t shift) {
  const int ws = static_cast<int>(shift >> 6);
  const int bs = static_cast<int>(shift & 63);
  for (int i = 0; i < in_words && i + ws < out_words; ++i) {
    out[i + ws] |= in[i] << bs;
    if (bs != 0 && i + ws + 1 < out_words) out[i + ws + 1] |= in[i] >> (64 - bs);
  }
}

// Valid first-removal counts t of the children of one sub-deck, as a bitset
// over t = 0..limit (bit 0 always clear).
struct ChildCounts {
  static constexpr int kMaxWords = (kMaxEnumCards * kMaxEnumRanks) / 64 + 1;
  uint64_t bits[kMaxWords];
  int words;       // words in use
  uint32_t limit;  // CountLimit(k+1)
};

// Precomputed, per spec, for every parent size k: the count limit of the
// children and the bitset of S. Immutable after construction: share freely
// between threads.
class ChildRule {
 public:
  // REQUIRES: CheckEnumerable(spec).ok().
  explicit ChildRule(const GameSpec& spec);

  const GameSpec& spec() const { return spec_; }

  // The level-1 sub-decks: the single card 2 (the final burned card) when
  // the policy ends_on_burned_two (hlm), every single card otherwise.
  std::vector<Card> Roots() const;

  // Fills `out` with the counts t that satisfy (1) and (2) for the parent
  // `parent` of k cards (1 <= k < cards). Condition (3) is the caller's:
  // the value named at t is CalledValue(spec, t).
  void ValidCounts(const Card* parent, int k, ChildCounts* out) const {
    const PerSize& p = per_size_[k];
    out->limit = p.limit;
    out->words = p.words;
    if (p.words > 1) return ValidCountsWide(parent, k, out);
    // One word (limit < 64), the common case. With S trivial (nothing but 0
    // below the limit) the blocked counts are just the h_i.
    uint64_t blocked = 0;
    if (p.s_trivial) {
      for (int i = 0; i < k; ++i) {
        const uint32_t h = parent[i] + static_cast<uint32_t>(k - i);
        blocked |= h < 64 ? uint64_t{1} << h : 0;
      }
    } else {
      for (int i = 0; i < k; ++i) {
        const uint32_t h = parent[i] + static_cast<uint32_t>(k - i);
        blocked |= h < 64 ? p.s_bits[0] << h : 0;
      }
    }
    out->bits[0] = ~blocked & p.last_word_mask;
  }

  // q = (t-1) mod (k+1): where the removed card sits in a child of k+1
  // cards. Usually t <= k+1, which needs no division.
  static int RemovalSlot(int k, uint32_t t) {
    const uint32_t q = t - 1;
    return static_cast<int>(q <= static_cast<uint32_t>(k) ? q : q % static_cast<uint32_t>(k + 1));
  }

  // Writes the child of `parent` (k cards) that removes value x at count t
  // into child[0..k]: C = D[k-q..k-1], x, D[0..k-q-1], q = (t-1) mod (k+1).
  // REQUIRES: parent and child are distinct buffers of kNodeBytes bytes.
  static void MakeChild(const Card* parent, int k, uint32_t t, Card x, Card* child) {
    const int q = RemovalSlot(k, t);
    std::memcpy(child, parent + (k - q), kMaxEnumCards);  // child[0..q) is right
    child[q] = x;
    std::memcpy(child + q + 1, parent, kMaxEnumCards);  // child[q+1..k] is right
  }

  // The count limit for the children of a k-card sub-deck: CountLimit(k+1).
  uint32_t Limit(int k) const { return per_size_[k].limit; }

  // The elements of S that can matter for the children of a k-card
  // sub-deck (those <= limit - 2, since every h >= 2), in increasing order,
  // and whether there are few enough of them (and the limit small enough)
  // for the children to be tested without building anything: then count t
  // is blocked exactly when some h_i = t - sigma, sigma in SElements(k)
  // (see hit_views.h).
  const std::vector<uint32_t>& SElements(int k) const { return per_size_[k].s_elements; }
  bool Viewable(int k) const {
    return per_size_[k].words == 1 && per_size_[k].s_elements.size() <= kMaxViewSElements;
  }
  static constexpr size_t kMaxViewSElements = 4;

 private:
  struct PerSize {
    uint32_t limit = 0;           // CountLimit(k+1)
    int words = 0;                // 64-bit words for counts 0..limit
    bool s_trivial = false;       // S holds nothing but 0 below limit - 1
    uint64_t last_word_mask = 0;  // counts 1..limit within the last word
    std::vector<uint64_t> s_bits;
    std::vector<uint32_t> s_elements;  // S within [0, limit - 2]
  };

  void ValidCountsWide(const Card* parent, int k, ChildCounts* out) const;

  GameSpec spec_;
  std::vector<PerSize> per_size_;  // index k = parent size, 1..cards-1
};

// OK when the enumerator can handle the spec; OutOfRange naming the limit
// otherwise (InvalidArgument for a bad spec, NotSupported for a game whose
// policy is not enumerable).
Status CheckEnumerable(const GameSpec& spec);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_EULERIAN_CHILDREN_H_
