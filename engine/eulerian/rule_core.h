// The child rule of children.h as plain data and functions that compile for
// the host and for a CUDA device (engine/base/hd.h): one source for the CPU
// count (ChildRule and the walker call these) and the GPU worker
// (engine/gpu/), so that a bug in the rule shows in both.
//
// A RuleImage is ChildRule's precomputed tables (per parent size k: the
// count limit, the bitset of S, its elements, the rows of S shifted; the
// value named at each count; the table of repeated values) flattened into
// one array of 64-bit words: a fixed header (RuleHeader) then a pool the
// header indexes. It holds no pointer, so it is copied as it is to a device
// or through a plugin's C interface. RuleCore is a view of one, and the
// functions below are the rule: ValidCounts() (conditions (1) and (2)),
// AvailableCounts() (condition (3) as counts), MakeChild()/UnmakeChild() and
// CountLastChildren(). children.h explains the rule itself.
#ifndef EULERDECK_ENGINE_EULERIAN_RULE_CORE_H_
#define EULERDECK_ENGINE_EULERIAN_RULE_CORE_H_

#include <cstddef>
#include <cstdint>

#include "engine/base/hd.h"

namespace eulerdeck {

using Card = uint8_t;  // as engine/cards/game.h

// Limits of the enumerator (a deck and its counts must fit the bitsets).
inline constexpr int kMaxEnumCards = 64;
inline constexpr int kMaxEnumRanks = 64;
// Buffers holding a sub-deck for MakeChild() have this many bytes, so that it
// can move fixed 64-byte blocks (a few vector moves) instead of calling
// memmove with variable sizes; bytes past the sub-deck are scratch.
inline constexpr int kNodeBytes = 2 * kMaxEnumCards;
// Words of a bitset over the counts 0..limit for any spec the enumerator takes.
inline constexpr int kMaxCountWords = (kMaxEnumCards * kMaxEnumRanks) / 64 + 1;
// Words of the available values' bitset (values 1..kMaxEnumRanks).
inline constexpr int kValueWords = kMaxEnumRanks / 64 + 1;
// The S elements a view may test (ChildRule::Viewable).
inline constexpr int kMaxViewSElements = 4;
// Rows of S shifted are tabulated for limits of 2 to this many words.
inline constexpr int kMaxTableWords = 4;

// out[0..out_words) |= in[0..in_words) << shift; bits past the top are lost.
EULERDECK_HD_INLINE void OrShiftedWords(uint64_t* out, const uint64_t* in, int out_words,
                                        int in_words, uint32_t shift) {
  const int ws = static_cast<int>(shift >> 6);
  const int bs = static_cast<int>(shift & 63);
  for (int i = 0; i < in_words && i + ws < out_words; ++i) {
    out[i + ws] |= in[i] << bs;
    if (bs != 0 && i + ws + 1 < out_words) out[i + ws + 1] |= in[i] >> (64 - bs);
  }
}

// The first-removal counts t of the children of one sub-deck that satisfy
// conditions (1) and (2), as a bitset over t = 0..limit (bit 0 always clear),
// for limits below 64 * W.
template <int W>
struct ChildCountsN {
  static constexpr int kMaxWords = W;
  uint64_t bits[W];
  int words;       // words in use
  uint32_t limit;  // CountLimit(k+1)

  // Whether count t satisfies (1) and (2). REQUIRES: t <= limit.
  EULERDECK_HD bool Contains(uint32_t t) const { return (bits[t >> 6] >> (t & 63)) & 1; }
};
using ChildCounts = ChildCountsN<kMaxCountWords>;

// What the rule keeps per parent size k (children of k+1 cards).
struct SizeRule {
  uint32_t limit;                          // CountLimit(k+1)
  int32_t words;                           // 64-bit words for counts 0..limit
  uint64_t last_word_mask;                 // counts 1..limit within the last word
  uint64_t s_bits0;                        // the first word of S's bitset
  uint32_t s_trivial;                      // 1: S holds nothing but 0 below limit - 1
  uint32_t s_element_count;                // elements of S within [0, limit - 2]
  uint32_t s_elements[kMaxViewSElements];  // the first of them, increasing
  uint32_t s_bits_at;                      // pool index of S's `words` words
  uint32_t shifted_at;                     // pool index of rows h = 0..limit of S << h, or kNoTable
};

inline constexpr uint32_t kNoTable = 0xffffffffu;
inline constexpr uint32_t kRuleImageMagic = 0x45445231;  // "EDR1"

struct RuleHeader {
  uint32_t magic;
  uint32_t header_words;  // the pool starts this many words into the image
  int32_t cards, ranks, suits;
  uint32_t max_limit;
  int32_t repeated_chunks;  // 0: no table of repeated values
  uint32_t repeated_at;     // pool index: chunks x 256 rows of kMaxTableWords words
  uint32_t value_of_at;     // pool index: value_of[t] as bytes, t = 0..max_limit
  uint32_t pool_words;
  SizeRule size[kMaxEnumCards];  // index k = parent size, 1..cards-1
};

// A view of a rule image (its words must outlive it): the tables of one
// spec. Plain data: copy it freely, to a device included.
struct RuleCore {
  const RuleHeader* h;
  const uint64_t* pool;

