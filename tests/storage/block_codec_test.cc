// The fast block codec and the fused block expander against obviously right
// references: the rank coding written out as docs/storage_format.md states
// it (scan the values, count those with copies left), and the stored run's
// old expansion (decode every path, expand with the engine's LevelExpander,
// encode every path). Both must give the same bytes, on real levels of every
// game, with one and two bytes per count, values up to 64, and blocks cut at
// odd sizes.
#include "storage/store/block_codec.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "engine/eulerian/children.h"
#include "engine/eulerian/expand.h"
#include "storage/run/block_expander.h"
#include "storage/store/format.h"
#include "storage/store/rank_coding.h"

namespace eulerdeck::storage {
namespace {

// Rank coding by definition: t names v = ((t-1) mod m) + 1 in cycle
// (t-1) div m; with A values having copies left after the prefix and v the
// i-th of them, the rank is cycle*A + i.
uint32_t ReferenceRank(const CountCoding& c, const uint16_t* prefix, int j, uint16_t t) {
  std::vector<int> copies(c.ranks + 1, 0);
  for (int i = 0; i < j; ++i) ++copies[(prefix[i] - 1) % c.ranks + 1];
  const int v = (t - 1) % c.ranks + 1;
  uint32_t available = 0, before = 0;
  for (int u = 1; u <= c.ranks; ++u) {
    if (copies[u] < c.suits) {
      ++available;
      if (u < v) ++before;
    }
  }
  return static_cast<uint32_t>((t - 1) / c.ranks) * available + before;
}

// The suffix length and the ranks of each entry of a block, by definition:
// the shared prefix with the entry before (none for the first), and the
// rank of each count after it.
template <class F>
void ForEachCodedEntry(const PathBlock& b, const CountCoding& c, F&& f) {
  for (size_t i = 0; i < b.entries(); ++i) {
    const uint16_t* p = b.path(i);
    int shared = 0;
    if (i > 0) {
      while (shared < b.k - 1 && b.path(i - 1)[shared] == p[shared]) ++shared;
    }
    std::vector<uint32_t> ranks;
    for (int j = shared; j < b.k; ++j) ranks.push_back(ReferenceRank(c, p, j, p[j]));
    f(b.k - shared, ranks);
  }
}

// The payload of a block of format 2, by definition (docs/storage_format.md):
// per entry its suffix length minus 1, then its ranks, each a nibble below
// 15, else 15 and the value in 2 nibbles (4 for ranks of two-byte counts);
// nibbles high first, an odd count padded with a 0 nibble.
std::string ReferencePayload(const PathBlock& b, const CountCoding& c) {
  std::vector<int> nibbles;
  auto value = [&](uint32_t v, int width) {
    if (v < 15) return nibbles.push_back(static_cast<int>(v));
    nibbles.push_back(15);
    for (int j = width - 1; j >= 0; --j) nibbles.push_back(static_cast<int>((v >> (4 * j)) & 15));
  };
  ForEachCodedEntry(b, c, [&](int suffix, const std::vector<uint32_t>& ranks) {
    value(static_cast<uint32_t>(suffix - 1), 2);
    for (uint32_t r : ranks) value(r, 2 * b.count_bytes);
  });
  if (nibbles.size() % 2) nibbles.push_back(0);
  std::string out;
  for (size_t i = 0; i < nibbles.size(); i += 2)
    out.push_back(static_cast<char>(nibbles[i] << 4 | nibbles[i + 1]));
  return out;
}

// The payload of a block of format 3, by definition (docs/storage_format.md):
// k bytes, the largest rank at each position plus one (w_d); then the trie of
// the entries' ranks, node before children, children by rank, each node of
// depth d the w_d-bit mask of its children's ranks (not written when w_d is
// 1), packed least significant bit first, the last byte padded with zeros.
std::string ReferenceTriePayload(const PathBlock& b, const CountCoding& c) {
  std::vector<std::vector<uint32_t>> ranks;
  for (size_t i = 0; i < b.entries(); ++i) {
    std::vector<uint32_t> r;
    for (int j = 0; j < b.k; ++j) r.push_back(ReferenceRank(c, b.path(i), j, b.path(i)[j]));
    ranks.push_back(r);
  }
  std::vector<uint32_t> width(b.k, 1);
  for (const auto& r : ranks) {
    for (int j = 0; j < b.k; ++j) width[j] = std::max(width[j], r[j] + 1);
  }
  std::vector<int> bits;
  // The node of depth d over entries [lo, hi), which share their first d ranks.
  std::function<void(size_t, size_t, int)> node = [&](size_t lo, size_t hi, int d) {
    std::vector<int> mask(width[d], 0);
    for (size_t i = lo; i < hi; ++i) mask[ranks[i][d]] = 1;
    if (width[d] > 1) bits.insert(bits.end(), mask.begin(), mask.end());
    if (d + 1 == b.k) return;
    for (size_t i = lo; i < hi;) {
      size_t e = i;
      while (e < hi && ranks[e][d] == ranks[i][d]) ++e;
      node(i, e, d + 1);
      i = e;
    }
  };
  node(0, ranks.size(), 0);
  std::string out;
  for (uint32_t w : width) out.push_back(static_cast<char>(w));
  for (size_t i = 0; i < bits.size(); i += 8) {
    int byte = 0;
    for (size_t j = 0; j < 8 && i + j < bits.size(); ++j) byte |= bits[i + j] << j;
    out.push_back(static_cast<char>(byte));
  }
  return out;
}

// The payload of a block of the format its header names, by definition.
std::string ReferencePayloadOf(const RawBlock& raw, const PathBlock& b, const CountCoding& c) {
  return raw.format == kBlockFormatTrie ? ReferenceTriePayload(b, c) : ReferencePayload(b, c);
}

// The payload of a block of format 1 (before 2026-11-23), by definition:
// column 1, a byte per entry (its suffix length), then column 2, its ranks
// in one or two bytes (high byte first).
std::string ReferencePayloadV1(const PathBlock& b, const CountCoding& c) {
  std::string col1, col2;
  ForEachCodedEntry(b, c, [&](int suffix, const std::vector<uint32_t>& ranks) {
    col1.push_back(static_cast<char>(suffix));
    for (uint32_t r : ranks) {
      if (b.count_bytes == 2) col2.push_back(static_cast<char>(r >> 8));
      col2.push_back(static_cast<char>(r & 0xff));
    }
  });
  return col1 + col2;
}

// A stored block of format 1 holding `b`, as a build before format 2 wrote it.
std::string SealV1(const PathBlock& b, const CountCoding& c) {
  RawBlock raw;
  raw.format = kBlockFormatColumns;
  raw.k = b.k;
  raw.count_bytes = b.count_bytes;
  raw.entries = static_cast<uint32_t>(b.entries());
  raw.payload = ReferencePayloadV1(b, c);
  std::string out;
  SealBlock(raw, &out);
  return out;
}

PathBlock MakeBlock(const ChildRule& rule, int k, const uint16_t* paths, size_t entries) {
  PathBlock b;
  b.k = k;
  b.count_bytes = CountBytesFor(rule, k);
  b.counts.assign(paths, paths + entries * k);
  return b;
}

// The stored run's expansion before the fused expander: every path decoded,
// expanded, cut every `per_block` entries and encoded.
std::vector<std::string> ReferenceExpand(const ChildRule& rule, std::string_view data, int k,
                                         uint32_t per_block) {
  const CountCoding coding{rule.spec().ranks, rule.spec().suits};
  PathBlock in;
  REQUIRE(DecodeBlock(data, coding, &in).ok());
  std::vector<std::string> blocks;
  PathBlock out;
  out.k = k + 1;
  out.count_bytes = CountBytesFor(rule, k + 1);
  auto flush = [&] {
    std::string encoded;
    uint64_t raw = 0;
    EncodeBlock(out, coding, &encoded, &raw, BlockFormatFor(rule, k + 1));
    blocks.push_back(encoded);
    out.counts.clear();
  };
  LevelExpander expander(rule);
  expander.Expand(in.counts.data(), in.entries(), k, per_block, &out.counts, flush);
  if (out.entries() > 0) flush();
  return blocks;
}

struct Case {
  GameSpec spec;
  size_t keep;  // entries of each level carried to the next (a sorted prefix)
};

// Walks the levels of each case (the first `keep` entries of each, which
// are themselves a sorted run), checking at every level: the payload
// against its definition, decoding, and the fused expander against the
// reference, for input blocks of two sizes and output cuts of two sizes.
TEST_CASE("codec: fast coding and fused expansion equal the references on every game") {
  const std::vector<Case> cases = {
      {{Game::kMousetrap, 8, 1}, 1u << 20}, {{Game::kModular, 8, 1}, 1u << 20},
      {{Game::kHlm, 9, 1}, 1u << 20},       {{Game::kMousetrap, 4, 2}, 1u << 20},
      {{Game::kModular, 4, 2}, 1u << 20},   {{Game::kHlm, 5, 2}, 1u << 20},
      {{Game::kModular, 3, 3}, 1u << 20},   {{Game::kModular, 20, 1}, 3000},
      {{Game::kMousetrap, 64, 1}, 2000},    {{Game::kModular, 64, 1}, 1500},
      {{Game::kModular, 16, 4}, 1500},
  };
  for (const Case& c : cases) {
    const ChildRule rule(c.spec);
    const CountCoding coding{c.spec.ranks, c.spec.suits};
    INFO(GameName(c.spec.game) << " m=" << c.spec.ranks << " s=" << c.spec.suits);
    std::vector<uint16_t> level;
    for (Card r : rule.Roots()) level.push_back(r);
    bool saw_wide = false, saw_trie = false;
    for (int k = 1; k < c.spec.cards() && !level.empty(); ++k) {
      INFO("level " << k);
      const size_t entries = std::min(level.size() / k, c.keep);
      std::vector<uint16_t> next;
      for (uint32_t in_block : {kEntriesPerBlock, 61u}) {
        for (uint32_t per_block : {kEntriesPerBlock, 97u}) {
          BlockExpander fused(rule, per_block);
          std::vector<uint16_t> children;
          for (size_t first = 0; first < entries; first += in_block) {
            const size_t count = std::min<size_t>(in_block, entries - first);
            const PathBlock block = MakeBlock(rule, k, level.data() + first * k, count);
            saw_wide |= block.count_bytes == 2;
            std::string data;
            uint64_t raw_bytes = 0;
            EncodeBlock(block, coding, &data, &raw_bytes);
            RawBlock raw;
            REQUIRE(UnsealBlock(data, &raw).ok());
            REQUIRE(raw.payload == ReferencePayload(block, coding));
            CHECK(raw_bytes == raw.payload.size());
            PathBlock back;
            REQUIRE(DecodeBlock(data, coding, &back).ok());
            REQUIRE(back.counts == block.counts);
            // A block of format 1 (an older store) reads the same, and
            // expands to the same blocks.
            const std::string v1 = SealV1(block, coding);
            PathBlock back_v1;
            REQUIRE(DecodeBlock(v1, coding, &back_v1).ok());
            REQUIRE(back_v1.counts == block.counts);
            ExpandedBlocks from_v1;
            REQUIRE(fused.Expand(v1, k, &from_v1).ok());
            // The same entries in format 3, where the level's ranks allow
            // it: coded as defined, read back, expanded to the same blocks.
            const bool trie = BlockFormatFor(rule, k) == kBlockFormatTrie;
            saw_trie |= trie;
            ExpandedBlocks from_v3;
            if (trie) {
              std::string v3;
              uint64_t v3_bytes = 0;
              EncodeBlock(block, coding, &v3, &v3_bytes, kBlockFormatTrie);
              RawBlock r3;
              REQUIRE(UnsealBlock(v3, &r3).ok());
              REQUIRE(r3.format == kBlockFormatTrie);
              REQUIRE(r3.payload == ReferenceTriePayload(block, coding));
              CHECK(v3_bytes == r3.payload.size());
              PathBlock back_v3;
              REQUIRE(DecodeBlock(v3, coding, &back_v3).ok());
              REQUIRE(back_v3.counts == block.counts);
              REQUIRE(fused.Expand(v3, k, &from_v3).ok());
            }

            ExpandedBlocks got;
            REQUIRE(fused.Expand(data, k, &got).ok());
            const std::vector<std::string> want = ReferenceExpand(rule, data, k, per_block);
            REQUIRE(got.blocks == want);
            REQUIRE(from_v1.blocks == want);
            if (trie) REQUIRE(from_v3.blocks == want);
            uint64_t want_entries = 0, want_raw = 0;
            for (const std::string& b : want) {
              PathBlock out;
              REQUIRE(DecodeBlock(b, coding, &out).ok());
              want_entries += out.entries();
              RawBlock r;
              REQUIRE(UnsealBlock(b, &r).ok());
              REQUIRE(r.format == BlockFormatFor(rule, k + 1));
              // Every payload by its definition (modular 64's level 12
              // once wrote position 10's ranks, up to 593, in one byte: its
              // count bytes came from position 11's limit alone).
              REQUIRE(r.payload == ReferencePayloadOf(r, out, coding));
              want_raw += r.payload.size();
              children.insert(children.end(), out.counts.begin(), out.counts.end());
            }
            CHECK(got.entries == want_entries);
            CHECK(got.raw_bytes == want_raw);
          }
          if (next.empty()) {
            next = children;
          } else {
            REQUIRE(children == next);  // the same level whatever the cuts
          }
        }
      }
      level = std::move(next);
    }
    // Two bytes per count were exercised (modular limits pass 255 there).
    if (c.spec.game == Game::kModular && c.spec.cards() >= 20) CHECK(saw_wide);
    // Mousetrap and hlm are written in format 3 (BlockFormatFor(): their
    // counts stay below the ranks), unless the ranks pass kMaxTrieWidth.
    if (c.spec.game != Game::kModular) CHECK(saw_trie == (c.spec.ranks <= kMaxTrieWidth));
  }
}

// A pass of several levels (the stored run's pass_levels) against the
// reference path applied level by level: from the first `keep` entries of
// each level, every level of the pass holds the reference's entries in the
// same order, each of its blocks is coded as defined, and its first level's
// blocks are byte for byte the one-level pass's.
TEST_CASE("codec: a pass of several levels writes what level-by-level expansion writes") {
  const std::vector<Case> cases = {
      {{Game::kMousetrap, 8, 1}, 4000},
      {{Game::kModular, 8, 1}, 4000},
      {{Game::kHlm, 9, 1}, 4000},
      {{Game::kMousetrap, 4, 2}, 4000},
      {{Game::kHlm, 5, 2}, 4000},
      {{Game::kModular, 3, 3}, 4000},
      {{Game::kModular, 20, 1}, 40},
      {{Game::kModular, 16, 4}, 40},
      // Counts of up to three words (lcm(11, 12) = 132) grown by bits.
      {{Game::kModular, 12, 1}, 300},
  };
  for (const Case& c : cases) {
    const ChildRule rule(c.spec);
    const CountCoding coding{c.spec.ranks, c.spec.suits};
    INFO(GameName(c.spec.game) << " m=" << c.spec.ranks << " s=" << c.spec.suits);
    std::vector<uint16_t> level;
    for (Card r : rule.Roots()) level.push_back(r);
    for (int k = 1; k < c.spec.cards() && !level.empty(); ++k) {
      INFO("level " << k);
      const size_t entries = std::min(level.size() / k, c.keep);
      const int levels = std::min(kMaxPassLevels, c.spec.cards() - k);
      for (uint32_t in_block : {kEntriesPerBlock, 61u}) {
        for (uint32_t per_block : {kEntriesPerBlock, 97u}) {
          INFO("input blocks of " << in_block << ", output blocks of " << per_block);
          BlockExpander one(rule, per_block), pass(rule, per_block), generic(rule, per_block);
          generic.ForceGeneric();  // every level built, never by bits
          // want[i]: level k+1+i by the reference, one level at a time.
          std::vector<std::vector<std::string>> want(levels);
          std::vector<std::vector<uint16_t>> got(levels);
          for (size_t first = 0; first < entries; first += in_block) {
            const size_t count = std::min<size_t>(in_block, entries - first);
            std::string data;
            uint64_t raw_bytes = 0;
            EncodeBlock(MakeBlock(rule, k, level.data() + first * k, count), coding, &data,
                        &raw_bytes);
            std::vector<std::string> inputs = {data};
            for (int i = 0; i < levels; ++i) {
              std::vector<std::string> outputs;
              for (const std::string& b : inputs) {
                for (std::string& o : ReferenceExpand(rule, b, k + i, kEntriesPerBlock))
                  outputs.push_back(std::move(o));
              }
              want[i].insert(want[i].end(), outputs.begin(), outputs.end());
              inputs = std::move(outputs);
            }
            std::vector<ExpandedBlocks> out(levels);
            REQUIRE(pass.ExpandLevels(data, k, levels, out.data()).ok());
            std::vector<ExpandedBlocks> built(levels);
            REQUIRE(generic.ExpandLevels(data, k, levels, built.data()).ok());
            for (int i = 0; i < levels; ++i) REQUIRE(built[i].blocks == out[i].blocks);
            ExpandedBlocks single;
            REQUIRE(one.Expand(data, k, &single).ok());
            REQUIRE(out[0].blocks == single.blocks);
            for (int i = 0; i < levels; ++i) {
              uint64_t entries_seen = 0, raw_seen = 0;
              for (const std::string& b : out[i].blocks) {
                PathBlock decoded;
                REQUIRE(DecodeBlock(b, coding, &decoded).ok());
                REQUIRE(decoded.k == k + 1 + i);
                REQUIRE(decoded.entries() <= per_block);
                RawBlock raw;
                REQUIRE(UnsealBlock(b, &raw).ok());
                REQUIRE(raw.format == BlockFormatFor(rule, k + 1 + i));
                REQUIRE(raw.payload == ReferencePayloadOf(raw, decoded, coding));
                entries_seen += decoded.entries();
                raw_seen += raw.payload.size();
                got[i].insert(got[i].end(), decoded.counts.begin(), decoded.counts.end());
              }
              CHECK(out[i].entries == entries_seen);
              CHECK(out[i].raw_bytes == raw_seen);
            }
          }
          for (int i = 0; i < levels; ++i) {
            INFO("level " << k + 1 + i << " of the pass");
            std::vector<uint16_t> expected;
            for (const std::string& b : want[i]) {
              PathBlock decoded;
              REQUIRE(DecodeBlock(b, coding, &decoded).ok());
              expected.insert(expected.end(), decoded.counts.begin(), decoded.counts.end());
            }
            REQUIRE(got[i] == expected);
          }
        }
      }
      // The next level: the children of the entries expanded here.
      std::vector<uint16_t> next;
      std::string data;
      uint64_t raw_bytes = 0;
      EncodeBlock(MakeBlock(rule, k, level.data(), entries), coding, &data, &raw_bytes);
      for (const std::string& b : ReferenceExpand(rule, data, k, kEntriesPerBlock)) {
        PathBlock decoded;
        REQUIRE(DecodeBlock(b, coding, &decoded).ok());
        next.insert(next.end(), decoded.counts.begin(), decoded.counts.end());
      }
      level = std::move(next);
    }
  }
}

// Which levels take format 3 (BlockFormatFor()), by the closed forms of the
// bound on a rank at position d, min(m, n - d) times the cycles of
// CountLimit(d + 1): mousetrap and hlm (limit m, one cycle) up to 56 ranks at
// every level; modular of one suit (limit lcm(d + 1, m)) while (d + 1)(m -
// d) / gcd(d + 1, m) < 57 at every position of the level.
TEST_CASE("codec: format 3 where every rank fits a mask, format 2 elsewhere") {
  for (const GameSpec spec : {GameSpec{Game::kMousetrap, 13, 1}, GameSpec{Game::kMousetrap, 56, 1},
                              GameSpec{Game::kHlm, 16, 2}, GameSpec{Game::kHlm, 13, 4}}) {
    const ChildRule rule(spec);
    for (int level = 1; level <= spec.cards(); ++level)
      CHECK(BlockFormatFor(rule, level) == kBlockFormatTrie);
  }
  const ChildRule wide(GameSpec{Game::kMousetrap, 57, 1});
  for (int level = 1; level <= 57; ++level) CHECK(BlockFormatFor(wide, level) == kBlockFormat);
  for (int m = 2; m <= 20; ++m) {
    const ChildRule rule(GameSpec{Game::kModular, m, 1});
    bool fits = true;
    for (int level = 1; level <= m; ++level) {
      const int d = level - 1;
      fits = fits && (d + 1) * (m - d) / std::gcd(d + 1, m) <= kMaxTrieWidth;
      INFO("modular m=" << m << " level " << level);
      CHECK(BlockFormatFor(rule, level) == (fits ? kBlockFormatTrie : kBlockFormat));
      if (m <= 14) CHECK(fits);
      if (m == 15 && level >= 8) CHECK(!fits);
    }
  }
}

TEST_CASE("codec: the rank path ranks and unranks every count as defined") {
  for (const CountCoding c : {CountCoding{13, 1}, CountCoding{64, 1}, CountCoding{7, 3}}) {
    // A path using values in a fixed pattern; at each depth every count up
    // to ranks*64 is ranked and unranked against the definition.
    RankPath path(c);
    std::vector<uint16_t> prefix;
    for (int depth = 0; depth < std::min(c.ranks * c.suits, 20); ++depth) {
      for (uint32_t t = 1; t <= static_cast<uint32_t>(c.ranks) * 64; ++t) {
        uint32_t rank = 0;
        const int v = static_cast<int>((t - 1) % c.ranks + 1);
        const int used = static_cast<int>(std::count_if(
            prefix.begin(), prefix.end(), [&](uint16_t u) { return (u - 1) % c.ranks + 1 == v; }));
        const bool available = used < c.suits;
        REQUIRE(path.Rank(t, &rank) == available);
        if (!available) continue;
        REQUIRE(rank == ReferenceRank(c, prefix.data(), depth, static_cast<uint16_t>(t)));
        RankPath copy = path;
        uint16_t back = 0;
        REQUIRE(copy.PushRank(rank, &back));
        REQUIRE(back == t);
      }
      // Extend the path by the value (depth * 5) mod m + 1, if it has copies.
      uint16_t t = static_cast<uint16_t>((depth * 5) % c.ranks + 1);
      uint32_t r = 0;
      while (!path.Rank(t, &r)) t = static_cast<uint16_t>(t % c.ranks + 1);
      path.Push(t);
      prefix.push_back(t);
    }
    path.Truncate(0);
    uint32_t r = 0;
    CHECK(path.Rank(1, &r));
    CHECK(r == 0);
  }
}

// Select64 against its definition (the index-th one, by clearing the ones
// below it) on words of every density, every index.
TEST_CASE("codec: the broadword select finds every one of a word") {
  uint64_t x = 0x9e3779b97f4a7c15;
  const auto next = [&] {  // xorshift64
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    return x;
  };
  std::vector<uint64_t> words = {1,
                                 uint64_t{1} << 63,
                                 ~uint64_t{0},
                                 0x8000000000000001,
                                 0x00ff00ff00ff00ff,
                                 0xff00000000000000};
  for (int i = 0; i < 3000; ++i) {
    uint64_t w = next();
    for (int thin = i % 4; thin > 0; --thin) w &= next();  // sparser words
    if (i % 7 == 0) w |= next();                           // denser ones
    if (w) words.push_back(w);
  }
  int checked = 0;
  for (const uint64_t w : words) {
    uint64_t rest = w;
    for (uint32_t index = 0; rest; ++index, rest &= rest - 1) {
      REQUIRE(RankPath::Select64(w, index) == static_cast<uint32_t>(__builtin_ctzll(rest)));
      ++checked;
    }
  }
  CHECK(checked > 50000);  // 55,546 ones in all
}

// Select16 (RankPath::Select()'s path for words below 2^16) against the
// same definition on every such word and index.
TEST_CASE("codec: the select of 16-bit words finds every one of every word") {
  uint64_t checked = 0;
  for (uint32_t w = 1; w < (1u << 16); ++w) {
    uint32_t rest = w;
    for (uint32_t index = 0; rest; ++index, rest &= rest - 1) {
      if (RankPath::Select16(w, index) != static_cast<uint32_t>(__builtin_ctz(rest))) {
        FAIL("word " << w << " index " << index);
      }
      ++checked;
    }
  }
  CHECK(checked == 8u << 16);  // every word's ones: 16 bits, each set in half the words
}

// The writer's words (Nibbles(), Sibling(), RankNibbles()) against the
// format written out nibble by nibble: random runs of values and words,
// both widths, every alignment of a word against the 16 nibbles a store
// takes.
TEST_CASE("codec: nibbles written as words are the format's nibbles") {
  uint64_t x = 0x243f6a8885a308d3;
  const auto next = [&] {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    return x;
  };
  for (const int count_bytes : {1, 2}) {
    const int rank_nibbles = 2 * count_bytes;
    for (int trial = 0; trial < 400; ++trial) {
      std::string out = trial % 3 == 0 ? "ab" : "";  // whole bytes before
      const size_t before = out.size();
      NibbleWriter w(&out, count_bytes);
      std::vector<int> nibbles;  // the reference, one by one
      const auto value = [&](uint32_t v, int width) {
        if (v < 15) return nibbles.push_back(static_cast<int>(v));
        nibbles.push_back(15);
        for (int shift = 4 * (width - 1); shift >= 0; shift -= 4) {
          nibbles.push_back(static_cast<int>((v >> shift) & 15));
        }
      };
      const int steps = static_cast<int>(next() % 200);
      for (int step = 0; step < steps; ++step) {
        const uint32_t kind = static_cast<uint32_t>(next() % 5);
        const uint32_t r =
            static_cast<uint32_t>(next() % (next() % 2 ? 15 : (count_bytes == 1 ? 256 : 65536)));
        if (kind == 0) {
          w.Rank(r);
          value(r, rank_nibbles);
        } else if (kind == 1) {
          w.Sibling(r);
          nibbles.push_back(0);
          value(r, rank_nibbles);
        } else if (kind == 2) {
          int m = 0;
          const uint64_t word = w.RankNibbles(r, &m);
          w.Nibbles(word, m);
          value(r, rank_nibbles);
        } else if (kind == 3) {
          const int s = 1 + static_cast<int>(next() % 40);
          w.Suffix(s);
          value(static_cast<uint32_t>(s - 1), 2);
        } else {
          const int m = 1 + static_cast<int>(next() % 16);
          const uint64_t word = m == 16 ? next() : next() & ((uint64_t{1} << (4 * m)) - 1);
          w.Nibbles(word, m);
          for (int i = m - 1; i >= 0; --i)
            nibbles.push_back(static_cast<int>((word >> (4 * i)) & 15));
        }
      }
      w.Finish();
      if (nibbles.size() % 2) nibbles.push_back(0);
      std::string expected = trial % 3 == 0 ? "ab" : "";
      for (size_t i = 0; i < nibbles.size(); i += 2) {
        expected.push_back(static_cast<char>((nibbles[i] << 4) | nibbles[i + 1]));
      }
      REQUIRE(out.size() == expected.size());
      REQUIRE(out == expected);
      CHECK(out.size() >= before);
    }
  }
}

// Payloads that a checksum does not catch (written so, then sealed): each
// reader must refuse them by name, in both block formats.
TEST_CASE("codec: malformed payloads of every format are refused by name") {
  const GameSpec spec{Game::kMousetrap, 8, 1};
  const ChildRule rule(spec);
  const CountCoding coding{8, 1};
  PathBlock b;
  b.k = 2;
  b.counts = {1, 3, 2, 5, 3, 1};
  struct Bad {
    std::string payload;
    const char* error;
  };
  auto check = [&](int format, const std::vector<Bad>& cases) {
    for (const Bad& bad : cases) {
      INFO("format " << format << ", error " << bad.error);
      RawBlock raw;
      raw.format = format;
      raw.k = 2;
      raw.count_bytes = 1;
      raw.entries = 3;
      raw.payload = bad.payload;
      std::string data;
      SealBlock(raw, &data);
      PathBlock out;
      const Status d = DecodeBlock(data, coding, &out);
      CHECK(d.IsCorruption());
      CHECK(d.message().find(bad.error) != std::string::npos);
      BlockExpander fused(rule, kEntriesPerBlock);
      ExpandedBlocks expanded;
      const Status e = fused.Expand(data, 2, &expanded);
      CHECK(e.IsCorruption());
      CHECK(e.message().find(bad.error) != std::string::npos);
    }
  };
  const std::string good = ReferencePayload(b, coding);
  const std::string good_v1 = ReferencePayloadV1(b, coding);
  // Format 2: entries (2: 0, 1), (2: 1, 3), (2: 2, 0), as the nibbles
  // 1 0 1, 1 1 3, 1 2 0 and a 0 to pad.
  REQUIRE(good == std::string("\x10\x11\x13\x12\x00", 5));
  check(kBlockFormat, {
                          {std::string("\x00\x11\x13\x12\x00", 5), "front coding is invalid"},
                          {std::string("\x10\x12\x13\x12\x00", 5), "front coding is invalid"},
                          {std::string("\x10\x11\x13", 3), "too short"},
                          {std::string("\x10\x11\x13\x12\x0f", 5), "trailing bytes"},
                          {std::string("\x10\x11\x13\x12\x00\x00", 6), "trailing bytes"},
                      });
  // Format 1: the suffix lengths 2 2 2, then the ranks 0 1 1 3 2 0.
  REQUIRE(good_v1 == std::string("\x02\x02\x02\x00\x01\x01\x03\x02\x00", 9));
  check(kBlockFormatColumns,
        {
            {std::string("\x01\x02\x02\x00\x01\x01\x03\x02\x00", 9), "front coding is invalid"},
            {std::string("\x02\x02\x02\x00\x01\x01\x03\x02", 8), "too short"},
            {std::string("\x02\x02\x02\x00\x01\x01\x03\x02\x00\x00", 10), "trailing bytes"},
        });
  // Format 3: widths 3 and 4 (ranks up to 2 and 3); the root's mask 111,
  // then its children's 0010, 1000, 0001: bits 0-2, 3-6, 7-10, 11-14 of
  // 0x0c17.
  REQUIRE(ReferenceTriePayload(b, coding) == std::string("\x03\x04\x17\x0c", 4));
  check(kBlockFormatTrie, {
                              {std::string("\x00\x04\x17\x0c", 4), "trie is invalid"},
                              {std::string("\x39\x04\x17\x0c", 4), "trie is invalid"},
                              {std::string("\x03", 1), "too short"},
                              {std::string("\x03\x04\x17", 3), "too short"},
                              {std::string("\x03\x04\x10\x0c", 4), "empty node"},
                              // Two children of the root: two entries.
                              {std::string("\x03\x04\x13\x04", 4), "fewer entries"},
                              // A last child with two: four entries.
                              {std::string("\x03\x04\x17\x1c", 4), "more entries"},
                              {std::string("\x03\x04\x17\x0c\x00", 5), "trailing bytes"},
                              {std::string("\x03\x04\x17\x8c", 4), "trailing bits"},
                              // The same trie with the root's width 4: no
                              // rank 3 at position 0.
                              {std::string("\x04\x04\x27\x18", 4), "widths are not"},
                          });
}

TEST_CASE("codec: the fused expander refuses damaged blocks and blocks of another level") {
  const GameSpec spec{Game::kMousetrap, 8, 1};
  const ChildRule rule(spec);
  const CountCoding coding{8, 1};
  PathBlock b;
  b.k = 2;
  b.counts = {1, 3, 2, 5, 3, 1};  // not all winning; the codec does not care
  std::string data;
  uint64_t raw = 0;
  EncodeBlock(b, coding, &data, &raw);
  BlockExpander fused(rule, kEntriesPerBlock);
  ExpandedBlocks out;
  CHECK(fused.Expand(data, 2, &out).ok());
  const Status other = fused.Expand(data, 3, &out);
  CHECK(other.IsCorruption());
  CHECK(other.message().find("wrong level") != std::string::npos);
  std::string damaged = data;
  damaged[damaged.size() - 1] ^= 1;
  const Status flipped = fused.Expand(damaged, 2, &out);
  CHECK(flipped.IsCorruption());
  CHECK(flipped.message().find("checksum") != std::string::npos);
}

}  // namespace
}  // namespace eulerdeck::storage
