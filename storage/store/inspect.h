// Reading a store: stream a level's entries, find entries by the end of their
// string, and verify everything stored. Used by the tools and by the tests.
#ifndef EULERDECK_STORAGE_STORE_INSPECT_H_
#define EULERDECK_STORAGE_STORE_INSPECT_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/base/status.h"
#include "engine/cards/deck.h"
#include "storage/store/frontier_store.h"

namespace eulerdeck::storage {

// Calls f(path, k) for every entry of `level` in key order; stops early (OK)
// when f returns false. Corruption if a block fails its checks.
Status ForEachEntry(FrontierStore* store, int level,
                    const std::function<bool(const uint16_t* path, int k)>& f);

// Like ForEachEntry, but starting at the first entry whose path is >= `from`
// (a path prefix, root first), found by binary search over the blocks.
Status ForEachEntryFrom(FrontierStore* store, int level, const std::vector<uint16_t>& from,
                        const std::function<bool(const uint16_t* path, int k)>& f);

struct VerifyReport {
  int levels_checked = 0;
  uint64_t blocks = 0;
  uint64_t entries = 0;
  uint64_t parents_checked = 0;      // entries whose parent was found in the level below
  bool in_progress_checked = false;  // the level in progress, up to its checkpoint
  uint64_t files_replaced = 0;       // table files a running writer replaced meanwhile
};

// What a long verify reports and obeys (all optional).
struct VerifyOptions {
  // When it becomes true (a signal handler sets it), VerifyStore returns
  // Cancelled at the next table file or block: nothing was found wrong so far.
  const std::atomic<bool>* stop = nullptr;
  // Bytes read so far, of *bytes_total (table files whole, then the stored
  // blocks of every level read), set before the first byte is read.
  std::atomic<uint64_t>* bytes_done = nullptr;
  std::atomic<uint64_t>* bytes_total = nullptr;
};

// Checks RocksDB's table files (VerifyFiles), then re-reads every kept level
// and the level in progress up to its last checkpoint: block checksums and decoding, the counts,
// blocks and bytes against the level records, the level checksum, strict key order within and
// across blocks, and that each entry is a valid child of an entry of the level below (when that
// level is kept; level 1: the roots). Corruption with a precise message (level, block, entry) on
// the first fault.
Status VerifyStore(FrontierStore* store, VerifyReport* report,
                   const VerifyOptions& options = VerifyOptions());

}  // namespace eulerdeck::storage

#endif  // EULERDECK_STORAGE_STORE_INSPECT_H_
