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
// ChildRule owns all three conditions: ValidCounts() computes (1) and (2) as
// a bitset of counts, AvailableValues holds (3) (AvailableValues::Available
// is the condition itself), and ForEachChild(), CountLastChildren() and
// IsValidChild() combine them. Callers never test the conditions themselves.
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

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <utility>
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

// The first-removal counts t of the children of one sub-deck that satisfy
// conditions (1) and (2), as a bitset over t = 0..limit (bit 0 always clear).
struct ChildCounts {
  static constexpr int kMaxWords = (kMaxEnumCards * kMaxEnumRanks) / 64 + 1;
  uint64_t bits[kMaxWords];
  int words;       // words in use
  uint32_t limit;  // CountLimit(k+1)

  // Whether count t satisfies (1) and (2). REQUIRES: t <= limit.
  bool Contains(uint32_t t) const { return (bits[t >> 6] >> (t & 63)) & 1; }
};

// Condition (3): the values a sub-deck can still take, i.e. those of which
// it holds fewer than `suits` cards. Kept incrementally with Take()/Give()
// (the in-memory count walks the tree with one) or built from a sub-deck.
// A plain value; not thread-safe while it is being changed.
class AvailableValues {
 public:
  // Words of bits(): values 1..kMaxEnumRanks, bit v for value v.
  static constexpr int kWords = kMaxEnumRanks / 64 + 1;

  AvailableValues() = default;
  // No card held: every value 1..ranks available.
  // REQUIRES: CheckEnumerable(spec).ok().
  explicit AvailableValues(const GameSpec& spec) : ranks_(spec.ranks), suits_(spec.suits) {
    Reset(nullptr, 0);
  }
  // The values still available to `deck` (k cards).
  AvailableValues(const GameSpec& spec, const Card* deck, int k)
      : ranks_(spec.ranks), suits_(spec.suits) {
    Reset(deck, k);
  }

  // Forgets every card held, then takes deck[0..k).
  void Reset(const Card* deck, int k) {
    static_assert(kWords == 2 && kMaxEnumRanks == 64, "bits 1..ranks fill at most two words");
    copies_.fill(0);
    bits_[0] = ranks_ >= 63 ? ~uint64_t{1} : (uint64_t{1} << (ranks_ + 1)) - 2;
    bits_[1] = ranks_ == 64 ? 1 : 0;
    for (int i = 0; i < k; ++i) Take(deck[i]);
  }

  // Condition (3) itself: a sub-deck holding `held` cards of a value can
  // take another when held < suits.
  static bool Available(int held, int suits) { return held < suits; }

  // Takes one card of value x / gives it back, keeping bits() equal to
  // Available(copies, suits) per value: x stops (starts) being available
  // exactly when its copies reach (leave) suits. REQUIRES for Take: Has(x);
  // for Give: a card of value x was taken.
  void Take(Card x) {
    if (++copies_[x] == suits_) bits_[x >> 6] &= ~(uint64_t{1} << (x & 63));
  }
  void Give(Card x) {
    if (copies_[x]-- == suits_) bits_[x >> 6] |= uint64_t{1} << (x & 63);
  }

  // Whether a card of value x may still be added.
  bool Has(Card x) const { return (bits_[x >> 6] >> (x & 63)) & 1; }
  // Bit v set when value v is available (v = 1..ranks); kWords words.
  const uint64_t* bits() const { return bits_; }
  // The spec's ranks (a copy, nearer at hand in hot loops than the spec).
  uint32_t ranks() const { return static_cast<uint32_t>(ranks_); }

  // The smallest available value above `after`. REQUIRES: there is one.
  Card LowestAbove(Card after) const {
    static_assert(kWords == 2, "LowestAbove reads the bits as one 128-bit word");
    const unsigned __int128 all = (static_cast<unsigned __int128>(bits_[1]) << 64) | bits_[0];
    const unsigned __int128 above = all >> (after + 1);
    const uint64_t lo = static_cast<uint64_t>(above);
    const int z =
        lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(static_cast<uint64_t>(above >> 64));
    return static_cast<Card>(after + 1 + z);
  }

  // Writes the first `count` cards still missing from the full deck (each
  // value repeated as many times as it has copies left) to out[0..count), in
  // increasing order. REQUIRES: at least `count` cards are missing.
  void Missing(int count, Card* out) const {
    int found = 0;
    Card v = 0;
    while (found < count) {
      v = LowestAbove(v);
      for (int c = copies_[v]; Available(c, suits_) && found < count; ++c) out[found++] = v;
    }
  }

