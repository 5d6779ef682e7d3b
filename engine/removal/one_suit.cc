#include "engine/removal/one_suit.h"

#include <sys/mman.h>
#include <tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "engine/base/parallel.h"
#include "engine/cards/combinatorics.h"
#include "engine/cards/rules.h"

namespace eulerdeck::internal {

void SortByKey(std::vector<uint64_t>& a, std::vector<uint64_t>& tmp, int key_bits) {
  constexpr int kBits = 11;
  constexpr uint32_t kBuckets = 1u << kBits;
  const uint64_t key_mask = (uint64_t{1} << key_bits) - 1;
  const size_t size = a.size();
  if (size < 256) {  // a few: cheaper than clearing the counts
    std::sort(a.begin(), a.end(),
              [key_mask](uint64_t x, uint64_t y) { return (x & key_mask) < (y & key_mask); });
    return;
  }
  // The digit of pass p: bits p * kBits up, of the key only (the last pass's
  // digit is narrower where key_bits is not a multiple of kBits: the bits
  // above the key, a play's multiplicity, must not order the entries).
  const int passes = (key_bits + kBits - 1) / kBits;
  std::array<std::array<uint32_t, kBuckets>, 4> count{};  // keys of at most 44 bits
  for (uint64_t x : a) {
    const uint64_t key = x & key_mask;
    for (int p = 0; p < passes; ++p) ++count[p][(key >> (p * kBits)) & (kBuckets - 1)];
  }
  tmp.resize(size);
  for (int p = 0; p < passes; ++p) {
    std::array<uint32_t, kBuckets>& c = count[p];
    if (std::find(c.begin(), c.end(), size) != c.end()) continue;
    uint32_t sum = 0;
    for (uint32_t& x : c) sum += std::exchange(x, sum);
    const int shift = p * kBits;
    for (uint64_t x : a) tmp[c[((x & key_mask) >> shift) & (kBuckets - 1)]++] = x;
    a.swap(tmp);
  }
}

namespace {

using Mask = uint32_t;  // bit v-1: value v
constexpr int kMaxRanks = 32;
constexpr int kLeafBits = kLeafCards * kLeafCards;  // a leaf's compressed masks
static_assert(kLeafCards <= 4, "leaf entries pack counts of at most 4! = 24 in 5 bits");
// The second table: plays of kBigLeafCards = 4 cards (one_suit.h), 4
// masks of 4 bits, entries of 16 bits (BigLeafCodec). It is C(n, 4) * 2^16
// entries (179 MB at n = 15, 312 MB at n = 17), reserved but touched only
// where plays go; past n = 20 (the size of 32-bit entries, kBigLeafBytes)
// the walk stops at the first table.
constexpr int kBigLeafBits = kBigLeafCards * kBigLeafCards;
constexpr uint64_t kBigLeafBytes = uint64_t{1400} << 20;
// Children of a 5-card play: at most one per count of the limit, lcm(5, m)
// <= 5 * 32, each value named at most once per round.
constexpr int kMaxPending = 5 * 32;

// The table's entries are 16 bits: the distribution of a 4-card play,
// (c0, c1, c2, c4) with c0 + c1 + c2 + c4 <= 4! = 24 (c3 is always 0: a
// lone card is always matched), numbered from 1 (0: not filled). Half the
// memory of the 32-bit entries before (first touches cost, §24).
using BigSlot = std::atomic<uint16_t>;
struct BigLeafCodec {
  std::vector<uint32_t> decode;  // code -> 5 counts of 5 bits and bit 31, as Leaf()'s
  std::vector<uint16_t> encode;  // ((c0 * 25 + c1) * 25 + c2) * 25 + c4 -> code
};
const BigLeafCodec& BigLeafCodes() {
  static const BigLeafCodec codec = [] {
    BigLeafCodec c;
    c.decode.push_back(0);
    c.encode.assign(25 * 25 * 25 * 25, 0);
    for (uint32_t a = 0; a <= 24; ++a)
      for (uint32_t b = 0; a + b <= 24; ++b)
        for (uint32_t d = 0; a + b + d <= 24; ++d)
          for (uint32_t e = 0; a + b + d + e <= 24; ++e) {
            c.encode[((a * 25 + b) * 25 + d) * 25 + e] = static_cast<uint16_t>(c.decode.size());
            c.decode.push_back(1u << 31 | a | b << 5 | d << 10 | e << 20);
          }
    return c;
  }();
  return codec;
}

// A zeroed array of atomic words whose pages the system provides on first
// touch (an anonymous mapping), so that its size costs only what is used.
class LazyTable {
 public:
  LazyTable() = default;
  explicit LazyTable(uint64_t words) : bytes_(words * sizeof(BigSlot)) {
    void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
      bytes_ = 0;  // no table: the walk goes on to the small one
      return;
    }
    // Huge pages where the system has them: the table is read at random,
    // and with small pages nearly every read also misses the TLB.
    madvise(p, bytes_, MADV_HUGEPAGE);
    words_ = static_cast<BigSlot*>(p);
  }
  LazyTable(LazyTable&& o) noexcept { *this = std::move(o); }
  LazyTable& operator=(LazyTable&& o) noexcept {
    std::swap(words_, o.words_);
    std::swap(bytes_, o.bytes_);
    return *this;
  }
  LazyTable(const LazyTable&) = delete;
  LazyTable& operator=(const LazyTable&) = delete;
  ~LazyTable() {
    if (words_) munmap(words_, bytes_);
  }
  explicit operator bool() const { return words_ != nullptr; }
  BigSlot& at(uint64_t i) const { return words_[i]; }