  // REQUIRES: image holds a RuleImage (magic checked by the caller).
  EULERDECK_HD static RuleCore Of(const uint64_t* image) {
    RuleCore c;
    c.h = reinterpret_cast<const RuleHeader*>(image);
    c.pool = image + c.h->header_words;
    return c;
  }
  EULERDECK_HD const SizeRule& size(int k) const { return h->size[k]; }
  EULERDECK_HD Card value_of(uint32_t t) const {
    return reinterpret_cast<const Card*>(pool + h->value_of_at)[t];
  }
};

// Words of the header, rounded up.
inline constexpr uint32_t kRuleHeaderWords = (sizeof(RuleHeader) + 7) / 8;

// The blocked counts as an OR of table rows, with W words fixed so that the
// rows are ORed in registers.
template <int W>
EULERDECK_HD_INLINE void OrRows(const uint64_t* rows, const Card* parent, int k, uint32_t limit,
                                uint64_t* blocked) {
  uint64_t acc[W] = {};
  for (int i = 0; i < k; ++i) {
    const uint32_t h = parent[i] + static_cast<uint32_t>(k - i);
    if (h > limit) continue;
    const uint64_t* row = rows + static_cast<size_t>(h) * W;
    for (int w = 0; w < W; ++w) acc[w] |= row[w];
  }
  for (int w = 0; w < W; ++w) blocked[w] = acc[w];
}

// The first position i of a k-card sub-deck whose h_i can be <= bound.
// Every card is at least 1, so h_i = D[i] + (k - i) >= 1 + (k - i): the
// cards before k + 1 - bound all have h above the bound.
EULERDECK_HD_INLINE int FirstWithin(int k, int bound) { return hd::Max(0, k + 1 - bound); }

// ValidCounts() for limits of 2 words or more.
template <int W>
EULERDECK_HD_INLINE void ValidCountsWide(const RuleCore& rule, const Card* parent, int k,
                                         ChildCountsN<W>* out) {
  const SizeRule& p = rule.size(k);
  uint64_t* blocked = out->bits;
  const uint64_t* rows = rule.pool + p.shifted_at;
  const int table_words = p.shifted_at == kNoTable ? 0 : p.words;
  if (table_words == 2) {
    OrRows<2>(rows, parent, k, p.limit, blocked);
  } else if (W >= 3 && table_words == 3) {
    if constexpr (W >= 3) OrRows<3>(rows, parent, k, p.limit, blocked);
  } else if (W >= 4 && table_words == 4) {
    if constexpr (W >= 4) OrRows<4>(rows, parent, k, p.limit, blocked);
  } else {  // wider: a shifted copy of S per card
    const uint64_t* s_bits = rule.pool + p.s_bits_at;
    for (int j = 0; j < p.words; ++j) blocked[j] = 0;
    for (int i = 0; i < k; ++i) {
      const uint32_t h = parent[i] + static_cast<uint32_t>(k - i);
      if (h <= p.limit) OrShiftedWords(blocked, s_bits, p.words, p.words, h);
    }
  }
  for (int j = 0; j < p.words; ++j) blocked[j] = ~blocked[j];
  blocked[0] &= ~uint64_t{1};
  blocked[p.words - 1] &= p.last_word_mask;
}

// Conditions (1) and (2) for the parent `parent` of k cards (1 <= k <
// cards): fills `out` with the counts t that satisfy them. REQUIRES: the
// limit fits W words (SizeRule::words <= W).
template <int W>
EULERDECK_HD_INLINE void ValidCounts(const RuleCore& rule, const Card* parent, int k,
                                     ChildCountsN<W>* out) {
  const SizeRule& p = rule.size(k);
  out->limit = p.limit;
  out->words = p.words;
  if constexpr (W > 1) {
    if (p.words > 1) return ValidCountsWide<W>(rule, parent, k, out);
  }
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
      blocked |= h < 64 ? p.s_bits0 << h : 0;
    }
  }
  out->bits[0] = ~blocked & p.last_word_mask;
}

