// The plugin's warp kernel (issue 56): each warp runs the machine of
// warp_walk.h, its lanes the threads of the warp. A persistent grid, as many
// blocks of 128 threads as the device holds at once, fetching roots by one
// atomic per warp; each block keeps the rule and each warp its frames, ring,
// sizes and levels in shared memory, each lane its sub-deck in registers
// (tests/gpu/ptxas_check.py: no stack frame, no spill). Compiled alone so
// that the ptxas check compiles it in seconds.
#include <cuda_runtime.h>

#include <cstdio>

#include "engine/eulerian/rule_core.h"
#include "engine/gpu/gpu_abi.h"
#include "engine/gpu/launch.cuh"
#include "engine/gpu/warp_walk.h"

namespace eulerdeck::gpu {
namespace {

// The warp of warp_walk.h on a device: the thread's own lane, the
// collective operations as warp intrinsics. (Host bodies: never called; the
// host runs host_warp.h.)
template <int kWords>
struct DeviceWarp {
  using Lane = WarpLane<kWords>;
  Lane lane;
  int id;  // lane index
  unsigned long long* next;
  const volatile int32_t* stop;

  EULERDECK_HD int Width() const { return kWarpLanes; }
  template <class F>
  EULERDECK_HD void ForLanes(F&& f) {
    f(lane, id);
  }
  template <class P>
  EULERDECK_HD uint32_t Ballot(P&& p) {
#ifdef __CUDA_ARCH__
    return __ballot_sync(0xffffffffu, p(static_cast<const Lane&>(lane), id));
#else
    return 0;
#endif
  }
  EULERDECK_HD uint64_t FetchRoots(uint32_t n) {
#ifdef __CUDA_ARCH__
    unsigned long long base = 0;
    if (id == 0) base = atomicAdd(next, static_cast<unsigned long long>(n));
    return __shfl_sync(0xffffffffu, base, 0);
#else
    return ~uint64_t{0};
#endif
  }
  EULERDECK_HD bool StopRaised() {
#ifdef __CUDA_ARCH__
    int raised = 0;
    if (id == 0) raised = *stop != 0;
    return __shfl_sync(0xffffffffu, raised, 0) != 0;
#else
    return true;
#endif
  }
  EULERDECK_HD void Sync() {
#ifdef __CUDA_ARCH__
    __syncwarp();
#endif
  }
  EULERDECK_HD void Add(uint64_t* at, uint64_t v) {
#ifdef __CUDA_ARCH__
    if (v != 0)
      atomicAdd(reinterpret_cast<unsigned long long*>(at), static_cast<unsigned long long>(v));
#else
    *at += v;
#endif
  }
};

// Bytes of the warp kernel's dynamic shared memory: the rule, then each
// warp's memory (warp_walk.h), 8-byte aligned.
constexpr int kWarpsPerBlock = kBlock / 32;
inline size_t WarpKernelShared(int words, int levels, int ring) {
  const size_t warp = (static_cast<size_t>(WarpMemoryWords(words, levels, ring)) + 1) / 2 * 8;
  return (sizeof(WarpRule) + 7) / 8 * 8 + kWarpsPerBlock * warp;
}

// The blocks of 128 threads that must fit an SM at once: the registers a
// thread may use are 65536 / (128 x this).
template <int kWords>
constexpr int WarpMinBlocks() {
  return kWords == kWarpSmallWords ? 6 : 5;
}

template <int kWords>
__global__ void __launch_bounds__(kBlock, WarpMinBlocks<kWords>())
    WarpKernel(const uint64_t* image, const uint8_t* roots, uint64_t root_count, int root_cards,
               unsigned long long* next, unsigned long long* level_out, uint64_t* sizes,
               const volatile int32_t* stop, int* stopped, int ring, long long* clocks) {
  extern __shared__ uint64_t shared[];
  const long long start = clock64();
  WarpRule* rule = reinterpret_cast<WarpRule*>(shared);
  if (threadIdx.x == 0) BuildWarpRule(RuleCore::Of(image), rule);
  __syncthreads();
  const int n = rule->cards;
  const int levels = n - 3 - root_cards;
  const int warp_words = (WarpMemoryWords(kWords, levels, ring) + 1) / 2 * 2;
  uint32_t* at = reinterpret_cast<uint32_t*>(shared + (sizeof(WarpRule) + 7) / 8) +
                 (threadIdx.x / 32) * warp_words;
  const WarpMemory m = CarveWarpMemory(at, levels, ring);
  DeviceWarp<kWords> w;
  w.id = static_cast<int>(threadIdx.x & 31);
  w.next = next;
  w.stop = stop;
  for (int j = w.id; j < 2 * kWarpLanes + kWarpMaxLevels; j += 32)
    m.size[j] = 0;  // size, root, level
  __syncwarp();
  if (!WalkWarp<kWords>(w, *rule, roots, root_count, root_cards, sizes, m) && w.id == 0) {
    *stopped = 1;
  }
  __syncwarp();
  for (int j = w.id; j <= n; j += 32) {
    if (m.level[j] != 0) atomicAdd(level_out + j, static_cast<unsigned long long>(m.level[j]));
  }
  if (clocks != nullptr) {
    __syncthreads();
    if (threadIdx.x == 0) clocks[blockIdx.x] = clock64() - start;
  }
}

// The warp kernel: a persistent grid, as many blocks as the device holds at
// once, each warp the machine of warp_walk.h.
template <int kWords>
int LaunchWarp(const EulerdeckGpuBatch& b, const RuleCore& host_rule, char* message, size_t bytes) {
  const int n = host_rule.h->cards;
  auto kernel = WarpKernel<kWords>;
  DeviceBatch d;
  int32_t* device_stop = nullptr;
  if (const int rc = Prepare(b, n, d, &device_stop, message, bytes); rc != EULERDECK_GPU_OK) {
    return rc;
  }
  const int ring = kWarpRing;
  const size_t shared = WarpKernelShared(kWords, n - 3 - b.root_cards, ring);
  if (shared > 48 * 1024) {
    EULERDECK_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            static_cast<int>(shared)),
                       "asking for shared memory");
  }
  int device = 0, sms = 0, per_sm = 0;
  EULERDECK_CUDA_TRY(cudaGetDevice(&device), "device");
  EULERDECK_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "SMs");
  EULERDECK_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kBlock, shared),
                     "occupancy");
  if (per_sm < 1) per_sm = 1;
  uint64_t blocks = static_cast<uint64_t>(sms) * per_sm;
  const uint64_t needed = (b.root_count + kBlock - 1) / kBlock;
  if (blocks > needed) blocks = needed > 0 ? needed : 1;
  const bool timing = TimingAsked();
  long long* clocks = nullptr;
  if (timing) {
    EULERDECK_CUDA_TRY(cudaMalloc(&clocks, sizeof(long long) * blocks), "allocating clocks");
  }
  const double start = Now();
  kernel<<<static_cast<unsigned>(blocks), kBlock, shared, d.stream>>>(
      d.image, d.roots, b.root_count, b.root_cards, d.next, d.level, d.sizes, device_stop,
      d.stopped, ring, clocks);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {
    cudaFree(clocks);
    Failed(e, "launching the warp walk", message, bytes);
    return EULERDECK_GPU_ERROR;
  }
  const int rc = Finish(b, n, d, message, bytes);
  if (timing) {
    if (rc == EULERDECK_GPU_OK) {
      char name[32];
      std::snprintf(name, sizeof(name), "warp<%d>", kWords);
      PrintClocks(name, clocks, static_cast<unsigned>(blocks), per_sm, shared, Now() - start);
    }
    cudaFree(clocks);
  }
  return rc;
}

}  // namespace

int LaunchWarpKernel(int words, const EulerdeckGpuBatch& b, const RuleCore& rule, char* message,
                     size_t bytes) {
  if (words == kWarpSmallWords) return LaunchWarp<kWarpSmallWords>(b, rule, message, bytes);
  return LaunchWarp<kWarpLargeWords>(b, rule, message, bytes);
}

}  // namespace eulerdeck::gpu
