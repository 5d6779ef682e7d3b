// The resumable count: the in-memory count's result (engine/eulerian/
// enumerate.h), kept in a frontier store so that it survives Ctrl-C, kill -9
// or a power cut, and shared out in batches to threads or MPI ranks.
//
// The tree of winning sub-decks is cut at a split level d: levels 1..d are
// built into the store by the stored run (stored_run.h, keeping only level
// d's blocks); every sub-deck of level d roots a subtree. Batches of
// consecutive subtrees are handed out, counted anywhere
// (engine/eulerian/subtrees.h) and their per-level counts committed as count
// records at each checkpoint. A batch not committed is simply counted again,
// and the final counts are sums, so any order, any number of workers and any
// number of interruptions give the same result as one uninterrupted count.
// When every subtree is counted, the levels d+1..n are committed as level
// records (with no blocks), and the store reads like a complete run.
#ifndef EULERDECK_STORAGE_COUNT_STORED_COUNT_H_
#define EULERDECK_STORAGE_COUNT_STORED_COUNT_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/base/status.h"
#include "engine/cards/game.h"
#include "engine/estimate/forecast.h"
#include "engine/eulerian/enumerate.h"
#include "engine/eulerian/subtrees.h"
#include "storage/store/frontier_store.h"

namespace eulerdeck::storage {

// The split of a new count: the first level with at least this many
// sub-decks, so that no subtree holds more than a small fraction of the work
// and the last ones leave no core idle for long...
inline constexpr uint64_t kDefaultSubtrees = uint64_t{1} << 20;
// ...but never closer than this many levels to the last, so that the store
// holds a small part of the tree and the walks do the rest (a walk is
// several times faster per sub-deck than the stored run).
inline constexpr int kMinSubtreeDepth = 6;

// The split level of a count whose levels so far have `entries` sub-decks at
// the last one, `level`: true when it is deep enough.
bool SplitReached(const GameSpec& spec, int level, uint64_t entries, uint64_t subtree_target);

struct CountStoreOptions {
  int threads = 0;              // 0: all cores
  uint64_t subtree_target = 0;  // for a new store (0: kDefaultSubtrees); an existing one keeps its
  // Count records are committed at most this often: what an interruption
  // can lose is this plus the batches in flight.
  double checkpoint_seconds = 10.0;
  // Batches are sized from the cost measured so far to take about this
  // long per thread, shrinking towards the end so that the last ones
  // finish together.
  double batch_seconds = 2.0;
  // When it becomes true, the workers stop (within milliseconds), the
  // finished batches are committed, and the count returns Cancelled.
  const std::atomic<bool>* stop = nullptr;
  // Progress (relaxed): the split level being built (0 once counting),
  // subtrees done (committed or not) and in all, sub-decks counted by this
  // process's threads.
  std::atomic<int>* building_level = nullptr;
  std::atomic<uint64_t>* subtrees_done = nullptr;
  std::atomic<uint64_t>* subtrees_total = nullptr;
  std::atomic<uint64_t>* sub_decks_counted = nullptr;
  // Progress by work rather than by subtrees (they differ in size by
  // orders of magnitude, in no order): the sub-decks below the split level
  // that earlier sessions counted (set once), and those left, estimated by
  // EstimateLeft() when the count starts and again every few minutes, less
  // those counted since (-1 while there is no estimate). Both are kept only
  // with sub_decks_counted, which they are measured against.
  std::atomic<uint64_t>* sub_decks_before = nullptr;
  std::atomic<double>* sub_decks_left = nullptr;
  // A count that tallies its winning decks (StoreParams::tally): the tally's
  // name, recorded by a new store and required of an existing one ("" for a
  // plain count), and a fresh tally for each batch, whose Encode() is kept
  // in the batch's record. Threads only: a tally is not sent between ranks.
  std::string tally;
  std::function<std::unique_ptr<WinnerTally>()> new_tally;
  // A device counting beside the threads (the GPU worker, engine/gpu/): one
  // more worker, taking batches sized for its thread_equivalent(). With a
  // device, `threads` is the CPU threads beside it, 0 for none. Not with a
  // tally. The caller owns it; it must outlive the count.
  SubtreeDevice* device = nullptr;
};

// A batch of subtrees: `paths` holds `count` paths of k counts each.
struct SubtreeBatch {
  uint32_t block = 0, first = 0, count = 0;
  int k = 0;
  std::vector<uint16_t> paths;
};

// What a count store holds, for status and export: the split, how many
// subtrees are counted, and their sums.
struct CountProgress {
  int split_level = 0;  // 0: not yet chosen (the levels down to it are being built)
  uint64_t subtrees_total = 0, subtrees_done = 0;
  SubtreeCounts counted;  // the sums of the committed batches
  uint64_t batches = 0;   // count records
  // With want_tallies: each record's tally (SubtreeCounts::tally), in key order.
  std::vector<std::string> tallies;
};

// One committed batch of a count store, as its record holds it: the
// measured cost of its subtrees (export --batches).
struct CountBatchSummary {
  uint32_t block = 0, first = 0;  // its first subtree: block and entry of the split level
  uint64_t subtrees = 0;
  uint64_t sub_decks = 0;  // below its roots, at every level (the work)
  uint64_t winning = 0;    // winning decks (sub-decks of the last level)
  // The time that counted it, per thread: wall seconds x the threads of
  // the worker (a rank's, or 1 for a thread of the process).
  double thread_seconds = 0;
};

// A count record's value (CountRecord::value, docs/storage_format.md): a
// batch's sums below the split level d, and back, for a game of n cards.
// Corruption when the value is malformed or of another split.
std::string EncodeCountRecord(const SubtreeCounts& counts, int d);
Status DecodeCountRecord(const CountRecord& record, int d, int n, SubtreeCounts* counts);

// OK when a store with `params` (in `dir`, for messages) is a count of
// `spec` that tallies `tally` ("" for a plain count): CheckParams()
// (stored_run.h), and InvalidArgument for a stored run or another tally.
Status CheckCountParams(const StoreParams& params, const GameSpec& spec, const std::string& dir,
                        const std::string& tally = "");

// Reads a count store's progress (any mode, any tally), with every record's
// tally if `want_tallies`. Corruption for records that cannot be parsed or
// overlap.
Status ReadCountProgress(FrontierStore* store, const GameSpec& spec, CountProgress* progress,
                         bool want_tallies = false);
// The same, and every committed batch, in key order.
Status ReadCountBatches(FrontierStore* store, const GameSpec& spec, CountProgress* progress,
                        std::vector<CountBatchSummary>* batches);

class RemoteWorkers;

// Hands out the subtrees of a count store and commits their results. Every
// method but Open() is thread-safe; Checkpoint() and Complete() write.
class CountCoordinator {
 public:
  // Makes `store` (read-write) ready to count `spec`: a new store takes the
  // parameters, an existing one must be a count of the same game
  // (InvalidArgument otherwise); builds the levels down to the split level if
  // needed, and reads the batches already committed.
  static Status Open(FrontierStore* store, const GameSpec& spec, const CountStoreOptions& options,
                     std::unique_ptr<CountCoordinator>* coordinator);
  // The same without writing anything, for a store (of any tally) that no
  // process is counting, opened in any mode: `status` estimates the work
  // left with it (EstimateLeft). InvalidArgument when the store is not a
  // count of `spec` or has not reached its split level. Its Checkpoint()
  // and Complete() would write: not to be called.
  static Status OpenToRead(FrontierStore* store, const GameSpec& spec,
                           std::unique_ptr<CountCoordinator>* coordinator);
  ~CountCoordinator();

