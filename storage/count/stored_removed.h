// The resumable count of decks by cards removed (`eulerdeck count --removed
// --store`): CountRemoved() (engine/removal/removed.h) kept in a frontier
// store, so that a count of days survives Ctrl-C, kill -9 or a power cut,
// and shared out in batches to threads or MPI ranks, as the count store
// (stored_count.h) shares out its subtrees.
//
// The engine cuts the forward play into a plan (RemovedPlan): the decks
// whose play ends above the cut, and tasks in a fixed order whose sums,
// added to them, are the distribution. The plan is cheap to make again, so
// the store keeps no task, only what identifies the plan (StoreParams::plan:
// the split depth, the number of tasks, the plays above the cut and the
// plan's fingerprint) and, as a count store does, one count record per
// finished batch: a range of consecutive task indices with its distribution
// (docs/storage_format.md, "Removed count records"). A batch not committed is
// counted again; the result is a sum, so any order, any number of workers and
// any number of interruptions give the same rows as one uninterrupted
// CountRemoved(). A store is resumed only by the plan it was made with: a
// build whose plan has another fingerprint (another cut) is refused.
#ifndef EULERDECK_STORAGE_COUNT_STORED_REMOVED_H_
#define EULERDECK_STORAGE_COUNT_STORED_REMOVED_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/base/status.h"
#include "engine/cards/game.h"
#include "engine/removal/removed.h"
#include "storage/store/frontier_store.h"

namespace eulerdeck::storage {

// What a removed store records of its plan (StoreParams::plan).
struct RemovedPlanRecord {
  int split_depth = 0;
  uint64_t tasks = 0;
  uint64_t fingerprint = 0;
  std::string method;         // RemovedPlan::method()
  std::vector<uint64_t> top;  // removed[i] of the plays above the cut, i = 0..n
};
RemovedPlanRecord PlanRecord(const RemovedPlan& plan);
std::string EncodeRemovedPlan(const RemovedPlanRecord& plan);
// Corruption when `text` is no plan of a game of n cards.
Status DecodeRemovedPlan(const std::string& text, int n, RemovedPlanRecord* plan);

// A batch: tasks [first, first + count) of the plan.
struct TaskBatch {
  uint64_t first = 0, count = 0;
};

// A batch's sums: the decks below its tasks by cards removed (i = 0..n),
// and the time that counted it, per thread (wall seconds x threads).
struct TaskCounts {
  uint64_t tasks = 0;
  std::vector<uint64_t> removed;
  double seconds = 0;
  // OutOfRange when a sum passes 2^64 (it cannot, below n! < 2^64).
  Status Add(const TaskCounts& other);
  uint64_t decks() const;
};

// A removed count record: its key (CountRecord's block and first hold the
// high and low 32 bits of the batch's first task) and its value (JSON).
CountRecord EncodeRemovedRecord(const TaskBatch& batch, const TaskCounts& counts);
// Corruption when the record is malformed or not of a game of n cards.
Status DecodeRemovedRecord(const CountRecord& record, int n, TaskBatch* batch, TaskCounts* counts);

// OK when a store with `params` (in `dir`, for messages) is a removed count of
// `spec`: CheckParams() (params.h), and InvalidArgument for a stored run or a
// count of winning decks.
Status CheckRemovedParams(const StoreParams& params, const GameSpec& spec, const std::string& dir);

// The plan for a store: for a new one (`params` null), PlanRemoved() at
// `split_depth` (0: the engine's default); for an existing one, at the depth
// it records, which `split_depth`, if not 0, must equal, and the plan made
// must be the one it records (fingerprint, tasks, plays above the cut):
// InvalidArgument otherwise (another build's cut cannot resume its
// batches). Errors of PlanRemoved() as they are.
Status PlanForStore(const GameSpec& spec, const StoreParams* params, const std::string& dir,
                    int split_depth, uint64_t memo_entries, std::unique_ptr<RemovedPlan>* plan);

// What a removed store holds, for status and export.
struct RemovedProgress {
  RemovedPlanRecord plan;
  uint64_t tasks_done = 0;
  TaskCounts counted;  // the sums of the committed batches (without the plan's top)
  uint64_t batches = 0;
  bool complete() const { return tasks_done == plan.tasks; }
};
struct RemovedBatchSummary {
  uint64_t first = 0, tasks = 0, decks = 0;
  double thread_seconds = 0;
};
// Reads a removed store's progress (and, if asked, every committed batch in
// task order). InvalidArgument when it is not a removed count; Corruption for
// records that cannot be parsed, overlap or pass the plan's tasks.
Status ReadRemovedProgress(FrontierStore* store, RemovedProgress* progress,
                           std::vector<RemovedBatchSummary>* batches = nullptr);
// The distribution of a complete store: the plan's top plus every record.
// Corruption when it does not sum to the game's decks.
Status RemovedDistribution(const GameSpec& spec, const RemovedProgress& progress,
                           std::vector<uint64_t>* removed);

struct RemovedStoreOptions {
  int threads = 0;  // 0: all cores
  // As CountStoreOptions: commits at most this often, batches sized for
  // about batch_seconds of work per thread.
  double checkpoint_seconds = 10.0;
  double batch_seconds = 2.0;
  // If > 0, every batch holds this many tasks (the last fewer), whatever
  // they cost: a count whose commits do not depend on the machine's speed
  // (the power-cut tests cut between them).
  uint64_t batch_tasks = 0;
  // When it becomes true the workers stop (between two tasks), the finished
  // batches are committed, and the count returns Cancelled.
  const std::atomic<bool>* stop = nullptr;
  // Progress (relaxed): tasks done (committed or not, this session's and
  // before) and in all.
  std::atomic<uint64_t>* tasks_done = nullptr;
  std::atomic<uint64_t>* tasks_total = nullptr;
};

// Hands out the tasks of a removed store and commits their sums: the count
// store's CountCoordinator (stored_count.h) for a flat range of task indices
// instead of the split level's blocks. Thread-safe but for Open();
// Checkpoint() writes.
class RemovedCoordinator {
 public:
  // `store` (read-write) must hold the parameters of `plan`'s count
  // (PlanForStore()); reads the batches already committed.
  static Status Open(FrontierStore* store, const RemovedPlan& plan,
                     const RemovedStoreOptions& options,
                     std::unique_ptr<RemovedCoordinator>* coordinator);
  ~RemovedCoordinator();

