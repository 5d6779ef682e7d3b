// FrontierStore: one directory, one RocksDB database, holding the levels of
// winning sub-decks of one game (docs/storage_format.md). No RocksDB type
// appears here, so tools/ and tests/ see only eulerdeck's own types.
//
// Thread-safety: a store opened read-write is used by one driver; PutBlock()
// may be called from one thread at a time. Read-only handles may be opened
// by any number of processes while a writer runs (they see the state at
// their opening). A second read-write opening of the same directory is
// refused (RocksDB's lock file) with InvalidArgument "store ... is in use".
#ifndef EULERDECK_STORAGE_STORE_FRONTIER_STORE_H_
#define EULERDECK_STORAGE_STORE_FRONTIER_STORE_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/status.h"
#include "engine/cards/game.h"

namespace rocksdb {
class Env;  // only passed through: no RocksDB header leaves storage/
}

namespace eulerdeck::storage {

// Which levels' blocks stay once the next level is committed: all, the newest
// only, or none (the counts stay in the level records). A policy of the
// store: kept in its parameters, so that a plain `resume` follows it.
enum class Keep { kAll, kLast, kNone };
const char* KeepName(Keep keep);
bool ParseKeep(std::string_view text, Keep* keep);

// What a store holds: a run keeps every level of winning sub-decks (`eulerdeck
// run`); a count keeps the levels down to a split level d, whose sub-decks
// root the subtrees it counts, and one record per finished batch of
// subtrees (`eulerdeck count --store`, storage/count/stored_count.h); a
// removed count keeps no level at all, only the plan of its forward play
// (StoreParams::plan) and one record per finished batch of the plan's tasks
// (`eulerdeck count --removed --store`, storage/count/stored_removed.h).
enum class StoreKind { kRun, kCount, kRemoved };
const char* StoreKindName(StoreKind kind);  // "run", "count", "removed"

struct StoreParams {
  GameSpec spec;
  int format_version = 0;
  std::string created;  // ISO 8601, informative
  Keep keep = Keep::kAll;
  StoreKind kind = StoreKind::kRun;  // stores written before counts existed: runs
  // A count's split: the first level with at least this many sub-decks (or
  // the deepest level it may take, see stored_count.h). 0 for runs.
  uint64_t subtree_target = 0;
  // The split level, written once it is reached (0: not yet), so that a
  // later build with other rules reads the same split.
  int split_level = 0;
  // What a count computes beside the level counts, kept in each count
  // record: "" (nothing: `eulerdeck count`) or "reform-stats" (`eulerdeck
  // reform-stats --store`, storage/count/stored_reform_stats.h).
  std::string tally;
  // A removed count's plan (kind kRemoved): a JSON object that
  // storage/count/stored_removed.cc writes and reads (its split depth, the
  // plan's fingerprint, tasks and top distribution), kept here verbatim.
  std::string plan;
  // The store keeps DIR/COMMITTED, the sequence of its newest acknowledged
  // state, against which every opening checks the database (stores of
  // builds before it: false, and nothing to check).
  bool committed_file = false;
  // The commit settings the store was created with (`--checkpoint-seconds`,
  // and a count's `--batch-seconds`), which a plain `resume` keeps; absent
  // in stores of builds before issue 58 (a resume then takes the defaults).
  std::optional<double> checkpoint_seconds;
  std::optional<double> batch_seconds;
};

// One finished batch of a count: `subtrees` consecutive sub-decks of the
// split level from entry `first` of its block number `block` (in key order),
// with everything counted below them, as a JSON document
// (docs/storage_format.md, "Count records").
struct CountRecord {
  uint32_t block = 0;
  uint32_t first = 0;
  std::string value;
};

// A committed level. Never rewritten; `kept` is false once its blocks were
// deleted (--keep last|none), when only the numbers remain.
struct LevelRecord {
  int level = 0;
  uint64_t entries = 0;
  uint64_t blocks = 0;
  uint64_t raw_bytes = 0;     // payload before zstd
  uint64_t stored_bytes = 0;  // blocks as stored (header + compressed payload)
  uint64_t checksum = 0;      // XXH64 chain over the blocks' checksums, in key order
  double seconds = 0;         // wall time spent building it (all sessions)
  bool kept = true;
};

// A level record as one JSON object: the form the store keeps it in
// (docs/storage_format.md) and the one `eulerdeck status --json` prints.
nlohmann::json LevelRecordJson(const LevelRecord& record);

// The pass being built: levels `level` .. last_level(), all from the
// blocks of level-1 (a pass of several levels reads one level, writes
// several). The output of every input block with ordinal below next_ordinal
// is durable; done_input_key is the key of the last of those input blocks
// (empty: none yet).
struct ProgressRecord {
  int level = 0;  // the first level being built
  uint64_t next_ordinal = 0;
  std::string done_input_key;
  uint64_t input_blocks = 0;  // blocks of level-1 (for the ETA)
  // Level `level` so far.
  uint64_t entries = 0, blocks = 0, raw_bytes = 0, stored_bytes = 0;
  uint64_t checksum = 0;
  double seconds = 0;  // the pass's, all sessions
  double saved = 0;    // Unix time of the checkpoint (0: written by an older build)
  // Levels level+1 .. last_level() so far (their `seconds` unused); empty
  // for a pass of one level, as every record of an older build is.
  std::vector<LevelRecord> deeper;

