#include "storage/count/batch_driver.h"

#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/base/thousands.h"

namespace eulerdeck::storage {

namespace {

using Clock = std::chrono::steady_clock;

std::string Percent(uint64_t done, uint64_t total) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f%%", total ? 100.0 * done / total : 100.0);
  return buf;
}

}  // namespace

Status DriveBatches(BatchCount* count, bool work, const std::atomic<bool>* stop) {
  BatchCount& c = *count;
  const bool remote = work && c.has_remote();
  const int workers_here = work ? c.workers() : 0;
  std::atomic<int> running{workers_here};
  std::mutex error_mu;
  Status error;
  auto fail = [&](const Status& e) {
    std::lock_guard<std::mutex> lock(error_mu);
    if (error.ok()) error = e;
  };
  std::atomic<bool> abort{false};
  auto stopping = [&] {
    return abort.load(std::memory_order_relaxed) ||
           (stop != nullptr && stop->load(std::memory_order_relaxed));
  };
  // The workers' own stop flag: the caller's, or an error elsewhere.
  std::atomic<bool> stop_workers{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < workers_here; ++t) {
    threads.emplace_back([&, worker = c.NewWorker(t)] {
      Status st;
      // Every batch handed out is not the end: a batch still counted
      // elsewhere can come back (a rank stopped by a signal of its own
      // after the others were released gives it back), and then only this
      // process's workers are left to count it. So a worker ends when none
      // is outstanding, and waits (idle) until then.
      auto next = [&] {
        for (;;) {
          if (stopping()) return false;
          if (worker->Next(&st)) return true;
          if (!st.ok() || !c.Outstanding()) return false;
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
      };
      while (next()) {
        st = worker->Count(&stop_workers);
        if (st.IsCancelled()) {
          st = worker->Returned();
          break;
        }
        if (st.ok()) st = worker->Finished();
        if (!st.ok()) break;
      }
      if (!st.ok() && !st.IsCancelled()) {
        fail(st);
        abort = true;
      }
      running.fetch_sub(1);
    });
  }
  if (work) c.Publish(true);
  // After a stop, the other ranks finish or return their batches; if they
  // have not within this long, they are abandoned (RemoteWorkers::Abandon).
  constexpr double kRemoteGraceSeconds = 30;
  bool stop_seen = false;
  auto stop_time = Clock::now();
  while (running.load() > 0 || (remote && !c.Released())) {
    bool busy = false;
    if (remote) {
      Status rs;
      busy = c.Poll(stopping(), &rs);
      if (!rs.ok()) {
        fail(rs);
        abort = true;
      }
    }
    // Remote requests are answered within a millisecond; otherwise there
    // is only the checkpoint and the live state to keep.
    if (!busy) std::this_thread::sleep_for(std::chrono::milliseconds(remote ? 1 : 50));
    if (stopping() && !stop_seen) {
      // Commit what is finished now: under mpirun a SIGKILL follows the
      // SIGTERM within seconds.
      stop_seen = true;
      stop_time = Clock::now();
      stop_workers = true;
      if (Status cs = c.Checkpoint(true); !cs.ok()) fail(cs);
    }
    Status cs = c.Checkpoint(false);
    if (!cs.ok()) {
      fail(cs);
      abort = true;
      stop_workers = true;
    }
    c.Progress();
    c.Publish(false);
    if (stop_seen && running.load() == 0 && remote &&
        std::chrono::duration<double>(Clock::now() - stop_time).count() > kRemoteGraceSeconds) {
      c.Abandon();
      break;
    }
  }
  for (std::thread& t : threads) t.join();
  c.WorkersStopped();
  if (Status cs = c.Checkpoint(true); !cs.ok()) fail(cs);
  c.Progress();
  if (!error.ok()) return error;
  if (!c.AllDone()) {
    c.Publish(true);
    const uint64_t done = c.done(), total = c.total();
    const std::string unit = c.unit();
    return Status::Cancelled("interrupted after " + GroupThousands(done) + " of " +
                             GroupThousands(total) + " " + unit + " (" + Percent(done, total) +
                             "; all finished " + unit + " are saved)");
  }
  return Status::OK();
}

}  // namespace eulerdeck::storage