// Condition (3) as counts: fills counts[0..valid.words) with the counts
// 0..valid.limit whose value is in `bits` (the available values, bit v for
// value v, kValueWords words): their bitset repeated every `ranks` counts
// (once for mousetrap and hlm, whose limit is <= ranks). Returns whether
// counts pass ranks, naming the values again from 1 (modular's lcm limit):
// then a count t names rule.value_of(t), otherwise t itself.
template <int W>
EULERDECK_HD_INLINE bool AvailableCounts(const RuleCore& rule, const ChildCountsN<W>& valid,
                                         const uint64_t* bits, uint64_t* counts) {
  const uint32_t ranks = static_cast<uint32_t>(rule.h->ranks);
  const bool wraps = valid.limit > ranks;
  if (W == 1 || valid.words == 1) {  // the common case: counts below 64
    counts[0] = bits[0];
    if (wraps) {
      for (uint32_t a = ranks; a <= valid.limit; a += ranks) counts[0] |= bits[0] << a;
    }
    return wraps;
  }
  if constexpr (W > 1) {
    if (valid.words <= kMaxTableWords && rule.h->repeated_chunks > 0) {
      // An OR of one table row per byte of the values' bits.
      uint64_t acc[kMaxTableWords] = {};
      const uint64_t* table = rule.pool + rule.h->repeated_at;
      for (int c = 0; c < rule.h->repeated_chunks; ++c) {
        const uint32_t byte = static_cast<uint32_t>(bits[c >> 3] >> (8 * (c & 7))) & 0xff;
        const uint64_t* row = table + (static_cast<size_t>(c) * 256 + byte) * kMaxTableWords;
        for (int w = 0; w < kMaxTableWords; ++w) acc[w] |= row[w];
      }
      for (int w = 0; w < valid.words && w < W; ++w) counts[w] = acc[w];
    } else {
      for (int w = 0; w < valid.words; ++w) counts[w] = 0;
      for (uint32_t a = 0; a <= valid.limit; a += ranks) {
        OrShiftedWords(counts, bits, valid.words, kValueWords, a);
      }
    }
  }
  return wraps;
}

// q = (t-1) mod (k+1): where the removed card sits in a child of k+1
// cards. Usually t <= k+1, which needs no division.
EULERDECK_HD_INLINE int RemovalSlot(int k, uint32_t t) {
  const uint32_t q = t - 1;
  return static_cast<int>(q <= static_cast<uint32_t>(k) ? q : q % static_cast<uint32_t>(k + 1));
}

// Writes the child of `parent` (k cards) that removes value x at count t
// into child[0..k]: C = D[k-q..k-1], x, D[0..k-q-1], q = RemovalSlot(k, t).
// REQUIRES: parent and child are distinct buffers of kNodeBytes bytes.
EULERDECK_HD_INLINE void MakeChild(const Card* parent, int k, uint32_t t, Card x, Card* child) {
  const int q = RemovalSlot(k, t);
  hd::CopyBytes<kMaxEnumCards>(child, parent + (k - q));  // child[0..q) is right
  child[q] = x;
  hd::CopyBytes<kMaxEnumCards>(child + q + 1, parent);  // child[q+1..k] is right
}

// The inverse: the parent (k cards) of `child` (k+1 cards) whose removed
// card sits at q: D = C[q+1..k], C[0..q-1]. REQUIRES: distinct buffers of
// kNodeBytes bytes.
EULERDECK_HD_INLINE void UnmakeChild(const Card* child, int k, int q, Card* parent) {
  hd::CopyBytes<kMaxEnumCards>(parent, child + q + 1);    // parent[0..k-q) is right
  hd::CopyBytes<kMaxEnumCards>(parent + (k - q), child);  // parent[k-q..k) is right
}

// Condition (3): the values a sub-deck can still take, i.e. those of which
// it holds fewer than `suits` cards. Kept incrementally with Take()/Give()
// (the walk keeps one along its path) or built from a sub-deck. A plain
// value; not thread-safe while it is being changed.
class AvailableValues {
 public:
  // Words of bits(): values 1..kMaxEnumRanks, bit v for value v.
  static constexpr int kWords = kValueWords;

