// Encoding of one data block: front-coded paths, by columns, zstd, XXH64
// (docs/storage_format.md). Stateless functions; thread-safe.
#ifndef EULERDECK_STORAGE_STORE_BLOCK_CODEC_H_
#define EULERDECK_STORAGE_STORE_BLOCK_CODEC_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/status.h"
#include "storage/store/format.h"
#include "storage/store/rank_coding.h"

namespace eulerdeck::storage {

// Paths of one block: `count` entries of k counts each, flattened.
struct PathBlock {
  int k = 0;
  int count_bytes = 1;           // 1, or 2 when counts exceed 255
  std::vector<uint16_t> counts;  // size = entries * k

  size_t entries() const { return k ? counts.size() / k : 0; }
  const uint16_t* path(size_t i) const { return counts.data() + i * k; }
};

// A block's header fields and its decompressed payload. Format 3: the
// paths' trie, each node a mask of its children's ranks (TrieWriter).
// Format 2: the entries one after the other, each its suffix length then its
// rank-coded suffix counts, as nibbles (NibbleWriter). Format 1: column 1
// (one suffix length per entry) followed by column 2 (the ranks). The fused expander
// (block_expander.h) reads and writes blocks at this level, without
// materializing paths.
struct RawBlock {
  int format = kBlockFormat;
  int k = 0;
  int count_bytes = 1;
  uint32_t entries = 0;
  std::string payload;
};

// Writes a format-2 payload: nibbles, high nibble of each byte first. A
// suffix length s is written as s - 1 and a rank r as r, each in one nibble
// when below 15, else as the nibble 15 and then the value in 2 nibbles
// (suffix lengths, ranks of one-byte counts) or 4 (ranks of two-byte
// counts), high nibble first. An odd count of nibbles ends with a 0 nibble.
class NibbleWriter {
 public:
  // Appends to *out (not owned), whose bytes so far are whole. Finish()
  // before reading *out: until then *out may hold bytes past those written
  // (the room the writer stores into).
  NibbleWriter(std::string* out, int count_bytes)
      : out_(out),
        rank_nibbles_(2 * count_bytes),
        escape_(uint64_t{15} << (8 * count_bytes)),
        at_(out->size()),
        room_(at_) {}

  // After *out was cleared: starts again at a whole byte, nothing pending.
  void Restart() { acc_ = 0, pending_ = 0, at_ = 0, room_ = 0; }

  void Suffix(int s) { Value(static_cast<uint32_t>(s - 1), 2); }
  void Rank(uint32_t r) { Value(r, rank_nibbles_); }
  // A whole entry: Suffix(suffix), Rank(ranks[i]) for i < n, Rank(last).
  __attribute__((always_inline)) void Entry(int suffix, const uint16_t* ranks, int n,
                                            uint32_t last) {
    Suffix(suffix);
    for (int i = 0; i < n; ++i) Rank(ranks[i]);
    Rank(last);
  }
  // Entry(1, nullptr, 0, last): an entry that differs from the one before
  // in its last count only (a sibling's), the expander's common case.
  __attribute__((always_inline)) void Sibling(uint32_t last) {
    int m = 0;
    const uint64_t w = RankNibbles(last, &m);
    Nibbles(w, m + 1);  // the suffix length 1 (nibble 0), then the rank
  }

  // The nibbles Rank(r) writes: returns them as a word, the first one
  // highest, and sets *m to their count (1, or 3 or 5).
  // REQUIRES: r fits the writer's count_bytes.
  __attribute__((always_inline)) uint64_t RankNibbles(uint32_t r, int* m) const {
    *m = r < 15 ? 1 : rank_nibbles_ + 1;
    return r < 15 ? r : escape_ | r;
  }

  // Appends the m nibbles of w (1 <= m <= 16, w < 16^m), its highest
  // nibble first: what the calls above write, as one word. No branch on
  // the data: a word is always stored into the room, and kept when the
  // nibbles fill it.
  __attribute__((always_inline)) void Nibbles(uint64_t w, int m) {
    if (__builtin_expect(at_ + 8 > room_, 0)) Grow();
    const int total = pending_ + m;  // 1..31: a word is full from 16 on
    const int rest = total & 15;     // nibbles pending after
    // (Shifts in two steps: a shift by 64 is undefined.)
    const uint64_t word = ((acc_ << (4 * (15 - pending_))) << 4) | (w >> (4 * rest));
    const uint64_t big = __builtin_bswap64(word);
    std::memcpy(buf_ + at_, &big, 8);
    at_ += 8 * static_cast<size_t>(total >> 4);
    // The rest of w are its lowest nibbles: acc_'s low nibbles either way.
    acc_ = ((acc_ << (4 * m - 4)) << 4) | w;
    pending_ = rest;
  }

