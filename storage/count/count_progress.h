// A count store's progress as a small, self-checking JSON document, and a
// new store made from one.
//
// A count's state is tiny beside its store: the game, the split, and the
// sums of the batches committed so far. The split level's sub-decks, which
// make most of the store, follow from the game and the split target, so a
// new store can build them again (seconds) instead of carrying them. Export
// writes that state, import builds a new store from it, checks that its
// split level is the one exported (the same blocks and the same sub-decks,
// by an XXH64 of their paths) and writes the committed batches back; a
// `resume` then continues the count as if nothing happened. This is how a
// count of days moves to another machine, or survives the loss of the one
// it ran on: copy the document off the machine now and then (it is a few
// kilobytes; docs/cluster.md).
//
// Contiguous batches of a block are merged on export (their sums add up; a
// tallying count's batches are kept as they are, since only the tally's
// owner can merge tallies), so the new store has fewer, larger batches than
// the old one: `export --batches` of it shows the merged ones.
#ifndef EULERDECK_STORAGE_COUNT_COUNT_PROGRESS_H_
#define EULERDECK_STORAGE_COUNT_COUNT_PROGRESS_H_

#include <atomic>
#include <cstdint>
#include <string>

#include "engine/base/status.h"
#include "engine/cards/game.h"
#include "storage/store/frontier_store.h"

namespace eulerdeck::storage {

// The format's name and version, in every document.
inline constexpr const char* kProgressFormat = "eulerdeck count progress";
inline constexpr int kProgressVersion = 1;
// A count --removed's document (stored_removed.h): version 2, "kind":
// "removed", its batches ranges of the plan's tasks. Version 1 is a count of
// winning decks (its kind, absent, "count"); a build that reads version 1
// only refuses a version 2 document with one line.
inline constexpr int kRemovedProgressVersion = 2;

// What a document says about its count (for the tools' messages).
// A count --removed's says the same in its own units: split_level is its
// split depth, subtrees_total/done its tasks, winning the decks counted so
// far (below the cut: the plays above it are in the plan).
struct ProgressSummary {
  std::string kind = "count";  // "count" or "removed" (StoreKindName)
  GameSpec spec;
  std::string tally;
  int split_level = 0;
  uint64_t subtrees_total = 0, subtrees_done = 0;
  uint64_t batches = 0;       // records in the document (merged batches)
  uint64_t winning = 0;       // winning decks counted so far
  double worker_seconds = 0;  // the time the committed batches took
};

// Writes the progress of the count store `store` (opened in any mode; a
// writer may be counting: what is committed is exported) as a JSON document
// into *document. InvalidArgument when the store is not a count or has not
// reached its split level (nothing is counted yet); Corruption when its
// records or its split level cannot be read.
Status ExportCountProgress(FrontierStore* store, std::string* document, ProgressSummary* summary);

// Checks `document` (its format, its checksum, its records) and makes a new
// count store in `dir` from it (a count --removed: makes the plan again,
// which must have the document's fingerprint, else InvalidArgument with
// nothing written, and commits its batches): builds the levels down to the split on up to
// `threads` threads (0: all cores) within `memory_budget` bytes, checks that
// the split level is the exported one, and commits the document's batches.
// The store is built in the hidden sibling ".NAME.importing" and renamed to
// `dir` when complete, so that `dir` holds the whole import or nothing, even
// after a kill. `dir` must not exist or be an empty directory; its missing
// parent directories are made (and stay, as CreateStore() leaves them).
// InvalidArgument for a damaged or foreign document, an existing store or a
// non-empty directory: nothing is written. Any later failure (Corruption when
// the split level this build makes differs, NoSpace, a stop: Cancelled)
// removes the sibling again.
Status ImportCountProgress(const std::string& document, const std::string& dir,
                           uint64_t memory_budget, int threads, const std::atomic<bool>* stop,
                           ProgressSummary* summary);

}  // namespace eulerdeck::storage

#endif  // EULERDECK_STORAGE_COUNT_COUNT_PROGRESS_H_
