// Rank coding of the counts of a path (docs/storage_format.md, "Rank
// coding"), kept incrementally along a sorted sequence of paths: the state
// after path[0..d) for every depth d, so that moving to the next path in key
// order costs only its suffix, and ranking or unranking a count costs a few
// bit operations on the availability mask instead of a scan of the values.
// Both the block codec and the fused block expander code counts through
// this one class.
#ifndef EULERDECK_STORAGE_RANK_CODING_H_
#define EULERDECK_STORAGE_RANK_CODING_H_

#include <algorithm>
#include <cstdint>

#include "engine/cards/game.h"
#include "engine/eulerian/children.h"

namespace eulerdeck::storage {

// How counts are written. Counts are stored as their rank among the counts
// still possible at that point of the path (those naming a value with copies
// left): at the last levels few values remain, so ranks are tiny and zstd
// squeezes them.
struct CountCoding {
  int ranks = 0;  // m
  int suits = 0;  // s
};

// The path being coded, as a stack of counts; not thread-safe, one per
// thread. Condition (3) of the child rule (AvailableValues) is the same
// bookkeeping, so the stack keeps one: a fused expander reads the values
// still available to a decoded parent from here.
class RankPath {
 public:
  explicit RankPath(const CountCoding& c)
      : ranks_(static_cast<uint32_t>(c.ranks)),
        // Only ranks and suits matter to AvailableValues; the game does not.
        available_(GameSpec{Game::kMousetrap, c.ranks, c.suits}) {
    // Counts past the ranks (modular) would need a division each.
    table_size_ = std::min<uint32_t>(ranks_ * kMaxEnumCards + 1, kTableSize);
    for (uint32_t t = 1, v = 1, cycle = 0; t < table_size_; ++t) {
      value_[t] = static_cast<uint8_t>(v);
      cycle_[t] = static_cast<uint8_t>(cycle);
      if (v++ == ranks_) v = 1, ++cycle;
    }
  }

  // v(t) = ((t - 1) mod m) + 1. REQUIRES: t >= 1.
  uint32_t Value(uint32_t t) const {
    if (t <= ranks_) return t;
    return t < table_size_ ? value_[t] : (t - 1) % ranks_ + 1;
  }

  int depth() const { return depth_; }
  const uint16_t* counts() const { return counts_; }
  // The values path[0..depth) leaves available.
  const AvailableValues& available() const { return available_; }

  // Pops the path back to its first d counts. REQUIRES: d <= depth().
  void Truncate(int d) {
    while (depth_ > d) available_.Give(Value(counts_[--depth_]));
  }

  // The rank of count t at the current depth, without pushing it; false if t
  // names a value with no copy left.
  bool Rank(uint32_t t, uint32_t* rank) const {
    const uint32_t v = Value(t);
    if (!available_.Has(static_cast<Card>(v))) return false;
    if (t <= ranks_) {
      *rank = Below(v);
    } else {
      const uint32_t cycle = t < table_size_ ? cycle_[t] : (t - 1) / ranks_;
      *rank = cycle * Available() + Below(v);
    }
    return true;
  }

  // Pushes count t (REQUIRES: Rank(t) would succeed, depth() < kMaxEnumCards).
  void Push(uint16_t t) {
    counts_[depth_++] = t;
    available_.Take(Value(t));
  }

  // The count of rank `rank` at the current depth, pushed; false if there is
  // none (no value left, or a count past 16 bits): a corrupt block.
  bool PushRank(uint32_t rank, uint16_t* t) {
    const uint32_t a = Available();
    if (a == 0 || depth_ >= kMaxEnumCards) return false;
    uint32_t cycle = 0, index = rank;
    if (rank >= a) {
      cycle = rank / a;
      index = rank % a;
    }
    const uint64_t count = static_cast<uint64_t>(cycle) * ranks_ + Select(index);
    if (count > 0xffff) return false;
    *t = static_cast<uint16_t>(count);
    Push(*t);
    return true;
  }

 private:
  // Values available, and those of them below v (bits 1..64 of two words).
  uint32_t Available() const {
    return static_cast<uint32_t>(__builtin_popcountll(available_.bits()[0]) +
                                 __builtin_popcountll(available_.bits()[1]));
  }
  uint32_t Below(uint32_t v) const {
    const uint64_t lo = available_.bits()[0];
    return static_cast<uint32_t>(
        __builtin_popcountll(v >= 64 ? lo : lo & ((uint64_t{1} << v) - 1)));
  }
  // The value of the index-th available one (0-based). REQUIRES: index <
  // Available().
  uint32_t Select(uint32_t index) const {
    uint64_t w = available_.bits()[0];
    const uint32_t low = static_cast<uint32_t>(__builtin_popcountll(w));
    if (index >= low) return 64;  // value 64, the only one in the high word
    for (; index > 0; --index) w &= w - 1;
    return static_cast<uint32_t>(__builtin_ctzll(w));
  }

  // value_[t], cycle_[t]: v(t) and (t - 1) div m for t < table_size_ (every
  // count a game can reach: limits stay below ranks * cards).
  static constexpr uint32_t kTableSize = kMaxEnumRanks * kMaxEnumCards + 1;
  uint32_t ranks_;
  uint32_t table_size_ = 0;
  uint8_t value_[kTableSize];
  uint8_t cycle_[kTableSize];
  int depth_ = 0;
  uint16_t counts_[kMaxEnumCards] = {};
  AvailableValues available_;
};

}  // namespace eulerdeck::storage

#endif  // EULERDECK_STORAGE_RANK_CODING_H_
