// `eulerdeck count --store DIR` and `resume` of a count store: the options,
// the checks made before anything is written, and the call into the
// resumable count (storage/count/stored_count.h), on this process's threads or,
// when launched by mpirun, on every rank (storage/transport/count_mpi.h).
#ifndef EULERDECK_TOOLS_EULERDECK_COUNT_STORE_H_
#define EULERDECK_TOOLS_EULERDECK_COUNT_STORE_H_

#include <atomic>
#include <optional>
#include <string>

#include "engine/eulerian/enumerate.h"
#include "engine/reform/stats.h"
#include "engine/removal/removed.h"
#include "storage/count/stored_count.h"
#include "tools/common/cli.h"

namespace eulerdeck::tools {

struct CountStoreFlags {
  std::string dir;
  uint64_t subtrees = 0;
  double checkpoint_seconds = 10.0;
  std::string budget_text = "512MiB";
  double batch_seconds = 2.0;

  // --store, --subtrees, --checkpoint-seconds, --memory-budget, --batch-seconds.
  void Add(po::options_description& desc);
  bool enabled() const { return !dir.empty(); }
  // The values checked (--subtrees 0 is refused while parsing): a budget
  // that is a size of at least 16MiB (*budget, if given), finite seconds.
  // InvalidArgument naming the option. The commands call it before any
  // work (a forecast), CountInStore() again.
  Status Check(uint64_t* budget = nullptr) const;
};

// What the caller gives a count in a store beside the flags: the threads and
// the stop flag, and the counters its progress display reads (any may be
// null), as in storage::CountStoreOptions.
struct CountStoreCounters {
  int threads = 0;
  const std::atomic<bool>* stop = nullptr;
  std::atomic<uint64_t>* subtrees_done = nullptr;
  std::atomic<uint64_t>* subtrees_total = nullptr;
  std::atomic<uint64_t>* counted = nullptr;
  std::atomic<int>* building_level = nullptr;
  // The work before this session and left (estimated), in sub-decks.
  std::atomic<uint64_t>* sub_decks_before = nullptr;
  std::atomic<double>* sub_decks_left = nullptr;
  // The GPU worker (count --gpu --store): counts beside `threads` threads
  // (0: none), as storage::CountStoreOptions::device.
  SubtreeDevice* device = nullptr;
};

// Counts `spec` in the store flags.dir: creates it (a count store) if it does
// not exist; an existing one must be a count of the same game. Everything is
// checked before anything is written (InvalidArgument: bad input, nothing
// changed).
Status CountInStore(const CountStoreFlags& flags, const GameSpec& spec,
                    const CountStoreCounters& counters, CountResult* result);

// The same for the reform statistics (storage/count/stored_reform_stats.h): a
// store of reform-stats, on this process's threads (InvalidArgument under
// mpirun).
Status ReformStatsInStore(const CountStoreFlags& flags, const GameSpec& spec,
                          const CountStoreCounters& counters, ReformStatsResult* result);

// The same for `count --removed --store` (storage/count/stored_removed.h): a
// removed count store of `spec`, its play split `split_depth` removals deep
// (0: the engine's default for a new store, the store's own for an existing
// one); a store of another game, kind, split or plan is refused
// (InvalidArgument) before anything is written. On every rank under mpirun.
// flags.subtrees does not apply (InvalidArgument).
Status RemovedInStore(const CountStoreFlags& flags, const GameSpec& spec, int split_depth,
                      const CountStoreCounters& counters, RemovedResult* result);

// True when `dir` holds a removed count store (resume hands it to count
// --removed).
bool IsRemovedStore(const std::string& dir, GameSpec* spec);

// True when `dir` holds a count store (resume hands it to count, or to
// reform-stats when *tally, if asked for, is "reform-stats").
bool IsCountStore(const std::string& dir, GameSpec* spec, std::string* tally = nullptr);

// The commit settings the store in `dir` was created with
// (StoreParams::checkpoint_seconds and batch_seconds), each empty when the
// store does not record it (an older build's) or cannot be read.
void StoreCommitSettings(const std::string& dir, std::optional<double>* checkpoint_seconds,
                         std::optional<double>* batch_seconds);

}  // namespace eulerdeck::tools

#endif  // EULERDECK_TOOLS_EULERDECK_COUNT_STORE_H_
