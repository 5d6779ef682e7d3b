// Constants shared by the writer and the readers of a frontier store. The
// layout is documented in docs/storage_format.md; values written to disk are
// never renumbered.
#ifndef EULERDECK_STORAGE_STORE_FORMAT_H_
#define EULERDECK_STORAGE_STORE_FORMAT_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace eulerdeck::storage {

// The store format this build writes, and the oldest it reads (and resumes,
// raising the store to kFormatVersion before writing). 1: blocks of format 1
// only; 2: blocks of format 2 are written (a store raised from 1 may hold
// both); 3: blocks of format 3 are written where the level allows them
// (storage/run/block_expander.h, BlockFormatFor()), of format 2 elsewhere.
inline constexpr int kFormatVersion = 3;
inline constexpr int kOldestReadableFormat = 1;

// Key tags (first byte).
inline constexpr char kParamsKey[] = "Mparams";
inline constexpr char kLevelTag = 'L';
inline constexpr char kProgressKey[] = "P";
inline constexpr char kBlockTag = 'B';
inline constexpr char kCountTag = 'C';

// Data block header (docs/storage_format.md, "Data block"). Format 2 (this
// build writes it) codes the entries one after the other as nibbles; format
// 1 (still read) had a byte column of suffix lengths and a byte column of
// ranks.
inline constexpr uint8_t kBlockFormat = 2;
inline constexpr uint8_t kBlockFormatColumns = 1;
// Format 3: the block's paths as a trie, each node the mask of the ranks its
// children take, bit-packed (docs/storage_format.md, "Block format 3").
inline constexpr uint8_t kBlockFormatTrie = 3;
// The widest mask of format 3: every rank of such a block is below it (so
// that a mask and its offset within a byte fit one 64-bit load).
inline constexpr int kMaxTrieWidth = 56;
// The most counts per entry of a block of format 3.
inline constexpr int kMaxTrieDepth = 64;
inline constexpr size_t kBlockHeaderBytes = 20;

// Entries per block. About 16K entries make 20-60 KB before compression: big
// enough for zstd to find the repetitions between siblings, small enough that
// a reader holds only a few of them per thread.
inline constexpr uint32_t kEntriesPerBlock = 16384;

// zstd's fast strategy (level 1) with matches of at least 7 bytes and a
// 2^16-entry hash table: on the widest levels of modular m = 11 and
// mousetrap m = 12 (benchmarks/codec_bench.cc) 2 % smaller than level 3, its
// default, and 30 % faster. Short matches are what the rank columns hold
// least usefully: siblings repeat whole runs of counts. Readers do not care:
// any zstd frame decodes.
inline constexpr int kZstdLevel = 1;
inline constexpr int kZstdMinMatch = 7;
inline constexpr int kZstdHashLog = 16;

// "B" level ordinal seq.
std::string BlockKey(int level, uint64_t ordinal, uint32_t seq);
// The first key of a level's blocks from `ordinal` on, and the first key past
// the level.
std::string BlockKeyFrom(int level, uint64_t ordinal);
std::string BlockKeyEnd(int level);
// Parses a block key; false if `key` is not one.
bool ParseBlockKey(std::string_view key, int* level, uint64_t* ordinal, uint32_t* seq);

std::string LevelKey(int level);

// "C" block first: a count record (frontier_store.h, CountRecord); big
// endian, so that key order is (block, first).
std::string CountKey(uint32_t block, uint32_t first);
bool ParseCountKey(std::string_view key, uint32_t* block, uint32_t* first);

}  // namespace eulerdeck::storage

#endif  // EULERDECK_STORAGE_STORE_FORMAT_H_
