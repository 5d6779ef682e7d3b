// The resumable count on many processes: `mpirun -np P eulerdeck count ...`.
// Rank 0 owns the store and a CountCoordinator (stored_count.h); it counts
// with its own threads and hands batches of subtrees to the other ranks on
// request (dynamic scheduling: subtree sizes vary by orders of magnitude).
// The other ranks need no disk: they receive the game, then batches (the
// subtrees' paths), count them with their threads and send back per-level
// sums. Rank 0 commits them. The result is a sum, so any P gives the same
// counts, and a store interrupted under one P resumes under any other.
//
// A count --removed store (stored_removed.h) goes the same way, its batches
// ranges of the plan's task indices (RemovedStoreMpi).
//
// Built with Open MPI when EULERDECK_MPI is on (count_mpi.cc); without it
// (count_mpi_none.cc) every process is a world of one. A long reform search
// (`mpirun -np P eulerdeck reform-search`) shares the same ranks
// (ReformSearchMpi).
#ifndef EULERDECK_STORAGE_TRANSPORT_COUNT_MPI_H_
#define EULERDECK_STORAGE_TRANSPORT_COUNT_MPI_H_

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/base/status.h"
#include "engine/cards/game.h"
#include "engine/eulerian/enumerate.h"
#include "engine/reform/search.h"
#include "storage/count/stored_count.h"
#include "storage/count/stored_removed.h"
#include "storage/store/frontier_store.h"

namespace eulerdeck::storage {

// Whether this build can run under mpirun.
bool MpiBuilt();

// Starts MPI if this process was launched by mpirun (Open MPI's or a PMIx
// launcher's environment), and not otherwise: a plain `eulerdeck` never
// touches MPI. Call once, first thing in main(). Returns this process's rank
// (0 when not under MPI).
int MpiStart(int* argc, char*** argv);
// The number of ranks (1 when not under MPI).
int MpiWorldSize();
// This process's rank among the ranks of its node (MPI_Comm_split_type
// with MPI_COMM_TYPE_SHARED), for the GPU it takes; 0 when not under MPI.
int MpiLocalRank();

// Opens this process's device for its `local_rank` (the GPU worker,
// engine/gpu/gpu_worker.h, which this layer does not load itself): OK with
// the device and its description in words, or why not (NotSupported).
using DeviceOpener = std::function<Status(int local_rank, std::unique_ptr<SubtreeDevice>* device,
                                          std::string* description)>;

// Ranks > 0: serve counts for rank 0 until it releases them, then return.
// When `stop` becomes true (a signal; mpirun sends SIGTERM to every rank on
// Ctrl-C) the batch in hand is cut, given back to rank 0, and the rank
// leaves. A rank that fails otherwise aborts the job. When rank 0 asks
// (MpiOpenDevices: count --gpu), the rank opens its device with
// `open_device` (none given: it answers NotSupported) and tells rank 0 how
// it went; the counts that rank 0 starts on the devices then go to it, a
// batch at a time, instead of to the rank's threads. It is closed when the
// rank returns.
Status MpiServe(const std::atomic<bool>* stop, const DeviceOpener& open_device = nullptr);
// Rank 0, its own device opened (`mine`: OK, or why not; `description`:
// the device in words): every other rank opens its own (MpiServe) and
// rank 0 waits for all of them, so that the ranks agree before anything is
// written. OK with one line per rank in *lines, rank 0's first ("rank R
// of P (local rank L): <description>"; the description alone in a world
// of one). Otherwise NotSupported with the first failure, rank 0's (the
// others are then not asked) or the lowest rank's, its message prefixed
// with "MPI rank R of P (local rank L): " (in a world of one, `mine`
// itself); the job then ends (MpiFinish), which closes the devices that did
// open.
Status MpiOpenDevices(const Status& mine, const std::string& description,
                      std::vector<std::string>* lines);
// Rank 0: tells the waiting ranks that no (more) counts come, then ends MPI
// (or aborts the job with `exit_code` if some rank was abandoned after a
// stop). Call once, last thing in main(), on every rank.
void MpiFinish(int exit_code);

// Rank 0: CountStore() with the other ranks counting too; with
// options.device (count --gpu, after MpiOpenDevices) each of them counts on
// its own device.
Status CountStoreMpi(FrontierStore* store, const GameSpec& spec, const CountStoreOptions& options,
                     CountResult* result);

// Rank 0: RemovedStore() (stored_removed.h) with the other ranks counting
// tasks too: each makes the plan again (it is deterministic) and checks its
// fingerprint, then counts the batches of task indices rank 0 hands it.
Status RemovedStoreMpi(FrontierStore* store, const RemovedPlan& plan,
                       const RemovedStoreOptions& options, uint64_t memo_entries,
                       RemovedResult* result);

// Rank 0: ReformSearch() (engine/reform/search.h) with the other ranks
// searching too, each with its own searchers' seeds (a rank's threads follow
// those of the ranks before it), for the budget left. They send their best
// at each of their checkpoints and at the end; rank 0 keeps the best of all
// (ties to the lower rank) in the state it checkpoints and in *result. A
// resumed search's kept decks restart rank 0's searchers only.
Status ReformSearchMpi(const GameSpec& spec, const ReformSearchOptions& options,
                       ReformSearchResult* result);

}  // namespace eulerdeck::storage

#endif  // EULERDECK_STORAGE_TRANSPORT_COUNT_MPI_H_