  int last_level() const { return level + static_cast<int>(deeper.size()); }
  // Entries and stored bytes of all the pass's levels so far.
  uint64_t pass_entries() const {
    uint64_t n = entries;
    for (const LevelRecord& r : deeper) n += r.entries;
    return n;
  }
  uint64_t pass_stored_bytes() const {
    uint64_t n = stored_bytes;
    for (const LevelRecord& r : deeper) n += r.stored_bytes;
    return n;
  }
};

// True when `dir` holds a store (its database exists), without opening it:
// what a read-only Open() or a resume needs. Throws
// std::filesystem::filesystem_error when `dir` cannot be examined (the
// tools report it as an internal error).
bool StoreExists(const std::string& dir);

// Why `dir` (for which !StoreExists(dir)) cannot be read: InvalidArgument
// "no store" when it is absent or an empty directory, InvalidArgument "is a
// reform-search store" (with the commands that read one) when it holds a
// search store's document, InvalidArgument "not an eulerdeck store" when it
// holds files of no database, Corruption when it holds a database's files
// (MANIFEST, OPTIONS, tables) but no CURRENT (a lost CURRENT must not be
// papered over by a new database).
Status MissingStore(const std::string& dir);

// The document a reform-search store keeps (storage/search/search_store.h's
// kSearchDocument, which this room cannot include: a test holds them equal),
// by which MissingStore() knows one.
inline constexpr char kSearchStoreDocument[] = "reform-search.json";

// True when a process holds `dir` open for writing (a run).
bool WriterActive(const std::string& dir);

// Creates the store `dir` holding `params` and nothing else, atomically: it is
// built in a sibling directory and renamed onto `dir`, so that a crash leaves
// either no store or a store with its parameters, never a database that
// cannot say what it holds. When `dir` exists and is not an empty directory:
// InvalidArgument for a file, MissingStore(dir) for a directory.
Status CreateStore(const std::string& dir, const StoreParams& params);

class FrontierStore {
 public:
  enum class Mode { kReadOnly, kReadWrite };

  // Opens (kReadWrite: creating if needed) the store in `dir`. The RocksDB
  // block cache and write buffers are sized from memory_budget_bytes.
  // Errors: InvalidArgument "no store at 'dir'" when a read-only store does
  // not exist (!StoreExists(dir); see MissingStore()), InvalidArgument "in
  // use" when another process has it open for writing, Corruption when RocksDB finds its files
  // damaged. `env` (tests only: FaultInjection::env(), storage/testing/fault_injection.h) routes
  // every file operation through a simulator of power cuts; it must outlive the store.
  static Status Open(const std::string& dir, Mode mode, uint64_t memory_budget_bytes,
                     std::unique_ptr<FrontierStore>* store, rocksdb::Env* env = nullptr);
  ~FrontierStore();
  FrontierStore(const FrontierStore&) = delete;
  FrontierStore& operator=(const FrontierStore&) = delete;

  const std::string& dir() const { return dir_; }

  // *exists is false for a new, empty store.
  Status GetParams(StoreParams* params, bool* exists);
  Status PutParams(const StoreParams& params);  // durable (flushed) on return

