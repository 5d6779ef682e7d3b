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
//
// The rule's tables and hot functions live in rule_core.h, as plain data and
// code that also compiles for a CUDA device (the GPU worker, engine/gpu/):
// ChildRule builds the tables (its RuleImage) and calls them.
#ifndef EULERDECK_ENGINE_EULERIAN_CHILDREN_H_
#define EULERDECK_ENGINE_EULERIAN_CHILDREN_H_

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "engine/cards/game.h"
#include "engine/eulerian/rule_core.h"

namespace eulerdeck {

// Precomputed, per spec, for every parent size k: the count limit of the
// children and the bitset of S. Immutable after construction: share freely
// between threads.
class ChildRule {
 public:
  // REQUIRES: CheckEnumerable(spec).ok().
  explicit ChildRule(const GameSpec& spec);
  // Copies rebind the view to their own image.
  ChildRule(const ChildRule& other)
      : spec_(other.spec_), image_(other.image_), core_(RuleCore::Of(image_.data())) {}
  ChildRule& operator=(const ChildRule& other) {
    spec_ = other.spec_;
    image_ = other.image_;
    core_ = RuleCore::Of(image_.data());
    return *this;
  }

  const GameSpec& spec() const { return spec_; }

  // The level-1 sub-decks: the single card 2 (the final burned card) when
  // the policy ends_on_burned_two (hlm), every single card otherwise.
  std::vector<Card> Roots() const;

  // Fills `out` with the counts t that satisfy (1) and (2) for the parent
  // `parent` of k cards (1 <= k < cards). ForEachChild() adds (3).
  void ValidCounts(const Card* parent, int k, ChildCounts* out) const {
    eulerdeck::ValidCounts(core_, parent, k, out);
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
    const bool wraps = AvailableCounts(core_, valid, available_bits, counts);
    for (int j = 0; j < valid.words; ++j) {
      uint64_t w = valid.bits[j] & counts[j];
      while (w) {
        const uint32_t t = static_cast<uint32_t>(j * 64 + hd::Ctz64(w));
        w &= w - 1;
        const Card x = wraps ? core_.value_of(t) : static_cast<Card>(t);
        f(t, x);
      }
    }
  }

  // The same, passing f(t, x, r) also r, the number of counts below t that
  // name an available value: t's rank among the counts the parent could
  // take (the stored run's rank coding, storage/store/rank_coding.h), a prefix
  // popcount of the bitset the walk builds anyway. Any width W of counts
  // (the stored run's bits paths pass one word); inlined, as its caller's
  // f is the stored run's per-entry work.
  template <int W, class F>
  inline __attribute__((always_inline)) void ForEachChildRanked(const ChildCountsN<W>& valid,
                                                                const uint64_t* available_bits,
                                                                F&& f) const {
    uint64_t counts[W];
    const bool wraps = AvailableCounts(core_, valid, available_bits, counts);
    const int words = W == 1 ? 1 : valid.words;
    uint32_t below = 0;  // available counts in the words before j
    for (int j = 0; j < words; ++j) {
      uint64_t w = valid.bits[j] & counts[j];
      while (w) {
        const int bit = __builtin_ctzll(w);
        w &= w - 1;
        const uint32_t t = static_cast<uint32_t>(j * 64 + bit);
        const Card x = wraps ? core_.value_of(t) : static_cast<Card>(t);
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
        const uint32_t t = static_cast<uint32_t>(j * 64 + hd::Ctz64(w));
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
    return eulerdeck::CountLastChildren(valid, avail);
  }

  // True when count t gives a child of `parent` (k cards, 1 <= k < cards):
  // t satisfies (1)-(3). Any t is accepted (false when out of range).
  bool IsValidChild(const Card* parent, int k, uint32_t t) const;

  // q = (t-1) mod (k+1): where the removed card sits in a child of k+1
  // cards (rule_core.h).
  static int RemovalSlot(int k, uint32_t t) { return eulerdeck::RemovalSlot(k, t); }

  // Writes the child of `parent` (k cards) that removes value x at count t
  // into child[0..k]: C = D[k-q..k-1], x, D[0..k-q-1], q = (t-1) mod (k+1).
  // REQUIRES: parent and child are distinct buffers of kNodeBytes bytes.
  static void MakeChild(const Card* parent, int k, uint32_t t, Card x, Card* child) {
    eulerdeck::MakeChild(parent, k, t, x, child);
  }

  // The first position i of a k-card sub-deck whose h_i can be <= bound
  // (rule_core.h).
  static int FirstWithin(int k, int bound) { return eulerdeck::FirstWithin(k, bound); }

  // The count limit for the children of a k-card sub-deck: CountLimit(k+1).
  uint32_t Limit(int k) const { return core_.size(k).limit; }

  // Whether the children of a k-card sub-deck can be tested without
  // building anything (hit_views.h): their counts fit one word and S has
  // few elements that matter below the limit (at most kMaxViewSElements,
  // SizeRule::s_elements): then count t is blocked exactly when some h_i =
  // t - sigma, sigma one of them.
  bool Viewable(int k) const {
    return core_.size(k).words == 1 && core_.size(k).s_element_count <= kMaxViewSElements;
  }

  // The rule's tables as one block of words (rule_core.h), for a device,
  // and the view of them the walk reads.
  const std::vector<uint64_t>& image() const { return image_; }
  const RuleCore& core() const { return core_; }

 private:
  GameSpec spec_;
  std::vector<uint64_t> image_;  // a RuleImage: RuleHeader, then its pool
  RuleCore core_;                // a view of image_
};

// OK when the enumerator can handle the spec; OutOfRange naming the limit
// otherwise (InvalidArgument for a bad spec, NotSupported for a game whose
// policy is not enumerable).
Status CheckEnumerable(const GameSpec& spec);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_EULERIAN_CHILDREN_H_
