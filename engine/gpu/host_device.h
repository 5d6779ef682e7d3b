// The GPU plugin's C interface (gpu_abi.h) implemented on the host's
// threads: each thread is one worker of the kernel body (batch_walk.h), with
// the same instantiations of the walk, so that the tests exercise on any
// machine what the device runs. Internal to engine/gpu.
#ifndef EULERDECK_ENGINE_GPU_HOST_DEVICE_H_
#define EULERDECK_ENGINE_GPU_HOST_DEVICE_H_

#include <cstddef>

#include "engine/gpu/gpu_abi.h"

namespace eulerdeck::gpu {

// eulerdeck_gpu_count() on `threads` threads (>= 1).
int HostDeviceCount(const EulerdeckGpuBatch* batch, int threads, char* message,
                    size_t message_bytes);

}  // namespace eulerdeck::gpu

#endif  // EULERDECK_ENGINE_GPU_HOST_DEVICE_H_