  AvailableValues() = default;
  // No card held: every value 1..ranks available.
  EULERDECK_HD AvailableValues(int ranks, int suits) : ranks_(ranks), suits_(suits) {
    Reset(nullptr, 0);
  }
  // The values still available to `deck` (k cards).
  EULERDECK_HD AvailableValues(int ranks, int suits, const Card* deck, int k)
      : ranks_(ranks), suits_(suits) {
    Reset(deck, k);
  }
  // The same from a spec (GameSpec, engine/cards/game.h; host only).
  // REQUIRES: CheckEnumerable(spec).ok().
  template <class Spec>
  explicit AvailableValues(const Spec& spec) : AvailableValues(spec.ranks, spec.suits) {}
  template <class Spec>
  AvailableValues(const Spec& spec, const Card* deck, int k)
      : AvailableValues(spec.ranks, spec.suits, deck, k) {}

  // Forgets every card held, then takes deck[0..k).
  EULERDECK_HD void Reset(const Card* deck, int k) {
    static_assert(kWords == 2 && kMaxEnumRanks == 64, "bits 1..ranks fill at most two words");
    for (int v = 0; v <= kMaxEnumRanks; ++v) copies_[v] = 0;
    bits_[0] = ranks_ >= 63 ? ~uint64_t{1} : (uint64_t{1} << (ranks_ + 1)) - 2;
    bits_[1] = ranks_ == 64 ? 1 : 0;
    for (int i = 0; i < k; ++i) Take(deck[i]);
  }

  // Condition (3) itself: a sub-deck holding `held` cards of a value can
  // take another when held < suits.
  EULERDECK_HD static bool Available(int held, int suits) { return held < suits; }

  // Takes one card of value x / gives it back, keeping bits() equal to
  // Available(copies, suits) per value: x stops (starts) being available
  // exactly when its copies reach (leave) suits. REQUIRES for Take: Has(x);
  // for Give: a card of value x was taken.
  EULERDECK_HD void Take(Card x) {
    if (++copies_[x] == suits_) bits_[x >> 6] &= ~(uint64_t{1} << (x & 63));
  }
  EULERDECK_HD void Give(Card x) {
    if (copies_[x]-- == suits_) bits_[x >> 6] |= uint64_t{1} << (x & 63);
  }

  // Whether a card of value x may still be added.
  EULERDECK_HD bool Has(Card x) const { return (bits_[x >> 6] >> (x & 63)) & 1; }
  // Bit v set when value v is available (v = 1..ranks); kWords words.
  EULERDECK_HD const uint64_t* bits() const { return bits_; }
  // The ranks (a copy, nearer at hand in hot loops than the spec).
  EULERDECK_HD uint32_t ranks() const { return static_cast<uint32_t>(ranks_); }

  // The smallest available value above `after`. REQUIRES: there is one.
  EULERDECK_HD Card LowestAbove(Card after) const {
    static_assert(kWords == 2, "LowestAbove reads the bits as two words");
    const uint32_t from = static_cast<uint32_t>(after) + 1;  // 1..64
    if (from < 64) {
      const uint64_t lo = bits_[0] >> from;
      if (lo) return static_cast<Card>(from + static_cast<uint32_t>(hd::Ctz64(lo)));
    }
    return static_cast<Card>(64);  // bit 0 of the second word: value 64
  }

  // Writes the first `count` cards still missing from the full deck (each
  // value repeated as many times as it has copies left) to out[0..count), in
  // increasing order. REQUIRES: at least `count` cards are missing.
  EULERDECK_HD void Missing(int count, Card* out) const {
    int found = 0;
    Card v = 0;
    while (found < count) {
      v = LowestAbove(v);
      for (int c = copies_[v]; Available(c, suits_) && found < count; ++c) out[found++] = v;
    }
  }

 private:
  int copies_[kMaxEnumRanks + 1] = {};  // cards held of each value
  uint64_t bits_[kWords] = {};          // bit v: copies_[v] < suits_
  int ranks_ = 0;
  int suits_ = 0;
};

// The number of children of a parent that misses a single card (k = cards -
// 1): its value x is the one available, named at t = x, x + ranks, ...
// REQUIRES: exactly one value is available in `avail`.
template <int W>
EULERDECK_HD_INLINE uint64_t CountLastChildren(const ChildCountsN<W>& valid,
                                               const AvailableValues& avail) {
  const uint32_t ranks = avail.ranks();
  uint64_t n = 0;
  for (uint32_t t = avail.LowestAbove(0); t <= valid.limit; t += ranks) n += valid.Contains(t);
  return n;
}

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_EULERIAN_RULE_CORE_H_
