// The body of the GPU kernel: one worker of a batch of subtree roots takes
// roots one at a time from a shared counter (dynamic fetching: subtrees
// differ in size by orders of magnitude, so a worker that drew small ones
// takes more) and walks each with the stack walk (stack_walk.h), adding to
// its own per-level counts (no contention; the caller sums the workers'
// counts at the end) and writing each root's subtree size. Header-only, for
// the host and a CUDA device (engine/base/hd.h): the plugin runs it in every
// CUDA thread (gpu_plugin.cu), host_device.cc on the host's threads.
#ifndef EULERDECK_ENGINE_GPU_BATCH_WALK_H_
#define EULERDECK_ENGINE_GPU_BATCH_WALK_H_

#include <cstdint>

#include "engine/base/hd.h"
#include "engine/eulerian/rule_core.h"
#include "engine/eulerian/stack_walk.h"

namespace eulerdeck::gpu {

// The words W of the stack walk a rule needs (its largest limit below 64 W)
// and whether its h values fit a table of 64 entries (ranks + cards < 64):
// the plugin compiles the walk for W = 1 or kWideWords and tables of 64 or
// kHitTableSize entries, and refuses wider rules.
inline constexpr int kWideWords = kMaxTableWords;
inline constexpr int kSmallTable = 64;
EULERDECK_HD_INLINE int RuleWords(const RuleCore& rule) {
  int words = 1;
  for (int k = 1; k < rule.h->cards; ++k)
    words = hd::Max(words, static_cast<int>(rule.size(k).words));
  return words;
}
EULERDECK_HD_INLINE bool SmallTableFits(const RuleCore& rule) {
  return rule.h->ranks + rule.h->cards < kSmallTable;
}

// Which instantiation of the walk a rule takes: the plugin and the host
// stand-in compile the same four. -1: none (a limit past 64 kWideWords
// counts: modular with ranks and cards whose lcm passes 255).
enum WalkKind { kNarrowSmall = 0, kNarrowLarge = 1, kWideSmall = 2, kWideLarge = 3 };
EULERDECK_HD_INLINE int KindOf(const RuleCore& rule) {
  const int words = RuleWords(rule);
  if (words > kWideWords) return -1;
  return (words == 1 ? 0 : 2) + (SmallTableFits(rule) ? 0 : 1);
}

// Walks roots fetched by `fetch()` (an index; >= root_count: none left)
// until none is left or hooks.Poll() stops the walk (then false). level:
// this worker's counts, cards + 1 entries, added to. sizes[i]: the sub-decks
// strictly below root i.
template <int W, int kTable, class Fetch, class Hooks>
EULERDECK_HD bool WalkBatch(internal::StackWalk<W, kTable>& walk, const uint8_t* roots,
                            uint64_t root_count, int root_cards, int cards, uint64_t* level,
                            uint64_t* sizes, Fetch& fetch, Hooks& hooks) {
  for (;;) {
    const uint64_t i = fetch();
    if (i >= root_count) return true;
    uint64_t before = 0;
    for (int j = root_cards + 1; j <= cards; ++j) before += level[j];
    if (!walk.WalkFrom(roots + i * static_cast<uint64_t>(root_cards), root_cards, level, nullptr,
                       hooks)) {
      return false;
    }
    uint64_t after = 0;
    for (int j = root_cards + 1; j <= cards; ++j) after += level[j];
    sizes[i] = after - before;
  }
}

}  // namespace eulerdeck::gpu

#endif  // EULERDECK_ENGINE_GPU_BATCH_WALK_H_
