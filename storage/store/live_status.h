// The live state of a run: what the writer is doing now, between two
// checkpoints, for `status` to show. The writer replaces the small JSON file
// DIR/LIVE every few seconds (write beside, rename over). Informative only:
// it is never synced, never read by resume, and says nothing about what is
// durable (the progress record does). Whether a run is alive is told by the
// store's lock (WriterActive), not by this file, which a killed run leaves
// behind.
#ifndef EULERDECK_STORAGE_STORE_LIVE_STATUS_H_
#define EULERDECK_STORAGE_STORE_LIVE_STATUS_H_

#include <cstdint>
#include <string>

#include "engine/base/status.h"

namespace eulerdeck::storage {

struct LiveStatus {
  int64_t pid = 0;
  double started = 0;  // Unix time when this process began the run
  double updated = 0;  // Unix time of this state
  int level = 0;       // the level being built
  int pass_last = 0;   // the last level its pass builds (0: `level`, older builds)
  int last_level = 0;  // the level the run stops after
  uint64_t input_done = 0, input_total = 0;  // input blocks of the level
  uint64_t entries = 0;                      // entries of the level so far
  uint64_t stored_bytes = 0;
  double entries_per_second = 0;  // over the last few seconds (a count: the last minute)
  // A count (stored_count.h) below split level `level`: input_done/total are
  // subtrees, entries the sub-decks counted this session, the rate theirs.
  bool counting = false;
  double eta_seconds = -1;  // the writer's estimate of the time left (-1: none)
  // A count: the sub-decks it has left, estimated (-1: no estimate; the
  // ETA, if any, is then by subtrees).
  double sub_decks_left = -1;
  // A count --removed: eta_seconds is by the decks below the cut (since
  // issue 57; older writers' is by tasks, and this is false).
  bool eta_by_decks = false;
};

// The file's name inside a store.
inline constexpr char kLiveFile[] = "LIVE";

Status WriteLiveStatus(const std::string& dir, const LiveStatus& live);
// *exists is false when there is no (readable) file; a damaged one counts
// as none: it is informative only.
void ReadLiveStatus(const std::string& dir, LiveStatus* live, bool* exists);
void RemoveLiveStatus(const std::string& dir);

// Unix time now, in seconds.
double UnixNow();

}  // namespace eulerdeck::storage

#endif  // EULERDECK_STORAGE_STORE_LIVE_STATUS_H_
