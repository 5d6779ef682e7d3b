// The GPU walk as a warp machine (issue 56; docs/gpu.md, "The warp
// kernel"): the kernel body of the plugin's default kernel, written once for
// the host and a CUDA device (engine/base/hd.h).
//
// Each of a warp's lanes walks one subtree root at a time, ONE NODE PER
// ITERATION, with a compact state: its sub-deck in registers (reg_deck.h),
// condition (3) as up to four bitsets of values, and per level of its path
// one 32-bit mask in the warp's memory (`frames`, laid out [level][lane])
// that holds the children not yet finished, the one being walked included
// as its lowest bit (so the child walked and its removal slot are
// recomputed on the way up, not stored). An iteration of a lane either goes
// up (undoes its deck in registers, gives the value back), or builds the
// child at the mask's lowest bit: a sub-deck of level K = cards - 3 becomes
// a JOB in the warp's ring (its deck, its three missing cards, the lane
// that made it), anything above is stood on and its children mask pushed.
// When the ring holds a warp's width of jobs (or a lane finished its root,
// or nothing is left to walk) every lane takes one job and counts levels K+1
// .. cards below it in closed form (Bottom(): three children, two
// grandchildren each, one leaf each, all built in registers, no branch on
// the data), so that the heavy part runs with every lane busy.
//
// What differs between the device and the host is the warp, a template
// parameter Warp with:
//   int Width();                       lanes (32 on a device)
//   void ForLanes(f);                  f(Lane&, int lane) for each lane
//   uint32_t Ballot(p);                bit i: p(lane i's Lane, i)
//   uint64_t FetchRoots(uint32_t n);   first of n root indices (uniform)
//   bool StopRaised();                 the stop flag (uniform)
//   void Sync();                       memory written by lanes is seen by all
//   void Add(uint64_t* at, uint64_t);  atomic add into the warp's memory
// The device's is ballot/shuffle/atomics over the thread's own lane
// (gpu_plugin.cu); the host's runs the lanes one after the other, phase by
// phase (host_warp.h), so the tests run this file's logic, not a copy.
//
// Rules it takes (WarpWords()): count limits never past the ranks (a count
// t names value t: mousetrap, hlm; not modular), limits <= kWarpPositions,
// ranks <= kWarpPositions, at most kWarpMaxSuits suits, roots at most at level cards - 4.
// The others take the stack walk (batch_walk.h).
#ifndef EULERDECK_ENGINE_GPU_WARP_WALK_H_
#define EULERDECK_ENGINE_GPU_WARP_WALK_H_

#include <cstdint>

#include "engine/base/hd.h"
#include "engine/eulerian/rule_core.h"
#include "engine/gpu/reg_deck.h"

