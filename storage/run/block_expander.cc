#include "storage/run/block_expander.h"

#include <algorithm>
#include <array>

#include "engine/base/hd.h"

namespace eulerdeck::storage {

namespace {

// The bits paths' lambdas run once per entry: inlined, as GCC does not
// always by itself.
#define EULERDECK_INLINE_LAMBDA __attribute__((always_inline))

// The counts that h values `h` (bit w: some h_i = w, every w < 64) block
// for the children of a sub-deck of size p (condition (2)), within p's
// limit (p.words == 1): the union of h + S.
__attribute__((always_inline)) inline uint64_t Blocked(uint64_t h, const SizeRule& p) {
  // ValidCounts() (rule_core.h) ORs S's first word shifted by each h_i; the
  // elements of S past limit - 2 reach no count (every h >= 2), so with
  // those few known the OR runs over them instead.
  if (p.s_trivial) return h;
  uint64_t b = 0;
  if (p.s_element_count <= kMaxViewSElements) {
    for (uint32_t e = 0; e < p.s_element_count; ++e) b |= h << p.s_elements[e];
  } else {
    for (uint64_t w = h; w; w &= w - 1) b |= p.s_bits0 << hd::Ctz64(w);
  }
  return b;
}

// GrowBits()' table of ORs for decks of fewer than kShort cards: levels
// 1 to 3 (2^l <= j < 16), each a whole row of kShort.
constexpr int kShort = 16;

// Sets p[0..N) to 0 (N even) with N / 2 stores of 16 bytes: GCC turns a
// loop of zeros, or a memset of a size it knows, into a call to memset or
// a rep stos, both slow to start for a few hundred bytes once per deck.
template <int N>
__attribute__((always_inline)) inline void ZeroWords(uint64_t* p) {
  static_assert(N % 2 == 0);
  typedef uint64_t Pair __attribute__((vector_size(16), aligned(8)));
  const Pair zero = {};
  Pair* q = reinterpret_cast<Pair*>(p);
#pragma GCC unroll 32
  for (int i = 0; i < N / 2; ++i) q[i] = zero;
}

// RemovalSlot(k, t) (rule_core.h), (t - 1) mod (k + 1), without a branch
// or a division: with inverse = kSlotInverse[k + 1] = floor((2^32 - 1) /
// (k + 1)) + 1, (q * inverse) >> 32 is floor(q / (k + 1)) for q < 2^16 (as
// RankPath::Divide(), rank_coding.h).
constexpr std::array<uint64_t, kMaxEnumCards + 2> kSlotInverse = [] {
  std::array<uint64_t, kMaxEnumCards + 2> inverse{};
  for (uint32_t d = 1; d < inverse.size(); ++d) inverse[d] = uint64_t{0xffffffff} / d + 1;
  return inverse;
}();
__attribute__((always_inline)) inline int Slot(int k, uint32_t t, uint64_t inverse) {
  const uint64_t q = t - 1;  // t < 2^16: counts are 16 bits
  return static_cast<int>(q - static_cast<uint64_t>(k + 1) * ((q * inverse) >> 32));
}

// The widest counts the bits paths take: those with a table of S's shifted
// copies (rule_core.h, SizeRule::shifted_at), or one word.
constexpr int kBitsWords = kMaxTableWords;
template <int W>
using BitsCounts = ChildCountsN<W>;

bool BitsSize(const SizeRule& p) {
  return p.words == 1 || (p.words <= kBitsWords && p.shifted_at != kNoTable);
}

// Conditions (1) and (2) for the children of a sub-deck of size p whose h
// values are `h` (bit w: some h_i = w): what ValidCounts() (rule_core.h)
// finds from its cards. REQUIRES: BitsSize(p), p.words <= W.
template <int W>
__attribute__((always_inline)) inline void ValidFromH(const RuleCore& core, const SizeRule& p,
                                                      uint64_t h, BitsCounts<W>* out) {
  out->limit = p.limit;
  out->words = p.words;
  if (W == 1 || p.words == 1) {
    out->bits[0] = ~Blocked(h, p) & p.last_word_mask;
    return;
  }
  // An OR of the rows S << h of the h within the limit (ValidCountsWide()).
  const uint64_t* rows = core.pool + p.shifted_at;
  uint64_t acc[W] = {};
  const uint64_t within = p.limit >= 63 ? ~uint64_t{0} : (uint64_t{2} << p.limit) - 1;
  for (uint64_t w = h & within; w; w &= w - 1) {
    const uint64_t* row = rows + static_cast<size_t>(hd::Ctz64(w)) * p.words;
    for (int i = 0; i < W; ++i) {
      if (i < p.words) acc[i] |= row[i];
    }
  }
  acc[0] |= 1;  // count 0 does not exist
  for (int i = 0; i < W; ++i) {
    // (Every word written: the words past p.words are never read.)
    out->bits[i] = ~acc[i] & (i + 1 < p.words    ? ~uint64_t{0}
                              : i + 1 == p.words ? p.last_word_mask
                                                 : 0);
  }
}

// The values a child may still take after it took x: `avail` (its
// parent's) less x when x's copies run out (RankPath::Push(), without its
// stores). held: the parent's cards of value x.
__attribute__((always_inline)) inline void TakeValue(const uint64_t* avail, Card x, int held,
                                                     int suits, uint64_t* out) {
  out[0] = avail[0], out[1] = avail[1];
  if (!AvailableValues::Available(held + 1, suits)) out[x >> 6] &= ~(uint64_t{1} << (x & 63));
}

}  // namespace

int BlockFormatFor(const ChildRule& rule, int level) {
  const GameSpec& spec = rule.spec();
  if (level > kMaxTrieDepth) return kBlockFormat;
  const uint64_t m = static_cast<uint64_t>(spec.ranks);
  for (int d = 0; d < level; ++d) {
    const uint64_t values = std::min<uint64_t>(m, static_cast<uint64_t>(spec.cards() - d));
    const uint64_t cycles = (CountLimit(spec, static_cast<uint32_t>(d + 1)) - 1) / m + 1;
    if (values * cycles > kMaxTrieWidth) return kBlockFormat;
  }
  return kBlockFormatTrie;
}

int CountBytesFor(const ChildRule& rule, int level) {
  // Position 0 holds a root's value (at most the ranks, below 256).
  for (int d = 1; d < level; ++d) {
    if (rule.Limit(d) > 255) return 2;
  }
  return 1;
}

BlockExpander::BlockExpander(const ChildRule& rule, uint32_t entries_per_block)
    : rule_(rule),
      entries_per_block_(entries_per_block),
      path_(CountCoding{rule.spec().ranks, rule.spec().suits}),
      deck_(kMaxEnumCards) {
  const GameSpec& spec = rule.spec();
  const int n = spec.cards();
  if (spec.ranks + n < 64) {
    // Every h of a sub-deck of j cards is at most ranks + j: one word.
    for (int j = 1; j + 1 < n; ++j) {
      bits_[j] = BitsSize(rule.core().size(j)) && BitsSize(rule.core().size(j + 1));
    }
    for (int j = 1; j + 2 < n; ++j) bits3_[j] = bits_[j] && bits_[j + 1];
    for (int j = 1; j < n; ++j) one_word_[j] = rule.core().size(j).words == 1;
  }
}

__attribute__((always_inline)) inline void BlockExpander::SetRank(int i, uint32_t r) {
  rank_[i] = static_cast<uint16_t>(r);
  if (!nibbles_) return;
  int m = 0;
  const uint64_t w = pack_->writer.RankNibbles(r, &m);
  off_[i + 1] = static_cast<uint16_t>(off_[i] + m);
  tail_[i + 1] = (tail_[i] << (4 * m)) | w;
}

// Writes an entry of `level` whose counts are the path's first j (their
// ranks rank_[0..j)) and then one of rank r.
__attribute__((always_inline)) inline void BlockExpander::Write(Output& o, int level, int j,
                                                                uint32_t r) {
  if (__builtin_expect(o.raw.entries == entries_per_block_, 0)) Flush(&o, &out_[level - first_]);
  // The entry's counts from the prefix it shares with the level's last
  // entry on: the path's (their ranks are known), then r. (o.shared <= j:
  // every entry of the level is written with this j, and o.shared only
  // decreases in between; 0 before a block's first entry.)
  const int shared = o.shared;
  if (o.trie) {
    if (shared == j) {
      o.trie_writer.Sibling(r);
    } else {
      o.trie_writer.Entry(shared, rank_, j, r);
    }
  } else if (shared == j) {
    o.writer.Sibling(r);
  } else {
    // Its nibbles in one word where they fit: the suffix length (one
    // nibble below 16), the shared ranks' (the last of tail_[j]), r's.
    const int suffix = level - shared;
    const int n = off_[j] - off_[shared];  // >= 1
    int mr = 0;
    const uint64_t wr = o.writer.RankNibbles(r, &mr);
    if (suffix <= 15 && n + mr <= 15 && o.raw.count_bytes == pack_->raw.count_bytes) {
      const uint64_t ranks = tail_[j] & ((uint64_t{1} << (4 * n)) - 1);
      o.writer.Nibbles(
          (static_cast<uint64_t>(suffix - 1) << (4 * (n + mr))) | (ranks << (4 * mr)) | wr,
          1 + n + mr);
    } else {
      o.writer.Entry(suffix, rank_ + shared, j - shared, r);
    }
  }
  o.shared = j;
  ++o.raw.entries;
}

__attribute__((noinline)) void BlockExpander::Flush(Output* o, ExpandedBlocks* out) {
  if (o->trie) {
    o->trie_writer.Finish(&o->raw.payload);
  } else {
    o->writer.Finish();
  }
  std::string block;
  SealBlock(o->raw, &block);
  out->blocks.push_back(std::move(block));
  out->entries += o->raw.entries;
  out->raw_bytes += o->raw.payload.size();
  o->raw.entries = 0;
  o->shared = 0;
  o->raw.payload.clear();
  o->writer.Restart();
  if (o->trie) o->trie_writer.Restart(o->raw.k);
}

void BlockExpander::Grow(int j) {
  const int level = j + 1;
  if (!force_generic_) {
    if (level + 2 == last_ && bits3_[j]) {
      return one_word_[j] && one_word_[j + 1] && one_word_[j + 2] ? GrowBits<1, true>(j)
                                                                  : GrowBits<kBitsWords, true>(j);
    }
    if (level + 1 == last_ && bits_[j]) {
      return one_word_[j] && one_word_[j + 1] ? GrowBits<1, false>(j)
                                              : GrowBits<kBitsWords, false>(j);
    }
  }
  const bool deeper = level < last_;
  Output& o = outputs_[level - first_];
  ChildCounts valid;
  rule_.ValidCounts(deck_[j - 1].data(), j, &valid);
  // r, t's rank: the same as path_.Rank(t) (RankPath's definition), from
  // the child rule's bitset of available counts.
  rule_.ForEachChildRanked(
      valid,
      path_.available_bits(), [&](uint32_t t, Card x, uint32_t r) __attribute__((always_inline)) {
        Write(o, level, j, r);
        if (deeper) {
          SetRank(j, r);
          path_.Push(static_cast<uint16_t>(t));
          ChildRule::MakeChild(deck_[j - 1].data(), j, t, x, deck_[j].data());
          Grow(level);
          path_.Truncate(j);
          // The deeper levels' last entries now lie under this child.
          for (int l = level + 1; l <= last_; ++l) {
            Output& d = outputs_[l - first_];
            d.shared = std::min(d.shared, j);
          }
        }
      });
}

template <int W, bool kThree>
void BlockExpander::GrowBits(int j) {
  const RuleCore& core = rule_.core();
  const Card* d = deck_[j - 1].data();
  // or[l][i]: the h values of d's positions [i, i + 2^l) (for three
  // levels); pre[i], suf[i]: of [0, i) and [i, j).
  uint64_t or_[6][kMaxEnumCards + kShort], pre[kMaxEnumCards + 1], suf[kMaxEnumCards + 1];
  pre[0] = 0;
  for (int i = 0; i < j; ++i) {
    or_[0][i] = uint64_t{1} << (d[i] + (j - i));
    pre[i + 1] = pre[i] | or_[0][i];
  }
  suf[j] = 0;
  for (int i = j - 1; i >= 0; --i) suf[i] = suf[i + 1] | or_[0][i];
  if constexpr (kThree) {
    if (j < kShort) {
      // The short decks' table by whole rows of kShort (zeros past j), which
      // the compiler unrolls into vector ORs; range() reads no entry past
      // j. The words each row reads past the one before (rows 1 and 2 up
      // to kShort + 2 and kShort + 4) are zeroed too, so that no row is
      // made of unwritten words.
      ZeroWords<kShort + 8>(&or_[0][j]);
      ZeroWords<2>(&or_[1][kShort]);
      ZeroWords<4>(&or_[2][kShort]);
      for (int i = 0; i < kShort; ++i) or_[1][i] = or_[0][i] | or_[0][i + 1];
      for (int i = 0; i < kShort; ++i) or_[2][i] = or_[1][i] | or_[1][i + 2];
      for (int i = 0; i < kShort; ++i) or_[3][i] = or_[2][i] | or_[2][i + 4];
    } else {
      for (int l = 1; (1 << l) <= j; ++l) {
        for (int i = 0; i + (1 << l) <= j; ++i) {
          or_[l][i] = or_[l - 1][i] | or_[l - 1][i + (1 << (l - 1))];
        }
      }
    }
  }
  // The h values of d's positions [a, b).
  const auto range = [&](int a, int b) -> uint64_t {
    if (b <= a) return 0;
    const int l = 31 - __builtin_clz(static_cast<uint32_t>(b - a));
    return or_[l][a] | or_[l][b - (1 << l)];
  };

  const SizeRule& pg = core.size(j + 1);                // the grandchildren's counts
  const SizeRule& pgg = core.size(kThree ? j + 2 : j);  // the great-grandchildren's
  Output& c = outputs_[j + 1 - first_];
  Output& g = outputs_[j + 2 - first_];
  Output& gg = outputs_[(kThree ? j + 3 : j + 2) - first_];
  // The values the child and the grandchild may still take: the path's
  // (depth j) less x, then y (neither is pushed on the path).
  const uint64_t* avail = path_.available_bits();
  const int suits = path_.suits();
  const uint64_t slot1 = kSlotInverse[j + 1], slot2 = kSlotInverse[j + 2];
  BitsCounts<W> valid;
  ValidFromH(core, core.size(j), pre[j], &valid);
  rule_.ForEachChildRanked(
      valid, avail, [&](uint32_t t, Card x, uint32_t r) EULERDECK_INLINE_LAMBDA {
        Write(c, j + 1, j, r);
        SetRank(j, r);
        uint64_t avail_c[2];
        TakeValue(avail, x, path_.Copies(x), suits, avail_c);
        // The child C = d[p..j), x, d[0..p).
        const int q1 = Slot(j, t, slot1), s1 = j + 1 - q1, p = j - q1;
        const uint64_t xb = uint64_t{1} << (x + s1);
        const uint64_t hc = (suf[p] << s1) | xb | (pre[p] >> q1);
        BitsCounts<W> cv;
        ValidFromH(core, pg, hc, &cv);
        rule_.ForEachChildRanked(
            cv, avail_c, [&](uint32_t u, Card y, uint32_t r2) EULERDECK_INLINE_LAMBDA {
              Write(g, j + 2, j + 1, r2);
              if constexpr (kThree) {
                SetRank(j + 1, r2);
                uint64_t avail_g[2];
                TakeValue(avail_c, y, path_.Copies(y) + (y == x), suits, avail_g);
                // The grandchild G = C[c..j+1), y, C[0..c): the h values of C's
                // two ranges, from d's.
                const int q2 = Slot(j + 1, u, slot2), s2 = j + 2 - q2, c = j + 1 - q2;
                uint64_t lo, hi;  // C[0..c), C[c..j+1)
                if (c <= q1) {    // C[0..c) = d[p..p+c)
                  lo = range(p, p + c) << s1;
                  hi = (suf[p + c] << s1) | xb | (pre[p] >> q1);
                } else {  // C[c..j+1) = d[c-q1-1..p)
                  lo = (suf[p] << s1) | xb | (pre[c - q1 - 1] >> q1);
                  hi = range(c - q1 - 1, p) >> q1;
                }
                const uint64_t hg = (hi << s2) | (uint64_t{1} << (y + s2)) | (lo >> q2);
                BitsCounts<W> gv;
                ValidFromH(core, pgg, hg, &gv);
                rule_.ForEachChildRanked(gv, avail_g,
                                         [&](uint32_t, Card, uint32_t r3) EULERDECK_INLINE_LAMBDA {
                                           Write(gg, j + 3, j + 2, r3);
                                         });
                gg.shared = std::min(gg.shared, j + 1);
              }
            });
        // The deeper levels' last entries now lie under this child.
        g.shared = std::min(g.shared, j);
        gg.shared = std::min(gg.shared, j);
      });
}

Status BlockExpander::ExpandLevels(std::string_view data, int k, int levels, ExpandedBlocks* out) {
  if (levels < 1 || levels > kMaxPassLevels || k + levels > rule_.spec().cards()) {
    return Status::InvalidArgument("cannot expand level " + std::to_string(k) + " by " +
                                   std::to_string(levels) + " levels");
  }
  Status s = UnsealBlock(data, &in_);
  if (!s.ok()) return s;
  if (in_.k != k) return Status::Corruption("block has entries of the wrong level");
  const uint32_t n = in_.entries;
  first_ = k + 1;
  last_ = k + levels;
  out_ = out;
  for (int l = first_; l <= last_; ++l) {
    Output& o = outputs_[l - first_];
    o.raw.format = BlockFormatFor(rule_, l);
    o.trie = o.raw.format == kBlockFormatTrie;
    if (o.trie) o.trie_writer.Restart(l);
    o.raw.k = l;
    o.raw.count_bytes = CountBytesFor(rule_, l);
    o.raw.entries = 0;
    o.raw.payload.clear();
    // (Made here: a copied expander's writers would write to the original.)
    o.writer = NibbleWriter(&o.raw.payload, o.raw.count_bytes);
    o.shared = 0;
  }
  pack_ = &outputs_[last_ - first_];
  nibbles_ = false;
  for (int l = first_; l <= last_; ++l) nibbles_ |= !outputs_[l - first_].trie;

  RankPath& path = path_;
  path.Truncate(0);
  EntryReader reader(in_);
  for (uint32_t i = 0; i < n; ++i) {
    // The input entry: the parent's path, its ranks, its sub-deck.
    int suffix = 0;
    if (!reader.NextSuffix(&suffix)) return Status::Corruption(reader.error());
    const int prefix = k - suffix;
    path.Truncate(prefix);
    // (Every output, used or not: a loop the compiler unrolls.)
    for (Output& o : outputs_) o.shared = std::min(o.shared, prefix);
    for (int j = prefix; j < k; ++j) {
      uint32_t r = 0;
      if (!reader.NextRank(&r)) return Status::Corruption(reader.error());
      uint16_t t = 0;
      if (!path.PushRank(r, &t)) return Status::Corruption("block holds an impossible count");
      SetRank(j, r);
      if (j == 0) {
        deck_[0][0] = static_cast<Card>(t);
      } else {
        ChildRule::MakeChild(deck_[j - 1].data(), j, t, static_cast<Card>(path.Value(t)),
                             deck_[j].data());
      }
    }
    Grow(k);
  }
  if (!reader.AtEnd()) return Status::Corruption(reader.error());
  for (int l = first_; l <= last_; ++l) {
    Output& o = outputs_[l - first_];
    if (o.raw.entries > 0) Flush(&o, &out[l - first_]);
  }
  return Status::OK();
}

}  // namespace eulerdeck::storage
