// What a stored run is doing, as `eulerdeck status` and `eulerdeck list`
// report it, decided in one place: the store's lock says whether a writer is
// alive; the live file (storage/store/live_status.h) says what it is doing, or,
// left behind without a writer, that the last run ended short of its target;
// the committed levels and the checkpoint say the rest.
#ifndef EULERDECK_STORAGE_STORE_RUN_STATE_H_
#define EULERDECK_STORAGE_STORE_RUN_STATE_H_

#include <string>

#include "storage/store/live_status.h"

namespace eulerdeck::storage {

enum class RunState {
  kRunning,      // a writer holds the store now
  kComplete,     // every level is committed
  kInterrupted,  // the last run ended short of its target (Ctrl-C, kill, error)
  kStopped,      // the last run reached the level it was asked for (--until-level)
  kNotStarted,   // no level committed and no trace of a run
};

// "running", "complete", "interrupted", "stopped", "not started".
const char* RunStateName(RunState state);

struct RunActivity {
  RunState state = RunState::kNotStarted;
  // The writer's live state; valid only when has_live (a running writer
  // that has published one).
  bool has_live = false;
  LiveStatus live;
};

// The state of the store in `dir`, given what its records say: whether the
// last level is committed, whether a checkpoint of a level in progress
// exists, whether any level is committed, and whether it is a count store
// (stored_count.h), which, short of its last level, was interrupted
// wherever it stopped. Reads only the lock and the live file.
RunActivity ReadRunActivity(const std::string& dir, bool complete, bool checkpoint, bool any_level,
                            bool count_store = false);

}  // namespace eulerdeck::storage

#endif  // EULERDECK_STORAGE_STORE_RUN_STATE_H_
