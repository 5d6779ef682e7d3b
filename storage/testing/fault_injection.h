// FaultInjection: a simulator of power cuts for the durability tests, in the
// spirit of RocksDB's FaultInjectionTestFS (which Debian's librocksdb does not
// ship). Every file operation of a store opened with it (FrontierStore::Open's
// `faults`) goes through a file system that remembers what a power cut would
// keep:
//  - a file's bytes up to its last Sync()/Fsync() (fdatasync/fsync); Close()
//    makes nothing durable, as in the kernel;
//  - a file's creation, renaming or deletion only once its directory was
//    fsynced (FSDirectory::Fsync) since.
//
// The cut. ArmCut(n) makes the n-th durability operation (a file Sync/Fsync
// or a directory Fsync, counted together in the order they start) the
// instant of the power cut: instead of performing it, the process writes the
// journal (what is durable, and the directory changes that are not) and kills
// itself with SIGKILL, holding the lock that every operation changing the
// disk takes, so no other thread touches the disk after that instant.
// Counting syncs loses nothing: between two syncs the durable state does not
// change, so the states a cut can leave are exactly those "just before the
// n-th sync", n = 1, 2, ...
//
// Then, in another process, DropUnsyncedData(journal) makes the disk what
// the power cut would have left: each file is truncated to its durable
// length, and the directory changes not made durable are undone, newest
// first (created files removed, renamed files renamed back, and replaced or
// deleted files restored from hard links kept for the purpose beside the
// journal, in journal_path + ".shadow/").
//
// Limits (what a real power cut may do that this does not): it keeps the
// worst single outcome, never a mixture (some unsynced bytes or renames
// persisted, others not; torn sectors; reordered writes); files written
// through NewRandomRWFile, the info LOG (NewLogger) and the store directory's
// own entry in its parent are not tracked; files that existed before the
// store was opened with this simulator count as durable.
//
// Thread-safety: env() may be used by any number of threads (RocksDB's).
#ifndef EULERDECK_STORAGE_TESTING_FAULT_INJECTION_H_
#define EULERDECK_STORAGE_TESTING_FAULT_INJECTION_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "engine/base/status.h"

namespace rocksdb {
class Env;
}

namespace eulerdeck::storage {

class FaultInjection {
 public:
  // `journal_path` names a file outside the store, written at the cut (and
  // its sibling directory journal_path + ".shadow", created here).
  explicit FaultInjection(std::string journal_path);
  ~FaultInjection();
  FaultInjection(const FaultInjection&) = delete;
  FaultInjection& operator=(const FaultInjection&) = delete;

  // The Env to give RocksDB (Options::env). Owned by this object.
  rocksdb::Env* env();

  // The n-th durability operation from now on (n >= 1) is the power cut;
  // 0 disarms.
  void ArmCut(uint64_t n);
  // Durability operations so far (armed or not): how a test learns how many
  // cut points a run has.
  uint64_t syncs() const;
  // `note` is called at the cut (holding the simulator's lock: it must not
  // touch the store) and its text, one line, kept in the journal: what the
  // program had been told was durable, for the test to hold the store to.
  void SetCutNote(std::function<std::string()> note);

  // What DropUnsyncedData() undid, so tests can tell that cuts bite.
  struct DropReport {
    uint64_t files_truncated = 0;
    uint64_t bytes_dropped = 0;
    uint64_t creations_undone = 0;
    uint64_t renames_undone = 0;
    uint64_t deletions_undone = 0;
    std::string note;  // SetCutNote()'s text at the cut
  };

  // Applies the journal of a cut to the disk (run after the process that cut
  // is dead), then removes the journal and its shadow directory.
  // Corruption if the journal is incomplete, IOError if a file operation
  // fails.
  static Status DropUnsyncedData(const std::string& journal_path, DropReport* report = nullptr);

 private:
  struct Rep;
  std::unique_ptr<Rep> rep_;
};

}  // namespace eulerdeck::storage

#endif  // EULERDECK_STORAGE_TESTING_FAULT_INJECTION_H_
