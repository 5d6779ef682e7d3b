#include "storage/store/block_codec.h"

#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "storage/store/format.h"

namespace eulerdeck::storage {

namespace {

void PutLE32(char* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<char>((v >> (8 * i)) & 0xff);
}
void PutLE64(char* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<char>((v >> (8 * i)) & 0xff);
}
uint32_t GetLE32(const char* p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}
uint64_t GetLE64(const char* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}

// The checksum covers the header's first 12 bytes and the compressed payload.
uint64_t BlockChecksum(std::string_view data) {
  XXH64_state_t* state = XXH64_createState();
  XXH64_reset(state, 0);
  XXH64_update(state, data.data(), 12);
  XXH64_update(state, data.data() + kBlockHeaderBytes, data.size() - kBlockHeaderBytes);
  const uint64_t h = XXH64_digest(state);
  XXH64_freeState(state);
  return h;
}

// zstd contexts are reused per thread: creating one costs about as much as
// compressing a block. The compressor keeps its parameters (format.h).
struct ZstdContexts {
  ZSTD_CCtx* c = NewCompressor();
  ZSTD_DCtx* d = ZSTD_createDCtx();
  static ZSTD_CCtx* NewCompressor() {
    ZSTD_CCtx* c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, kZstdLevel);
    ZSTD_CCtx_setParameter(c, ZSTD_c_minMatch, kZstdMinMatch);
    ZSTD_CCtx_setParameter(c, ZSTD_c_hashLog, kZstdHashLog);
    return c;
  }
  ~ZstdContexts() {
    ZSTD_freeCCtx(c);
    ZSTD_freeDCtx(d);
  }
};
ZstdContexts& Zstd() {
  thread_local ZstdContexts contexts;
  return contexts;
}

}  // namespace

void SealBlock(const RawBlock& raw, std::string* out) {
  const size_t bound = ZSTD_compressBound(raw.payload.size());
  out->resize(kBlockHeaderBytes + bound);
  const size_t z = ZSTD_compress2(Zstd().c, out->data() + kBlockHeaderBytes, bound,
                                  raw.payload.data(), raw.payload.size());
  out->resize(kBlockHeaderBytes + z);  // cannot fail with a bound-sized buffer
  char* h = out->data();
  h[0] = static_cast<char>(raw.format);
  h[1] = static_cast<char>(raw.k);
  h[2] = static_cast<char>(raw.count_bytes);
  h[3] = 0;
  PutLE32(h + 4, raw.entries);
  PutLE32(h + 8, static_cast<uint32_t>(raw.payload.size()));
  PutLE64(h + 12, BlockChecksum(*out));
}

void TrieWriter::Grow(size_t more) {
  const size_t size = std::max(2 * masks_.size(), n_ + more + 1024);
  masks_.resize(size);
  depths_.resize(size);
}

void TrieWriter::Finish(std::string* out) {
  // bits[d]: the bits a mask of depth d takes (0 for width 1), keep[d] its
  // mask's bits to keep (none for width 1).
  uint8_t bits[kMaxTrieDepth];
  uint64_t keep[kMaxTrieDepth];
  for (int d = 0; d < k_; ++d) {
    // (The largest rank + 1; 1 where no entry was written.)
    const uint32_t w = seen_[d] == 0 ? 1 : 64 - static_cast<uint32_t>(__builtin_clzll(seen_[d]));
    out->push_back(static_cast<char>(w));
    bits[d] = static_cast<uint8_t>(w == 1 ? 0 : w);
    keep[d] = w == 1 ? 0 : ~uint64_t{0};
  }
  // Packed without a branch on the data, as zstd's bit writer does: after
  // each mask the whole bytes are stored and at most 7 bits stay pending,
  // so a mask of up to 56 bits always fits the 64-bit accumulator.
  if (packed_.size() < 7 * n_ + 16) packed_.resize(7 * n_ + 16);
  char* p = packed_.data();
  uint64_t acc = 0;
  int used = 0;
  // (The arrays and n_ in locals: the stores through p, a char pointer,
  // would make the compiler reload the members on every node.)
  const uint64_t* masks = masks_.data();
  const uint8_t* depths = depths_.data();
  const size_t n = n_;
  for (size_t i = 0; i < n; ++i) {
    const int d = depths[i];
    acc |= (masks[i] & keep[d]) << used;
    used += bits[d];
    uint64_t le = acc;
    if constexpr (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) le = __builtin_bswap64(le);
    std::memcpy(p, &le, 8);
    const int whole = used >> 3;
    p += whole;
    acc >>= 8 * whole;  // whole <= 7
    used &= 7;
  }
  if (used) *p++ = static_cast<char>(acc);
  out->append(packed_.data(), static_cast<size_t>(p - packed_.data()));
}