  // Committed levels, in increasing order.
  Status GetLevels(std::vector<LevelRecord>* levels);
  Status GetProgress(ProgressRecord* progress, bool* exists);
  // Writes `progress` and makes it durable together with every block
  // written so far: one flush, so that a reader sees both or neither.
  Status Checkpoint(const ProgressRecord& progress);
  // Writes the level record and removes the progress record, made durable
  // with the level's last blocks by one flush.
  Status CommitLevel(const LevelRecord& record) { return CommitPass({record}); }
  // The same for the levels of a pass, at once.
  Status CommitPass(const std::vector<LevelRecord>& records);
  // NoSpace "no space left on device in DIR (...)" unless the device holding
  // the store has `bytes` free beyond the room RocksDB itself needs (a write
  // buffer's flush, the MANIFEST). `what` names the need in the message.
  Status CheckFreeSpace(uint64_t bytes, const std::string& what);
  // The count records (CountRecord), in key order.
  Status GetCountRecords(std::vector<CountRecord>* records);
  // Writes count records, durable on return (one flush, as a checkpoint).
  Status PutCountRecords(const std::vector<CountRecord>& records);
  // Writes several level records at once (a count's levels below its
  // split), durable on return.
  Status CommitLevels(const std::vector<LevelRecord>& records);

  // Rewrites a committed level's record (only its `kept` flag changes),
  // durable on return (one flush).
  Status MarkLevelDropped(int level);

  // Blocks are written without the WAL: Checkpoint()/CommitLevel() make them
  // durable. REQUIRES: kReadWrite.
  //
  // Every write returns the store's first background error once there was
  // one (a failed flush or compaction, typically a full device: NoSpace):
  // the store then refuses all writes, and the run ends; reopening it after
  // the cause is cured resumes from the last checkpoint.
  Status PutBlock(int level, uint64_t ordinal, uint32_t seq, std::string_view data);
  // Deletes the level's blocks with ordinal >= from_ordinal, durable on
  // return (one flush). No write of the store goes through the WAL.
  Status DeleteBlocks(int level, uint64_t from_ordinal);

  // Gives the disk of a level whose blocks were all deleted (DeleteBlocks
  // from 0) back now: deletes the table files that hold only its range and
  // compacts the range. Minutes at most on a level of gigabytes; no record
  // changes, so a crash during it loses nothing. REQUIRES: kReadWrite.
  Status CompactLevel(int level);

  // Iterates a level's blocks in key order, starting at `from_key` (a block
  // key) or at the level's first block when empty. Holds a consistent view.
  //
  // With BlockCheck::kLevel (the default), a stream of a committed, kept
  // level is held against the level's record: when it reaches the level's
  // end, the blocks, entries (from the block headers), stored bytes and the
  // level checksum (ChainChecksum over every block, block_codec.h) it read
  // must be the record's, or status() is Corruption "level K is damaged:
  // ..." (one line). RocksDB 7.8 can lose a damaged table file's error and
  // skip blocks without one (docs/reliability.md, "Reading"); this check
  // is what makes a stream whole or an error. A stream from `from_key`
  // reads (without showing) the blocks before it, so that the whole level
  // is tallied. A level with no record (being built) or dropped is not
  // checked, nor a stream left before its end. BlockCheck::kNone: no
  // check, for the readers of a block or two by key (a probe).
  enum class BlockCheck { kLevel, kNone };
  class BlockIterator {
   public:
    virtual ~BlockIterator() = default;
    virtual bool Valid() const = 0;
    virtual void Next() = 0;
    virtual std::string_view key() const = 0;
    virtual std::string_view value() const = 0;
    virtual Status status() const = 0;
  };
  std::unique_ptr<BlockIterator> Blocks(int level, const std::string& from_key = "",
                                        BlockCheck check = BlockCheck::kLevel);

  // Reads every table file whole and checks RocksDB's own checksums (data,
  // index and meta blocks) and its footer. Corruption on the first damaged
  // file. Files that a running writer deleted since this handle was opened
  // are counted in *replaced, not checked.
  // `stop` (optional): Cancelled before the next file once it is true;
  // `bytes_done` (optional) grows by each file's size as it is checked.
  Status VerifyFiles(uint64_t* replaced, const std::atomic<bool>* stop = nullptr,
                     std::atomic<uint64_t>* bytes_done = nullptr);
  // The bytes of the live table files (what VerifyFiles reads).
  uint64_t TableFileBytes();

  // RocksDB's estimate of the bytes on disk (SST files and logs).
  uint64_t DiskBytes();

 private:
  struct Rep;
  FrontierStore(std::string dir, std::unique_ptr<Rep> rep);
  std::string dir_;
  std::unique_ptr<Rep> rep_;
};

}  // namespace eulerdeck::storage

#endif  // EULERDECK_STORAGE_STORE_FRONTIER_STORE_H_
