// libeulerdeck_gpu.so: the GPU worker's CUDA side, the C interface of
// gpu_abi.h. Built by nvcc from the walk's headers alone (no other library
// of eulerdeck, so a machine with nvcc and nothing else builds it:
// scripts/gpu_check.sh), and loaded by gpu_worker.cc.
//
// A batch is one kernel launch. The rules the warp machine takes
// (WarpWords(), warp_walk.h: mousetrap and hlm) go to the warp kernel
// (warp_kernel.cu) unless $EULERDECK_GPU_KERNEL is "old"; the others, and
// those with it, to the old kernel here, with as many threads as the device
// holds at once. Every thread runs the kernel body of batch_walk.h: it fetches roots
// from a counter in global memory (atomicAdd, so that threads that drew
// small subtrees take more), walks each with its own stack walk in local
// memory, and keeps its per-level counts in registers and local memory; at
// the end each warp sums its threads' counts (shuffles) and adds them to
// the batch's with one 64-bit atomicAdd per level. Integer work only. The
// host thread waits for the launch and raises a flag in mapped host memory
// when the caller's stop flag rises; the threads look at it every 2^16
// sub-decks and stop.
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "engine/eulerian/rule_core.h"
#include "engine/eulerian/stack_walk.h"
#include "engine/gpu/batch_walk.h"
#include "engine/gpu/gpu_abi.h"
#include "engine/gpu/launch.cuh"
#include "engine/gpu/warp_walk.h"

namespace eulerdeck::gpu {
namespace {

struct DeviceHooks {
  const volatile int32_t* stop;
  uint32_t calls;
  EULERDECK_HD bool Poll() {
#ifdef __CUDA_ARCH__
    if ((++calls & 0xffffu) != 0) return false;
    return *stop != 0;
#else
    return false;
#endif
  }
  EULERDECK_HD void Leaf(const Card*, const Card*) {}
};

struct DeviceFetch {
  unsigned long long* next;
  EULERDECK_HD uint64_t operator()() {
#ifdef __CUDA_ARCH__
    return atomicAdd(next, 1ull);
#else
    return ~uint64_t{0};
#endif
  }
};

template <int W, int kTable>
__global__ void __launch_bounds__(kBlock)
    WalkKernel(const uint64_t* image, const uint8_t* roots, uint64_t root_count, int root_cards,
               unsigned long long* next, unsigned long long* level_out, uint64_t* sizes,
               const volatile int32_t* stop, int* stopped) {
  const RuleCore rule = RuleCore::Of(image);
  const int n = rule.h->cards;
  internal::StackWalk<W, kTable> walk;
  walk.Init(rule, /*build_leaves=*/false);
  uint64_t level[kMaxEnumCards + 1];
  for (int j = 0; j <= kMaxEnumCards; ++j) level[j] = 0;
  DeviceFetch fetch{next};
  DeviceHooks hooks{stop, 0};
  if (!WalkBatch(walk, roots, root_count, root_cards, n, level, sizes, fetch, hooks)) {
    *stopped = 1;
  }
  // Every thread of the warp gets here (no early return): sum and add.
  for (int j = 0; j <= n; ++j) {
    unsigned long long v = level[j];
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
    if ((threadIdx.x & 31) == 0 && v != 0) atomicAdd(level_out + j, v);
  }
}

// The old kernel: the stack walk in every thread.
template <int W, int kTable>
int Launch(const EulerdeckGpuBatch& b, const RuleCore& host_rule, char* message, size_t bytes) {
  const int n = host_rule.h->cards;
  auto kernel = WalkKernel<W, kTable>;
  DeviceBatch d;
  // The kernel's frame (the stack walk) lives in local memory: make the
  // per-thread stack at least that large.
  cudaFuncAttributes attr;
  EULERDECK_CUDA_TRY(cudaFuncGetAttributes(&attr, kernel), "kernel attributes");
  size_t stack = 0;
  EULERDECK_CUDA_TRY(cudaDeviceGetLimit(&stack, cudaLimitStackSize), "stack limit");
  if (stack < attr.localSizeBytes + 1024) {
    EULERDECK_CUDA_TRY(cudaDeviceSetLimit(cudaLimitStackSize, attr.localSizeBytes + 1024),
                       "setting the stack limit");
  }
  int32_t* device_stop = nullptr;
  if (const int rc = Prepare(b, n, d, &device_stop, message, bytes); rc != EULERDECK_GPU_OK) {
    return rc;
  }
  int device = 0, sms = 0, per_sm = 0;
  EULERDECK_CUDA_TRY(cudaGetDevice(&device), "device");
  EULERDECK_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "SMs");
  EULERDECK_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kBlock, 0),
                     "occupancy");
  if (per_sm < 1) per_sm = 1;
  // As many threads as the device holds at once, and no more than the roots
  // need (a block of 128 at least).
  uint64_t blocks = static_cast<uint64_t>(sms) * per_sm;
  const uint64_t needed = (b.root_count + kBlock - 1) / kBlock;
  if (blocks > needed) blocks = needed > 0 ? needed : 1;
  const double start = Now();
  kernel<<<static_cast<unsigned>(blocks), kBlock, 0, d.stream>>>(d.image, d.roots, b.root_count,
                                                                 b.root_cards, d.next, d.level,
                                                                 d.sizes, device_stop, d.stopped);
  EULERDECK_CUDA_TRY(cudaGetLastError(), "launching the walk");
  const int rc = Finish(b, n, d, message, bytes);
  if (rc == EULERDECK_GPU_OK && TimingAsked()) {
    std::fprintf(stderr,
                 "eulerdeck gpu: kernel old<%d,%d>, %llu blocks of %d (%d per SM), %zu B local "
                 "per thread, %.3f s\n",
                 W, kTable, static_cast<unsigned long long>(blocks), kBlock, per_sm,
                 static_cast<size_t>(attr.localSizeBytes), Now() - start);
  }
  return rc;
}

}  // namespace
}  // namespace eulerdeck::gpu

