// The warp of warp_walk.h on the host: its lanes run one after the other,
// phase by phase (each ForLanes() runs the phase for every lane before the
// next phase starts, as the lanes of a device's warp do between two
// collective operations), so that the host stand-in and the tests run the
// kernel's own logic. A warp may have fewer lanes than a device's (1..32),
// which the tests use. Internal to engine/gpu.
#ifndef EULERDECK_ENGINE_GPU_HOST_WARP_H_
#define EULERDECK_ENGINE_GPU_HOST_WARP_H_

#include <atomic>
#include <cstdint>

#include "engine/gpu/warp_walk.h"

namespace eulerdeck::gpu {

template <int kWords>
class HostWarp {
 public:
  using Lane = WarpLane<kWords>;
  // `next`: the batch's root counter, shared by the host's warps. `stop`,
  // if set, is the stop flag; stop_after_polls > 0 raises it (for this
  // warp) at that poll instead (tests: a stop at a known point).
  HostWarp(int width, std::atomic<uint64_t>* next, const volatile int32_t* stop,
           int stop_after_polls = 0)
      : width_(width), next_(next), stop_(stop), stop_after_polls_(stop_after_polls) {}

  int Width() const { return width_; }
  template <class F>
  void ForLanes(F&& f) {
    for (int i = 0; i < width_; ++i) f(lanes_[i], i);
  }
  template <class P>
  uint32_t Ballot(P&& p) {
    uint32_t b = 0;
    for (int i = 0; i < width_; ++i) b |= p(static_cast<const Lane&>(lanes_[i]), i) ? 1u << i : 0u;
    return b;
  }
  uint64_t FetchRoots(uint32_t n) { return next_->fetch_add(n, std::memory_order_relaxed); }
  bool StopRaised() {
    ++polls_;
    if (stop_after_polls_ > 0 && polls_ >= stop_after_polls_) return true;
    return stop_ != nullptr && *stop_ != 0;
  }
  void Sync() {}
  void Add(uint64_t* at, uint64_t v) { *at += v; }

  int polls() const { return polls_; }

 private:
  int width_;
  std::atomic<uint64_t>* next_;
  const volatile int32_t* stop_;
  int stop_after_polls_;
  int polls_ = 0;
  Lane lanes_[kWarpLanes];
};

}  // namespace eulerdeck::gpu

#endif  // EULERDECK_ENGINE_GPU_HOST_WARP_H_