  uint64_t tasks_total() const;
  uint64_t tasks_done() const;    // committed, pending a checkpoint, or finished now
  uint64_t tasks_before() const;  // committed by earlier sessions
  uint64_t decks_done() const;    // the decks of the tasks tasks_done() counts
  void SetWorkers(int threads);
  // The next batch for a worker of `threads` threads; false when every task
  // is handed out (batches in flight may still come back).
  bool Next(int threads, TaskBatch* batch);
  bool Outstanding() const;
  Status Finished(const TaskBatch& batch, const TaskCounts& counts);
  Status Returned(const TaskBatch& batch);
  Status Checkpoint(bool force);
  bool AllDone() const;
  // Fills *result (the plan's top plus every batch; checked to sum to the
  // game's decks: Corruption otherwise). REQUIRES AllDone().
  Status Complete(RemovedResult* result);

 private:
  struct Rep;
  explicit RemovedCoordinator(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

// Counts the tasks of batch on `threads` threads of this process (each
// task on one thread, tasks taken in turn), adding to *counts (removed
// sized n + 1; tasks and seconds set). Cancelled when `stop` became true.
// `done`, if given, grows by one per finished task.
Status CountTaskBatch(const RemovedPlan& plan, const TaskBatch& batch, int threads,
                      const std::atomic<bool>* stop, std::atomic<uint64_t>* done,
                      TaskCounts* counts);

// Other processes counting beside this one's threads (count_mpi.cc), as
// RemoteWorkers (stored_count.h) for a count store.
class RemovedRemoteWorkers {
 public:
  virtual ~RemovedRemoteWorkers() = default;
  virtual int threads() const = 0;
  // Tells them the game and the plan (they make it again and check its
  // fingerprint): they start asking for batches.
  virtual Status Start(const RemovedPlan& plan, uint64_t memo_entries) = 0;
  virtual bool Poll(RemovedCoordinator* coordinator, bool stopping, Status* error) = 0;
  virtual bool Released() const = 0;
  virtual void Abandon() = 0;
};

// Runs or resumes the count of `plan` in `store` (read-write, holding the
// plan's parameters: PlanForStore()) on this process's threads, and on
// `remote` if given. Cancelled (with how far it got) when options.stop was
// set; the store then holds everything finished, and a resume continues.
Status RemovedStore(FrontierStore* store, const RemovedPlan& plan,
                    const RemovedStoreOptions& options, RemovedResult* result,
                    RemovedRemoteWorkers* remote = nullptr, uint64_t memo_entries = 0);

}  // namespace eulerdeck::storage

#endif  // EULERDECK_STORAGE_COUNT_STORED_REMOVED_H_
