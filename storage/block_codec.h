// Encoding of one data block: front-coded paths, by columns, zstd, XXH64
// (docs/storage_format.md). Stateless functions; thread-safe.
#ifndef EULERDECK_STORAGE_BLOCK_CODEC_H_
#define EULERDECK_STORAGE_BLOCK_CODEC_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/status.h"
#include "storage/rank_coding.h"

namespace eulerdeck::storage {

// Paths of one block: `count` entries of k counts each, flattened.
struct PathBlock {
  int k = 0;
  int count_bytes = 1;           // 1, or 2 when counts exceed 255
  std::vector<uint16_t> counts;  // size = entries * k

  size_t entries() const { return k ? counts.size() / k : 0; }
  const uint16_t* path(size_t i) const { return counts.data() + i * k; }
};

// A block's header fields and its decompressed payload: column 1 (one
// suffix length per entry) followed by column 2 (the rank-coded suffix
// counts). The fused expander (block_expander.h) reads and writes blocks at
// this level, column by column, without materializing paths.
struct RawBlock {
  int k = 0;
  int count_bytes = 1;
  uint32_t entries = 0;
  std::string payload;
};

// Column 1 of entry i of `raw`: its suffix length, checked (1..k, k for the
// first entry) together with the payload left for its ranks from byte `at`
// of column 2. Corruption otherwise.
Status ReadSuffix(const RawBlock& raw, uint32_t i, size_t at, int* suffix);

// Compresses `raw` and prepends the header and checksum: a block as stored.
void SealBlock(const RawBlock& raw, std::string* out);

// Checks the header and checksum of a stored block and decompresses it;
// Corruption (naming what failed) on any mismatch. Column contents are not
// checked here (DecodeBlock and the expander check them as they read).
Status UnsealBlock(std::string_view data, RawBlock* raw);

// Encodes `block` (entries sorted by path) into `out`. REQUIRES: every path
// uses each value at most coding.suits times (true of every enumerated path). raw_bytes receives
// the payload size before compression.
void EncodeBlock(const PathBlock& block, const CountCoding& coding, std::string* out,
                 uint64_t* raw_bytes);

// Decodes a block; Corruption (naming what failed: checksum, header,
// decompression, sizes) on any mismatch.
Status DecodeBlock(std::string_view data, const CountCoding& coding, PathBlock* block);

// The level checksum: XXH64 over the previous value and the block's own
// checksum (header bytes 12..19), chained block by block in key order.
uint64_t ChainChecksum(uint64_t chain, std::string_view block);

// Reads only the header: entries and k. Corruption if it is not a block.
Status PeekBlock(std::string_view data, uint32_t* entries, int* k);

}  // namespace eulerdeck::storage

#endif  // EULERDECK_STORAGE_BLOCK_CODEC_H_
