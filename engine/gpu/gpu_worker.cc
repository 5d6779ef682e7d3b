#include "engine/gpu/gpu_worker.h"

#include <dlfcn.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <thread>

#include "engine/base/parallel.h"
#include "engine/eulerian/children.h"
#include "engine/eulerian/path.h"
#include "engine/gpu/gpu_abi.h"
#include "engine/gpu/host_device.h"

namespace eulerdeck::gpu {

// How a batch reaches the device: the plugin's functions, or the host's.
struct DeviceApi {
  int (*count)(const EulerdeckGpuBatch*, char*, size_t) = nullptr;  // the plugin's
  void (*close)() = nullptr;
  int host_threads = 0;  // > 0: the host stand-in
  HostWarpOptions host_warp;

  int Count(const EulerdeckGpuBatch* batch, char* message, size_t bytes) const {
    if (host_threads > 0) return HostDeviceCount(batch, host_threads, host_warp, message, bytes);
    return count(batch, message, bytes);
  }
};

namespace {

// The CPU threads a GPU batch stands for: its batches are this many
// threads' worth (CountCoordinator::Next), a few seconds of a GPU that
// counts some hundred times one core's rate.
constexpr int kGpuThreadEquivalent = 512;
// A batch's roots are split until there are this many for a GPU: some ten
// per resident thread of a large device (about 2^18 of them), so that
// fetching them dynamically evens out their sizes.
constexpr uint64_t kGpuSplitTarget = uint64_t{1} << 21;
// The host stand-in's: as the in-memory count (enumerate.cc), per thread.
constexpr uint64_t kHostSplitPerThread = 1024;

std::string ExecutableDir() {
  char buf[4096];
  const ssize_t len = ::readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (len <= 0) return "";
  std::string path(buf, static_cast<size_t>(len));
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

bool Readable(const std::string& path) { return ::access(path.c_str(), R_OK) == 0; }

// Watches `stop` while a batch runs and raises `flag` for the plugin.
class StopRelay {
 public:
  StopRelay(const std::atomic<bool>* stop, volatile int32_t* flag) : stop_(stop), flag_(flag) {
    if (stop_ == nullptr) return;
    thread_ = std::thread([this] {
      while (!done_.load()) {
        if (stop_->load(std::memory_order_relaxed)) *flag_ = 1;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
    });
  }
  ~StopRelay() {
    done_ = true;
    if (thread_.joinable()) thread_.join();
  }

 private:
  const std::atomic<bool>* stop_;
  volatile int32_t* flag_;
  std::atomic<bool> done_{false};
  std::thread thread_;
};

}  // namespace

GpuWorker::~GpuWorker() {
  if (api_ && api_->close) api_->close();
  if (handle_ != nullptr) ::dlclose(handle_);
}

Status GpuWorker::OpenHost(int threads, std::unique_ptr<GpuWorker>* worker) {
  std::unique_ptr<GpuWorker> w(new GpuWorker());
  w->api_ = std::make_unique<DeviceApi>();
  w->api_->host_threads = EffectiveThreads(threads);
  w->thread_equivalent_ = w->api_->host_threads;
  w->split_target_ = kHostSplitPerThread * static_cast<uint64_t>(w->api_->host_threads);
  w->description_ =
      "the host stand-in of the GPU walk, " + std::to_string(w->api_->host_threads) + " threads";
  *worker = std::move(w);
  return Status::OK();
}

void GpuWorker::SetHostWarp(const HostWarpOptions& options) {
  if (api_->host_threads > 0) api_->host_warp = options;
}

Status GpuWorker::Open(int local_rank, std::unique_ptr<GpuWorker>* worker) {
  std::vector<std::string> candidates;
  const char* env = std::getenv(kPluginEnv);
  if (env != nullptr && *env != '\0') {
    if (std::string(env) == "host") return OpenHost(0, worker);
    candidates.push_back(env);
  } else {
    const std::string dir = ExecutableDir();
    candidates.push_back(dir + "/" + kPluginName);
    candidates.push_back(dir + "/../" EULERDECK_PLUGIN_DIR "/" + kPluginName);
  }
  std::string path;
  for (const std::string& c : candidates) {
    if (Readable(c)) {
      path = c;
      break;
    }
  }
  if (path.empty()) {
    std::string looked;
    for (const std::string& c : candidates) looked += (looked.empty() ? "" : ", ") + c;
    return Status::NotSupported(std::string("--gpu: no GPU plugin ") + kPluginName +
                                " (looked for " + looked +
                                "; build it with -DEULERDECK_CUDA=ON or set " + kPluginEnv + ")");
  }
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    return Status::NotSupported("--gpu: the GPU plugin " + path +
                                " cannot be loaded: " + ::dlerror());
  }
  auto version = reinterpret_cast<int (*)()>(::dlsym(handle, "eulerdeck_gpu_abi_version"));
  auto open = reinterpret_cast<int (*)(int, char*, size_t)>(::dlsym(handle, "eulerdeck_gpu_open"));
  auto count = reinterpret_cast<int (*)(const EulerdeckGpuBatch*, char*, size_t)>(
      ::dlsym(handle, "eulerdeck_gpu_count"));
  auto close = reinterpret_cast<void (*)()>(::dlsym(handle, "eulerdeck_gpu_close"));
  if (!version || !open || !count || !close) {
    ::dlclose(handle);
    return Status::NotSupported("--gpu: " + path + " is not an eulerdeck GPU plugin");
  }
  // Asked once, before the plugin is closed (its code goes with it).
  if (const int plugin_version = version(); plugin_version != EULERDECK_GPU_ABI_VERSION) {
    ::dlclose(handle);
    return Status::NotSupported("--gpu: the GPU plugin " + path + " has interface version " +
                                std::to_string(plugin_version) + ", this eulerdeck needs " +
                                std::to_string(EULERDECK_GPU_ABI_VERSION) + " (rebuild it)");
  }
  char message[512] = {};
  if (const int rc = open(local_rank < 0 ? 0 : local_rank, message, sizeof(message)); rc != 0) {
    ::dlclose(handle);
    // No GPU at all, said as such (not as the CUDA runtime's "driver version
    // is insufficient"); any other failure as the plugin says it.
    if (rc == EULERDECK_GPU_NO_DEVICE) {
      return Status::NotSupported(std::string("--gpu: no GPU found (") + message + ")");
    }
    return Status::NotSupported(std::string("--gpu: ") + message);
  }
  std::unique_ptr<GpuWorker> w(new GpuWorker());
  w->handle_ = handle;
  w->api_ = std::make_unique<DeviceApi>();
  w->api_->count = count;
  w->api_->close = close;
  w->plugin_path_ = path;
  w->description_ = message;
  w->thread_equivalent_ = kGpuThreadEquivalent;
  w->split_target_ = kGpuSplitTarget;
  *worker = std::move(w);
  return Status::OK();
}

Status GpuWorker::CountRoots(const GameSpec& spec, const std::vector<Card>& roots, int k,
                             const std::atomic<bool>* stop, std::vector<uint64_t>* level,
                             std::vector<uint64_t>* below) {
  const int n = spec.cards();
  if (k < 1 || k >= n) {
    return Status::InvalidArgument("subtrees must be rooted at levels 1.." + std::to_string(n - 1) +
                                   ", not " + std::to_string(k));
  }
  const ChildRule rule(spec);
  const size_t entries = roots.size() / k;
  level->assign(n + 1, 0);
  below->assign(entries, 0);
  // Step 1. Split the roots breadth first until there are enough of them,
  // keeping each one's origin; never below level n - 4 (the last levels
  // are the walk's, counted through views).
  std::vector<Card> cur = roots;
  std::vector<uint32_t> origin(entries);
  std::iota(origin.begin(), origin.end(), 0u);
  while (cur.size() / k < split_target_ && k + 1 <= n - 4) {
    if (stop != nullptr && stop->load()) return Status::Cancelled("interrupted inside a batch");
    std::vector<Card> next;
    std::vector<uint32_t> next_origin;
    Card parent[kNodeBytes] = {}, child[kNodeBytes];
    for (size_t i = 0; i < cur.size() / k; ++i) {
      std::memcpy(parent, cur.data() + i * k, k);
      rule.ForEachChild(parent, k, [&](uint32_t t, Card x) {
        ChildRule::MakeChild(parent, k, t, x, child);
        next.insert(next.end(), child, child + k + 1);
        next_origin.push_back(origin[i]);
        ++(*below)[origin[i]];
      });
    }
    ++k;
    (*level)[k] += next_origin.size();
    cur = std::move(next);
    origin = std::move(next_origin);
    if (origin.empty()) return Status::OK();
  }
  // Step 2. The device walks them.
  std::vector<uint64_t> sizes(origin.size(), 0);
  std::vector<uint64_t> device_level(n + 1, 0);
  volatile int32_t flag = 0;
  EulerdeckGpuBatch batch;
  batch.rule_image = rule.image().data();
  batch.rule_words = rule.image().size();
  batch.roots = cur.data();
  batch.root_count = origin.size();
  batch.root_cards = k;
  batch.level = device_level.data();
  batch.sizes = sizes.data();
  batch.stop = &flag;
  char message[512] = {};
  int rc;
  {
    StopRelay relay(stop, &flag);
    rc = api_->Count(&batch, message, sizeof(message));
  }
  if (rc == EULERDECK_GPU_STOPPED) return Status::Cancelled("interrupted inside a batch");
  if (rc != EULERDECK_GPU_OK) return Status::Internal(std::string("--gpu: ") + message);
  // Step 3. Back to the roots given.
  for (int j = 0; j <= n; ++j) (*level)[j] += device_level[j];
  for (size_t i = 0; i < origin.size(); ++i) (*below)[origin[i]] += sizes[i];
  return Status::OK();
}

Status GpuWorker::CountBatch(const GameSpec& spec, const uint16_t* paths, size_t entries, int k,
                             const std::atomic<bool>* stop, std::atomic<uint64_t>* counted,
                             SubtreeCounts* out) {
  const auto start = std::chrono::steady_clock::now();
  *out = SubtreeCounts();
  std::vector<Card> roots(entries * static_cast<size_t>(k));
  PathDecoder decoder(spec);
  for (size_t i = 0; i < entries; ++i) {
    std::memcpy(roots.data() + i * k, decoder.Decode(paths + i * k, k), k);
  }
  std::vector<uint64_t> below;
  Status s = CountRoots(spec, roots, k, stop, &out->level, &below);
  if (!s.ok()) return s;
  for (uint64_t b : below) ++out->sizes[SizeBucket(b + 1)];
  out->subtrees = entries;
  uint64_t total = 0;
  for (uint64_t c : out->level) total += c;
  if (counted != nullptr) counted->fetch_add(total, std::memory_order_relaxed);
  out->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return Status::OK();
}

Status CountOnDevice(GpuWorker* worker, const GameSpec& spec, const CountOptions& options,
                     CountResult* result) {
  Status s = CheckEnumerable(spec);
  if (!s.ok()) return s;
  if (options.verify_leaves || options.on_winning_deck) {
    return Status::InvalidArgument(
        "--gpu counts the winning decks; it does not build them (no --verify-leaves or tallies)");
  }
  const int n = spec.cards();
  const ChildRule rule(spec);
  *result = CountResult();
  result->level.assign(n + 1, 0);
  const std::vector<Card> roots = rule.Roots();
  result->level[1] = roots.size();
  if (n > 1) {
    if (options.tasks_total) options.tasks_total->store(1);
    std::vector<uint64_t> level, below;
    s = worker->CountRoots(spec, roots, 1, options.stop, &level, &below);
    if (s.IsCancelled()) return Status::Cancelled("interrupted on the device");
    if (!s.ok()) return s;
    for (int j = 2; j <= n; ++j) result->level[j] = level[j];
    if (options.tasks_done) options.tasks_done->fetch_add(1);
  }
  for (int j = 1; j <= n; ++j) result->nodes += result->level[j];
  if (options.sub_decks_counted) options.sub_decks_counted->store(result->nodes);
  return Status::OK();
}

}  // namespace eulerdeck::gpu
