// The out-of-core enumeration: level k of the frontier store is streamed, in
// key order, into level k+1 (docs/storage_format.md), with bounded memory,
// periodic durable checkpoints, and resumption from the last checkpoint.
#ifndef EULERDECK_STORAGE_RUN_STORED_RUN_H_
#define EULERDECK_STORAGE_RUN_STORED_RUN_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "engine/base/status.h"
#include "engine/cards/game.h"
#include "storage/run/block_expander.h"  // kMaxPassLevels
#include "storage/store/frontier_store.h"
#include "storage/store/params.h"

namespace eulerdeck::storage {

// RunOptions::pass_levels' default: three levels per pass read back one
// level in three; more saves little and holds more per input block in
// memory (docs/performance.md §11).
inline constexpr int kDefaultPassLevels = 3;

struct RunOptions {
  int threads = 0;  // 0: all cores
  // Which levels' blocks stay after the next is committed; unset: the
  // store's own policy (kAll for a new store). A policy given here becomes
  // the store's.
  std::optional<Keep> keep;
  int until_level = 0;  // stop once this level is committed (0: the last level)
  // Levels built per pass over a stored level (1..kMaxPassLevels; 0:
  // kDefaultPassLevels): a pass reads level k once and writes levels k+1..k+d, so
  // only one level in d is read back. The passes are aligned to end at the
  // last level. Any value gives the same levels, entry for entry.
  int pass_levels = 0;
  // Before resuming a store that holds levels, read every table file whole
  // (FrontierStore::VerifyFiles) and refuse a damaged one (Corruption).
  bool verify_tables = true;
  // A checkpoint (flush + synced progress record) at most this often.
  double checkpoint_seconds = 10.0;
  // When it becomes true (a signal handler sets it), the run stops taking
  // input blocks, checkpoints what it finished, and RunStore returns
  // Cancelled: `resume` continues from there.
  const std::atomic<bool>* stop = nullptr;
  // Progress counters for display (relaxed): the level being built (the
  // first of its pass) and the pass's last, its input blocks done / in all,
  // entries and bytes written to the pass's levels.
  std::atomic<int>* level = nullptr;
  std::atomic<int>* pass_last = nullptr;
  std::atomic<uint64_t>* input_done = nullptr;
  std::atomic<uint64_t>* input_total = nullptr;
  std::atomic<uint64_t>* entries = nullptr;
  std::atomic<uint64_t>* bytes = nullptr;
  // If set, called on RunStore's thread with each level's record once it is
  // committed (level 1 included), before the counters above go back to 0
  // for the next level: a display can then tell the levels' sizes and what
  // the next level's counters start from, e.g. to estimate the levels to
  // come from the growth so far.
  std::function<void(const LevelRecord&)> on_commit;
  // If set, the sampler's forecast of every level's entries ([k]: the upper
  // end of level k's 95% interval, engine/estimate/forecast.h; [0] unused),
  // asked for at most once, on RunStore's thread, and only when the
  // extrapolation from the committed levels says that a pass will not fit
  // the free space: the pass is then refused only if the forecast says so
  // too (ForecastBytesEstimate). Unset, or a forecast without the pass's
  // levels: the extrapolation alone decides.
  std::function<std::vector<double>()> level_forecast;
};

// How many levels the pass from committed level k builds toward `last`
// with RunOptions::pass_levels `most`: `most` at a time, the shorter pass
// first, so that the passes end at `last` (the levels never read back are
// the last ones of each pass, the widest among them).
int PassLevels(int k, int last, int most);

// The disk bytes the levels of pass p (p.level .. p.last_level(), built
// from the last of `levels`, the committed ones) will add by the forecast
// `level_high` (RunOptions::level_forecast), less what p's checkpoint says
// is written: each level's upper bound of entries times a bytes per entry
// grown from the last committed level's by the last growth of the bytes per
// entry, continued by its last step (within 1..1.5 a level), 10 % added.
// On 9 stored runs it asked 0.99-1.76 times what a pass of 10^7 bytes or
// more wrote (docs/performance.md). False, *bytes untouched, when
// `level_high` lacks a level of the pass or `levels` is empty.
bool ForecastBytesEstimate(const std::vector<LevelRecord>& levels, const ProgressRecord& p,
                           const std::vector<double>& level_high, uint64_t* bytes);

// Runs or resumes the enumeration of `spec` in `store` (opened read-write).
// A new store takes spec's parameters; an existing one must hold the same
// game, or InvalidArgument. Picks up where the store stands: after the last
// committed level, from the last checkpoint of the level in progress.
// While it runs, the live state (storage/store/live_status.h) is published in the
// store every few seconds for `status`.
// Levels that the policy says to drop but a crash left kept (between a commit
// and its drop) are dropped first. Corruption if a block read back fails its
// checks.
Status RunStore(FrontierStore* store, const GameSpec& spec, const RunOptions& options);

}  // namespace eulerdeck::storage

#endif  // EULERDECK_STORAGE_RUN_STORED_RUN_H_
