// The resumable reform statistics (`eulerdeck reform-stats --store DIR`): a
// count store (stored_count.h) whose batches of subtrees also follow every
// winning deck below their roots (engine/reform/stats.h: ReformTally) and
// keep the tally in their count record. A batch interrupted is followed
// again from scratch, so that, as for the level counts, any number of
// interruptions and any thread counts give the statistics of one
// uninterrupted ReformStats(). Threads only: the tallies are not sent
// between MPI ranks.
#ifndef EULERDECK_STORAGE_COUNT_STORED_REFORM_STATS_H_
#define EULERDECK_STORAGE_COUNT_STORED_REFORM_STATS_H_

#include "engine/base/status.h"
#include "engine/cards/game.h"
#include "engine/reform/stats.h"
#include "storage/count/stored_count.h"
#include "storage/store/frontier_store.h"

namespace eulerdeck::storage {

// The name such a store records (StoreParams::tally).
inline constexpr const char* kReformStatsTally = "reform-stats";

// Runs or resumes the reform statistics of `spec` in `store` (read-write):
// a new store becomes a reform-stats count, an existing one must be one of
// `spec` (InvalidArgument otherwise, nothing written). options.tally and
// new_tally are set here. Cancelled as CountStore(); the store then holds
// every finished batch. InvalidArgument for decks of one card (nothing to
// split) and NotSupported for games that reform no deck.
Status ReformStatsStore(FrontierStore* store, const GameSpec& spec, CountStoreOptions options,
                        ReformStatsResult* result);

}  // namespace eulerdeck::storage

#endif  // EULERDECK_STORAGE_COUNT_STORED_REFORM_STATS_H_
