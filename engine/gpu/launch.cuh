// What the plugin's two sources (gpu_plugin.cu: the entry points and the
// old kernel; warp_kernel.cu: the warp kernel) share on the host side: a
// batch's device memory, its copy there and back, the wait that relays the
// stop flag, the timing line. CUDA sources only (nvcc).
#ifndef EULERDECK_ENGINE_GPU_LAUNCH_CUH_
#define EULERDECK_ENGINE_GPU_LAUNCH_CUH_

#include <cuda_runtime.h>
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "engine/eulerian/rule_core.h"
#include "engine/gpu/gpu_abi.h"

namespace eulerdeck::gpu {

constexpr int kBlock = 128;  // threads per block: a multiple of the warp

// What one batch holds on the device; freed on every return.
struct DeviceBatch {
  uint64_t* image = nullptr;
  uint8_t* roots = nullptr;
  unsigned long long* next = nullptr;
  unsigned long long* level = nullptr;
  uint64_t* sizes = nullptr;
  int* stopped = nullptr;
  int32_t* host_stop = nullptr;  // mapped
  cudaStream_t stream = nullptr;
  ~DeviceBatch() {
    cudaFree(image);
    cudaFree(roots);
    cudaFree(next);
    cudaFree(level);
    cudaFree(sizes);
    cudaFree(stopped);
    if (host_stop) cudaFreeHost(host_stop);
    if (stream) cudaStreamDestroy(stream);
  }
};

inline bool Failed(cudaError_t e, const char* what, char* message, size_t bytes) {
  if (e == cudaSuccess) return false;
  std::snprintf(message, bytes, "CUDA: %s: %s", what, cudaGetErrorString(e));
  return true;
}

#define EULERDECK_CUDA_TRY(call, what)                                    \
  do {                                                                    \
    if (Failed((call), what, message, bytes)) return EULERDECK_GPU_ERROR; \
  } while (0)

// Copies the batch to the device (d) and zeroes the counters.
inline int Prepare(const EulerdeckGpuBatch& b, int n, DeviceBatch& d, int32_t** device_stop,
                   char* message, size_t bytes) {
  EULERDECK_CUDA_TRY(cudaStreamCreateWithFlags(&d.stream, cudaStreamNonBlocking), "stream");
  const size_t root_bytes = b.root_count * static_cast<size_t>(b.root_cards);
  EULERDECK_CUDA_TRY(cudaMalloc(&d.image, b.rule_words * sizeof(uint64_t)), "allocating the rule");
  EULERDECK_CUDA_TRY(cudaMalloc(&d.roots, root_bytes > 0 ? root_bytes : 1), "allocating roots");
  EULERDECK_CUDA_TRY(cudaMalloc(&d.next, sizeof(unsigned long long)), "allocating the counter");
  EULERDECK_CUDA_TRY(cudaMalloc(&d.level, sizeof(unsigned long long) * (n + 1)),
                     "allocating levels");
  EULERDECK_CUDA_TRY(cudaMalloc(&d.sizes, sizeof(uint64_t) * (b.root_count > 0 ? b.root_count : 1)),
                     "allocating sizes");
  EULERDECK_CUDA_TRY(cudaMalloc(&d.stopped, sizeof(int)), "allocating the stop mark");
  EULERDECK_CUDA_TRY(cudaHostAlloc(&d.host_stop, sizeof(int32_t), cudaHostAllocMapped),
                     "allocating the stop flag");
  *static_cast<volatile int32_t*>(d.host_stop) = 0;
  EULERDECK_CUDA_TRY(cudaHostGetDevicePointer(device_stop, d.host_stop, 0),
                     "mapping the stop flag");
  EULERDECK_CUDA_TRY(cudaMemcpyAsync(d.image, b.rule_image, b.rule_words * sizeof(uint64_t),
                                     cudaMemcpyHostToDevice, d.stream),
                     "copying the rule");
  EULERDECK_CUDA_TRY(
      cudaMemcpyAsync(d.roots, b.roots, root_bytes, cudaMemcpyHostToDevice, d.stream),
      "copying roots");
  EULERDECK_CUDA_TRY(cudaMemsetAsync(d.next, 0, sizeof(unsigned long long), d.stream), "zeroing");
  EULERDECK_CUDA_TRY(cudaMemsetAsync(d.level, 0, sizeof(unsigned long long) * (n + 1), d.stream),
                     "zeroing");
  EULERDECK_CUDA_TRY(cudaMemsetAsync(d.stopped, 0, sizeof(int), d.stream), "zeroing");
  return EULERDECK_GPU_OK;
}

// Waits for the launch, relaying the caller's stop flag, and adds its
// counts to the batch's.
inline int Finish(const EulerdeckGpuBatch& b, int n, DeviceBatch& d, char* message, size_t bytes) {
  for (;;) {
    const cudaError_t q = cudaStreamQuery(d.stream);
    if (q == cudaSuccess) break;
    if (q != cudaErrorNotReady) {
      Failed(q, "the walk", message, bytes);
      return EULERDECK_GPU_ERROR;
    }
    if (b.stop != nullptr && *b.stop != 0) *static_cast<volatile int32_t*>(d.host_stop) = 1;
    const timespec millisecond{0, 1000000};
    nanosleep(&millisecond, nullptr);
  }
  // No std:: container: the plugin needs as little of the C++ library as can
  // be, so that it loads beside any libstdc++ the binary brings.
  unsigned long long level[kMaxEnumCards + 1] = {};
  int stopped = 0;
  EULERDECK_CUDA_TRY(
      cudaMemcpy(level, d.level, sizeof(unsigned long long) * (n + 1), cudaMemcpyDeviceToHost),
      "copying levels back");
  EULERDECK_CUDA_TRY(
      cudaMemcpy(b.sizes, d.sizes, sizeof(uint64_t) * b.root_count, cudaMemcpyDeviceToHost),
      "copying sizes back");
  EULERDECK_CUDA_TRY(cudaMemcpy(&stopped, d.stopped, sizeof(int), cudaMemcpyDeviceToHost),
                     "copying the stop mark back");
  if (stopped) return EULERDECK_GPU_STOPPED;
  for (int j = 0; j <= n; ++j) b.level[j] += level[j];
  return EULERDECK_GPU_OK;
}

// Whether $EULERDECK_GPU_TIMING is set: each launch then says on stderr
// which kernel ran, its grid, and its blocks' cycles (clock64): the median
// and the last, the tail that dynamic fetching leaves.
inline bool TimingAsked() {
  const char* env = getenv("EULERDECK_GPU_TIMING");
  return env != nullptr && *env != '\0' && strcmp(env, "0") != 0;
}

inline int CompareClocks(const void* a, const void* b) {
  const long long x = *static_cast<const long long*>(a), y = *static_cast<const long long*>(b);
  return x < y ? -1 : x > y;
}

// Prints the blocks' cycles (timing asked): `blocks` values on the device.
inline void PrintClocks(const char* kernel, long long* device_clocks, unsigned blocks, int per_sm,
                        size_t shared, double seconds) {
  long long* clocks = static_cast<long long*>(malloc(sizeof(long long) * blocks));
  if (clocks == nullptr) return;
  if (cudaMemcpy(clocks, device_clocks, sizeof(long long) * blocks, cudaMemcpyDeviceToHost) ==
      cudaSuccess) {
    qsort(clocks, blocks, sizeof(long long), CompareClocks);
    const long long median = clocks[blocks / 2], last = clocks[blocks - 1];
    std::fprintf(stderr,
                 "eulerdeck gpu: kernel %s, %u blocks of %d (%d per SM), %zu B shared per block, "
                 "%.3f s; block cycles: median %lld, last %lld (last/median %.2f)\n",
                 kernel, blocks, kBlock, per_sm, shared, seconds, median, last,
                 median > 0 ? static_cast<double>(last) / static_cast<double>(median) : 0.0);
  }
  free(clocks);
}

inline double Now() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// The warp kernel (warp_kernel.cu) for decks of `words` words
// (WarpWords()), a batch as eulerdeck_gpu_count() takes it.
int LaunchWarpKernel(int words, const EulerdeckGpuBatch& b, const RuleCore& rule, char* message,
                     size_t bytes);

}  // namespace eulerdeck::gpu

#endif  // EULERDECK_ENGINE_GPU_LAUNCH_CUH_
