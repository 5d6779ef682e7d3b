#include "engine/gpu/host_device.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "engine/eulerian/rule_core.h"
#include "engine/eulerian/stack_walk.h"
#include "engine/gpu/batch_walk.h"
#include "engine/gpu/host_warp.h"
#include "engine/gpu/warp_walk.h"

namespace eulerdeck::gpu {

namespace {

// The host's hooks: the stop flag every 2^14 sub-decks, as the CPU walker.
struct HostHooks {
  const volatile int32_t* stop;
  uint32_t calls = 0;
  bool Poll() {
    if (++calls != (1u << 14)) return false;
    calls = 0;
    return stop != nullptr && *stop != 0;
  }
  void Leaf(const Card*, const Card*) {}  // never asked: the walk counts
};

template <int W, int kTable>
int Run(const EulerdeckGpuBatch& b, const RuleCore& rule, int threads) {
  const int n = rule.h->cards;
  std::atomic<uint64_t> next{0};
  std::atomic<bool> stopped{false};
  std::vector<std::vector<uint64_t>> levels(threads, std::vector<uint64_t>(n + 1, 0));
  std::vector<std::thread> pool;
  for (int i = 0; i < threads; ++i) {
    pool.emplace_back([&, i] {
      auto walk = std::make_unique<internal::StackWalk<W, kTable>>();
      walk->Init(rule, /*build_leaves=*/false);
      auto fetch = [&] { return next.fetch_add(1, std::memory_order_relaxed); };
      HostHooks hooks{b.stop};
      if (!WalkBatch(*walk, b.roots, b.root_count, b.root_cards, n, levels[i].data(), b.sizes,
                     fetch, hooks)) {
        stopped = true;
      }
    });
  }
  for (std::thread& t : pool) t.join();
  for (const std::vector<uint64_t>& level : levels) {
    for (int j = 0; j <= n; ++j) b.level[j] += level[j];
  }
  return stopped ? EULERDECK_GPU_STOPPED : EULERDECK_GPU_OK;
}

// The warp machine: each thread one warp of options.lanes lanes, in its
// own memory (a device's shared memory), fetching roots from one counter.
template <int kWords>
int RunWarps(const EulerdeckGpuBatch& b, const RuleCore& rule, int threads,
             const HostWarpOptions& options) {
  const int n = rule.h->cards;
  WarpRule warp_rule;
  BuildWarpRule(rule, &warp_rule);
  const int levels = n - 3 - b.root_cards;
  const int words = WarpMemoryWords(kWords, levels, options.ring_size);
  std::atomic<uint64_t> next{0};
  std::atomic<bool> stopped{false};
  std::vector<std::vector<uint64_t>> level_of(threads, std::vector<uint64_t>(n + 1, 0));
  std::vector<std::thread> pool;
  for (int i = 0; i < threads; ++i) {
    pool.emplace_back([&, i] {
      auto warp = std::make_unique<HostWarp<kWords>>(options.lanes, &next, b.stop,
                                                     options.stop_after_polls);
      std::vector<uint64_t> memory(static_cast<size_t>(words) / 2 + 1, 0);
      const WarpMemory m =
          CarveWarpMemory(reinterpret_cast<uint32_t*>(memory.data()), levels, options.ring_size);
      if (!WalkWarp<kWords>(*warp, warp_rule, b.roots, b.root_count, b.root_cards, b.sizes, m,
                            options.poll_mask)) {
        stopped = true;
      }
      for (int j = 0; j <= n; ++j) level_of[i][j] = m.level[j];
    });
  }
  for (std::thread& t : pool) t.join();
  for (const std::vector<uint64_t>& level : level_of) {
    for (int j = 0; j <= n; ++j) b.level[j] += level[j];
  }
  return stopped ? EULERDECK_GPU_STOPPED : EULERDECK_GPU_OK;
}

}  // namespace

bool OldKernelAsked() {
  const char* env = std::getenv(kKernelEnv);
  return env != nullptr && std::strcmp(env, "old") == 0;
}

int HostDeviceCount(const EulerdeckGpuBatch* batch, int threads, const HostWarpOptions& options,
                    char* message, size_t message_bytes) {
  const RuleCore rule = RuleCore::Of(batch->rule_image);
  if (batch->rule_words < kRuleHeaderWords || rule.h->magic != kRuleImageMagic) {
    std::snprintf(message, message_bytes, "the rule image is not one (bad magic)");
    return EULERDECK_GPU_ERROR;
  }
  if (!OldKernelAsked()) {
    switch (WarpWords(rule, batch->root_cards)) {
      case kWarpSmallWords:
        return RunWarps<kWarpSmallWords>(*batch, rule, threads, options);
      case kWarpLargeWords:
        return RunWarps<kWarpLargeWords>(*batch, rule, threads, options);
    }
  }
  switch (KindOf(rule)) {
    case kNarrowSmall:
      return Run<1, kSmallTable>(*batch, rule, threads);
    case kNarrowLarge:
      return Run<1, internal::kHitTableSize>(*batch, rule, threads);
    case kWideSmall:
      return Run<kWideWords, kSmallTable>(*batch, rule, threads);
    case kWideLarge:
      return Run<kWideWords, internal::kHitTableSize>(*batch, rule, threads);
  }
  std::snprintf(message, message_bytes,
                "the GPU walk handles count limits below %d (modular's lcm), not this game's",
                64 * kWideWords);
  return EULERDECK_GPU_ERROR;
}

}  // namespace eulerdeck::gpu
