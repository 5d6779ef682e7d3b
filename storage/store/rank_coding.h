// Rank coding of the counts of a path (docs/storage_format.md, "Rank
// coding"), kept incrementally along a sorted sequence of paths: the state
// after path[0..d) for every depth d, so that moving to the next path in key
// order costs only its suffix, and ranking or unranking a count costs a few
// bit operations on the availability mask instead of a scan of the values.
// Both the block codec and the fused block expander code counts through
// this one class.
#ifndef EULERDECK_STORAGE_STORE_RANK_CODING_H_
#define EULERDECK_STORAGE_STORE_RANK_CODING_H_

#include <algorithm>
#include <array>
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

// The path being coded, as a stack of counts with, for every depth d, the
// values path[0..d) leaves available (condition (3) of the child rule, in
// the layout of AvailableValues::bits()) and how many there are: popping
// the path back costs nothing (one copy per value is the usual deck), and a
// fused expander hands the parent's bits straight to the child rule. Not
// thread-safe; one per thread.
class RankPath {
 public:
  explicit RankPath(const CountCoding& c)
      : ranks_(static_cast<uint32_t>(c.ranks)), suits_(c.suits) {
    // Counts past the ranks (modular) would need a division each.
    table_size_ = std::min<uint32_t>(ranks_ * kMaxEnumCards + 1, kTableSize);
    for (uint32_t t = 1, v = 1, cycle = 0; t < table_size_; ++t) {
      value_[t] = static_cast<uint8_t>(v);
      cycle_[t] = static_cast<uint8_t>(cycle);
      if (v++ == ranks_) v = 1, ++cycle;
    }
    const AvailableValues all(GameSpec{Game::kMousetrap, c.ranks, c.suits});  // game irrelevant
    bits_[0][0] = all.bits()[0];
    bits_[0][1] = all.bits()[1];
    available_[0] = static_cast<uint8_t>(ranks_);
  }

  // v(t) = ((t - 1) mod m) + 1. REQUIRES: t >= 1.
  uint32_t Value(uint32_t t) const {
    if (t <= ranks_) return t;
    return t < table_size_ ? value_[t] : (t - 1) % ranks_ + 1;
  }

  int depth() const { return depth_; }
  const uint16_t* counts() const { return counts_; }
  // The values path[0..depth) leaves available, as AvailableValues::bits().
  const uint64_t* available_bits() const { return bits_[depth_]; }

  // The cards of value v the path holds (tracked with several suits only;
  // 0 with one).
  int Copies(uint32_t v) const { return suits_ > 1 ? copies_[v] : 0; }
  int suits() const { return suits_; }

  // Pops the path back to its first d counts. REQUIRES: d <= depth().
  void Truncate(int d) {
    if (suits_ > 1) {
      for (int j = d; j < depth_; ++j) --copies_[Value(counts_[j])];
    }
    depth_ = d;
  }

  // The rank of count t at the current depth, without pushing it; false if t
  // names a value with no copy left.
  bool Rank(uint32_t t, uint32_t* rank) const {
    const uint32_t v = Value(t);
    if (!Has(v)) return false;
    if (t <= ranks_) {
      *rank = Below(v);
    } else {
      const uint32_t cycle = t < table_size_ ? cycle_[t] : (t - 1) / ranks_;
      *rank = cycle * available_[depth_] + Below(v);
    }
    return true;
  }

  // Pushes count t (REQUIRES: Rank(t) would succeed, depth() < kMaxEnumCards).
  void Push(uint16_t t) {
    const uint32_t v = Value(t);
    const int d = depth_;
    counts_[d] = t;
    bits_[d + 1][0] = bits_[d][0];
    bits_[d + 1][1] = bits_[d][1];
    available_[d + 1] = available_[d];
    const int held = suits_ > 1 ? copies_[v]++ : 0;
    if (!AvailableValues::Available(held + 1, suits_)) {
      bits_[d + 1][v >> 6] &= ~(uint64_t{1} << (v & 63));
      --available_[d + 1];
    }
    depth_ = d + 1;
  }

  // The count of rank `rank` at the current depth, pushed; false if there is
  // none (no value left, or a count past 16 bits): a corrupt block.
  bool PushRank(uint32_t rank, uint16_t* t) {
    const uint32_t a = available_[depth_];
    if (a == 0 || depth_ >= kMaxEnumCards) return false;
    uint32_t cycle = 0, index = rank;
    if (rank >= a) {  // modular's counts past the ranks
      cycle = Divide(rank, a);
      index = rank - cycle * a;
    }
    const uint64_t count = static_cast<uint64_t>(cycle) * ranks_ + Select(index);
    if (count > 0xffff) return false;
    *t = static_cast<uint16_t>(count);
    Push(*t);
    return true;
  }