 private:
  std::array<int, kMaxEnumRanks + 1> copies_{};  // cards held of each value
  uint64_t bits_[kWords] = {};                   // bit v: copies_[v] < suits_
  int ranks_ = 0;
  int suits_ = 0;
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
  // `parent` of k cards (1 <= k < cards). ForEachChild() adds (3).
  void ValidCounts(const Card* parent, int k, ChildCounts* out) const {
    const PerSize& p = per_size_[k];
    out->limit = p.limit;
    out->words = p.words;
    if (p.words > 1) return ValidCountsWide(parent, k, out);
    // One word (limit < 64), the common case. With S trivial (nothing but 0
    // below the limit) the blocked counts are just the h_i. Only the last
    // limit - 1 cards can block a count (FirstWithin); the others' shifted S
    // lies above the limit, which the mask drops. Mousetrap's and hlm's
    // limit is the ranks, so with several suits most of a deep sub-deck is
    // skipped.
    const int first = FirstWithin(k, static_cast<int>(p.limit));
    uint64_t blocked = 0;
    if (p.s_trivial) {
      for (int i = first; i < k; ++i) {
        const uint32_t h = parent[i] + static_cast<uint32_t>(k - i);
        blocked |= h < 64 ? uint64_t{1} << h : 0;
      }
    } else {
      for (int i = first; i < k; ++i) {
        const uint32_t h = parent[i] + static_cast<uint32_t>(k - i);
        blocked |= h < 64 ? p.s_bits[0] << h : 0;
      }
    }
    out->bits[0] = ~blocked & p.last_word_mask;
  }

  // Calls f(t, x) for each child of a parent, in increasing t: each count t
  // in `valid` (the parent's ValidCounts()) whose value x = CalledValue(t)
  // is in `avail` (the parent's AvailableValues), i.e. conditions (1)-(3).
  // `avail` is read before the first call, so f may change it (Take/Give
  // around a recursive walk) and restore it before returning. Inline: the
  // in-memory count runs it for every sub-deck it builds.
  template <class F>
  void ForEachChild(const ChildCounts& valid, const AvailableValues& avail, F&& f) const {
    ForEachChild(valid, avail.bits(), std::forward<F>(f));
  }

  // The same with the available values given as AvailableValues::bits()
  // (kWords words, bit v for value v): the stored run keeps them per depth
  // of the path it decodes (storage/store/rank_coding.h).
  template <class F>
  void ForEachChild(const ChildCounts& valid, const uint64_t* available_bits, F&& f) const {
    uint64_t counts[ChildCounts::kMaxWords];
    const bool wraps = AvailableCounts(valid, available_bits, counts);
    for (int j = 0; j < valid.words; ++j) {
      uint64_t w = valid.bits[j] & counts[j];
      while (w) {
        const uint32_t t = static_cast<uint32_t>(j * 64 + __builtin_ctzll(w));
        w &= w - 1;
        const Card x = wraps ? value_of_[t] : static_cast<Card>(t);
        f(t, x);
      }
    }
  }

  // The same, passing f(t, x, r) also r, the number of counts below t that
  // name an available value: t's rank among the counts the parent could
  // take (the stored run's rank coding, storage/store/rank_coding.h), a prefix
  // popcount of the bitset the walk builds anyway.
  template <class F>
  void ForEachChildRanked(const ChildCounts& valid, const uint64_t* available_bits, F&& f) const {
    uint64_t counts[ChildCounts::kMaxWords];
    const bool wraps = AvailableCounts(valid, available_bits, counts);
    uint32_t below = 0;  // available counts in the words before j
    for (int j = 0; j < valid.words; ++j) {
      uint64_t w = valid.bits[j] & counts[j];
      while (w) {
        const int bit = __builtin_ctzll(w);
        w &= w - 1;
        const uint32_t t = static_cast<uint32_t>(j * 64 + bit);
        const Card x = wraps ? value_of_[t] : static_cast<Card>(t);
        const uint64_t lower = counts[j] & ((uint64_t{1} << bit) - 1);
        f(t, x, below + static_cast<uint32_t>(__builtin_popcountll(lower)));
      }
      below += static_cast<uint32_t>(__builtin_popcountll(counts[j]));
    }
  }

  // The same for the parent `parent` of k cards (1 <= k < cards), from
  // scratch: the stored run expands every entry through here. Counting the
  // parent's cards of each value and testing the value of each valid count
  // is cheaper than building its AvailableValues to mask the counts; the
  // children, and their order, are the same.
  template <class F>
  void ForEachChild(const Card* parent, int k, F&& f) const {
    ChildCounts valid;
    ValidCounts(parent, k, &valid);
    int held[kMaxEnumRanks + 1];
    std::fill_n(held, spec_.ranks + 1, 0);
    for (int i = 0; i < k; ++i) ++held[parent[i]];
    for (int j = 0; j < valid.words; ++j) {
      for (uint64_t w = valid.bits[j]; w; w &= w - 1) {
        const uint32_t t = static_cast<uint32_t>(j * 64 + __builtin_ctzll(w));
        const Card x = CalledValue(spec_, t);
        if (AvailableValues::Available(held[x], spec_.suits)) f(t, x);
      }
    }
  }

