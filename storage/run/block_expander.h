// The stored run's inner loop: one stored block of level k in, the stored
// blocks of levels k+1 .. k+d out, fused. The reference path (DecodeBlock,
// then the engine's LevelExpander, then EncodeBlock, once per level)
// materializes every path and codes each count from scratch; this reads
// column 2 straight into an incremental RankPath, rebuilds only the suffix
// of each sub-deck, and walks the children depth first from it, writing each
// child's columns straight from its parent's: a child shares its parent's
// counts and their ranks, so only the new count is ranked. Levels past k+1
// are written without being read back: a pass of d levels reads one level
// in d. The blocks of level k+1 are byte for byte the reference path's; the
// entries of every level are the reference path's in the same order, cut
// into blocks at each input block (tests/storage/block_codec_test.cc).
#ifndef EULERDECK_STORAGE_RUN_BLOCK_EXPANDER_H_
#define EULERDECK_STORAGE_RUN_BLOCK_EXPANDER_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/status.h"
#include "engine/eulerian/children.h"
#include "storage/store/block_codec.h"

namespace eulerdeck::storage {

// What one input block became at one level.
struct ExpandedBlocks {
  std::vector<std::string> blocks;  // stored blocks of the level, in key order
  uint64_t entries = 0;             // entries in them
  uint64_t raw_bytes = 0;           // their payload bytes before compression
};

// The most levels one pass writes (RunOptions::pass_levels).
inline constexpr int kMaxPassLevels = 4;

// The block format of `level` for `rule`'s game: kBlockFormatTrie when
// every rank a path of that level can hold is below kMaxTrieWidth (a rank
// at position d is below min(ranks, cards - d) times the cycles of
// CountLimit(d + 1): mousetrap and hlm up to 56 ranks, modular of one
// suit up to 14, where (d + 1)(m - d) / gcd(d + 1, m) stays below 57), else
// kBlockFormat. The expander and the reference path (EncodeBlock) both
// write this format.
int BlockFormatFor(const ChildRule& rule, int level);

// The bytes per count of `level`'s blocks: 2 when a count at any position
// of its paths may pass 255 (CountLimit(d + 1) > 255 for some d < level;
// an entry writes the ranks of every position past the prefix it shares,
// not only the last), else 1.
int CountBytesFor(const ChildRule& rule, int level);

// Not thread-safe; one per thread. `rule` must outlive it.
class BlockExpander {
 public:
  // Output blocks are cut every `entries_per_block` entries (the last block
  // of an input block, at each level, holds the rest), as the reference path
  // cuts them.
  BlockExpander(const ChildRule& rule, uint32_t entries_per_block);

  // Expands the stored block `data`, whose entries must be of level k
  // (1 <= k < cards), appending to *out. Corruption naming what failed if the
  // block is damaged or of another level.
  Status Expand(std::string_view data, int k, ExpandedBlocks* out) {
    return ExpandLevels(data, k, 1, out);
  }

  // The same for `levels` levels at once (1 <= levels <= kMaxPassLevels,
  // k + levels <= cards): out[i] receives level k+1+i.
  Status ExpandLevels(std::string_view data, int k, int levels, ExpandedBlocks* out);

  // Grows every level as Grow() does, never by GrowBits() (tests: both ways
  // must write the same blocks).
  void ForceGeneric() { force_generic_ = true; }

 private:
  // The block being written at one level.
  struct Output {
    RawBlock raw;  // header fields and the payload so far (format 2)
    NibbleWriter writer{&raw.payload, 1};
    bool trie = false;  // format 3: the entries go to trie_writer
    TrieWriter trie_writer;
    int shared = 0;  // the prefix its last entry shares with the path (0: none yet)
  };

  // Writes the children of the path (depth j: its sub-deck is deck_[j-1])
  // at level j+1, and below them down to level last_.
  void Grow(int j);
  // The same where level j+1 is last_ - 1 and bits_[j] (kThree false), or
  // last_ - 2 and bits3_[j] (kThree true): no child or grandchild is built.
  // Their h values (h_i = C[i] + (size) - i, engine/eulerian/children.h)
  // come from the sub-deck's by shifts, as the count's last levels take
  // them (engine/eulerian/last_levels.h, CountBits()): a child C = D[p..j),
  // x, D[0..p) of D, p = j - q, has (suffix(p) << s) | bit(x + s) |
  // (prefix(p) >> q), s = j + 1 - q, where suffix(p) and prefix(p) are the
  // bitsets of D's h values at positions [p, j) and [0, p); a grandchild
  // the same over two ranges of C, each at most two ranges of D and x,
  // whose ORs come from a table of D's ORs over runs of 2^l positions (two
  // reads each). Their valid counts are then shifts of a word (or rows of
  // the rule's table, W words), with no loop over their cards.
  template <int W, bool kThree>
  void GrowBits(int j);
  // (o: outputs_[level - first_].)
  void Write(Output& o, int level, int j, uint32_t r);
  // rank_[i] = r, the path's nibbles (off_, tail_) kept with it where a
  // level of the pass takes them (nibbles_). Every rank past i is
  // forgotten (set again before it is read).
  void SetRank(int i, uint32_t r);
  void Flush(Output* o, ExpandedBlocks* out);

  const ChildRule& rule_;
  const uint32_t entries_per_block_;
  RankPath path_;                   // the sub-deck being expanded
  RawBlock in_;                     // the input block's columns
  int first_ = 0, last_ = 0;        // this pass writes levels first_..last_
  Output outputs_[kMaxPassLevels];  // outputs_[i]: level first_ + i
  ExpandedBlocks* out_ = nullptr;
  std::vector<std::array<Card, kNodeBytes>> deck_;  // deck_[j]: sub-deck of j+1 cards
  // bits_[j]: GrowBits() may grow sub-decks of j cards (ranks + cards < 64,
  // so every h fits a word, and the counts of the children and grandchildren
  // of j cards fit one word, or up to kMaxTableWords with rule_core.h's
  // table of S's shifted copies).
  bool bits_[kMaxEnumCards + 1] = {};
  // bits3_[j]: GrowBits<W, true>() may grow them (bits_[j] and bits_[j + 1]).
  bool bits3_[kMaxEnumCards + 1] = {};
  // one_word_[j]: the counts of the children of j cards fit one word (the
  // bits paths' W = 1).
  bool one_word_[kMaxEnumCards + 1] = {};
  bool force_generic_ = false;
  uint16_t rank_[kMaxEnumCards] = {};  // rank_[j]: rank of the path's count j
  // The nibbles NibbleWriter::Rank() writes for rank_[0], rank_[1], ...
  // one after the other, as pack_'s writer (the pass's last level's)
  // writes them: rank_[i]'s are nibbles [off_[i], off_[i + 1]), and
  // tail_[i] holds the last 16 of those of rank_[0..i), the last one lowest.
  // Write() takes an entry's shared ranks from there in one piece.
  uint16_t off_[kMaxEnumCards + 1] = {};
  uint64_t tail_[kMaxEnumCards + 1] = {};
  const Output* pack_ = &outputs_[0];
  // Whether some level of the pass is written in format 2 (its entries take
  // off_ and tail_); in a pass of tries only, SetRank() keeps rank_ alone.
  bool nibbles_ = true;
};

}  // namespace eulerdeck::storage

#endif  // EULERDECK_STORAGE_RUN_BLOCK_EXPANDER_H_