  // Writes the nibbles still pending, and a 0 nibble after an odd count;
  // *out then holds exactly the bytes written.
  void Finish() {
    if (pending_ % 2) Nibbles(0, 1);
    if (at_ + 8 > room_) Grow();
    for (int i = pending_ / 2 - 1; i >= 0; --i) buf_[at_++] = static_cast<char>(acc_ >> (8 * i));
    out_->resize(at_);
    room_ = at_;
    acc_ = 0, pending_ = 0;
  }

 private:
  __attribute__((always_inline)) void Value(uint32_t v, int nibbles) {
    if (v < 15) return Nibbles(v, 1);
    const uint64_t low = v & ((uint64_t{1} << (4 * nibbles)) - 1);
    Nibbles((uint64_t{15} << (4 * nibbles)) | low, nibbles + 1);
  }
  // Room for at least 8 more bytes at at_ (the string's own capacity first).
  // (The work is out of line and takes no pointer to the writer: a call
  // that took one would make the compiler assume the call changed every
  // field, and reload them all after each entry.)
  __attribute__((always_inline)) void Grow() {
    buf_ = GrowBuffer(out_, at_);
    room_ = out_->size();
  }
  __attribute__((noinline)) static char* GrowBuffer(std::string* out, size_t at) {
    out->resize(std::max({out->capacity(), 2 * out->size(), at + 64}));
    return out->data();
  }

  std::string* out_;
  int rank_nibbles_;
  uint64_t escape_;      // the nibble 15 above a rank's rank_nibbles_
  size_t at_;            // bytes written to *out_
  size_t room_;          // *out_'s size when buf_ was taken
  char* buf_ = nullptr;  // out_->data()
  uint64_t acc_ = 0;     // its low pending_ nibbles (< 16) wait, the last lowest
  int pending_ = 0;
};

// Writes a format-3 payload: the trie of a block's paths (their rank-coded
// counts), entries given in key order. The payload is k bytes, the width w_d
// of depth d (the largest rank at position d, plus one), then the masks of
// the trie's inner nodes in preorder (a node before its children, children
// by increasing rank), packed least significant bit first: the node of depth
// d, 0 <= d < k, holds bit r of its w_d-bit mask for each child whose rank
// at position d is r. Masks of width 1 are not written (they can only be
// 1). The last byte's bits past the masks are 0.
//
// A node's mask is complete only once its last descendant is known, so the
// writer keeps the block's masks until Finish(): 8 bytes and one byte per
// node, fewer than two nodes per entry deep in the tree. Its arrays grow
// with the largest block and are kept from block to block.
class TrieWriter {
 public:
  // Starts a block of entries of k ranks each (1 <= k <= kMaxTrieDepth):
  // only the root.
  void Restart(int k) {
    k_ = k;
    for (int d = 0; d < k; ++d) seen_[d] = 0;
    n_ = 0;
    if (masks_.empty()) Grow(1);
    NewNode(0);
  }

  // An entry whose ranks are prefix[0..j) and then last (k = j + 1), and
  // whose first `shared` ranks (shared < j) are those of the entry before
  // it (0 for a block's first entry). (shared == j: Sibling(last).)
  // REQUIRES: every rank < kMaxTrieWidth; entries strictly increasing.
  __attribute__((always_inline)) void Entry(int shared, const uint16_t* prefix, int j,
                                            uint32_t last) {
    if (__builtin_expect(n_ + j > masks_.size(), 0)) Grow(j);
    for (int d = shared; d < j; ++d) {
      const uint64_t bit = uint64_t{1} << prefix[d];
      masks_[at_[d]] |= bit;
      seen_[d] |= bit;
      NewNode(d + 1);
    }
    Sibling(last);
  }
  // An entry that differs from the one before in its last rank only, or
  // the first entry of a block of k = 1.
  __attribute__((always_inline)) void Sibling(uint32_t last) {
    const uint64_t bit = uint64_t{1} << last;
    masks_[at_[k_ - 1]] |= bit;
    seen_[k_ - 1] |= bit;
  }

  // Appends the payload to *out (widths, then the masks). Not const: it
  // packs the masks in a buffer of its own first.
  void Finish(std::string* out);