  // The number of children the first ForEachChild() would yield for a
  // parent that misses a single card (k = cards - 1): its value x is the
  // one available, named at t = x, x + ranks, ... The in-memory count calls
  // this for every sub-deck of the level below the last.
  // REQUIRES: exactly one value is available in `avail`.
  uint64_t CountLastChildren(const ChildCounts& valid, const AvailableValues& avail) const {
    const uint32_t ranks = avail.ranks();
    uint64_t n = 0;
    for (uint32_t t = avail.LowestAbove(0); t <= valid.limit; t += ranks) n += valid.Contains(t);
    return n;
  }

  // True when count t gives a child of `parent` (k cards, 1 <= k < cards):
  // t satisfies (1)-(3). Any t is accepted (false when out of range).
  bool IsValidChild(const Card* parent, int k, uint32_t t) const;

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

  // The first position i of a k-card sub-deck whose h_i can be <= bound.
  // Every card is at least 1, so h_i = D[i] + (k - i) >= 1 + (k - i): the
  // cards before k + 1 - bound all have h above the bound.
  static int FirstWithin(int k, int bound) { return std::max(0, k + 1 - bound); }

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
    // For 2 to kMaxTableWords words: row h (words words) is S << h, for
    // h = 0..limit, so that the blocked set is an OR of k rows instead of k
    // shifted copies (a few KB per size; modular up to m = 16).
    std::vector<uint64_t> shifted_s;
  };
  static constexpr int kMaxTableWords = 4;

  void ValidCountsWide(const Card* parent, int k, ChildCounts* out) const;

  // Fills counts[0..valid.words) with the counts 0..valid.limit whose value
  // is in `avail`: its bitset repeated every `ranks` counts (once for
  // mousetrap and hlm, whose limit is <= ranks). Returns whether counts pass
  // ranks, naming the values again from 1 (modular's lcm limit).
  bool AvailableCounts(const ChildCounts& valid, const uint64_t* bits, uint64_t* counts) const {
    const uint32_t ranks = static_cast<uint32_t>(spec_.ranks);
    const bool wraps = valid.limit > ranks;
    if (valid.words == 1) {  // the common case: counts below 64
      counts[0] = bits[0];
      if (wraps) {
        for (uint32_t a = ranks; a <= valid.limit; a += ranks) counts[0] |= bits[0] << a;
      }
    } else if (valid.words <= kMaxTableWords && !repeated_.empty()) {
      // An OR of one table row per byte of the values' bits.
      uint64_t acc[kMaxTableWords] = {};
      for (int c = 0; c < repeated_chunks_; ++c) {
        const uint32_t byte = static_cast<uint32_t>(bits[c >> 3] >> (8 * (c & 7))) & 0xff;
        const uint64_t* row = &repeated_[(static_cast<size_t>(c) * 256 + byte) * kMaxTableWords];
        for (int w = 0; w < kMaxTableWords; ++w) acc[w] |= row[w];
      }
      for (int w = 0; w < valid.words; ++w) counts[w] = acc[w];
    } else {
      std::memset(counts, 0, sizeof(uint64_t) * valid.words);
      for (uint32_t a = 0; a <= valid.limit; a += ranks) {
        OrShiftedWords(counts, bits, valid.words, AvailableValues::kWords, a);
      }
    }
    return wraps;
  }

  GameSpec spec_;
  // value_of_[t] = CalledValue(t) for every count up to the largest limit:
  // modular's children name values past the ranks, a division each.
  std::vector<Card> value_of_;
  // Counts 0..255 by value, repeated every `ranks` counts, a row of
  // kMaxTableWords words for each byte value of each of the first
  // repeated_chunks_ bytes of AvailableValues::bits() (when the ranks fit
  // them and some limit passes 63).
  std::vector<uint64_t> repeated_;
  int repeated_chunks_ = 0;
  std::vector<PerSize> per_size_;  // index k = parent size, 1..cards-1
};

// OK when the enumerator can handle the spec; OutOfRange naming the limit
// otherwise (InvalidArgument for a bad spec, NotSupported for a game whose
// policy is not enumerable).
Status CheckEnumerable(const GameSpec& spec);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_EULERIAN_CHILDREN_H_