using eulerdeck::RuleCore;
using namespace eulerdeck::gpu;

extern "C" {

__attribute__((visibility("default"))) int eulerdeck_gpu_abi_version(void) {
  return EULERDECK_GPU_ABI_VERSION;
}

// The device eulerdeck_gpu_open chose: the CUDA runtime's current device
// is a host thread's, and batches come from another thread than the open.
static int g_ordinal = 0;

__attribute__((visibility("default"))) int eulerdeck_gpu_open(int local_rank, char* message,
                                                              size_t bytes) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  // The runtime says "CUDA driver version is insufficient" when it finds no
  // driver at all (libcuda.so.1, which comes with the NVIDIA driver): on a
  // machine without a GPU that would ask for a driver upgrade. So a missing
  // driver, like a driver without a device, is "no GPU"; only a driver that
  // is there and too old is said to be too old.
  if (e == cudaErrorInsufficientDriver) {
    void* driver = ::dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (driver == nullptr) {
      std::snprintf(message, bytes, "no NVIDIA driver: libcuda.so.1 not found");
      return EULERDECK_GPU_NO_DEVICE;
    }
    ::dlclose(driver);
  }
  if (e == cudaErrorNoDevice || (e == cudaSuccess && count == 0)) {
    std::snprintf(message, bytes, "the NVIDIA driver sees no CUDA device");
    return EULERDECK_GPU_NO_DEVICE;
  }
  if (e != cudaSuccess) {
    std::snprintf(message, bytes, "no usable CUDA device or driver (%s)", cudaGetErrorString(e));
    return 1;
  }
  // Ranks of a node share its devices round robin (several ranks on one
  // device share it).
  const int ordinal = (local_rank < 0 ? 0 : local_rank) % count;
  cudaDeviceProp prop;
  if (Failed(cudaSetDevice(ordinal), "selecting the device", message, bytes) ||
      Failed(cudaGetDeviceProperties(&prop, ordinal), "reading the device", message, bytes)) {
    return 1;
  }
  g_ordinal = ordinal;
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  std::snprintf(message, bytes,
                "device %d of %d: %s, %d SMs, %.1f GiB, compute %d.%d, driver %d.%d, runtime %d.%d",
                ordinal, count, prop.name, prop.multiProcessorCount,
                static_cast<double>(prop.totalGlobalMem) / (1024.0 * 1024.0 * 1024.0), prop.major,
                prop.minor, driver / 1000, (driver % 1000) / 10, runtime / 1000,
                (runtime % 1000) / 10);
  return 0;
}

__attribute__((visibility("default"))) int eulerdeck_gpu_count(const EulerdeckGpuBatch* batch,
                                                               char* message, size_t bytes) {
  if (Failed(cudaSetDevice(g_ordinal), "selecting the device", message, bytes)) {
    return EULERDECK_GPU_ERROR;
  }
  const RuleCore rule = RuleCore::Of(batch->rule_image);
  if (batch->rule_words < eulerdeck::kRuleHeaderWords ||
      rule.h->magic != eulerdeck::kRuleImageMagic) {
    std::snprintf(message, bytes, "the rule image is not one (bad magic)");
    return EULERDECK_GPU_ERROR;
  }
  if (batch->root_count == 0) return EULERDECK_GPU_OK;
  const char* kernel = getenv(kKernelEnv);
  if (kernel == nullptr || strcmp(kernel, "old") != 0) {
    switch (WarpWords(rule, batch->root_cards)) {
      case kWarpSmallWords:
      case kWarpLargeWords:
        return LaunchWarpKernel(WarpWords(rule, batch->root_cards), *batch, rule, message, bytes);
    }
  }
  switch (KindOf(rule)) {
    case kNarrowSmall:
      return Launch<1, kSmallTable>(*batch, rule, message, bytes);
    case kNarrowLarge:
      return Launch<1, eulerdeck::internal::kHitTableSize>(*batch, rule, message, bytes);
    case kWideSmall:
      return Launch<kWideWords, kSmallTable>(*batch, rule, message, bytes);
    case kWideLarge:
      return Launch<kWideWords, eulerdeck::internal::kHitTableSize>(*batch, rule, message, bytes);
  }
  std::snprintf(message, bytes,
                "the GPU walk handles count limits below %d (modular's lcm), not this game's",
                64 * kWideWords);
  return EULERDECK_GPU_ERROR;
}

__attribute__((visibility("default"))) void eulerdeck_gpu_close(void) { cudaDeviceReset(); }

}  // extern "C"