 private:
  __attribute__((always_inline)) void NewNode(int d) {
    at_[d] = static_cast<uint32_t>(n_);
    masks_[n_] = 0;
    depths_[n_] = static_cast<uint8_t>(d);
    ++n_;
  }
  // Room for `more` nodes past n_ (out of line: rare).
  __attribute__((noinline)) void Grow(size_t more);

  int k_ = 0;
  size_t n_ = 0;                     // nodes so far
  std::vector<uint64_t> masks_;      // masks_[0..n_): the nodes' masks, in preorder
  std::vector<uint8_t> depths_;      // their depths
  std::string packed_;               // Finish()'s buffer
  uint32_t at_[kMaxTrieDepth] = {};  // at_[d]: the current path's node of depth d
  // seen_[d]: the ranks taken at position d, an OR of its masks (its width
  // at Finish()).
  uint64_t seen_[kMaxTrieDepth] = {};
};

// Reads the entries of a payload of any block format in order: for each
// entry NextSuffix(), then NextRank() that many times; at the end, AtEnd().
// Each returns false on a damaged payload, error() then naming what is
// wrong. Checks suffix lengths (1..k, k for the first entry).
class EntryReader {
 public:
  explicit EntryReader(const RawBlock& raw)
      : bytes_(reinterpret_cast<const uint8_t*>(raw.payload.data())),
        size_(raw.payload.size()),
        k_(raw.k),
        width_(raw.count_bytes),
        columns_(raw.format == kBlockFormatColumns),
        trie_(raw.format == kBlockFormatTrie),
        // Format 1: column 2 starts after the suffix lengths.
        at_(columns_ ? raw.entries : 0) {}

  bool NextSuffix(int* suffix) {
    if (trie_) return TrieSuffix(suffix);
    uint32_t s = 0;
    if (columns_) {
      if (i_ >= size_) return Fail("block payload is too short");
      s = bytes_[i_];
    } else {
      if (!Value(2, &s)) return false;
      ++s;
    }
    if (s < 1 || s > static_cast<uint32_t>(k_) || (i_ == 0 && s != static_cast<uint32_t>(k_)))
      return Fail("block front coding is invalid");
    ++i_;
    if (columns_ && at_ + static_cast<size_t>(s) * width_ > size_)
      return Fail("block payload is too short");
    *suffix = static_cast<int>(s);
    return true;
  }

  bool NextRank(uint32_t* rank) {
    if (trie_) return TrieRank(rank);
    if (columns_) {  // NextSuffix checked the room
      uint32_t r = bytes_[at_++];
      if (width_ == 2) r = (r << 8) | bytes_[at_++];
      *rank = r;
      return true;
    }
    return Value(2 * width_, rank);
  }

  // True when the payload holds nothing past the entries read.
  bool AtEnd() {
    if (trie_) return TrieEnd();
    const bool end =
        columns_ ? at_ == size_
                 : at_ == 2 * size_ || (at_ + 1 == 2 * size_ && (bytes_[size_ - 1] & 15) == 0);
    return end || Fail("block payload has trailing bytes");
  }

  const char* error() const { return error_; }

 private:
  bool Fail(const char* what) {
    error_ = what;
    return false;
  }
  // Format 2: at_ counts nibbles.
  bool Nibble(uint32_t* v) {
    if (at_ >= 2 * size_) return Fail("block payload is too short");
    const uint8_t b = bytes_[at_ >> 1];
    *v = (b >> (4 * (~at_ & 1))) & 15;  // the high nibble first
    ++at_;
    return true;
  }
  bool Value(int nibbles, uint32_t* v) {
    if (!Nibble(v)) return false;
    if (*v < 15) return true;
    uint32_t x = 0;
    for (int j = 0; j < nibbles; ++j) {
      uint32_t n = 0;
      if (!Nibble(&n)) return false;
      x = (x << 4) | n;
    }
    *v = x;
    return true;
  }

