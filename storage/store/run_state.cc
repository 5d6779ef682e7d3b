#include "storage/store/run_state.h"

#include "storage/store/frontier_store.h"

namespace eulerdeck::storage {

const char* RunStateName(RunState state) {
  switch (state) {
    case RunState::kRunning:
      return "running";
    case RunState::kComplete:
      return "complete";
    case RunState::kInterrupted:
      return "interrupted";
    case RunState::kStopped:
      return "stopped";
    case RunState::kNotStarted:
      return "not started";
  }
  return "unknown";
}

RunActivity ReadRunActivity(const std::string& dir, bool complete, bool checkpoint, bool any_level,
                            bool count_store) {
  checkpoint = checkpoint || (count_store && any_level);
  RunActivity a;
  const bool running = WriterActive(dir);
  bool has_live = false;
  ReadLiveStatus(dir, &a.live, &has_live);
  // A run removes its live file only when it reaches its target: one left
  // behind without a running writer is the trace of a run that ended short.
  const bool ended_short = !running && has_live;
  a.has_live = running && has_live;
  a.state = running                       ? RunState::kRunning
            : complete                    ? RunState::kComplete
            : (checkpoint || ended_short) ? RunState::kInterrupted
            : any_level                   ? RunState::kStopped
                                          : RunState::kNotStarted;
  return a;
}

}  // namespace eulerdeck::storage
