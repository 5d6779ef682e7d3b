// Code that compiles both as host C++ and as CUDA device code: the walk of
// the backward tree (engine/eulerian/rule_core.h, stack_walk.h) is written
// once and run by the CPU count and by the GPU worker (engine/gpu/).
//
// EULERDECK_HD marks such a function: __host__ __device__ under nvcc, nothing
// in a plain C++ build. Inside one: no std:: containers, no exceptions, no
// host-only calls; only the helpers below for the bit operations, which map
// to the compiler's builtins on the host and to CUDA's intrinsics on the
// device. Header-only, depends on nothing.
#ifndef EULERDECK_ENGINE_BASE_HD_H_
#define EULERDECK_ENGINE_BASE_HD_H_

#include <cstdint>
#include <cstring>

#ifdef __CUDACC__
#define EULERDECK_HD __host__ __device__
#define EULERDECK_HD_INLINE __host__ __device__ __forceinline__
#else
#define EULERDECK_HD
// Always inlined: the walk's helpers take constant sizes and small loops
// that the compiler folds only once they are inlined (a memcpy of a fixed
// 64 bytes becomes a few vector moves; a call to memcpy cost the CPU count
// 5% when it was left out of line).
#define EULERDECK_HD_INLINE inline __attribute__((always_inline))
#endif

namespace eulerdeck::hd {

// The index of the lowest set bit. REQUIRES: x != 0.
EULERDECK_HD_INLINE int Ctz64(uint64_t x) {
#ifdef __CUDA_ARCH__
  return __ffsll(static_cast<long long>(x)) - 1;
#else
  return __builtin_ctzll(x);
#endif
}

// The number of set bits.
EULERDECK_HD_INLINE int Popcount64(uint64_t x) {
#ifdef __CUDA_ARCH__
  return __popcll(x);
#else
  return __builtin_popcountll(x);
#endif
}

// The same for 32-bit words (the GPU's warp walk: masks of one word).
EULERDECK_HD_INLINE int Popcount32(uint32_t x) {
#ifdef __CUDA_ARCH__
  return __popc(x);
#else
  return __builtin_popcount(x);
#endif
}
// REQUIRES: x != 0.
EULERDECK_HD_INLINE int Ctz32(uint32_t x) {
#ifdef __CUDA_ARCH__
  return __ffs(static_cast<int>(x)) - 1;
#else
  return __builtin_ctz(x);
#endif
}

// Copies N bytes (small: the compiler unrolls it).
template <size_t N>
EULERDECK_HD_INLINE void CopyBytes(void* to, const void* from) {
#ifdef __CUDA_ARCH__
  unsigned char* t = static_cast<unsigned char*>(to);
  const unsigned char* f = static_cast<const unsigned char*>(from);
  for (size_t i = 0; i < N; ++i) t[i] = f[i];
#else
  std::memcpy(to, from, N);
#endif
}

// Sets n bytes to zero.
EULERDECK_HD_INLINE void ZeroBytes(void* to, size_t n) {
#ifdef __CUDA_ARCH__
  unsigned char* t = static_cast<unsigned char*>(to);
  for (size_t i = 0; i < n; ++i) t[i] = 0;
#else
  std::memset(to, 0, n);
#endif
}

template <class T>
EULERDECK_HD_INLINE T Max(T a, T b) {
  return a < b ? b : a;
}
template <class T>
EULERDECK_HD_INLINE T Min(T a, T b) {
  return b < a ? b : a;
}

}  // namespace eulerdeck::hd

#endif  // EULERDECK_ENGINE_BASE_HD_H_
