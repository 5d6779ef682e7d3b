// The one loop that a resumable count shares its batches out with: the count
// store's subtrees (CountStore(), stored_count.h) and the removed count's
// task indices (RemovedStore(), stored_removed.h) both run it.
//
// Each of this process's workers runs on a thread of its own: it takes a
// batch, counts it and hands it back, and waits (idle) while a batch is
// outstanding elsewhere, since one given back by another rank is counted
// again here. The calling thread serves the other processes (MPI ranks),
// commits the finished batches every checkpoint, keeps the display's counters
// and the live state for `status`, and on a stop commits what is finished at
// once (under mpirun a SIGKILL follows the SIGTERM within seconds), cuts the
// workers' batches and waits a grace period for the other ranks' last word.
#ifndef EULERDECK_STORAGE_COUNT_BATCH_DRIVER_H_
#define EULERDECK_STORAGE_COUNT_BATCH_DRIVER_H_

#include <atomic>
#include <cstdint>
#include <memory>

#include "engine/base/status.h"

namespace eulerdeck::storage {

// One of this process's workers (a thread, or the thread that drives a
// device) and the batch it holds.
class BatchWorker {
 public:
  virtual ~BatchWorker() = default;
  // Takes the next batch; false when none is handed out now (*status not
  // OK when it could not be read).
  virtual bool Next(Status* status) = 0;
  // Counts the batch taken: Cancelled when `stop` cut it short.
  virtual Status Count(const std::atomic<bool>* stop) = 0;
  // Hands it back to the coordinator: counted, or cut short (handed out
  // again).
  virtual Status Finished() = 0;
  virtual Status Returned() = 0;
};

// A count as the driver runs it: its coordinator, its workers, its other
// processes and its display. Every method but NewWorker()'s workers' is
// called on the driver's thread; Outstanding() on the workers' too.
class BatchCount {
 public:
  virtual ~BatchCount() = default;
  // For the message of an interrupted count: "subtrees", "tasks".
  virtual const char* unit() const = 0;
  virtual uint64_t total() const = 0;
  virtual uint64_t done() const = 0;  // committed, pending a checkpoint, or finished now
  // As the coordinators' (CountCoordinator, RemovedCoordinator).
  virtual bool Outstanding() const = 0;
  virtual Status Checkpoint(bool force) = 0;
  virtual bool AllDone() const = 0;

  // This process's workers: worker(i) for i < workers().
  virtual int workers() const = 0;
  virtual std::unique_ptr<BatchWorker> NewWorker(int index) = 0;

  // The other processes (RemoteWorkers, RemovedRemoteWorkers), if any,
  // already started.
  virtual bool has_remote() const = 0;
  virtual bool Poll(bool stopping, Status* error) = 0;
  virtual bool Released() const = 0;
  virtual void Abandon() = 0;

  // The display's counters, after each poll and once at the end.
  virtual void Progress() = 0;
  // The live state for `status`: every 2 s, or now if `force`.
  virtual void Publish(bool force) = 0;
  // Every worker has stopped; the last commit comes next.
  virtual void WorkersStopped() {}
};

// Runs `count` until every batch is counted, a stop (`stop` became true) or
// an error; `work`: whether there is anything to count at all (else no
// worker starts and no other process is waited for). Returns the first
// error; Cancelled ("interrupted after D of T <unit> (P%; all finished
// <unit> are saved)") when not every batch is counted (the finished ones are
// committed); OK when count->AllDone(), for the caller to complete.
Status DriveBatches(BatchCount* count, bool work, const std::atomic<bool>* stop);

}  // namespace eulerdeck::storage

#endif  // EULERDECK_STORAGE_COUNT_BATCH_DRIVER_H_
