// The stored run's inner loop: one stored block of level k in, the stored
// blocks of level k+1 out, fused. The reference path (DecodeBlock, then the
// engine's LevelExpander, then EncodeBlock) materializes every path of both
// levels and codes each count from scratch; this reads column 2 straight
// into an incremental RankPath, rebuilds only the suffix of each sub-deck,
// and writes each child's columns straight from its parent's: a child
// shares its parent's counts and their ranks, so only the new count is
// ranked. The blocks written are byte for byte those of the reference path
// (tests/storage/block_expander_test.cc checks it).
#ifndef EULERDECK_STORAGE_BLOCK_EXPANDER_H_
#define EULERDECK_STORAGE_BLOCK_EXPANDER_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/status.h"
#include "engine/eulerian/children.h"
#include "storage/block_codec.h"

namespace eulerdeck::storage {

// What one input block became.
struct ExpandedBlocks {
  std::vector<std::string> blocks;  // stored blocks of level k+1, in key order
  uint64_t entries = 0;             // entries in them
  uint64_t raw_bytes = 0;           // their payload bytes before compression
};

// Not thread-safe; one per thread. `rule` must outlive it.
class BlockExpander {
 public:
  // Output blocks are cut every `entries_per_block` entries (the last block
  // of an input block holds the rest), as the reference path cuts them.
  BlockExpander(const ChildRule& rule, uint32_t entries_per_block);

  // Expands the stored block `data`, whose entries must be of level k
  // (1 <= k < cards), appending to *out. Corruption naming what failed if the
  // block is damaged or of another level.
  Status Expand(std::string_view data, int k, ExpandedBlocks* out);

 private:
  void StartOutput(int k);
  void FlushOutput(ExpandedBlocks* out);

  const ChildRule& rule_;
  const uint32_t entries_per_block_;
  RankPath path_;         // the parent being expanded
  RawBlock in_;           // the input block's columns
  RawBlock out_;          // the output block's header fields; its payload at the flush:
  std::string suffixes_;  // column 1, entries_per_block_ bytes
  std::string ranks_;     // column 2, its first ranks_at_ bytes
  size_t ranks_at_ = 0;
  std::vector<std::array<Card, kNodeBytes>> deck_;  // deck_[j]: sub-deck of j+1 cards
  uint16_t rank_[kMaxEnumCards] = {};               // rank_[j]: rank of the path's count j
};

}  // namespace eulerdeck::storage

#endif  // EULERDECK_STORAGE_BLOCK_EXPANDER_H_
