// The GPU worker of the count (issue 45): batches of subtree roots walked on
// a CUDA device by the plugin libeulerdeck_gpu.so (gpu_plugin.cu, through
// the C interface of gpu_abi.h), which this file loads with dlopen, or on
// the host's threads by the same kernel body (host_device.cc), which the
// tests run.
//
// Both walk roots with the one stack walk of engine/eulerian/stack_walk.h.
// Before a batch goes to the device its roots are split a few levels deeper
// on the host (breadth first) until there are at least split_target() of
// them, so that the device's threads, fetching roots dynamically, finish
// together; the levels built on the way are counted here.
#ifndef EULERDECK_ENGINE_GPU_GPU_WORKER_H_
#define EULERDECK_ENGINE_GPU_GPU_WORKER_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/base/status.h"
#include "engine/cards/game.h"
#include "engine/eulerian/enumerate.h"
#include "engine/eulerian/subtrees.h"

namespace eulerdeck::gpu {

// Where the plugin is looked for, in order: $EULERDECK_GPU_PLUGIN (a path;
// or "host": the host stand-in, for tests), next to the executable, in
// ../lib/<multiarch>/eulerdeck beside it (where the package installs it).
inline constexpr char kPluginName[] = "libeulerdeck_gpu.so";
inline constexpr char kPluginEnv[] = "EULERDECK_GPU_PLUGIN";

struct DeviceApi;        // the plugin's functions (gpu_worker.cc)
struct HostWarpOptions;  // host_device.h

class GpuWorker : public SubtreeDevice {
 public:
  // Loads the plugin and opens device `local_rank` modulo the devices it
  // sees (under mpirun the rank's among those of its node,
  // storage::MpiLocalRank(); 0 alone). NotSupported naming the problem (no
  // plugin found, it cannot be loaded, it has another interface version,
  // no CUDA device) otherwise. The host stand-in ($EULERDECK_GPU_PLUGIN=host)
  // takes every core whatever `local_rank`.
  static Status Open(int local_rank, std::unique_ptr<GpuWorker>* worker);
  static Status Open(std::unique_ptr<GpuWorker>* worker) { return Open(0, worker); }
  // The host stand-in on `threads` threads (0: all cores): the same
  // interface and kernel body, for the tests and for machines without a GPU.
  static Status OpenHost(int threads, std::unique_ptr<GpuWorker>* worker);
  ~GpuWorker() override;
  GpuWorker(const GpuWorker&) = delete;
  GpuWorker& operator=(const GpuWorker&) = delete;

  // The device, in words ("device 0 of 1: NVIDIA H100 80GB HBM3, 132 SMs,
  // ..."), and
  // where its plugin was loaded from ("" for the host stand-in).
  const std::string& description() const { return description_; }
  const std::string& plugin_path() const { return plugin_path_; }

  int thread_equivalent() const override { return thread_equivalent_; }
  // A batch's roots are split until there are at least this many.
  uint64_t split_target() const { return split_target_; }
  void set_split_target(uint64_t target) { split_target_ = target; }
  // The host stand-in's warps (host_device.h: lanes, ring, stop points).
  // No effect on a device.
  void SetHostWarp(const HostWarpOptions& options);

  // CountSubtrees() (subtrees.h) on the device. `counted` is advanced once
  // the batch is counted.
  Status CountBatch(const GameSpec& spec, const uint16_t* paths, size_t entries, int k,
                    const std::atomic<bool>* stop, std::atomic<uint64_t>* counted,
                    SubtreeCounts* out) override;

  // The sub-decks below `roots` (entries sub-decks of k cards, flattened),
  // split first: level[j] (j = k+1..cards; sized cards+1) and, per root,
  // the sub-decks strictly below it. Cancelled when `stop` became true.
  Status CountRoots(const GameSpec& spec, const std::vector<Card>& roots, int k,
                    const std::atomic<bool>* stop, std::vector<uint64_t>* level,
                    std::vector<uint64_t>* below);

 private:
  GpuWorker() = default;
  std::unique_ptr<DeviceApi> api_;
  void* handle_ = nullptr;  // dlopen's
  std::string description_, plugin_path_;
  int thread_equivalent_ = 1;
  uint64_t split_target_ = 1;
};

// The in-memory count (enumerate.h's Count()) with its subtrees walked on
// `worker`: the same levels. options.threads, verify_leaves and
// on_winning_deck do not apply (InvalidArgument for the last two);
// tasks_total/tasks_done count the device's batches, sub_decks_counted
// advances batch by batch.
Status CountOnDevice(GpuWorker* worker, const GameSpec& spec, const CountOptions& options,
                     CountResult* result);

}  // namespace eulerdeck::gpu

#endif  // EULERDECK_ENGINE_GPU_GPU_WORKER_H_
