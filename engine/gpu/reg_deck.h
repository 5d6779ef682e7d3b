// A sub-deck packed into registers for the GPU's warp walk (warp_walk.h):
// its cards as bytes of kWords 32-bit words, REVERSED (byte j holds card
// d-1-j of a d-card sub-deck D, so that byte j's hit count is h = byte + j
// + 1 whatever d is), every byte past the sub-deck zero. The operations are
// those of rule_core.h (MakeChild, UnmakeChild, condition (2)) written with
// word shifts and selects over fixed, unrolled indices only: no array is
// indexed by a value known at run time, so that a device keeps a deck in
// registers (an indexed array would go to local memory). Header only, for
// the host and a CUDA device (engine/base/hd.h).
#ifndef EULERDECK_ENGINE_GPU_REG_DECK_H_
#define EULERDECK_ENGINE_GPU_REG_DECK_H_

#include <cstdint>

#include "engine/base/hd.h"
#include "engine/eulerian/rule_core.h"

// Loops over words and positions are unrolled on a device (their indices
// become constants, the arrays registers); the bottom's are not.
#ifdef __CUDA_ARCH__
#define EULERDECK_UNROLL _Pragma("unroll")
#define EULERDECK_NO_UNROLL _Pragma("unroll 1")
#else
#define EULERDECK_UNROLL
#define EULERDECK_NO_UNROLL
#endif

namespace eulerdeck::gpu {

// (hi:lo) >> s and the high word of (hi:lo) << s, 0 <= s < 32.
EULERDECK_HD_INLINE uint32_t FunnelRight(uint32_t lo, uint32_t hi, uint32_t s) {
#ifdef __CUDA_ARCH__
  return __funnelshift_r(lo, hi, s);
#else
  return static_cast<uint32_t>(((static_cast<uint64_t>(hi) << 32) | lo) >> s);
#endif
}
EULERDECK_HD_INLINE uint32_t FunnelLeft(uint32_t lo, uint32_t hi, uint32_t s) {
#ifdef __CUDA_ARCH__
  return __funnelshift_l(lo, hi, s);
#else
  return static_cast<uint32_t>((((static_cast<uint64_t>(hi) << 32) | lo) << s) >> 32);
#endif
}

// kWords >= 2 words: sub-decks of up to 4 kWords cards.
template <int kWords>
struct RegDeck {
  static_assert(kWords >= 2, "the shifts need two words or more");
  static constexpr int kBytes = 4 * kWords;
  uint32_t w[kWords];

  EULERDECK_HD_INLINE static RegDeck Zero() {
    RegDeck r;
    EULERDECK_UNROLL
    for (int i = 0; i < kWords; ++i) r.w[i] = 0;
    return r;
  }
  // From / to cards in the order of rule_core.h (d <= kBytes cards).
  EULERDECK_HD_INLINE static RegDeck FromCards(const Card* cards, int d) {
    RegDeck r = Zero();
    EULERDECK_UNROLL
    for (int j = 0; j < kBytes; ++j) {
      if (j < d) r.w[j >> 2] |= static_cast<uint32_t>(cards[d - 1 - j]) << (8 * (j & 3));
    }
    return r;
  }
  EULERDECK_HD_INLINE void ToCards(int d, Card* cards) const {
    for (int j = 0; j < d; ++j) cards[d - 1 - j] = static_cast<Card>(Byte(j));
  }

