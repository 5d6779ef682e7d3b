// A GPU plugin (the C interface of engine/gpu/gpu_abi.h) on a machine with
// no GPU: eulerdeck_gpu_open says so, as libeulerdeck_gpu.so does without an
// NVIDIA driver. Lets tests/tools/cli_test.sh and gpu_mpi_test.sh check what
// `count --gpu` then tells the user, on machines without nvcc. Built a
// second time with EULERDECK_TEST_PLUGIN_ABI=1 as a plugin of the first
// interface version, which eulerdeck must refuse before calling it.
#include <cstdio>

#include "engine/gpu/gpu_abi.h"

#ifndef EULERDECK_TEST_PLUGIN_ABI
#define EULERDECK_TEST_PLUGIN_ABI EULERDECK_GPU_ABI_VERSION
#endif

extern "C" {

__attribute__((visibility("default"))) int eulerdeck_gpu_abi_version(void) {
  return EULERDECK_TEST_PLUGIN_ABI;
}

__attribute__((visibility("default"))) int eulerdeck_gpu_open(int, char* message, size_t bytes) {
  std::snprintf(message, bytes, "no NVIDIA driver: libcuda.so.1 not found");
  return EULERDECK_GPU_NO_DEVICE;
}

__attribute__((visibility("default"))) int eulerdeck_gpu_count(const EulerdeckGpuBatch*,
                                                               char* message, size_t bytes) {
  std::snprintf(message, bytes, "no device");
  return EULERDECK_GPU_ERROR;
}

__attribute__((visibility("default"))) void eulerdeck_gpu_close(void) {}

}  // extern "C"
