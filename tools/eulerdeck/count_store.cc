#include "tools/eulerdeck/count_store.h"

#include <memory>

#include "engine/eulerian/children.h"
#include "storage/count/stored_reform_stats.h"
#include "storage/count/stored_removed.h"
#include "storage/run/stored_run.h"
#include "storage/store/frontier_store.h"
#include "storage/transport/count_mpi.h"

namespace eulerdeck::tools {

namespace {

// --subtrees 0 is no split at all (0 inside means "not given": the default).
void RefuseNoSubtrees(const uint64_t& n) {
  if (n == 0) throw po::error("--subtrees must be at least 1");
}

// The parameters of the store in `dir`, opened read-only (*exists: false
// for a store that has none yet).
Status ReadStoreParams(const std::string& dir, storage::StoreParams* params, bool* exists) {
  std::unique_ptr<storage::FrontierStore> reader;
  Status s = storage::FrontierStore::Open(dir, storage::FrontierStore::Mode::kReadOnly, 16u << 20,
                                          &reader);
  if (s.ok()) s = reader->GetParams(params, exists);
  return s;
}

}  // namespace

void CountStoreFlags::Add(po::options_description& desc) {
  desc.add_options()("store", po::value(&dir),
                     "keep the count in the store DIR (created if need be), resumable with "
                     "'eulerdeck resume --store DIR' after Ctrl-C, kill or a power cut")(
      "subtrees", po::value(&subtrees)->notifier(RefuseNoSubtrees),
      "with --store, a new store: split the tree at the first level with at least N sub-decks "
      "(default 1048576; never closer than 6 levels to the last)")(
      "checkpoint-seconds", po::value(&checkpoint_seconds)->default_value(10.0),
      "with --store: seconds between commits of the finished subtrees")(
      "batch-seconds", po::value(&batch_seconds)->default_value(2.0),
      "with --store: seconds of work per thread that a batch of subtrees is sized for")(
      "memory-budget", po::value(&budget_text)->default_value("512MiB"),
      "with --store: memory for the store's caches and the build of the split level");
}

Status CountStoreFlags::Check(uint64_t* budget) const {
  uint64_t bytes = 0;
  Status s = ParseBytes(budget_text, &bytes);
  if (!s.ok()) return s;
  if (bytes < (uint64_t{16} << 20))
    return Status::InvalidArgument("--memory-budget must be at least 16MiB");
  if (s = CheckSeconds("checkpoint-seconds", checkpoint_seconds, true); !s.ok()) return s;
  if (s = CheckSeconds("batch-seconds", batch_seconds, false); !s.ok()) return s;
  if (budget != nullptr) *budget = bytes;
  return Status::OK();
}

bool IsCountStore(const std::string& dir, GameSpec* spec, std::string* tally) {
  if (!storage::StoreExists(dir)) return false;
  storage::StoreParams params;
  bool exists = false;
  if (!ReadStoreParams(dir, &params, &exists).ok() || !exists) return false;
  *spec = params.spec;
  if (tally != nullptr) *tally = params.tally;
  return params.kind == storage::StoreKind::kCount;
}

void StoreCommitSettings(const std::string& dir, std::optional<double>* checkpoint_seconds,
                         std::optional<double>* batch_seconds) {
  checkpoint_seconds->reset();
  batch_seconds->reset();
  if (!storage::StoreExists(dir)) return;
  storage::StoreParams params;
  bool exists = false;
  if (!ReadStoreParams(dir, &params, &exists).ok() || !exists) return;
  *checkpoint_seconds = params.checkpoint_seconds;
  *batch_seconds = params.batch_seconds;
}

bool IsRemovedStore(const std::string& dir, GameSpec* spec) {
  if (!storage::StoreExists(dir)) return false;
  storage::StoreParams params;
  bool exists = false;
  if (!ReadStoreParams(dir, &params, &exists).ok() || !exists) return false;
  *spec = params.spec;
  return params.kind == storage::StoreKind::kRemoved;
}

namespace {

// Checks the flags and the store against `spec` and `tally` (a new store is
// created, an existing one only read first: a refused count leaves it as it
// was), then opens it for writing, with the options that follow from the
// flags and the counters.
Status OpenCountStore(const CountStoreFlags& flags, const GameSpec& spec, const std::string& tally,
                      const CountStoreCounters& counters,
                      std::unique_ptr<storage::FrontierStore>* store,
                      storage::CountStoreOptions* options) {
  uint64_t budget = 0;
  Status s = flags.Check(&budget);
  if (!s.ok()) return s;
  if (s = CheckEnumerable(spec); !s.ok()) return s;
  if (!storage::StoreExists(flags.dir)) {
    storage::StoreParams params = storage::NewStoreParams(spec, storage::Keep::kLast);
    params.kind = storage::StoreKind::kCount;
    params.subtree_target = flags.subtrees ? flags.subtrees : storage::kDefaultSubtrees;
    params.tally = tally;
    params.checkpoint_seconds = flags.checkpoint_seconds;  // what a resume keeps
    params.batch_seconds = flags.batch_seconds;
    s = storage::CreateStore(flags.dir, params);
    if (!s.ok()) return s;
  } else {
    // Read first, write after: a refused count leaves the store as it was.
    storage::StoreParams params;
    bool exists = false;
    if (s = ReadStoreParams(flags.dir, &params, &exists); !s.ok()) return s;
    if (exists) {
      if (s = storage::CheckCountParams(params, spec, flags.dir, tally); !s.ok()) return s;
      if (flags.subtrees && flags.subtrees != params.subtree_target) {
        return Status::InvalidArgument(
            "store '" + flags.dir + "' splits at " + std::to_string(params.subtree_target) +
            " subtrees, not --subtrees " + std::to_string(flags.subtrees) +
            " (a split cannot change; use a new store)");
      }
    }
  }
  s = storage::FrontierStore::Open(flags.dir, storage::FrontierStore::Mode::kReadWrite, budget,
                                   store);
  if (!s.ok()) return s;
  options->subtree_target = flags.subtrees;
  options->checkpoint_seconds = flags.checkpoint_seconds;
  options->batch_seconds = flags.batch_seconds;
  options->threads = counters.threads;
  options->stop = counters.stop;
  options->subtrees_done = counters.subtrees_done;
  options->subtrees_total = counters.subtrees_total;
  options->sub_decks_counted = counters.counted;
  options->building_level = counters.building_level;
  options->sub_decks_before = counters.sub_decks_before;
  options->sub_decks_left = counters.sub_decks_left;
  options->device = counters.device;
  return Status::OK();
}

}  // namespace

Status CountInStore(const CountStoreFlags& flags, const GameSpec& spec,
                    const CountStoreCounters& counters, CountResult* result) {
  std::unique_ptr<storage::FrontierStore> store;
  storage::CountStoreOptions options;
  Status s = OpenCountStore(flags, spec, "", counters, &store, &options);
  if (!s.ok()) return s;
  return storage::CountStoreMpi(store.get(), spec, options, result);
}

Status ReformStatsInStore(const CountStoreFlags& flags, const GameSpec& spec,
                          const CountStoreCounters& counters, ReformStatsResult* result) {
  if (storage::MpiWorldSize() > 1) {
    return Status::InvalidArgument("reform-stats --store runs on threads, not under mpirun");
  }
  // Checked here too, before OpenCountStore() creates the store.
  if (spec.cards() < 2) {
    return Status::InvalidArgument("--store needs decks of at least 2 cards");
  }
  std::unique_ptr<storage::FrontierStore> store;
  storage::CountStoreOptions options;
  Status s = OpenCountStore(flags, spec, storage::kReformStatsTally, counters, &store, &options);
  if (!s.ok()) return s;
  return storage::ReformStatsStore(store.get(), spec, options, result);
}

Status RemovedInStore(const CountStoreFlags& flags, const GameSpec& spec, int split_depth,
                      const CountStoreCounters& counters, RemovedResult* result) {
  uint64_t budget = 0;
  Status s = flags.Check(&budget);
  if (!s.ok()) return s;
  if (flags.subtrees) {
    return Status::InvalidArgument("--subtrees does not apply to --removed (its split is --split)");
  }
  // The plan first (seconds at the record sizes), checked against an
  // existing store read-only: a refused count leaves the store as it was.
  std::unique_ptr<RemovedPlan> plan;
  if (!storage::StoreExists(flags.dir)) {
    s = storage::PlanForStore(spec, nullptr, flags.dir, split_depth, 0, &plan);
    if (!s.ok()) return s;
    storage::StoreParams params = storage::NewStoreParams(spec, storage::Keep::kNone);
    params.kind = storage::StoreKind::kRemoved;
    params.plan = storage::EncodeRemovedPlan(storage::PlanRecord(*plan));
    params.checkpoint_seconds = flags.checkpoint_seconds;  // what a resume keeps
    params.batch_seconds = flags.batch_seconds;
    s = storage::CreateStore(flags.dir, params);
    if (!s.ok()) return s;
  } else {
    storage::StoreParams params;
    bool exists = false;
    if (s = ReadStoreParams(flags.dir, &params, &exists); !s.ok()) return s;
    s = storage::PlanForStore(spec, exists ? &params : nullptr, flags.dir, split_depth, 0, &plan);
    if (!s.ok()) return s;
  }
  std::unique_ptr<storage::FrontierStore> store;
  s = storage::FrontierStore::Open(flags.dir, storage::FrontierStore::Mode::kReadWrite, budget,
                                   &store);
  if (!s.ok()) return s;
  storage::RemovedStoreOptions options;
  options.threads = counters.threads;
  options.stop = counters.stop;
  options.checkpoint_seconds = flags.checkpoint_seconds;
  options.batch_seconds = flags.batch_seconds;
  options.tasks_done = counters.subtrees_done;
  options.tasks_total = counters.subtrees_total;
  return storage::RemovedStoreMpi(store.get(), *plan, options, 0, result);
}

}  // namespace eulerdeck::tools