  // Byte j (tests, and a constant j once unrolled).
  EULERDECK_HD_INLINE uint32_t Byte(int j) const {
    uint32_t word = 0;
    EULERDECK_UNROLL
    for (int i = 0; i < kWords; ++i) word = i == (j >> 2) ? w[i] : word;
    return (word >> (8 * (j & 3))) & 0xffu;
  }
  // Keeps bytes [0, n), clears the others.
  EULERDECK_HD_INLINE RegDeck Low(int n) const {
    RegDeck r;
    EULERDECK_UNROLL
    for (int i = 0; i < kWords; ++i) {
      const int lim = n - 4 * i;
      const uint32_t m = lim >= 4 ? ~0u : lim <= 0 ? 0u : (1u << (8 * lim)) - 1;
      r.w[i] = w[i] & m;
    }
    return r;
  }
  // Bytes moved down (toward byte 0) / up by n, 0 <= n <= kBytes.
  EULERDECK_HD_INLINE RegDeck Down(int n) const {
    RegDeck r = *this;
    const int ws = n >> 2;
    EULERDECK_UNROLL
    for (int b = 1; b < kWords; b <<= 1) {
      const bool on = (ws & b) != 0;
      EULERDECK_UNROLL
      for (int i = 0; i < kWords; ++i)
        r.w[i] = on ? (i + b < kWords ? r.w[i + b < kWords ? i + b : i] : 0u) : r.w[i];
    }
    const uint32_t bs = static_cast<uint32_t>(8 * (n & 3));
    EULERDECK_UNROLL
    for (int i = 0; i < kWords; ++i)
      r.w[i] = FunnelRight(r.w[i], i + 1 < kWords ? r.w[i + 1 < kWords ? i + 1 : i] : 0u, bs);
    return r;
  }
  EULERDECK_HD_INLINE RegDeck Up(int n) const {
    RegDeck r = *this;
    const int ws = n >> 2;
    EULERDECK_UNROLL
    for (int b = 1; b < kWords; b <<= 1) {
      const bool on = (ws & b) != 0;
      EULERDECK_UNROLL
      for (int i = kWords - 1; i >= 0; --i)
        r.w[i] = on ? (i - b >= 0 ? r.w[i - b >= 0 ? i - b : i] : 0u) : r.w[i];
    }
    const uint32_t bs = static_cast<uint32_t>(8 * (n & 3));
    EULERDECK_UNROLL
    for (int i = kWords - 1; i >= 0; --i)
      r.w[i] = FunnelLeft(i > 0 ? r.w[i > 0 ? i - 1 : i] : 0u, r.w[i], bs);
    return r;
  }
  EULERDECK_HD_INLINE RegDeck Or(const RegDeck& o) const {
    RegDeck r;
    EULERDECK_UNROLL
    for (int i = 0; i < kWords; ++i) r.w[i] = w[i] | o.w[i];
    return r;
  }

  // Bytes moved up by one, `x` into byte 0.
  EULERDECK_HD_INLINE RegDeck UpOneWith(uint32_t x) const {
    RegDeck r;
    EULERDECK_UNROLL
    for (int i = kWords - 1; i >= 0; --i) {
      r.w[i] = FunnelLeft(i > 0 ? w[i > 0 ? i - 1 : i] : 0u, w[i], 8);
    }
    r.w[0] |= x;
    return r;
  }

  // MakeChild() (rule_core.h) of this sub-deck (k cards): C = D[k-q..k-1],
  // x, D[0..k-q-1], reversed: D's reversed bytes q..k-1, then x, then its
  // bytes 0..q-1. REQUIRES: k + 1 <= kBytes. (No byte is indexed by q: a
  // device compiler turns such selects back into an indexed array, which
  // lives in local memory.)
  EULERDECK_HD_INLINE RegDeck Child(int k, uint32_t t, uint32_t x) const {
    const int q = RemovalSlot(k, t);
    return Down(q).Or(Low(q).UpOneWith(x).Up(k - q));
  }
  // UnmakeChild(): the parent (k cards) of this child (k + 1 cards) whose
  // removed card sits at q (in the order of rule_core.h); *x: that card.
  EULERDECK_HD_INLINE RegDeck Parent(int k, int q, uint32_t* x) const {
    const RegDeck from_x = Down(k - q);  // x, then the parent's first bytes
    *x = from_x.w[0] & 0xffu;
    return from_x.Down(1).Or(Low(k - q).Up(q));
  }

  // Condition (2) as a bitset over counts 0..31: every count t = h_j + sigma
  // (sigma in S, `s_bits` its first 32 bits), h_j = byte j + j + 1, over
  // the positions j < min(d, kPositions) from the end. The positions from
  // `kPositions` on have h > kPositions: they block no count up to a limit
  // <= kPositions. Bits past the limit are left (the caller masks them).
  template <int kPositions>
  EULERDECK_HD_INLINE uint32_t Blocked(int d, uint32_t s_bits) const {
    uint32_t blocked = 0;
    EULERDECK_UNROLL
    for (int j = 0; j < kPositions && j < kBytes; ++j) {
      const uint32_t h = ((w[j >> 2] >> (8 * (j & 3))) & 0xffu) + static_cast<uint32_t>(j + 1);
      const uint32_t b = h < 32 ? s_bits << h : 0u;
      blocked |= j < d ? b : 0u;
    }
    return blocked;
  }
};

}  // namespace eulerdeck::gpu

#endif  // EULERDECK_ENGINE_GPU_REG_DECK_H_
