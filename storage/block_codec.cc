#include "storage/block_codec.h"

#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "storage/format.h"

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

// Rank coding: count t names value v = ((t-1) mod m) + 1 in cycle
// c = (t-1) / m. With A values still available (copies left) and the value
// being the i-th of them, rank = c*A + i. The inverse needs the same A and
// the same list, which the decoder rebuilds from the path's prefix.
class Ranker {
 public:
  explicit Ranker(const CountCoding& c) : m_(c.ranks), s_(c.suits), copies_(c.ranks + 1, 0) {}

  // Sets the values used by path[0..j) (all counts already decoded).
  void Reset(const uint16_t* path, int j) {
    std::fill(copies_.begin(), copies_.end(), 0);
    for (int i = 0; i < j; ++i) Use(path[i]);
  }
  void Use(uint16_t t) { ++copies_[Value(t)]; }

  // False if t names a value with no copy left (not a valid path).
  bool Rank(uint16_t t, uint32_t* rank) const {
    const int v = Value(t);
    if (copies_[v] >= s_) return false;
    uint32_t before = 0, available = 0;
    for (int u = 1; u <= m_; ++u) {
      if (copies_[u] < s_) {
        ++available;
        if (u < v) ++before;
      }
    }
    *rank = static_cast<uint32_t>((t - 1) / m_) * available + before;
    return true;
  }
  bool Unrank(uint32_t rank, uint16_t* t) const {
    uint32_t available = 0;
    for (int u = 1; u <= m_; ++u) available += copies_[u] < s_;
    if (available == 0) return false;
    uint32_t index = rank % available;
    for (int u = 1; u <= m_; ++u) {
      if (copies_[u] < s_ && index-- == 0) {
        const uint64_t value = static_cast<uint64_t>(rank / available) * m_ + u;
        if (value > 0xffff) return false;
        *t = static_cast<uint16_t>(value);
        return true;
      }
    }
    return false;
  }

 private:
  int Value(uint16_t t) const { return (t - 1) % m_ + 1; }
  int m_, s_;
  std::vector<int> copies_;
};

}  // namespace

void EncodeBlock(const PathBlock& block, const CountCoding& coding, std::string* out,
                 uint64_t* raw_bytes) {
  const size_t n = block.entries();
  const int k = block.k;
  Ranker ranker(coding);
  // Column 1: suffix lengths; column 2: suffix counts.
  std::string raw;
  raw.resize(n);
  for (size_t i = 0; i < n; ++i) {
    int shared = 0;
    if (i > 0) {
      const uint16_t* a = block.path(i - 1);
      const uint16_t* b = block.path(i);
      while (shared < k && a[shared] == b[shared]) ++shared;
      if (shared == k) shared = k - 1;  // duplicates cannot occur; keep >= 1 count
    }
    raw[i] = static_cast<char>(k - shared);
    const uint16_t* p = block.path(i);
    ranker.Reset(p, shared);
    for (int j = shared; j < k; ++j) {
      uint32_t r = 0;
      // Paths come from the enumerator: every count names an available value.
      ranker.Rank(p[j], &r);
      ranker.Use(p[j]);
      if (block.count_bytes == 2) raw.push_back(static_cast<char>(r >> 8));
      raw.push_back(static_cast<char>(r & 0xff));
    }
  }
  *raw_bytes = raw.size();
  const size_t bound = ZSTD_compressBound(raw.size());
  out->resize(kBlockHeaderBytes + bound);
  const size_t z =
      ZSTD_compress(out->data() + kBlockHeaderBytes, bound, raw.data(), raw.size(), kZstdLevel);
  out->resize(kBlockHeaderBytes + z);  // ZSTD_compress cannot fail with a bound-sized buffer
  char* h = out->data();
  h[0] = static_cast<char>(kBlockFormat);
  h[1] = static_cast<char>(k);
  h[2] = static_cast<char>(block.count_bytes);
  h[3] = 0;
  PutLE32(h + 4, static_cast<uint32_t>(n));
  PutLE32(h + 8, static_cast<uint32_t>(raw.size()));
  PutLE64(h + 12, BlockChecksum(*out));
}

uint64_t ChainChecksum(uint64_t chain, std::string_view block) {
  char buf[16];
  std::memcpy(buf, &chain, 8);
  std::memcpy(buf + 8, block.data() + 12, 8);
  return XXH64(buf, sizeof(buf), 0);
}

Status PeekBlock(std::string_view data, uint32_t* entries, int* k) {
  if (data.size() < kBlockHeaderBytes || static_cast<uint8_t>(data[0]) != kBlockFormat) {
    return Status::Corruption("block header is damaged (size " + std::to_string(data.size()) + ")");
  }
  *k = static_cast<uint8_t>(data[1]);
  *entries = GetLE32(data.data() + 4);
  return Status::OK();
}

Status DecodeBlock(std::string_view data, const CountCoding& coding, PathBlock* block) {
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
  std::string raw(raw_size, '\0');
  const size_t got = ZSTD_decompress(raw.data(), raw.size(), data.data() + kBlockHeaderBytes,
                                     data.size() - kBlockHeaderBytes);
  if (ZSTD_isError(got) || got != raw_size) {
    return Status::Corruption("block payload does not decompress");
  }
  block->k = k;
  block->count_bytes = width;
  block->counts.assign(static_cast<size_t>(n) * k, 0);
  size_t at = n;  // column 2 starts after the suffix lengths
  if (raw_size < n) return Status::Corruption("block payload is too short");
  Ranker ranker(coding);
  for (uint32_t i = 0; i < n; ++i) {
    const int suffix = static_cast<uint8_t>(raw[i]);
    if (suffix < 1 || suffix > k || (i == 0 && suffix != k)) {
      return Status::Corruption("block front coding is invalid");
    }
    uint16_t* p = block->counts.data() + static_cast<size_t>(i) * k;
    if (i > 0) std::memcpy(p, p - k, sizeof(uint16_t) * (k - suffix));
    ranker.Reset(p, k - suffix);
    for (int j = k - suffix; j < k; ++j) {
      if (at + width > raw_size) return Status::Corruption("block payload is too short");
      uint32_t r = static_cast<uint8_t>(raw[at++]);
      if (width == 2) r = (r << 8) | static_cast<uint8_t>(raw[at++]);
      if (!ranker.Unrank(r, &p[j])) return Status::Corruption("block holds an impossible count");
      ranker.Use(p[j]);
    }
  }
  if (at != raw_size) return Status::Corruption("block payload has trailing bytes");
  return Status::OK();
}

}  // namespace eulerdeck::storage
