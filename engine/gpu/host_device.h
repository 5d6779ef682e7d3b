// The GPU plugin's C interface (gpu_abi.h) implemented on the host's
// threads, each running the plugin's kernel body: the warp machine
// (warp_walk.h) on a host warp (host_warp.h) for the rules it takes, the
// stack walk (batch_walk.h) for the others or when $EULERDECK_GPU_KERNEL is
// "old", as the plugin chooses; so the tests exercise on any machine what
// the device runs but the launch. Internal to engine/gpu.
#ifndef EULERDECK_ENGINE_GPU_HOST_DEVICE_H_
#define EULERDECK_ENGINE_GPU_HOST_DEVICE_H_

#include <cstddef>

#include "engine/gpu/gpu_abi.h"
#include "engine/gpu/warp_walk.h"

namespace eulerdeck::gpu {

// How the host runs the warp machine (tests vary them; the defaults are the
// device's).
struct HostWarpOptions {
  int lanes = kWarpLanes;              // lanes per warp, 1..32
  int ring_size = kWarpRing;           // jobs the ring holds, >= 1
  int stop_after_polls = 0;            // > 0: each warp sees the stop flag raised at this poll
  uint32_t poll_mask = kWarpPollMask;  // the stop flag is looked at every poll_mask + 1 iterations
};

// eulerdeck_gpu_count() on `threads` threads (>= 1), each one warp (or one
// stack walk).
int HostDeviceCount(const EulerdeckGpuBatch* batch, int threads, const HostWarpOptions& options,
                    char* message, size_t message_bytes);

// Whether $EULERDECK_GPU_KERNEL asks for the old kernel (the stack walk in
// every thread) where the warp machine would run: "old".
bool OldKernelAsked();

}  // namespace eulerdeck::gpu

#endif  // EULERDECK_ENGINE_GPU_HOST_DEVICE_H_