void EncodeBlock(const PathBlock& block, const CountCoding& coding, std::string* out,
                 uint64_t* raw_bytes, int format) {
  const size_t n = block.entries();
  const int k = block.k;
  const bool trie_format = format == kBlockFormatTrie;
  RawBlock raw;
  raw.format = format;
  raw.k = k;
  raw.count_bytes = block.count_bytes;
  raw.entries = static_cast<uint32_t>(n);
  RankPath path(coding);
  NibbleWriter w(&raw.payload, block.count_bytes);
  TrieWriter trie;
  if (trie_format) trie.Restart(k);
  std::vector<uint16_t> ranks(k);
  for (size_t i = 0; i < n; ++i) {
    const uint16_t* p = block.path(i);
    int shared = 0;
    if (i > 0) {
      while (shared < k && path.counts()[shared] == p[shared]) ++shared;
      if (shared == k) shared = k - 1;  // duplicates cannot occur; keep >= 1 count
    }
    path.Truncate(shared);
    for (int j = shared; j < k; ++j) {
      uint32_t r = 0;
      // Paths come from the enumerator: every count names an available value.
      path.Rank(p[j], &r);
      path.Push(p[j]);
      ranks[j] = static_cast<uint16_t>(r);
    }
    if (!trie_format) {
      w.Suffix(k - shared);
      for (int j = shared; j < k; ++j) w.Rank(ranks[j]);
    } else if (shared == k - 1) {
      trie.Sibling(ranks[k - 1]);
    } else {
      trie.Entry(shared, ranks.data(), k - 1, ranks[k - 1]);
    }
  }
  if (trie_format) {
    trie.Finish(&raw.payload);
  } else {
    w.Finish();
  }
  *raw_bytes = raw.payload.size();
  SealBlock(raw, out);
}

uint64_t ChainChecksum(uint64_t chain, std::string_view block) {
  char buf[16];
  std::memcpy(buf, &chain, 8);
  std::memcpy(buf + 8, block.data() + 12, 8);
  return XXH64(buf, sizeof(buf), 0);
}

Status PeekBlock(std::string_view data, uint32_t* entries, int* k) {
  const uint8_t format = data.empty() ? 0 : static_cast<uint8_t>(data[0]);
  if (data.size() < kBlockHeaderBytes ||
      (format != kBlockFormat && format != kBlockFormatColumns && format != kBlockFormatTrie)) {
    return Status::Corruption("block header is damaged (size " + std::to_string(data.size()) + ")");
  }
  *k = static_cast<uint8_t>(data[1]);
  *entries = GetLE32(data.data() + 4);
  return Status::OK();
}

Status UnsealBlock(std::string_view data, RawBlock* raw) {
  uint32_t n = 0;
  int k = 0;
  Status s = PeekBlock(data, &n, &k);
  if (!s.ok()) return s;
  if (GetLE64(data.data() + 12) != BlockChecksum(data)) {
    return Status::Corruption("block checksum mismatch (XXH64)");
  }
  const int width = static_cast<uint8_t>(data[2]);
  const uint32_t raw_size = GetLE32(data.data() + 8);
  if (k < 1 || (width != 1 && width != 2)) return Status::Corruption("block header is invalid");
  raw->format = static_cast<uint8_t>(data[0]);
  raw->k = k;
  raw->count_bytes = width;
  raw->entries = n;
  raw->payload.resize(raw_size);
  const size_t got =
      ZSTD_decompressDCtx(Zstd().d, raw->payload.data(), raw->payload.size(),
                          data.data() + kBlockHeaderBytes, data.size() - kBlockHeaderBytes);
  if (ZSTD_isError(got) || got != raw_size) {
    return Status::Corruption("block payload does not decompress");
  }
  if (raw->format == kBlockFormatColumns && raw_size < n)
    return Status::Corruption("block payload is too short");
  return Status::OK();
}

Status DecodeBlock(std::string_view data, const CountCoding& coding, PathBlock* block) {
  RawBlock raw;
  Status s = UnsealBlock(data, &raw);
  if (!s.ok()) return s;
  const uint32_t n = raw.entries;
  const int k = raw.k;
  block->k = k;
  block->count_bytes = raw.count_bytes;
  block->counts.resize(static_cast<size_t>(n) * k);
  EntryReader reader(raw);
  RankPath path(coding);
  for (uint32_t i = 0; i < n; ++i) {
    int suffix = 0;
    if (!reader.NextSuffix(&suffix)) return Status::Corruption(reader.error());
    path.Truncate(k - suffix);
    for (int j = k - suffix; j < k; ++j) {
      uint32_t r = 0;
      uint16_t t = 0;
      if (!reader.NextRank(&r)) return Status::Corruption(reader.error());
      if (!path.PushRank(r, &t)) return Status::Corruption("block holds an impossible count");
    }
    std::memcpy(block->counts.data() + static_cast<size_t>(i) * k, path.counts(),
                sizeof(uint16_t) * k);
  }
  if (!reader.AtEnd()) return Status::Corruption(reader.error());
  return Status::OK();
}

}  // namespace eulerdeck::storage