  // Format 3 (TrieWriter). rem_[d]: the ranks of the current node of depth
  // d not yet taken; next_: the depth TrieRank() reads next; pop_: whether
  // it takes that depth's next rank from rem_ (the branch) or reads a new
  // node's mask; at_ counts the masks' bits, from byte k on.
  bool TrieSuffix(int* suffix) {
    int d = 0;
    if (i_ == 0) {
      if (k_ > kMaxTrieDepth || size_ < static_cast<size_t>(k_))
        return Fail("block payload is too short");
      for (int j = 0; j < k_; ++j) {
        if (bytes_[j] < 1 || bytes_[j] > kMaxTrieWidth) return Fail("block trie is invalid");
      }
      pop_ = false;
    } else {
      d = k_ - 1;
      while (d >= 0 && rem_[d] == 0) --d;
      if (d < 0) return Fail("block trie holds fewer entries than its header");
      pop_ = true;
    }
    next_ = d;
    ++i_;
    *suffix = k_ - d;
    return true;
  }
  bool TrieRank(uint32_t* rank) {
    uint64_t m = 0;
    if (pop_) {
      m = rem_[next_];
      pop_ = false;
    } else {
      const int w = bytes_[next_];
      if (w == 1) {
        m = 1;
      } else {
        const size_t byte = k_ + (at_ >> 3);
        if (at_ + w > 8 * (size_ - k_)) return Fail("block payload is too short");
        uint64_t x = 0;
        if (byte + 8 <= size_) {
          std::memcpy(&x, bytes_ + byte, 8);
          if constexpr (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) x = __builtin_bswap64(x);
        } else {
          for (size_t b = size_; b-- > byte;) x = (x << 8) | bytes_[b];
        }
        m = (x >> (at_ & 7)) & ((uint64_t{1} << w) - 1);
        at_ += w;
        if (m == 0) return Fail("block trie has an empty node");
        seen_[next_] |= m;
      }
    }
    *rank = static_cast<uint32_t>(__builtin_ctzll(m));
    rem_[next_] = m & (m - 1);
    ++next_;
    return true;
  }
  bool TrieEnd() {
    if (i_ == 0) return Fail("block trie is empty");
    for (int d = 0; d < k_; ++d) {
      if (rem_[d]) return Fail("block trie holds more entries than its header");
    }
    const size_t bytes = (at_ + 7) >> 3;
    if (k_ + bytes != size_) return Fail("block payload has trailing bytes");
    if ((at_ & 7) && (bytes_[size_ - 1] >> (at_ & 7)))
      return Fail("block payload has trailing bits");
    // Each width is the largest rank at its position plus one: one code per
    // block, so that a block reads back only as it was written.
    for (int d = 0; d < k_; ++d) {
      if (bytes_[d] > 1 && !((seen_[d] >> (bytes_[d] - 1)) & 1))
        return Fail("block trie's widths are not its largest ranks");
    }
    return true;
  }

  const uint8_t* bytes_;
  const size_t size_;
  const int k_, width_;
  const bool columns_, trie_;
  size_t i_ = 0;  // entries read
  size_t at_;     // format 1: next byte of column 2; format 2: next nibble; 3: next bit
  const char* error_ = "";
  // Format 3 only.
  uint64_t rem_[kMaxTrieDepth] = {};
  uint64_t seen_[kMaxTrieDepth] = {};  // the ranks read at each position
  int next_ = 0;
  bool pop_ = false;
};

// Compresses `raw` and prepends the header and checksum: a block as stored.
void SealBlock(const RawBlock& raw, std::string* out);

// Checks the header and checksum of a stored block and decompresses it;
// Corruption (naming what failed) on any mismatch. Column contents are not
// checked here (DecodeBlock and the expander check them as they read).
Status UnsealBlock(std::string_view data, RawBlock* raw);

// Encodes `block` (entries sorted by path) into `out`, in block format
// `format` (kBlockFormat or kBlockFormatTrie). REQUIRES: every path uses each
// value at most coding.suits times (true of every enumerated path); for
// kBlockFormatTrie, every rank below kMaxTrieWidth and k <= kMaxTrieDepth.
// raw_bytes receives the payload size before compression.
void EncodeBlock(const PathBlock& block, const CountCoding& coding, std::string* out,
                 uint64_t* raw_bytes, int format = kBlockFormat);

// Decodes a block; Corruption (naming what failed: checksum, header,
// decompression, sizes) on any mismatch.
Status DecodeBlock(std::string_view data, const CountCoding& coding, PathBlock* block);

// The level checksum: XXH64 over the previous value and the block's own
// checksum (header bytes 12..19), chained block by block in key order.
uint64_t ChainChecksum(uint64_t chain, std::string_view block);

// Reads only the header: entries and k. Corruption if it is not a block.
Status PeekBlock(std::string_view data, uint32_t* entries, int* k);

}  // namespace eulerdeck::storage

#endif  // EULERDECK_STORAGE_STORE_BLOCK_CODEC_H_