  // The position of w's index-th one (0-based; REQUIRES: index <
  // popcount(w)), without a loop (Vigna, "Broadword implementation of
  // rank/select queries", 2008): the ones of each byte and their running
  // sums, one subtraction per byte against index to find the byte, then a
  // table for the one within it.
  static uint32_t Select64(uint64_t w, uint32_t index) {
    constexpr uint64_t kL8 = 0x0101010101010101, kH8 = 0x8080808080808080;
    uint64_t s = w - ((w >> 1) & 0x5555555555555555);
    s = (s & 0x3333333333333333) + ((s >> 2) & 0x3333333333333333);
    s = (s + (s >> 4)) & 0x0F0F0F0F0F0F0F0F;
    const uint64_t sums = s * kL8;  // byte b: the ones of bytes 0..b (at most 64)
    // Byte b's high bit: index >= sums[b], which holds for the bytes before
    // the one that has the index-th one.
    const uint64_t before = (((index * kL8) | kH8) - sums) & kH8;
    const int place = 8 * __builtin_popcountll(before);
    const uint32_t within = index - static_cast<uint32_t>(((sums << 8) >> place) & 0xff);
    return static_cast<uint32_t>(place) + kSelectInByte[(within << 8) | ((w >> place) & 0xff)];
  }
  // The same for a word of 16 bits (REQUIRES: w < 2^16, index <
  // popcount(w)): which byte from the low byte's ones, without a branch.
  static uint32_t Select16(uint32_t w, uint32_t index) {
    const uint32_t low = static_cast<uint32_t>(__builtin_popcount(w & 0xff));
    const uint32_t high = index >= low ? 1 : 0;
    const uint32_t within = index - (high ? low : 0);
    return 8 * high + kSelectInByte[(within << 8) | ((w >> (8 * high)) & 0xff)];
  }
  // kSelectInByte[(i << 8) | b]: the position of b's i-th one (0 when b has
  // fewer).
  static constexpr std::array<uint8_t, 8 * 256> kSelectInByte = [] {
    std::array<uint8_t, 8 * 256> table{};
    for (uint32_t b = 0; b < 256; ++b) {
      uint32_t i = 0;
      for (uint32_t p = 0; p < 8; ++p) {
        if ((b >> p) & 1) table[(i++ << 8) | b] = static_cast<uint8_t>(p);
      }
    }
    return table;
  }();

 private:
  // rank / a for rank < 2^16 and 1 <= a <= 64, by a multiplication: with
  // M = floor((2^32 - 1) / a) + 1 = (2^32 + e) / a, 0 <= e < a,
  // rank * M / 2^32 exceeds rank / a by less than 2^-16, and the fraction of
  // rank / a is at most 1 - 1/a <= 1 - 2^-6, so the floor is exact.
  static uint32_t Divide(uint32_t rank, uint32_t a) {
    static constexpr std::array<uint64_t, kMaxEnumRanks + 1> kInverse = [] {
      std::array<uint64_t, kMaxEnumRanks + 1> inverse{};
      for (uint32_t d = 1; d <= kMaxEnumRanks; ++d) inverse[d] = uint64_t{0xffffffff} / d + 1;
      return inverse;
    }();
    if (rank >= (1u << 16)) return rank / a;
    return static_cast<uint32_t>((rank * kInverse[a]) >> 32);
  }

  bool Has(uint32_t v) const { return (bits_[depth_][v >> 6] >> (v & 63)) & 1; }
  // The available values below v (bits 1..63 of the low word; 64 is the
  // only value in the high word).
  uint32_t Below(uint32_t v) const {
    const uint64_t lo = bits_[depth_][0];
    return static_cast<uint32_t>(
        __builtin_popcountll(v >= 64 ? lo : lo & ((uint64_t{1} << v) - 1)));
  }
  // The value of the index-th available one (0-based). REQUIRES: index <
  // the number available.
  uint32_t Select(uint32_t index) const {
    const uint64_t w = bits_[depth_][0];
    const uint32_t low = static_cast<uint32_t>(__builtin_popcountll(w));
    if (index >= low) return 64;  // value 64, the only one in the high word
    // (Games of up to 15 ranks: a branch that goes one way for a whole run.)
    if (w < (uint64_t{1} << 16)) return Select16(static_cast<uint32_t>(w), index);
    return Select64(w, index);
  }

  // value_[t], cycle_[t]: v(t) and (t - 1) div m for t < table_size_ (every
  // count a game can reach: limits stay below ranks * cards).
  static constexpr uint32_t kTableSize = kMaxEnumRanks * kMaxEnumCards + 1;
  uint32_t ranks_;
  int suits_;
  uint32_t table_size_ = 0;
  int depth_ = 0;
  uint16_t counts_[kMaxEnumCards] = {};
  uint64_t bits_[kMaxEnumCards + 1][AvailableValues::kWords] = {};
  uint8_t available_[kMaxEnumCards + 1] = {};  // set bits of bits_[d]
  uint8_t copies_[kMaxEnumRanks + 1] = {};     // suits > 1: cards held of each value
  uint8_t value_[kTableSize];
  uint8_t cycle_[kTableSize];
};

}  // namespace eulerdeck::storage

#endif  // EULERDECK_STORAGE_STORE_RANK_CODING_H_