 private:
  BigSlot* words_ = nullptr;
  uint64_t bytes_ = 0;
};

// Without a hardware popcount in the baseline instruction set, std::popcount
// is a library call; this is a dozen inline operations.
inline uint32_t Popcount(uint32_t x) {
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  return (((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

// t mod d for t < 2^32 without a division (Lemire, Kaser and Kurz 2019,
// "Faster remainder by direct computation"): inverse = 2^64 / d rounded up.
inline int FastMod(uint32_t t, int d, uint64_t inverse) {
  const uint64_t low = inverse * t;
  return static_cast<int>((static_cast<unsigned __int128>(low) * static_cast<uint32_t>(d)) >> 64);
}

// Masks are kept relative to the values still available: with r cards on
// the circle there are r values left, and bit j of a position's mask is the
// j-th smallest of them. Removing a value (bit j) closes the gap.
inline Mask DropBit(Mask x, Mask low) { return (x & low) | ((x >> 1) & ~low); }

// The last levels are counted level by level (OneSuit::Descend): every play
// of kSyncTop cards below a batch of tasks is gathered, sorted and merged
// (each distinct one counted once, times its multiplicity), then the same
// for their children, down to the table of kBigLeafCards cards, read in
// order. A level is processed when kSyncEntries of its plays are gathered
// (8 bytes each, and as much again to sort them: 2 MB a level and thread at
// 2^17, within a core's L2 on this machine (2 MB); larger levels merged more
// but sorted out of cache, slower) and at the end of a CountTasks() call.
constexpr size_t kSyncEntries = size_t{1} << 17;
// Tasks a batch of RunPlan() takes at most.
constexpr uint64_t kBatchTasks = 4096;
// A gathered play is one word: its key (OneSuit::SyncKey) in the low bits,
// its multiplicity above them; SortByKey() (one_suit.h) sorts a level.

// Per-thread scratch space of the search: the completions' cache and
// dynamic programme.
struct Scratch {
  struct Slot {
    uint64_t key = ~uint64_t{0};
    uint64_t value = 0;
  };
  static constexpr int kCacheBits = 16;
  std::vector<Slot> cache = std::vector<Slot>(size_t{1} << kCacheBits);
  std::vector<uint64_t> dp;
  std::vector<uint32_t> sets;
  // The level-synchronous last levels (OneSuit::Descend): the plays of r
  // cards gathered (key, multiplicity) for r = kBigLeafCards..kSyncTop, a
  // sort's second buffer, and the distribution counted so far.
  std::array<std::vector<uint64_t>, kSyncTop + 1> level;
  std::vector<uint64_t> sort_tmp;
  std::vector<uint64_t> out;
  std::array<uint32_t, kSyncTop + 1> stuck;  // OneSuit::ChildrenPacked()'s masks
  // plays[r]: the plays of r cards counted by Play() (SyncPlays()).
  std::array<uint64_t, kSyncTop + 1> plays{};
};

// dp over the values used so far (dp[0] = 1, the rest zero); only subsets
// of size p feed position p.
inline uint64_t SubsetDp(const Mask* masks, uint32_t full, uint64_t* dp) {
  for (uint32_t s = 0; s < full; ++s) {
    const uint64_t w = dp[s];
    if (!w) continue;
    for (uint32_t free = masks[Popcount(s)] & ~s; free; free &= free - 1)
      dp[s | (free & -free)] += w;
  }
  return dp[full];
}

// The permanent of every 4 x 4 0/1 matrix, indexed by its rows' masks (4
// bits each, row 0 lowest): at most 4! = 24. Filled once, 64 KB.
const uint8_t* Permanents4() {
  static const std::array<uint8_t, 65536> table = [] {
    std::array<uint8_t, 65536> t{};
    for (uint32_t i = 0; i < 65536; ++i) {
      const Mask m[4] = {i & 15u, (i >> 4) & 15u, (i >> 8) & 15u, i >> 12};
      uint64_t dp[16] = {1};
      t[i] = static_cast<uint8_t>(SubsetDp(m, 15, dp));
    }
    return t;
  }();
  return table.data();
}

// The permanent of 5 rows by expansion along row 0: each value j row 0 may
// take, times the permanent of the other rows without column j, from the
// table of 4 x 4.
uint64_t Permanent5(const Mask* m, const uint8_t* table4) {
  uint64_t sum = 0;
  for (Mask w = m[0]; w; w &= w - 1) {
    const Mask low = (w & -w) - 1;
    sum += table4[DropBit(m[1], low) | DropBit(m[2], low) << 4 | DropBit(m[3], low) << 8 |
                  DropBit(m[4], low) << 12];
  }
  return sum;
}

// The permanent of r = 6..8 rows split between its first k = r - 4 rows and
// its last 4 (Laplace's expansion along a set of rows): the sum, over the
// sets S of k columns, of the permanent of the first rows on S times that of
// the last rows on the other 4 columns, both from the table of 4 x 4 (for
// k < 4 the first rows' k x k matrix is completed to 4 x 4 by unit rows on
// the diagonal). Each row's mask is cut to S and to its complement by a
// table of bytes, SplitCutsOf(r): C(r, k) sets of 2^r masks, 18 KB at r = 8.
struct SplitCuts {
  int sets = 0;
  std::vector<uint8_t> cut;  // [set][mask]: the mask on S (low nibble), off S (high)
};
const SplitCuts& SplitCutsOf(int r) {
  static const std::array<SplitCuts, 9> all = [] {
    std::array<SplitCuts, 9> a;
    for (int n = 6; n <= 8; ++n) {
      const int k = n - 4;
      for (uint32_t set = 0; set < (1u << n); ++set) {
        if (std::popcount(set) != k) continue;
        for (uint32_t m = 0; m < (1u << n); ++m) {
          uint32_t on = 0, off = 0;
          int i_on = 0, i_off = 0;
          for (int b = 0; b < n; ++b) {
            if (set >> b & 1u)
              on |= (m >> b & 1u) << i_on++;
            else
              off |= (m >> b & 1u) << i_off++;
          }
          a[n].cut.push_back(static_cast<uint8_t>(on | off << 4));
        }
        ++a[n].sets;
      }
    }
    return a;
  }();
  return all[r];
}

template <int r>
uint64_t PermanentSplit(const Mask* m, const uint8_t* table4) {
  static_assert(r >= 6 && r <= 8);
  constexpr int k = r - 4;
  // The unit rows that complete the first rows' k x k matrix to 4 x 4.
  constexpr uint32_t kPad = k == 2 ? (4u << 8 | 8u << 12) : k == 3 ? 8u << 12 : 0u;
  const SplitCuts& cuts = SplitCutsOf(r);
  const uint8_t* cut = cuts.cut.data();
  uint64_t sum = 0;
  for (int i = 0; i < cuts.sets; ++i, cut += size_t{1} << r) {
    uint32_t top = kPad;
    for (int q = 0; q < k; ++q) top |= (cut[m[q]] & 15u) << (4 * q);
    const uint32_t upper = table4[top];  // 0 often, but unpredictably: no branch
    uint32_t bottom = 0;
    for (int q = 0; q < 4; ++q) bottom |= static_cast<uint32_t>(cut[m[k + q]] >> 4) << (4 * q);
    sum += upper * table4[bottom];
  }
  return sum;
}

// The permanent of r >= 5 rows: the first r - 4 rows by a dynamic programme
// over the sets of values they use, one layer a row (only the sets
// reached are visited, and each is cleared once read, so `dp`, 2^r
// entries, is all zero between calls), then the last 4 rows, restricted to
// the 4 values left, from the table of 4 x 4.
uint64_t PermanentLayered(const Mask* m, int r, const uint8_t* table4, uint64_t* dp,
                          uint32_t* sets) {
  // sets: two lists of at most C(r, r/2) sets each, one layer after the other.
  uint32_t* cur = sets;
  uint32_t* next = sets + (size_t{1} << (r - 1));
  int ncur = 1;
  cur[0] = 0;
  dp[0] = 1;
  for (int row = 0; row < r - 4; ++row) {
    int nnext = 0;
    for (int i = 0; i < ncur; ++i) {
      const uint32_t s = cur[i];
      const uint64_t w = std::exchange(dp[s], 0);
      for (Mask free = m[row] & ~s; free; free &= free - 1) {
        const uint32_t t = s | (free & -free);
        if (!dp[t]) next[nnext++] = t;
        dp[t] += w;
      }
    }
    std::swap(cur, next);
    ncur = nnext;
  }
  const uint32_t full = r == 32 ? ~0u : (1u << r) - 1;
  uint64_t sum = 0;
  for (int i = 0; i < ncur; ++i) {
    const uint32_t s = cur[i];
    const uint64_t w = std::exchange(dp[s], 0);
    uint32_t left = full & ~s;  // 4 values
    const int c0 = std::countr_zero(left);
    left &= left - 1;
    const int c1 = std::countr_zero(left);
    left &= left - 1;
    const int c2 = std::countr_zero(left);
    left &= left - 1;
    const int c3 = std::countr_zero(left);
    uint32_t index = 0;
    for (int q = 0; q < 4; ++q) {
      const Mask x = m[r - 4 + q];
      index |=
          (((x >> c0) & 1u) | ((x >> c1) & 1u) << 1 | ((x >> c2) & 1u) << 2 | ((x >> c3) & 1u) << 3)
          << (4 * q);
    }
    sum += w * table4[index];
  }
  return sum;
}

// The ways to give the r positions distinct values (r of them), each from
// its mask: a permanent, by dynamic programme over the subsets of values
// used. Plays that stop with the same masks are frequent, so those of 6 and
// 7 cards go through a cache (fewer are cheaper to count again). With
// `table4` (Permanents4()) instead: 4 cards from the table, 5 along row 0,
// 6 to 8 split (PermanentSplit), 9 along row 0 into splits of 8, and more by
// the layered programme.
uint64_t Completions(const Mask* masks, int r, Scratch& scratch, const uint8_t* table4) {
  const uint32_t full = (r == 32) ? ~0u : (1u << r) - 1;
  if (table4 && r >= 4 && r <= 9) {
    switch (r) {
      case 4:
        return table4[masks[0] | masks[1] << 4 | masks[2] << 8 | masks[3] << 12];
      case 5:
        return Permanent5(masks, table4);
      case 6:
        return PermanentSplit<6>(masks, table4);
      case 7:
        return PermanentSplit<7>(masks, table4);
      case 8:
        return PermanentSplit<8>(masks, table4);
      default: {  // 9: along row 0, each minor of 8 rows split
        uint64_t sum = 0;
        for (Mask w = masks[0]; w; w &= w - 1) {
          const Mask low = (w & -w) - 1;
          Mask minor[8];
          for (int q = 0; q < 8; ++q) minor[q] = DropBit(masks[q + 1], low);
          sum += PermanentSplit<8>(minor, table4);
        }
        return sum;
      }
    }
  }
  if (table4 && r >= 5) {
    if (scratch.dp.size() < (size_t{1} << r)) {
      scratch.dp.assign(size_t{1} << r, 0);
      scratch.sets.resize(size_t{1} << r);
    }
    return PermanentLayered(masks, r, table4, scratch.dp.data(), scratch.sets.data());
  }
  if (r <= 5) {
    uint64_t dp[32] = {1};
    return SubsetDp(masks, full, dp);
  }
  uint64_t key = 0;
  Scratch::Slot* slot = nullptr;
  if (r <= 7) {  // 7 masks of 8 bits and r above them
    for (int p = 0; p < r; ++p) key |= uint64_t{masks[p]} << (8 * p);
    key |= uint64_t(r) << 56;
    slot = &scratch.cache[(key * 0x9E3779B97F4A7C15ull) >> (64 - Scratch::kCacheBits)];
    if (slot->key == key) return slot->value;
  }
  if (scratch.dp.size() < (size_t{1} << r)) scratch.dp.resize(size_t{1} << r);
  std::fill(scratch.dp.begin(), scratch.dp.begin() + (size_t{1} << r), 0);
  scratch.dp[0] = 1;
  const uint64_t ways = SubsetDp(masks, full, scratch.dp.data());
  if (slot) *slot = Scratch::Slot{key, ways};
  return ways;
}

}  // namespace

uint64_t StoppedCompletions(const uint32_t* masks, int r) {
  Scratch scratch;
  return Completions(masks, r, scratch, Permanents4());
}

namespace {

struct Task {
  std::array<Mask, kMaxRanks> circle;
  int r;
  Mask avail;
  int shift;
  uint64_t count;
};

class OneSuit {
 public:
  // `baseline`: the solver as it was before issue 43 (every count of the
  // limit stepped through, leaves of kLeafCards cards only), kept as the
  // benchmark's baseline and as a second path for the tests.
  OneSuit(const GameSpec& spec, bool baseline, uint64_t level_entries)
      : spec_(spec), m_(spec.ranks), level_entries_(level_entries ? level_entries : kSyncEntries) {
    // Combinatorial number system for the leaves' value sets.
    for (int a = 0; a <= m_; ++a)
      for (int b = 0; b <= kSyncTop; ++b)
        choose_[a][b] = (b == 0) ? 1 : (a == 0 ? 0 : choose_[a - 1][b - 1] + choose_[a - 1][b]);
    const uint64_t sets = choose_[m_][kLeafCards];
    leaf_ = std::make_unique<std::atomic<uint32_t>[]>(sets << kLeafBits);
    skip_ = !baseline;
    for (int d = 1; d <= kMaxRanks; ++d) inverse_[d] = ~uint64_t{0} / d + 1;
    for (int d = 1; d <= kMaxRanks; ++d) {
      for (int v = 0; v <= kMaxRanks; ++v) residue_[d][v] = static_cast<uint8_t>(v % d);
    }
    if (!baseline) table4_ = Permanents4();
    const uint64_t big = choose_[m_][kBigLeafCards] << kBigLeafBits;
    if (!baseline && m_ > kBigLeafCards && big * sizeof(uint32_t) <= kBigLeafBytes) {
      big_leaf_ = LazyTable(big);
    }
    sync_ = static_cast<bool>(big_leaf_);
    for (int r = kBigLeafCards; r <= kSyncTop; ++r) {
      key_bits_[r] = std::bit_width(choose_[m_][r]) + r * r;
    }
  }

  // Adds to out[shift + i] the decks completing this play that remove i
  // more cards. `circle`: the masks from the pointer, relative to `avail`
  // (the values left, one bit per value). With tasks, states `depth`
  // removals down are handed over.
  void Walk(const Mask* circle, int r, Mask avail, int shift, uint64_t* out, int depth,
            std::map<std::vector<Mask>, Task>* tasks, Scratch& scratch) const {
    if (tasks && depth == 0) {
      std::vector<Mask> key(circle, circle + r);
      key.push_back(avail);
      key.push_back(static_cast<Mask>(shift));
      auto [it, fresh] = tasks->try_emplace(std::move(key));
      if (fresh) {
        std::copy(circle, circle + r, it->second.circle.begin());
        it->second.r = r;
        it->second.avail = avail;
        it->second.shift = shift;
        it->second.count = 0;
      }
      ++it->second.count;
      return;
    }
    if (r == kLeafCards) {
      const uint32_t e = Leaf(circle, avail);
      for (int i = 0; i <= kLeafCards; ++i) out[shift + i] += (e >> (5 * i)) & 31u;
      return;
    }
    if (r == kBigLeafCards && big_leaf_) {
      const uint32_t e = BigLeaf(circle, avail, scratch);
      for (int i = 0; i <= kBigLeafCards; ++i) out[shift + i] += (e >> (5 * i)) & 31u;
      return;
    }
    Step(circle, r, avail, shift, out, depth, tasks, scratch);
  }

  // Walk() below its tables: the counts from the pointer, each removal a
  // child, and the completions of the play that finds nothing.
  void Step(const Mask* circle, int r, Mask avail, int shift, uint64_t* out, int depth,
            std::map<std::vector<Mask>, Task>* tasks, Scratch& scratch) const {
    std::array<Mask, kMaxRanks> masks;
    std::copy(circle, circle + r, masks.begin());
    const uint32_t limit = CountLimit(spec_.policy().span, m_, r);
    // Children in the table of 4 cards: their entries are gathered first.
    struct Pending {
      std::array<Mask, kBigLeafCards> masks;
      Mask avail;
      BigSlot* slot;
    };
    const bool batch = r == kBigLeafCards + 1 && big_leaf_ && !tasks;
    std::array<Pending, kMaxPending> pending;
    int npending = 0;
    // The count names value v + 1 at position pos, which holds it (bit, its
    // bit relative to avail) in some decks: removed there, counting restarts
    // after it; or the card is not v + 1. False when no value is left to pos.
    auto name = [&](int pos, int v, Mask bit) {
      if (!(masks[pos] & bit)) return true;
      std::array<Mask, kMaxRanks> child;
      const Mask low = bit - 1;
      bool dead = false;
      for (int i = 1; i < r; ++i) {
        const int q = pos + i < r ? pos + i : pos + i - r;
        child[i - 1] = DropBit(masks[q], low);
        dead |= child[i - 1] == 0;
      }
      if (!dead) {
        const Mask child_avail = avail & ~(Mask{1} << v);
        if (batch) {
          // Looked up together at the end, their cache misses overlapped.
          Pending& p = pending[npending++];
          std::copy(child.begin(), child.begin() + kBigLeafCards, p.masks.begin());
          p.avail = child_avail;
          p.slot = &big_leaf_.at(BigLeafIndex(p.masks.data(), child_avail));
          __builtin_prefetch(p.slot);
        } else {
          Walk(child.data(), r - 1, child_avail, shift + 1, out, depth - 1, tasks, scratch);
        }
      }
      masks[pos] &= ~bit;
      return masks[pos] != 0;
    };
    auto flush = [&] {
      for (int k = 0; k < npending; ++k) {
        const uint32_t e =
            BigLeafEntry(pending[k].masks.data(), pending[k].avail, pending[k].slot, scratch);
        for (int i = 0; i <= kBigLeafCards; ++i) out[shift + 1 + i] += (e >> (5 * i)) & 31u;
      }
    };
    if (skip_) {
      // Only the counts that name a value still left matter: value v + 1
      // (the j-th left) is named at counts v + 1, v + 1 + m, ... up to the
      // limit, in increasing order of count within each round of m.
      std::array<int, kMaxRanks> values;
      int j = 0;
      for (Mask w = avail; w; w &= w - 1) values[j++] = std::countr_zero(w);
      const uint64_t inverse = inverse_[r];
      for (uint32_t base = 0; base < limit; base += m_) {
        for (j = 0; j < r; ++j) {
          const uint32_t t = base + values[j];  // the count, minus one
          if (t >= limit) break;
          if (!name(FastMod(t, r, inverse), values[j], Mask{1} << j)) return flush();
        }
      }
      flush();
    } else {
      // The bit, relative to avail, of each value named (0: none left).
      std::array<Mask, kMaxRanks> relative{};
      int j = 0;
      for (Mask w = avail; w; w &= w - 1, ++j) relative[std::countr_zero(w)] = Mask{1} << j;
      int pos = 0;
      int v = 0;  // the value named, minus one
      for (uint32_t t = 1; t <= limit; ++t) {
        if (relative[v] && !name(pos, v, relative[v])) return flush();
        if (++pos == r) pos = 0;
        if (++v == m_) v = 0;
      }
    }
    out[shift] += Completions(masks.data(), r, scratch, table4_);  // stuck here
  }

  // The level-synchronous count (every path but the baseline): adds to
  // scratch.out[n - r + i] `weight` times the decks completing this play
  // that remove i more cards. Plays of kSyncTop cards and fewer are only
  // gathered in scratch.level: Finish() counts what is left of them.
  void Descend(const Mask* circle, int r, Mask avail, uint64_t weight, Scratch& scratch) const {
    if (r <= kSyncTop && r >= kBigLeafCards && sync_) {
      Gather(r, SyncKey(circle, r, avail), weight, scratch);
      return;
    }
    if (r == kLeafCards) {
      const uint32_t e = Leaf(circle, avail);
      for (int i = 0; i <= kLeafCards; ++i)
        scratch.out[m_ - r + i] += weight * ((e >> (5 * i)) & 31u);
      return;
    }
    if (r == kSyncTop + 1 && sync_) {
      // Children of kSyncTop cards, gathered.
      constexpr int R = kSyncTop + 1;
      uint64_t packed = 0;
      for (int p = 0; p < R; ++p) packed |= uint64_t{circle[p]} << (R * p);
      if (const Mask* stuck = ChildrenPacked<R>(packed, weight, avail, scratch)) {
        scratch.out[m_ - R] += weight * Completions(stuck, R, scratch, table4_);
      }
      return;
    }
    std::array<Mask, kMaxRanks> masks;
    std::copy(circle, circle + r, masks.begin());
    const bool stuck = Children(masks.data(), r, avail, [&](const Mask* child, Mask child_avail) {
      Descend(child, r - 1, child_avail, weight, scratch);
    });
    if (stuck) scratch.out[m_ - r] += weight * Completions(masks.data(), r, scratch, table4_);
  }
  bool synchronous() const { return sync_; }

  // Counts every play still gathered, from kSyncTop cards down.
  void Finish(Scratch& scratch) const {
    for (int r = kSyncTop; r >= kBigLeafCards; --r) Flush(r, scratch);
  }
  // Drops them (a cancelled count).
  void Discard(Scratch& scratch) const {
    for (auto& level : scratch.level) level.clear();
  }

  uint64_t leaves_filled() const { return filled_.load(std::memory_order_relaxed); }

 private:
  // The counts from the pointer of a play of r cards, as Step(): calls
  // child(masks, avail) for each removal (the play that follows, r - 1
  // cards) and leaves in `masks` what the positions may still hold. True
  // when the play stops with every position possible (its completions
  // count), false when one has no value left.
  template <typename Child>
  bool Children(Mask* masks, int r, Mask avail, Child&& child) const {
    const uint32_t limit = CountLimit(spec_.policy().span, m_, r);
    // The position of count t + 1 is (base mod r + value mod r) mod r.
    std::array<int, kMaxRanks> values, residues;
    int j = 0;
    for (Mask w = avail; w; w &= w - 1, ++j) {
      values[j] = std::countr_zero(w);
      residues[j] = residue_[r][values[j]];
    }
    const int step = residue_[r][m_];  // m mod r
    int base_residue = 0;
    for (uint32_t base = 0; base < limit; base += m_) {
      for (j = 0; j < r; ++j) {
        const uint32_t t = base + values[j];  // the count, minus one
        if (t >= limit) break;
        int pos = base_residue + residues[j];
        if (pos >= r) pos -= r;
        const Mask bit = Mask{1} << j;
        if (!(masks[pos] & bit)) continue;
        std::array<Mask, kMaxRanks> next;
        const Mask low = bit - 1;
        Mask alive = ~Mask{0};
        for (int i = 1; i < r; ++i) {
          const int q = pos + i < r ? pos + i : pos + i - r;
          next[i - 1] = DropBit(masks[q], low);
          alive &= next[i - 1] ? ~Mask{0} : 0;
        }
        if (alive) child(next.data(), avail & ~(Mask{1} << values[j]));
        masks[pos] &= ~bit;
        if (!masks[pos]) return false;
      }
      base_residue += step;
      if (base_residue >= r) base_residue -= r;
    }
    return true;
  }

  // A play of r = kBigLeafCards..kSyncTop cards as key_bits_[r] bits: the
  // rank of its values left, then its r masks of r bits (for kBigLeafCards,
  // the big table's index).
  uint64_t SyncKey(const Mask* circle, int r, Mask avail) const {
    uint64_t rank = 0;
    int k = 1;
    for (Mask w = avail; w; w &= w - 1, ++k) rank += choose_[std::countr_zero(w)][k];
    uint64_t key = rank << (r * r);
    for (int p = 0; p < r; ++p) key |= uint64_t{circle[p]} << (r * p);
    return key;
  }
  // ranks[j]: the rank SyncKey() gives the r - 1 values of `avail` (r
  // values, r <= kSyncTop + 1) without its j-th smallest. In the rank, the
  // i-th smallest value c contributes C(c, i + 1); without the j-th, those
  // above it move down one place.
  template <int r>
  void ChildRanks(Mask avail, uint64_t* ranks) const {
    static_assert(r >= 2 && r <= kSyncTop + 1);
    int c[r];
    Mask w = avail;
    for (int i = 0; i < r; ++i, w &= w - 1) c[i] = std::countr_zero(w);
    uint64_t above = 0;  // of the values above j, one place down
    for (int j = r - 1; j >= 0; --j) {
      ranks[j] = above;
      if (j > 0) above += choose_[c[j]][j];
    }
    uint64_t below = 0;  // of the values below j, in place
    for (int j = 1; j < r; ++j) {
      below += choose_[c[j - 1]][j];
      ranks[j] += below;
    }
  }

  // A play of r cards to count with multiplicity `weight`: gathered, or,
  // if the weight does not fit beside the key, counted at once.
  void Gather(int r, uint64_t key, uint64_t weight, Scratch& scratch) const {
    if (weight >> (64 - key_bits_[r])) {
      Mask avail = 0;
      Play(r, key, weight, &avail, ~uint64_t{0}, scratch);
      return;
    }
    std::vector<uint64_t>& level = scratch.level[r];
    level.push_back(key | weight << key_bits_[r]);
    if (level.size() >= level_entries_) Flush(r, scratch);
  }

  // Counts the plays of r cards gathered: sorted by key, each distinct one
  // once, with the sum of its multiplicities (the plays of kBigLeafCards
  // cards thus read the big table in order).
  void Flush(int r, Scratch& scratch) const {
    std::vector<uint64_t>& level = scratch.level[r];
    if (level.empty()) return;
    const int bits = key_bits_[r];
    SortByKey(level, scratch.sort_tmp, bits);
    const uint64_t key_mask = (uint64_t{1} << bits) - 1;
    const size_t size = level.size();
    constexpr size_t kAhead = 16;
    Mask avail = 0;
    uint64_t rank = ~uint64_t{0};  // of `avail`
    for (size_t i = 0; i < size;) {
      const uint64_t key = level[i] & key_mask;
      uint64_t weight = 0;
      for (; i < size && (level[i] & key_mask) == key; ++i) weight += level[i] >> bits;
      if (r == kBigLeafCards && i + kAhead < size) {
        __builtin_prefetch(&big_leaf_.at(level[i + kAhead] & key_mask));
      }
      Play(r, key, weight, &avail, rank, scratch);
      rank = key >> (r * r);
    }
    level.clear();
  }

  // Counts a play of r cards given by its key, `weight` times. `avail`: the
  // values of rank `rank`, updated to this play's.
  void Play(int r, uint64_t key, uint64_t weight, Mask* avail, uint64_t rank,
            Scratch& scratch) const {
    ++scratch.plays[r];
    uint64_t* out = scratch.out.data() + (m_ - r);
    if (key >> (r * r) != rank) *avail = Unrank(key >> (r * r), r);
    if (r == kBigLeafCards) {
      const uint16_t code = big_leaf_.at(key).load(std::memory_order_relaxed);
      uint32_t e = codes_->decode[code];
      if (!code) {
        std::array<Mask, kBigLeafCards> masks;
        for (int p = 0; p < kBigLeafCards; ++p) masks[p] = (key >> (kBigLeafCards * p)) & 15u;
        e = BigLeafEntry(masks.data(), *avail, &big_leaf_.at(key), scratch);
      }
      for (int k = 0; k <= kBigLeafCards; ++k) out[k] += weight * ((e >> (5 * k)) & 31u);
      return;
    }
    // r == kSyncTop: its children are in the table.
    static_assert(kSyncTop == kBigLeafCards + 1);
    if (const Mask* stuck = ChildrenPacked<kSyncTop>(key, weight, *avail, scratch)) {
      out[0] += weight * Completions(stuck, kSyncTop, scratch, table4_);
    }
  }

  // Children() of a play of R = kSyncTop or kSyncTop + 1 cards whose
  // children are gathered, its masks packed in one word (position p's at
  // bits R p .. R p + R - 1: a play of 5 cards as its key holds them) and
  // each child's made from them by word operations: gathers the children
  // (keys from ChildRanks()). Returns the masks left when the play stops
  // with every position possible (in scratch), null when one has no value
  // left.
  template <int R>
  const Mask* ChildrenPacked(uint64_t packed, uint64_t weight, Mask avail, Scratch& scratch) const {
    static_assert(R == kSyncTop || R == kSyncTop + 1);
    constexpr int C = R - 1;           // a child's cards
    constexpr uint64_t kFields = [] {  // bit 0 of each R-bit field
      uint64_t f = 0;
      for (int i = 0; i < R; ++i) f |= uint64_t{1} << (R * i);
      return f;
    }();
    constexpr uint64_t kChildFields = [] {  // bit 0 of each C-bit field
      uint64_t f = 0;
      for (int i = 0; i < C; ++i) f |= uint64_t{1} << (C * i);
      return f;
    }();
    constexpr uint64_t kLow = ((uint64_t{1} << C) - 1) * kFields;  // bits 0..C-1 of each
    constexpr uint64_t kAll = (uint64_t{1} << (R * R)) - 1;
    constexpr uint64_t kFieldMask = (uint64_t{1} << R) - 1;
    uint64_t ranks[R];
    ChildRanks<R>(avail, ranks);
    const uint32_t limit = CountLimit(spec_.policy().span, m_, R);
    std::array<int, R> values, residues;
    int j = 0;
    for (Mask w = avail; w; w &= w - 1, ++j) {
      values[j] = std::countr_zero(w);
      residues[j] = residue_[R][values[j]];
    }
    const int step = residue_[R][m_];
    int base_residue = 0;
    for (uint32_t base = 0; base < limit; base += m_) {
      for (j = 0; j < R; ++j) {
        const uint32_t t = base + values[j];
        if (t >= limit) break;
        int pos = base_residue + residues[j];
        if (pos >= R) pos -= R;
        const uint64_t bit = uint64_t{1} << j;
        if (!((packed >> (R * pos)) & bit)) continue;
        // Every field without value j (DropBit), then the C fields from
        // pos + 1 around, each C bits wide.
        const uint64_t low = (bit - 1) * kFields;
        const uint64_t dropped = (packed & low) | ((packed >> 1) & ~low & kLow);
        const int shift = R * (pos + 1);
        const uint64_t turned = ((dropped >> shift) | (dropped << (R * R - shift))) & kAll;
        uint64_t child = 0;
        for (int i = 0; i < C; ++i) {
          child |= (turned >> i) & (((uint64_t{1} << C) - 1) << (C * i));
        }
        // A field of 0: no value left to that position (the usual test for
        // a zero field: a borrow into its top bit).
        const bool dead = ((child - kChildFields) & ~child & (kChildFields << (C - 1))) != 0;
        if (!dead) Gather(C, ranks[j] << (C * C) | child, weight, scratch);
        packed &= ~(bit << (R * pos));
        if (!((packed >> (R * pos)) & kFieldMask)) return nullptr;
      }
      base_residue += step;
      if (base_residue >= R) base_residue -= R;
    }
    Mask* masks = scratch.stuck.data();
    for (int p = 0; p < R; ++p) masks[p] = static_cast<Mask>((packed >> (R * p)) & kFieldMask);
    return masks;
  }

  // The set of k values of rank `rank` (SyncKey(), BigLeafIndex()).
  Mask Unrank(uint64_t rank, int k) const {
    Mask avail = 0;
    int c = m_;
    for (; k >= 1; --k) {
      while (choose_[c][k] > rank) --c;
      rank -= choose_[c][k];
      avail |= Mask{1} << c;
    }
    return avail;
  }

  // The distribution of a kLeafCards-card play, 5 counts of 5 bits (each at
  // most 4! = 24); bit 31 marks a filled entry. Threads that race fill it
  // with the same value.
  uint32_t Leaf(const Mask* circle, Mask avail) const {
    uint64_t rank = 0;
    int k = 1;
    for (Mask w = avail; w; w &= w - 1, ++k) rank += choose_[std::countr_zero(w)][k];
    uint64_t index = 0;
    for (int p = 0; p < kLeafCards; ++p) index |= uint64_t{circle[p]} << (kLeafCards * p);
    std::atomic<uint32_t>& slot = leaf_[(rank << kLeafBits) | index];
    uint32_t e = slot.load(std::memory_order_relaxed);
    if (e) return e;
    // Every completion, played by the rules module.
    std::array<Card, kLeafCards> values;
    int nv = 0;
    for (Mask w = avail; w; w &= w - 1) values[nv++] = static_cast<Card>(std::countr_zero(w) + 1);
    std::array<int, kLeafCards> perm;
    for (int i = 0; i < kLeafCards; ++i) perm[i] = i;
    e = 1u << 31;
    do {
      bool fits = true;
      std::array<Card, kLeafCards> deck;
      for (int p = 0; p < kLeafCards; ++p) {
        deck[p] = values[perm[p]];
        fits &= (circle[p] >> perm[p]) & 1u;
      }
      if (fits) e += 1u << (5 * PlayQuick(spec_, deck.data(), kLeafCards).removed);
    } while (std::next_permutation(perm.begin(), perm.end()));
    slot.store(e, std::memory_order_relaxed);
    filled_.fetch_add(1, std::memory_order_relaxed);
    return e;
  }

  // The same for kBigLeafCards cards, filled by Step() on first use: one
  // entry per value set and possible values of each position (4 bits each).
  uint32_t BigLeaf(const Mask* circle, Mask avail, Scratch& scratch) const {
    return BigLeafEntry(circle, avail, &big_leaf_.at(BigLeafIndex(circle, avail)), scratch);
  }
  uint64_t BigLeafIndex(const Mask* circle, Mask avail) const {
    uint64_t rank = 0;
    int k = 1;
    for (Mask w = avail; w; w &= w - 1, ++k) rank += choose_[std::countr_zero(w)][k];
    uint64_t index = 0;
    for (int p = 0; p < kBigLeafCards; ++p) index |= uint64_t{circle[p]} << (kBigLeafCards * p);
    return (rank << kBigLeafBits) | index;
  }
  uint32_t BigLeafEntry(const Mask* circle, Mask avail, BigSlot* slot_ptr, Scratch& scratch) const {
    BigSlot& slot = *slot_ptr;
    const uint16_t code = slot.load(std::memory_order_relaxed);
    if (code) return codes_->decode[code];
    uint64_t d[kBigLeafCards + 1] = {};
    Step(circle, kBigLeafCards, avail, 0, d, -1, nullptr, scratch);
    uint32_t e = 1u << 31;
    for (int i = 0; i <= kBigLeafCards; ++i) e |= static_cast<uint32_t>(d[i]) << (5 * i);
    if (d[3] == 0 && d[0] + d[1] + d[2] + d[4] <= 24) {  // always: see BigLeafCodec
      slot.store(codes_->encode[((d[0] * 25 + d[1]) * 25 + d[2]) * 25 + d[4]],
                 std::memory_order_relaxed);
      filled_.fetch_add(1, std::memory_order_relaxed);
    }
    return e;
  }

  const GameSpec spec_;
  const int m_;
  const uint64_t level_entries_;  // plays gathered in a level before they are counted
  bool skip_ = true;
  bool sync_ = false;                                   // Descend() gathers the last levels
  uint64_t inverse_[kMaxRanks + 1] = {};                // FastMod()'s, for each divisor
  uint8_t residue_[kMaxRanks + 1][kMaxRanks + 1] = {};  // v mod d, Children()'s
  const uint8_t* table4_ = nullptr;
  uint64_t choose_[kMaxRanks + 1][kSyncTop + 1] = {};
  int key_bits_[kSyncTop + 1] = {};  // SyncKey()'s, for each level
  std::unique_ptr<std::atomic<uint32_t>[]> leaf_;
  LazyTable big_leaf_;
  const BigLeafCodec* codes_ = &BigLeafCodes();
  mutable std::atomic<uint64_t> filled_{0};
};

class OneSuitPlan final : public RemovedPlan {
 public:
  OneSuitPlan(const GameSpec& spec, int depth, bool baseline, uint64_t level_entries)
      : spec_(spec), depth_(depth), baseline_(baseline), solver_(spec, baseline, level_entries) {}

  const GameSpec& spec() const override { return spec_; }
  int split_depth() const override { return depth_; }
  const char* method() const override { return baseline_ ? "leaf-table-baseline" : "leaf-table"; }
  const std::vector<uint64_t>& top() const override { return top_; }
  uint64_t tasks() const override { return tasks_.size(); }
  uint64_t fingerprint() const override { return fingerprint_; }
  uint64_t states() const override { return solver_.leaves_filled(); }
  uint64_t memo_hits() const override { return 0; }
  uint64_t batch_tasks() const override { return solver_.synchronous() ? kBatchTasks : 1; }

  const std::vector<uint64_t>& batch_order() const override { return order_; }

  std::vector<uint64_t> plays() const {
    std::vector<uint64_t> sum(kSyncTop + 1, 0);
    for (const Scratch& scratch : scratches_) {
      for (int r = 0; r <= kSyncTop; ++r) sum[r] += scratch.plays[r];
    }
    return sum;
  }

  Status CountTasks(uint64_t first, uint64_t count, std::vector<uint64_t>* removed,
                    const std::atomic<bool>* stop) const override {
    if (Status s = CheckTaskRange(first, count, tasks_.size()); !s.ok()) return s;
    return Count([first](uint64_t i) { return first + i; }, count, removed, stop);
  }
  Status CountTaskList(const uint64_t* tasks, uint64_t count, std::vector<uint64_t>* removed,
                       const std::atomic<bool>* stop) const override {
    for (uint64_t i = 0; i < count; ++i) {
      if (Status s = CheckTaskRange(tasks[i], 1, tasks_.size()); !s.ok()) return s;
    }
    return Count([tasks](uint64_t i) { return tasks[i]; }, count, removed, stop);
  }

  // The tasks index(0), ..., index(count - 1).
  template <typename Index>
  Status Count(Index index, uint64_t count, std::vector<uint64_t>* removed,
               const std::atomic<bool>* stop) const {
    const int n = spec_.cards();
    if (removed->size() < static_cast<size_t>(n + 1)) removed->resize(n + 1, 0);
    Scratch& scratch = scratches_.local();
    if (solver_.synchronous()) {
      // The tasks descend together: their last levels are gathered across
      // them and counted level by level.
      scratch.out.assign(n + 1, 0);
      for (uint64_t i = 0; i < count; ++i) {
        if (stop && stop->load(std::memory_order_relaxed)) {
          solver_.Discard(scratch);
          return Status::Cancelled("interrupted before every task was counted");
        }
        const Task& t = tasks_[index(i)];
        solver_.Descend(t.circle.data(), t.r, t.avail, t.count, scratch);
      }
      solver_.Finish(scratch);
      for (int k = 0; k <= n; ++k) (*removed)[k] += scratch.out[k];
      return Status::OK();
    }
    std::vector<uint64_t> one(n + 1);
    for (uint64_t i = 0; i < count; ++i) {
      if (stop && stop->load(std::memory_order_relaxed)) {
        return Status::Cancelled("interrupted before every task was counted");
      }
      // Walk adds a task's distribution once; the task stands for `count`
      // identical states.
      const Task& t = tasks_[index(i)];
      std::fill(one.begin(), one.end(), 0);
      solver_.Walk(t.circle.data(), t.r, t.avail, t.shift, one.data(), -1, nullptr, scratch);
      for (int k = 0; k <= n; ++k) (*removed)[k] += t.count * one[k];
    }
    return Status::OK();
  }

  // Cuts the play from `root` (masks relative to all n values).
  void Cut(const Mask* root) {
    const int n = spec_.cards();
    const Mask all = n == 32 ? ~Mask{0} : (Mask{1} << n) - 1;
    // Tasks a few removals down, identical states merged, in key order.
    std::map<std::vector<Mask>, Task> task_map;
    top_.assign(n + 1, 0);
    Scratch scratch;
    solver_.Walk(root, n, all, 0, top_.data(), depth_, &task_map, scratch);
    tasks_.reserve(task_map.size());
    uint64_t h = HashBytes(kHashSeed, "one-suit", 8);
    const int head[3] = {static_cast<int>(spec_.game), spec_.ranks, depth_};
    h = HashBytes(h, head, sizeof head);
    for (auto& [key, task] : task_map) {
      h = HashBytes(h, key.data(), key.size() * sizeof(Mask));
      h = HashBytes(h, &task.count, sizeof task.count);
      tasks_.push_back(task);
    }
    for (uint64_t x : top_) h = HashBytes(h, &x, sizeof x);
    fingerprint_ = h;
    // A whole count takes the tasks by their values left: those share most
    // of their last levels. (The index order, which stores keep, is the
    // key's: the masks first.)
    if (solver_.synchronous()) {
      order_.resize(tasks_.size());
      for (uint64_t i = 0; i < order_.size(); ++i) order_[i] = i;
      std::stable_sort(order_.begin(), order_.end(), [this](uint64_t a, uint64_t b) {
        return tasks_[a].avail < tasks_[b].avail;
      });
    }
  }

 private:
  const GameSpec spec_;
  const int depth_;
  const bool baseline_;
  OneSuit solver_;
  std::vector<uint64_t> top_;
  std::vector<Task> tasks_;
  std::vector<uint64_t> order_;  // batch_order()
  uint64_t fingerprint_ = 0;
  mutable tbb::enumerable_thread_specific<Scratch> scratches_;
};

}  // namespace

Status PlanRemovedOneSuit(const GameSpec& spec, const RemovedOptions& options,
                          std::unique_ptr<RemovedPlan>* plan, const std::vector<Card>* fixed) {
  const int n = spec.cards();
  if (spec.suits != 1 || n <= kLeafCards || n > kMaxRanks ||
      spec.policy().on_miss == OnMiss::kBurn) {
    return Status::Internal("PlanRemovedOneSuit: unsupported spec");
  }
  // Relative to all n values: bit v-1 is value v.
  const Mask all = n == 32 ? ~Mask{0} : (Mask{1} << n) - 1;
  std::array<Mask, kMaxRanks> root;
  root.fill(all);
  if (fixed) {
    if (fixed->size() != static_cast<size_t>(n)) return Status::Internal("fixed: wrong size");
    Mask taken = 0;
    for (int p = 0; p < n; ++p) {
      if ((*fixed)[p]) taken |= Mask{1} << ((*fixed)[p] - 1);
    }
    for (int p = 0; p < n; ++p) {
      root[p] = (*fixed)[p] ? Mask{1} << ((*fixed)[p] - 1) : all & ~taken;
    }
  }
  const int depth = std::min(options.split_depth > 0 ? options.split_depth : 3, n - kLeafCards - 1);
  auto p = std::make_unique<OneSuitPlan>(spec, depth, options.baseline, options.level_entries);
  p->Cut(root.data());
  *plan = std::move(p);
  return Status::OK();
}

std::vector<uint64_t> SyncPlays(const RemovedPlan& plan) {
  const auto* one_suit = dynamic_cast<const OneSuitPlan*>(&plan);
  return one_suit ? one_suit->plays() : std::vector<uint64_t>(kSyncTop + 1, 0);
}

Status CountRemovedOneSuit(const GameSpec& spec, const RemovedOptions& options,
                           RemovedResult* result, const std::vector<Card>* fixed) {
  std::unique_ptr<RemovedPlan> plan;
  if (Status st = PlanRemovedOneSuit(spec, options, &plan, fixed); !st.ok()) return st;
  return RunPlan(*plan, options, result);
}

}  // namespace eulerdeck::internal