  int split_level() const;
  uint64_t subtrees_total() const;
  uint64_t subtrees_done() const;  // committed, pending a checkpoint, or finished now
  // The sub-decks below the split level that earlier sessions committed.
  uint64_t sub_decks_before() const;
  double seconds_before() const;  // the worker time they took
  // How many threads count in all (every rank's): the batch size shrinks
  // towards the end so that each of them has several batches left.
  void SetWorkers(int threads);

  // The next batch for a worker of `threads` threads; false when every
  // subtree is handed out (the batches in flight may still come back).
  // Corruption in *status when level d cannot be read.
  bool Next(int threads, SubtreeBatch* batch, Status* status);
  // True while a batch handed out is neither finished nor given back, or a
  // batch given back waits to be handed out again: when Next() is false,
  // whether a worker should wait for one (another rank stopped by itself
  // gives its batch back at any time) rather than end.
  bool Outstanding() const;
  // A counted batch: kept for the next checkpoint.
  Status Finished(const SubtreeBatch& batch, const SubtreeCounts& counts);
  // A batch that will not be finished (its worker stopped): handed out
  // again. A batch given back by another process carries no paths (only its
  // block, first and count): they are read again from the store.
  Status Returned(const SubtreeBatch& batch);

  // For an estimate of the work left: up to `max_roots` of the subtrees not
  // yet handed out, as sub-decks of split_level() cards flattened in *roots.
  // All of them, once each, when they are no more (*scale = 1); or else
  // max_roots drawn uniformly with replacement by `seed` (*scale = *left /
  // max_roots). *left: how many there are (0: *roots is empty). Batches in
  // flight or given back are not among them. Corruption as Next().
  Status SampleLeft(uint64_t max_roots, uint64_t seed, std::vector<Card>* roots, uint64_t* left,
                    double* scale) const;

