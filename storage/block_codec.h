// Encoding of one data block: front-coded paths, by columns, zstd, XXH64
// (docs/storage_format.md). Stateless functions; thread-safe.
#ifndef EULERDECK_STORAGE_BLOCK_CODEC_H_
#define EULERDECK_STORAGE_BLOCK_CODEC_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/status.h"

namespace eulerdeck::storage {

// How counts are written. Counts are stored as their rank among the counts
// still possible at that point of the path (those naming a value with copies
// left): at the last levels few values remain, so ranks are tiny and zstd
// squeezes them (docs/storage_format.md, "Rank coding").
struct CountCoding {
  int ranks = 0;  // m
  int suits = 0;  // s
};

// Paths of one block: `count` entries of k counts each, flattened.
struct PathBlock {
  int k = 0;
  int count_bytes = 1;           // 1, or 2 when counts exceed 255
  std::vector<uint16_t> counts;  // size = entries * k

  size_t entries() const { return k ? counts.size() / k : 0; }
  const uint16_t* path(size_t i) const { return counts.data() + i * k; }
};

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