namespace eulerdeck::gpu {

inline constexpr int kWarpLanes = 32;      // frames and sizes are laid out for this many
inline constexpr int kWarpPositions = 20;  // the largest count limit
inline constexpr int kWarpMaxSuits = 4;
// The two deck widths compiled: 20 cards (mousetrap <= 21 cards) and 36
// (hlm s=2 up to m = 18).
inline constexpr int kWarpSmallWords = 5;
inline constexpr int kWarpLargeWords = 9;
inline constexpr int kWarpMaxLevels = 4 * kWarpLargeWords + 2;  // levels 0..cards
// The ring's size in jobs by default (a multiple of the warp).
inline constexpr int kWarpRing = 64;
// The environment variable that selects the old kernel (the stack walk in
// every thread) where this one would run: "old" (the plugin and the host
// stand-in read it; scripts/gpu_check.sh compares the two).
inline constexpr char kKernelEnv[] = "EULERDECK_GPU_KERNEL";
// The stop flag is looked at every this many iterations (and at the first).
inline constexpr uint32_t kWarpPollMask = 0xffff;

// The deck words the warp walk needs for `rule` with roots of root_cards
// cards: kWarpSmallWords, kWarpLargeWords, or 0 when it does not take the
// rule (the stack walk does).
EULERDECK_HD_INLINE int WarpWords(const RuleCore& rule, int root_cards) {
  const int n = rule.h->cards, ranks = rule.h->ranks, suits = rule.h->suits;
  if (n < 5 || root_cards < 1 || root_cards > n - 4) return 0;
  if (ranks > kWarpPositions || suits > kWarpMaxSuits) return 0;
  if (rule.h->max_limit > static_cast<uint32_t>(ranks) || rule.h->max_limit > kWarpPositions) {
    return 0;
  }
  if (n - 1 <= 4 * kWarpSmallWords) return kWarpSmallWords;
  if (n - 1 <= 4 * kWarpLargeWords) return kWarpLargeWords;
  return 0;
}

// What the warp walk reads of the rule, per parent size d (1..cards-1):
// kept in the block's shared memory on a device.
struct WarpRule {
  uint32_t counts[kWarpMaxLevels];  // the counts 1..limit of d's children
  uint32_t s_bits[kWarpMaxLevels];  // S's first 32 bits
  uint32_t values;                  // bits 1..ranks
  int32_t cards, ranks, suits;
};

// REQUIRES: WarpWords(rule, ...) > 0.
EULERDECK_HD_INLINE void BuildWarpRule(const RuleCore& rule, WarpRule* out) {
  out->cards = rule.h->cards;
  out->ranks = rule.h->ranks;
  out->suits = rule.h->suits;
  out->values = (1u << (out->ranks + 1)) - 2;
  for (int d = 0; d < kWarpMaxLevels; ++d) {
    const bool in = d >= 1 && d < out->cards;
    out->counts[d] = in ? static_cast<uint32_t>(rule.size(d).last_word_mask) : 0u;
    out->s_bits[d] = in ? static_cast<uint32_t>(rule.size(d).s_bits0) : 0u;
  }
}

// Condition (3) in bitsets, as if every value had kWarpMaxSuits - suits
// cards held from the start: b[j] bit v when more than j such cards of
// value v are held. A value is then available while b[kWarpMaxSuits - 1]
// lacks it, whatever the suits (no bitset is chosen by the suits at run
// time: a device compiler would make the bitsets an indexed array, in local
// memory).
struct Held {
  uint32_t b[kWarpMaxSuits];