  // Commits the finished batches if `force` or checkpoint_seconds have passed.
  Status Checkpoint(bool force);
  // True when every subtree is counted (and Checkpoint(true) committed it).
  bool AllDone() const;
  // Commits the levels d+1..n and fills *result with every level. REQUIRES
  // AllDone().
  Status Complete(CountResult* result);

 private:
  struct Rep;
  explicit CountCoordinator(std::unique_ptr<Rep> rep);
  // Open() or OpenToRead() of a spec already checked (CheckEnumerable):
  // CountStore() checks it at its door.
  static Status OpenChecked(FrontierStore* store, const GameSpec& spec,
                            const CountStoreOptions& options, bool read_only,
                            std::unique_ptr<CountCoordinator>* coordinator);
  friend Status CountStore(FrontierStore* store, const GameSpec& spec,
                           const CountStoreOptions& options, CountResult* result,
                           RemoteWorkers* remote);
  std::unique_ptr<Rep> rep_;
};

// The sub-decks below the subtrees `coordinator` has not handed out yet, on
// the calling thread: EstimateBelow() (engine/estimate/knuth.h) from a
// sample of them (CountCoordinator::SampleLeft), scaled to them all. 0 when
// none is left; Cancelled when `stop` became true first. A count's ETA by
// work; a second or so for a count of hours (docs/estimates.md).
// `detail`, if given: the estimate's 95% half-width over it, and the rate
// its exact counts measured (sub-decks per CPU-second of one thread; 0 when
// they counted too little to time), for SecondsForWork() (forecast.h).
struct LeftDetail {
  double relative_error = 0;
  double cpu_rate = 0;
};
Status EstimateLeft(const CountCoordinator& coordinator, const GameSpec& spec, uint64_t seed,
                    const std::atomic<bool>* stop, double* sub_decks_left,
                    LeftDetail* detail = nullptr);

// The work left to a count store that no process is counting (opened in
// any mode; nothing is written): EstimateLeft() with seed 1 through
// CountCoordinator::OpenToRead(); its time on `threads` threads by the
// forecasts' model (SecondsForWork, engine/estimate/forecast.h: the rate the
// estimate's own exact counts measured, the share of a core it got), so that
// `status` and `count`'s forecast say the same of the same work; and, for
// comparison, the worker-seconds it takes at the rate of the batches
// committed so far (their sub-decks per worker-second; -1 before the
// first), which is the past machine's, busy or not. InvalidArgument as
// OpenToRead().
struct CountLeft {
  double sub_decks = 0;
  int threads = 1;
  double share = 1;
  TimeForecast time;  // seconds 0: nothing timed
  double worker_seconds = -1;
};
Status EstimateStoredLeft(FrontierStore* store, const GameSpec& spec, int threads, CountLeft* left);

// Other processes counting beside this one's threads (count_mpi.cc). The
// driver calls every method from its own thread, the one that checkpoints.
class RemoteWorkers {
 public:
  virtual ~RemoteWorkers() = default;
  // Their threads in all (for the batch sizes).
  virtual int threads() const = 0;
  // Tells them the game: they start asking for batches.
  virtual Status Start(const GameSpec& spec) = 0;
  // Takes the results that arrived and answers the requests waiting: a
  // batch, or, when `stopping` or none is left, their release from this
  // count. True when something happened (the driver then polls again soon).
  virtual bool Poll(CountCoordinator* coordinator, bool stopping, Status* error) = 0;
  // True once every one of them is released.
  virtual bool Released() const = 0;
  // Gives up on those not released (they did not answer after a stop): the
  // job must then end without waiting for them (count_mpi.cc aborts it).
  virtual void Abandon() = 0;
};

// Runs or resumes a count in `store` (read-write) on this process's threads,
// and on `remote` if given. Cancelled (with how far it got) when
// options.stop was set; the store then holds everything finished, and a
// `resume` continues. The spec and the options are checked once, first,
// before anything is written (InvalidArgument or NotSupported); the loop
// that shares the batches out is DriveBatches() (batch_driver.h).
Status CountStore(FrontierStore* store, const GameSpec& spec, const CountStoreOptions& options,
                  CountResult* result, RemoteWorkers* remote = nullptr);

}  // namespace eulerdeck::storage

#endif  // EULERDECK_STORAGE_COUNT_STORED_COUNT_H_