  // No card held.
  EULERDECK_HD_INLINE static Held None(const WarpRule& r) {
    Held h;
    EULERDECK_UNROLL
    for (int j = 0; j < kWarpMaxSuits; ++j) h.b[j] = j < kWarpMaxSuits - r.suits ? r.values : 0u;
    return h;
  }
  EULERDECK_HD_INLINE void Take(uint32_t x) {
    uint32_t c = 1u << x;
    EULERDECK_UNROLL
    for (int j = 0; j < kWarpMaxSuits; ++j) {
      const uint32_t set = c & ~b[j];
      b[j] |= c;
      c &= ~set;
    }
  }
  // REQUIRES: a card of value x was taken.
  EULERDECK_HD_INLINE void Give(uint32_t x) {
    uint32_t c = 1u << x;
    EULERDECK_UNROLL
    for (int j = kWarpMaxSuits - 1; j >= 0; --j) {
      const uint32_t has = c & b[j];
      b[j] &= ~has;
      c &= ~has;
    }
  }
  // The values of which fewer than `suits` cards are held.
  EULERDECK_HD_INLINE uint32_t Available(const WarpRule& r) const {
    return r.values & ~b[kWarpMaxSuits - 1];
  }
  // The three lowest cards missing from the full deck (with repeats), in
  // increasing order, as bytes 0..2. REQUIRES: three or more are missing.
  EULERDECK_HD_INLINE uint32_t Missing3(const WarpRule& r) const {
    // m[k]: the values missing k+1 cards or more.
    uint32_t m[kWarpMaxSuits];
    EULERDECK_UNROLL
    for (int k = 0; k < kWarpMaxSuits; ++k) m[k] = r.values & ~b[kWarpMaxSuits - 1 - k];
    uint32_t out = 0;
    EULERDECK_UNROLL
    for (int i = 0; i < 3; ++i) {
      const uint32_t v = static_cast<uint32_t>(hd::Ctz32(m[0]));
      out |= v << (8 * i);
      uint32_t c = 1u << v;  // one card of v found: off the deepest set holding it
      EULERDECK_UNROLL
      for (int k = kWarpMaxSuits - 1; k >= 0; --k) {
        const uint32_t has = c & m[k];
        m[k] &= ~has;
        c &= ~has;
      }
    }
    return out;
  }
};

// The counts t satisfying conditions (1) and (2) for the children of `deck`
// (d cards).
template <int kWords>
EULERDECK_HD_INLINE uint32_t ValidMask(const RegDeck<kWords>& deck, int d, const WarpRule& r) {
  return ~deck.template Blocked<kWarpPositions>(d, r.s_bits[d]) & r.counts[d];
}

// The sub-decks of levels K+1, K+2, K+3 = cards below `deck` (K cards),
// which misses the cards `miss` (bytes 0..2, increasing): out[0..2].
// Every child is built in registers; each of the three missing cards x is
// named by the count t = x alone (limits never pass the ranks), so there
// are at most 3 children, 6 grandchildren and 6 leaves, computed all and
// masked: no branch on the data. The loops are left rolled on a device
// (one copy of the body: fewer live registers and instructions), their
// cards picked by shifts, not from an indexed array.
template <int kWords>
EULERDECK_HD_INLINE void Bottom(const RegDeck<kWords>& deck, int K, uint32_t miss,
                                const WarpRule& r, uint32_t* out) {
  const uint32_t valid = ValidMask(deck, K, r);
  uint32_t children = 0, grandchildren = 0, leaves = 0;
  EULERDECK_NO_UNROLL
  for (int i = 0; i < 3; ++i) {
    // x: the i-th missing card; y0 <= y1: the other two.
    const uint32_t x = (miss >> (8 * i)) & 0xffu;
    const uint32_t rest = i == 0   ? miss >> 8
                          : i == 1 ? (miss & 0xffu) | ((miss >> 8) & 0xff00u)
                                   : miss & 0xffffu;
    const uint32_t y0 = rest & 0xffu, y1 = (rest >> 8) & 0xffu;
    const uint32_t before = i == 0 ? 0u : (miss >> (8 * i - 8)) & 0xffu;
    const uint32_t ok =
        (i == 0 || x != before ? 1u : 0u) & (valid >> x);  // else: the same children again
    children += ok;
    const RegDeck<kWords> child = deck.Child(K, x, x);
    const uint32_t valid_c = ValidMask(child, K + 1, r);
    EULERDECK_NO_UNROLL
    for (int j = 0; j < 2; ++j) {
      const uint32_t y = j == 0 ? y0 : y1, z = j == 0 ? y1 : y0;
      const uint32_t ok2 = ok & (j == 0 || y1 != y0 ? 1u : 0u) & (valid_c >> y);
      grandchildren += ok2;
      const RegDeck<kWords> grandchild = child.Child(K + 1, y, y);
      leaves += ok2 & (ValidMask(grandchild, K + 2, r) >> z);
    }
  }
  out[0] = children;
  out[1] = grandchildren;
  out[2] = leaves;
}

// What a lane holds (in registers on a device).
template <int kWords>
struct WarpLane {
  enum State : int32_t { kIdle = 0, kWalking = 1, kFinished = 2, kRetired = 3 };
  RegDeck<kWords> deck;  // the sub-deck stood on
  Held held;             // its condition (3)
  int32_t d;             // its cards
  int32_t state;
};

// A warp's memory (shared memory on a device): pointers to
//   frames: (K - root_cards) x kWarpLanes masks, [d - root_cards][lane];
//   ring:   (kWords + 1) x ring_size words, [word][slot] (word kWords: the
//           missing cards, bytes 0..2, and the lane that made the job, byte 3);
//   size:   kWarpLanes counts, the sub-decks counted below each lane's root;
//   root:   kWarpLanes indices, the root each lane walks;
//   level:  cards + 1 counts, the warp's.
// (What is not needed at every step is kept here rather than in a lane's
// registers, which the bottom needs.)
struct WarpMemory {
  uint32_t* frames;
  uint32_t* ring;
  uint64_t* size;
  uint64_t* root;
  uint64_t* level;
  int ring_size;  // >= 1
};

// The 32-bit words of a warp's memory (sizes, levels, frames, ring) for
// `levels` = K - root_cards levels of frames, and the memory carved out of
// them (`at` 8-byte aligned): a device carves each warp's out of its
// dynamic shared memory.
EULERDECK_HD_INLINE int WarpMemoryWords(int kWords, int levels, int ring_size) {
  return 2 * (2 * kWarpLanes + kWarpMaxLevels) + levels * kWarpLanes + (kWords + 1) * ring_size;
}
EULERDECK_HD_INLINE WarpMemory CarveWarpMemory(uint32_t* at, int levels, int ring_size) {
  WarpMemory m;
  m.size = reinterpret_cast<uint64_t*>(at);  // 8-byte aligned when `at` is
  m.root = m.size + kWarpLanes;
  m.level = m.root + kWarpLanes;
  m.frames = at + 2 * (2 * kWarpLanes + kWarpMaxLevels);
  m.ring = m.frames + levels * kWarpLanes;
  m.ring_size = ring_size;
  return m;
}

// Walks the roots fetched by the warp (root i: roots[i*root_cards ...],
// root_cards <= cards - 4) until none is left, or the stop flag rises (then
// false, the counts partial). Adds the sub-decks of levels root_cards+1 ..
// cards below them to m.level (zeroed by the caller) and writes sizes[i],
// those strictly below root i. The stop flag is looked at every poll_mask + 1
// iterations (a power of two less one; kWarpPollMask on a device) and at
// the first. Every lane of the warp calls it.
template <int kWords, class Warp>
EULERDECK_HD bool WalkWarp(Warp& w, const WarpRule& r, const uint8_t* roots, uint64_t root_count,
                           int root_cards, uint64_t* sizes, const WarpMemory& m,
                           uint32_t poll_mask = kWarpPollMask) {
  using Lane = WarpLane<kWords>;
  const int K = r.cards - 3;
  const int width = w.Width();
  const int round = m.ring_size < width ? m.ring_size : width;
  auto below = [](int lane) { return (1u << lane) - 1u; };
  // The children of the node a lane stands on: pushed, counted.
  auto push = [&](Lane& l, int lane) {
    const uint32_t mask = ValidMask(l.deck, l.d, r) & l.held.Available(r);
    m.frames[(l.d - root_cards) * kWarpLanes + lane] = mask;
    const int c = hd::Popcount32(mask);
    w.Add(m.level + l.d + 1, static_cast<uint64_t>(c));
    m.size[lane] += static_cast<uint64_t>(c);
  };
  w.ForLanes([&](Lane& l, int) { l.state = Lane::kIdle; });
  int ring = 0;  // jobs in the ring (the same in every lane)
  uint32_t steps = 0;
  for (;;) {
    // 1. Lanes without a root take the next ones, one atomic per warp.
    const uint32_t idle = w.Ballot([](const Lane& l, int) { return l.state == Lane::kIdle; });
    if (idle != 0) {
      const uint64_t base = w.FetchRoots(static_cast<uint32_t>(hd::Popcount32(idle)));
      w.ForLanes([&](Lane& l, int lane) {
        if (l.state != Lane::kIdle) return;
        const uint64_t i = base + static_cast<uint64_t>(hd::Popcount32(idle & below(lane)));
        if (i >= root_count) {
          l.state = Lane::kRetired;
          return;
        }
        const uint8_t* root = roots + i * static_cast<uint64_t>(root_cards);
        l.deck = RegDeck<kWords>::Zero();
        l.held = Held::None(r);
        EULERDECK_UNROLL
        for (int j = 0; j < RegDeck<kWords>::kBytes; ++j) {
          if (j < root_cards) {
            const uint32_t card = root[root_cards - 1 - j];
            l.deck.w[j >> 2] |= card << (8 * (j & 3));
            l.held.Take(card);
          }
        }
        l.d = root_cards;
        m.root[lane] = i;
        l.state = Lane::kWalking;
        m.size[lane] = 0;
        push(l, lane);
      });
      w.Sync();
    }
    const uint32_t walking = w.Ballot([](const Lane& l, int) { return l.state == Lane::kWalking; });
    if (walking == 0 && ring == 0) break;  // every lane retired, every job counted
    if ((steps++ & poll_mask) == 0 && w.StopRaised()) return false;
    // 2. One node per walking lane.
    if (walking != 0) {
      const uint32_t making = w.Ballot([&](const Lane& l, int lane) {
        return l.state == Lane::kWalking && l.d + 1 == K &&
               m.frames[(l.d - root_cards) * kWarpLanes + lane] != 0;
      });
      w.ForLanes([&](Lane& l, int lane) {
        if (l.state != Lane::kWalking) return;
        uint32_t* frame = m.frames + (l.d - root_cards) * kWarpLanes + lane;
        const uint32_t mask = *frame;
        if (mask == 0) {  // every child done
          if (l.d == root_cards) {
            l.state = Lane::kFinished;
            return;
          }
          uint32_t* parent = frame - kWarpLanes;  // back up: undo the child
          const uint32_t pm = *parent;
          const int q = RemovalSlot(l.d - 1, static_cast<uint32_t>(hd::Ctz32(pm)));
          uint32_t x;
          l.deck = l.deck.Parent(l.d - 1, q, &x);
          l.held.Give(x);
          --l.d;
          *parent = pm & (pm - 1);
          return;
        }
        const uint32_t t = static_cast<uint32_t>(hd::Ctz32(mask));  // names value t
        if (l.d + 1 == K) {                                         // a job, if the ring has room
          const int slot = ring + hd::Popcount32(making & below(lane));
          if (slot >= m.ring_size) return;  // stalled until the ring drains
          const RegDeck<kWords> child = l.deck.Child(l.d, t, t);
          Held held = l.held;
          held.Take(t);
          EULERDECK_UNROLL
          for (int i = 0; i < kWords; ++i) m.ring[i * m.ring_size + slot] = child.w[i];
          m.ring[kWords * m.ring_size + slot] =
              held.Missing3(r) | (static_cast<uint32_t>(lane) << 24);
          *frame = mask & (mask - 1);
          return;
        }
        l.deck = l.deck.Child(l.d, t, t);  // down
        l.held.Take(t);
        ++l.d;
        push(l, lane);
      });
      w.Sync();
      const int made = hd::Popcount32(making);
      ring += made < m.ring_size - ring ? made : m.ring_size - ring;
    }
    // 3. Bottom rounds: a full warp of jobs, or all of them when a root is
    // finished (its size is then complete) or nothing is left to walk.
    const uint32_t finished =
        w.Ballot([](const Lane& l, int) { return l.state == Lane::kFinished; });
    const bool drain = finished != 0 || walking == 0;
    while (ring >= round || (drain && ring > 0)) {
      const int take = ring < round ? ring : round;
      w.ForLanes([&](Lane&, int lane) {
        if (lane >= take) return;
        const int slot = ring - take + lane;
        RegDeck<kWords> job;
        EULERDECK_UNROLL
        for (int i = 0; i < kWords; ++i) job.w[i] = m.ring[i * m.ring_size + slot];
        const uint32_t tag = m.ring[kWords * m.ring_size + slot];
        uint32_t c[3];
        Bottom(job, K, tag & 0xffffffu, r, c);
        for (int j = 0; j < 3; ++j) w.Add(m.level + K + 1 + j, c[j]);
        w.Add(m.size + (tag >> 24), static_cast<uint64_t>(c[0]) + c[1] + c[2]);
      });
      w.Sync();
      ring -= take;
    }
    if (finished != 0) {
      w.ForLanes([&](Lane& l, int lane) {
        if (l.state != Lane::kFinished) return;
        sizes[m.root[lane]] = m.size[lane];
        l.state = Lane::kIdle;
      });
      w.Sync();
    }
  }
  return true;
}

}  // namespace eulerdeck::gpu

#endif  // EULERDECK_ENGINE_GPU_WARP_WALK_H_
