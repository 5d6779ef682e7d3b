#include "storage/store/frontier_store.h"

#include <fcntl.h>
#include <rocksdb/cache.h>
#include <rocksdb/convenience.h>
#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/listener.h>
#include <rocksdb/metadata.h>
#include <rocksdb/options.h>
#include <rocksdb/sst_file_reader.h>
#include <rocksdb/table.h>
#include <rocksdb/write_batch.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "storage/store/block_codec.h"
#include "storage/store/format.h"
#include "storage/store/live_status.h"

namespace eulerdeck::storage {

namespace {

// Openings of a read-only store before a race with the writer's deletions
// is reported (about 1 s of waiting in all).
constexpr int kReadOnlyOpenAttempts = 8;

// rocksdb::Status -> Status, keeping Corruption, IOError and a full device
// apart. RocksDB's messages may span lines (one per missing file); ours are
// one line.
Status FromRocks(const rocksdb::Status& s, const std::string& what) {
  if (s.ok()) return Status::OK();
  std::string text = s.ToString();
  while (!text.empty() && text.back() == '\n') text.pop_back();
  for (size_t at; (at = text.find('\n')) != std::string::npos;) text.replace(at, 1, "; ");
  if (s.IsCorruption()) return Status::Corruption(what + ": " + text);
  if (s.IsNotSupported()) return Status::NotSupported(what + ": " + text);
  if (s.IsNoSpace() || text.find("No space left on device") != std::string::npos) {
    return Status::NoSpace(what + ": " + text);
  }
  return Status::IOError(what + ": " + text);
}

// RocksDB's info log, written with stdio. RocksDB's own log file aborts the
// process on its second write after a failed one (an assertion the Debian
// build keeps: WritableFileWriter after an error), which a full disk
// provokes; a log line lost on a full disk is no loss. Without a file
// (readers) it discards everything.
class InfoLog : public rocksdb::Logger {
 public:
  explicit InfoLog(std::FILE* file) : rocksdb::Logger(rocksdb::WARN_LEVEL), file_(file) {}
  ~InfoLog() override {
    if (file_ != nullptr) std::fclose(file_);
  }
  using rocksdb::Logger::Logv;
  void Logv(const char* format, va_list ap) override {
    if (file_ == nullptr) return;
    std::vfprintf(file_, format, ap);
    std::fputc('\n', file_);
    std::fflush(file_);  // errors ignored: see above
  }

 private:
  std::FILE* file_;
};

// Corruption when the footer of the table file `path` is damaged (below).
Status CheckTableFooter(const std::string& path);

// The path of a live table file.
std::string TablePath(const rocksdb::LiveFileMetaData& file) {
  return (std::filesystem::path(file.db_path) / file.name.substr(file.name.find_first_not_of('/')))
      .string();
}

// The options of every read of records (parameters, level, progress and
// count records): checksums verified, and range deletions not applied.
// The store range-deletes only blocks (DeleteBlocks), never a record, so
// the records read are the same; and RocksDB 7.8 (Debian 12's) loses the
// error of a damaged table file that an iterator enters while it applies
// range deletions (MergingIterator::SkipNextDeleted drops the level
// without its status; fixed upstream in 8.6, pull request 11782): the
// records of that file and of every later file of its level vanished, and
// `status` read an older state (issue 51, A1).
rocksdb::ReadOptions RecordReads() {
  rocksdb::ReadOptions ro;
  ro.verify_checksums = true;
  ro.ignore_range_deletions = true;
  return ro;
}

// Ends the store's life at its first background error instead of letting
// RocksDB recover on its own: on a full disk a failed compaction is a "soft"
// error, auto-recovery waits for space that never comes, and a Flush() waits
// with it, forever. Made hard, the error stops the database, so every later
// write and flush returns it at once and the run ends with it.
class ErrorListener : public rocksdb::EventListener {
 public:
  void OnBackgroundError(rocksdb::BackgroundErrorReason, rocksdb::Status* error) override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (error_.ok()) error_ = *error;
    }
    failed_.store(true);
    if (!error->ok() && error->severity() < rocksdb::Status::Severity::kHardError) {
      *error = rocksdb::Status(*error, rocksdb::Status::Severity::kHardError);
    }
  }
  void OnErrorRecoveryBegin(rocksdb::BackgroundErrorReason, rocksdb::Status,
                            bool* auto_recovery) override {
    *auto_recovery = false;
  }
  bool failed() const { return failed_.load(); }
  rocksdb::Status error() const {
    std::lock_guard<std::mutex> lock(mu_);
    return error_;
  }

 private:
  mutable std::mutex mu_;
  rocksdb::Status error_;
  std::atomic<bool> failed_{false};
};

// How long a flush may take before the store gives up on it: far beyond any
// healthy flush (a write buffer of at most a few hundred MB), short enough
// that a stuck device ends the run rather than freezing it.
constexpr auto kFlushTimeout = std::chrono::seconds(600);

// A reader holds every table file open: let it have as many descriptors as
// the system allows (the soft limit is often 1024, the hard one far above).
void RaiseOpenFileLimit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
  }
}

Status ParseJson(const std::string& text, const std::string& what, nlohmann::json* j) {
  *j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j->is_discarded() || !j->is_object()) return Status::Corruption(what + " record is damaged");
  return Status::OK();
}

}  // namespace

nlohmann::json LevelRecordJson(const LevelRecord& r) {
  return {{"level", r.level},
          {"entries", r.entries},
          {"blocks", r.blocks},
          {"raw_bytes", r.raw_bytes},
          {"stored_bytes", r.stored_bytes},
          {"checksum", r.checksum},
          {"seconds", r.seconds},
          {"kept", r.kept}};
}

namespace {

// The inverse of LevelRecordJson (fields absent: their defaults).
LevelRecord LevelRecordFromJson(const nlohmann::json& j) {
  LevelRecord r;
  r.level = j.value("level", 0);
  r.entries = j.value("entries", uint64_t{0});
  r.blocks = j.value("blocks", uint64_t{0});
  r.raw_bytes = j.value("raw_bytes", uint64_t{0});
  r.stored_bytes = j.value("stored_bytes", uint64_t{0});
  r.checksum = j.value("checksum", uint64_t{0});
  r.seconds = j.value("seconds", 0.0);
  r.kept = j.value("kept", true);
  return r;
}

}  // namespace

const char* StoreKindName(StoreKind kind) {
  switch (kind) {
    case StoreKind::kCount:
      return "count";
    case StoreKind::kRemoved:
      return "removed";
    case StoreKind::kRun:
      break;
  }
  return "run";
}

const char* KeepName(Keep keep) {
  switch (keep) {
    case Keep::kAll:
      return "all";
    case Keep::kLast:
      return "last";
    case Keep::kNone:
      return "none";
  }
  return "all";
}

bool ParseKeep(std::string_view text, Keep* keep) {
  for (Keep k : {Keep::kAll, Keep::kLast, Keep::kNone}) {
    if (text == KeepName(k)) {
      *keep = k;
      return true;
    }
  }
  return false;
}

bool StoreExists(const std::string& dir) {
  // RocksDB writes CURRENT when it creates a database and keeps it after.
  return std::filesystem::exists(std::filesystem::path(dir) / "CURRENT");
}

Status MissingStore(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec) || fs::is_empty(dir, ec))
    return Status::InvalidArgument("no store at '" + dir + "'");
  // The project's other store: said as such, with the commands that read it.
  if (fs::is_regular_file(fs::path(dir) / kSearchStoreDocument, ec)) {
    return Status::InvalidArgument("'" + dir +
                                   "' is a reform-search store, not a store of levels or counts: "
                                   "use `eulerdeck status --store " +
                                   dir + "` or `eulerdeck resume --store " + dir + "`");
  }
  // A database's own files: a store that lost its CURRENT is damaged, and
  // writing there would make a new, empty database beside the old files.
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("MANIFEST-", 0) == 0 || name.rfind("OPTIONS-", 0) == 0 ||
        entry.path().extension() == ".sst") {
      return Status::Corruption("store '" + dir +
                                "' is damaged: its CURRENT file is lost (refusing to touch it)");
    }
  }
  return Status::InvalidArgument("'" + dir +
                                 "' is not an eulerdeck store (a directory of other files)");
}

namespace {

// DIR/COMMITTED: the sequence number of the newest state the store has
// acknowledged as durable (a flush that returned), kept outside RocksDB and
// replaced atomically after each one. The database must never reopen at an
// older state: RocksDB reads a MANIFEST cut short (a truncated file, an
// edit lost) as the older state it describes, without a word, and the
// table files written since then would pass unseen.
constexpr char kCommittedFile[] = "COMMITTED";

// *sequence = the file's value; *exists false when there is none.
Status ReadCommitted(const std::string& dir, uint64_t* sequence, bool* exists) {
  const std::filesystem::path path = std::filesystem::path(dir) / kCommittedFile;
  std::ifstream in(path);
  *exists = false;
  if (!in) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return Status::OK();
    return Status::IOError("cannot read '" + path.string() + "'");
  }
  *exists = true;
  std::string word;
  unsigned long long value = 0;
  if (!(in >> word >> value) || word != "sequence") {
    return Status::Corruption("store '" + dir + "' is damaged: '" + path.string() +
                              "' is not a sequence record");
  }
  *sequence = value;
  return Status::OK();
}

// fsync of a directory, so that the names created in it survive a power cut.
Status SyncDirectory(const std::filesystem::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0) return Status::IOError("cannot open '" + dir.string() + "': " + std::strerror(errno));
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0) return Status::IOError("cannot sync '" + dir.string() + "': " + std::strerror(err));
  return Status::OK();
}

// Writes DIR/COMMITTED atomically and durably (beside, synced, renamed, the
// directory synced).
Status WriteCommitted(const std::string& dir, uint64_t sequence) {
  const std::filesystem::path path = std::filesystem::path(dir) / kCommittedFile;
  const std::string temp = path.string() + ".tmp";
  const std::string text = "sequence " + std::to_string(sequence) + "\n";
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Status::IOError("cannot write '" + temp + "': " + std::strerror(errno));
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) &&
                  ::fsync(fd) == 0;
  const int err = errno;
  ::close(fd);
  if (!ok || ::rename(temp.c_str(), path.c_str()) != 0) {
    const int why = ok ? errno : err;
    ::unlink(temp.c_str());
    if (why == ENOSPC)
      return Status::NoSpace("writing '" + path.string() + "': " + std::strerror(why));
    return Status::IOError("cannot write '" + path.string() + "': " + std::strerror(why));
  }
  return SyncDirectory(dir);
}

// Corruption unless `db` is at least at the state `committed` acknowledged.
Status CheckCommitted(rocksdb::DB* db, const std::string& dir, uint64_t committed) {
  const uint64_t at = db->GetLatestSequenceNumber();
  if (at >= committed) return Status::OK();
  return Status::Corruption("store '" + dir +
                            "' is damaged: its MANIFEST describes an older state (sequence " +
                            std::to_string(at) + ") than the store acknowledged (" +
                            std::to_string(committed) + "): a MANIFEST cut short or replaced");
}

}  // namespace

namespace {

// The table files of a reader's handle whose first key a Seek() has read
// (CheckFileEntries, below).
struct FileEntries {
  std::mutex mu;
  std::set<std::string> checked;
};

}  // namespace

struct FrontierStore::Rep {
  std::unique_ptr<rocksdb::DB> db;
  FileEntries entries;
  std::shared_ptr<ErrorListener> listener;
  bool read_only = false;
  std::mutex committed_mutex;
  bool has_committed = false;  // DIR/COMMITTED exists
  uint64_t committed = 0;      // the sequence it holds

  ~Rep() {
    // Close() first: after a background error it returns the error instead
    // of trying to write (avoid_flush_during_shutdown: nothing to flush that
    // a checkpoint has not made durable).
    if (db) db->Close().PermitUncheckedError();
  }

  std::string dir;

  // The result of a write: its own error, or a background error that
  // stopped the store before it.
  Status Check(const rocksdb::Status& s, const std::string& what) const {
    if (Status e = BackgroundError(what); !e.ok()) return e;
    return FromRocks(s, what);
  }

  // A full device is said in the words the tools repeat: where, and what.
  Status Located(const Status& s) const {
    if (!s.IsNoSpace() || s.message().starts_with("no space left")) return s;
    return Status::NoSpace("no space left on device in " + dir + " (" + s.message() + ")");
  }

  // The first background error, if any, as the result of `what`.
  Status BackgroundError(const std::string& what) const {
    if (!listener || !listener->failed()) return Status::OK();
    return FromRocks(listener->error(), what);
  }

  // Writes `batch` without the WAL and flushes, as a checkpoint does: the
  // records become durable, and visible to a reader opening the store, in
  // table files or not at all (a WAL record could be replayed by a reader
  // whose MANIFEST is a moment older).
  Status WriteDurably(rocksdb::WriteBatch* batch, const std::string& what) {
    rocksdb::WriteOptions wo;
    wo.disableWAL = true;
    Status s = Check(db->Write(wo, batch), what);
    if (s.ok()) s = FlushAll(what);
    return Located(s);
  }

  // Flush() of every memtable, waiting for it with a deadline and watching
  // for background errors instead of waiting inside RocksDB (where a write
  // stall or an error recovery can hold the caller forever). On return OK,
  // the flushed data are in synced table files named by a synced MANIFEST.
  Status FlushAll(const std::string& what) {
    // Everything written before this point is in the flushed state.
    const uint64_t sequence = db->GetLatestSequenceNumber();
    Status s = FlushMemtables(what);
    if (!s.ok()) return s;
    std::lock_guard<std::mutex> lock(committed_mutex);
    if (has_committed && sequence <= committed) return Status::OK();
    s = Located(WriteCommitted(dir, sequence));
    if (s.ok()) {
      has_committed = true;
      committed = sequence;
    }
    return s;
  }

  Status FlushMemtables(const std::string& what) {
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + kFlushTimeout;
    rocksdb::FlushOptions fo;
    fo.wait = false;
    fo.allow_write_stall = true;
    auto pause = std::chrono::microseconds(200);
    auto wait = [&] {
      std::this_thread::sleep_for(pause);
      pause = std::min<std::chrono::microseconds>(pause * 2, std::chrono::milliseconds(20));
    };
    for (;;) {
      if (Status e = BackgroundError(what); !e.ok()) return e;
      const rocksdb::Status s = db->Flush(fo);
      if (s.ok()) break;
      if (!s.IsTryAgain() || Clock::now() > deadline) return FromRocks(s, what);
      wait();
    }
    for (;;) {
      if (Status e = BackgroundError(what); !e.ok()) return e;
      uint64_t immutable = 0, pending = 0;
      if (!db->GetIntProperty("rocksdb.num-immutable-mem-table", &immutable) ||
          !db->GetIntProperty("rocksdb.mem-table-flush-pending", &pending)) {
        // Never seen; but without them the flush cannot be known done.
        return Status::IOError(what + ": RocksDB did not report the state of its flush");
      }
      if (immutable == 0 && pending == 0) return BackgroundError(what);
      if (Clock::now() > deadline) {
        return Status::IOError(what + ": the flush did not finish within " +
                               std::to_string(kFlushTimeout.count()) + " s");
      }
      wait();
    }
  }
};

FrontierStore::FrontierStore(std::string dir, std::unique_ptr<Rep> rep)
    : dir_(std::move(dir)), rep_(std::move(rep)) {}

FrontierStore::~FrontierStore() = default;

Status FrontierStore::Open(const std::string& dir, Mode mode, uint64_t memory_budget_bytes,
                           std::unique_ptr<FrontierStore>* store, rocksdb::Env* env) {
  rocksdb::Options options;
  if (env != nullptr) options.env = env;
  const bool read_only = mode == Mode::kReadOnly;
  options.create_if_missing = !read_only;
  // Our blocks are zstd-compressed already; compressing them again would
  // cost time for nothing.
  options.compression = rocksdb::kNoCompression;
  // Damage found while opening (a table file that cannot be opened, a
  // MANIFEST naming a file that is not there) fails the opening (the
  // default, said here because the readers rely on it).
  options.paranoid_checks = true;
  // Memory: a quarter of the budget for the block cache, a quarter for each
  // of two write buffers; the rest is left to the driver's own buffers.
  const uint64_t quarter = std::max<uint64_t>(memory_budget_bytes / 4, 4u << 20);
  rocksdb::BlockBasedTableOptions table;
  table.block_cache = rocksdb::NewLRUCache(quarter);
  table.cache_index_and_filter_blocks = true;  // index memory counts against the cache
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  options.write_buffer_size = quarter;
  options.max_write_buffer_number = 2;
  options.max_open_files = 256;
  options.max_background_jobs = 2;
  options.info_log_level = rocksdb::WARN_LEVEL;
  options.keep_log_file_num = 2;
  // Fail fast (ErrorListener): no automatic resumption after an error, and
  // no flush hidden in the close after one (the memtable holds only blocks
  // past the last checkpoint, which a resume rewrites anyway).
  options.max_bgerror_resume_count = 0;
  options.avoid_flush_during_shutdown = true;

  auto rep = std::make_unique<Rep>();
  rep->read_only = read_only;
  rep->dir = dir;
  if (read_only) {
    options.info_log = std::make_shared<InfoLog>(nullptr);
  } else {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return Status::IOError("cannot create store directory '" + dir + "': " + ec.message());
    options.info_log =
        std::make_shared<InfoLog>(std::fopen((std::filesystem::path(dir) / "LOG").c_str(), "a"));
    rep->listener = std::make_shared<ErrorListener>();
    options.listeners.push_back(rep->listener);
  }
  // Read before the database, so that a writer's newer flush, acknowledged
  // between the two readings, can only make the database newer.
  uint64_t committed = 0;
  bool has_committed = false;
  if (StoreExists(dir)) {
    Status c = ReadCommitted(dir, &committed, &has_committed);
    if (!c.ok()) return c;
  }
  rocksdb::DB* db = nullptr;
  rocksdb::Status s;
  if (!read_only && has_committed) {
    // Checked before opening for writing: that opening would write a new
    // MANIFEST from the short one and delete the table files it does not
    // name, the evidence of the damage.
    rocksdb::Options probe;
    probe.env = options.env;
    probe.info_log = std::make_shared<InfoLog>(nullptr);
    s = rocksdb::DB::OpenForReadOnly(probe, dir, &db);
    if (s.ok()) {
      std::unique_ptr<rocksdb::DB> closing(db);
      db = nullptr;
      if (Status c = CheckCommitted(closing.get(), dir, committed); !c.ok()) return c;
    } else if (!s.IsIOError()) {
      return FromRocks(s, "cannot open store '" + dir + "'");
    }
  }
  if (read_only) {
    if (!StoreExists(dir)) return MissingStore(dir);
    // Every table file is opened now and held open (max_open_files -1), so a
    // writer that deletes it later (a compaction, a drop) cannot pull it from
    // under a long read. The opening itself can race such a deletion: the
    // MANIFEST read a moment before names a file that is gone. That is no
    // damage, and the next opening reads the newer MANIFEST: retry a few
    // times before reporting it.
    options.max_open_files = -1;
    RaiseOpenFileLimit();
    for (int attempt = 0;; ++attempt) {
      s = rocksdb::DB::OpenForReadOnly(options, dir, &db);
      if (s.ok() || attempt == kReadOnlyOpenAttempts - 1 ||
          s.ToString().find("No such file or directory") == std::string::npos) {
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10 << std::min(attempt, 5)));
    }
  } else {
    s = rocksdb::DB::Open(options, dir, &db);
  }
  if (!s.ok()) {
    if (s.IsIOError() && s.ToString().find("lock") != std::string::npos) {
      // Not damage: the request conflicts with another writer (bad input).
      return Status::InvalidArgument("store '" + dir + "' is in use by another process (" +
                                     s.ToString() + ")");
    }
    Status st = FromRocks(s, "cannot open store '" + dir + "'");
    if (st.IsNoSpace()) {  // opening writes a new MANIFEST
      return Status::NoSpace("no space left on device in " + dir + " (" + st.message() + ")");
    }
    return st;
  }
  rep->db.reset(db);
  // A reader has opened every table file (max_open_files -1), their
  // checksummed blocks but for the data; it checks each one's footer too,
  // whose padding RocksDB does not read (CheckTableFooter: a few bytes a
  // file). A file a running writer deleted since is not damage.
  if (read_only) {
    std::vector<rocksdb::LiveFileMetaData> files;
    db->GetLiveFilesMetaData(&files);
    for (const rocksdb::LiveFileMetaData& file : files) {
      const std::string path = TablePath(file);
      Status c = CheckTableFooter(path);
      std::error_code ec;
      if (!c.ok() && std::filesystem::exists(path, ec)) {
        return Status::Corruption("store '" + dir + "' is damaged: " + c.message());
      }
    }
  }
  if (has_committed) {
    if (Status c = CheckCommitted(db, dir, committed); !c.ok()) return c;
    rep->has_committed = true;
    rep->committed = committed;
  } else {
    // A store made by this build keeps DIR/COMMITTED from its creation on:
    // its absence there is damage too (stores of older builds have none).
    std::string value;
    const rocksdb::Status got = rep->db->Get(RecordReads(), kParamsKey, &value);
    if (!got.ok() && !got.IsNotFound()) {
      return FromRocks(got, "store '" + dir + "' is damaged: reading its parameters");
    }
    if (got.ok() && value.find("\"committed\":true") != std::string::npos) {
      return Status::Corruption("store '" + dir + "' is damaged: its " + kCommittedFile +
                                " file is lost");
    }
  }
  store->reset(new FrontierStore(dir, std::move(rep)));
  return Status::OK();
}

namespace {

// A directory exclusively held by this process while it lives: flock(2) on
// an open descriptor of it, released when the descriptor is closed (or the
// process dies, however it dies).
class DirLock {
 public:
  DirLock() = default;
  ~DirLock() {
    if (fd_ >= 0) ::close(fd_);
  }
  DirLock(const DirLock&) = delete;
  DirLock& operator=(const DirLock&) = delete;
  // True when the lock is ours (false: another process holds it, or `dir`
  // cannot be opened).
  bool TryLock(const std::filesystem::path& dir) {
    fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    return fd_ >= 0 && ::flock(fd_, LOCK_EX | LOCK_NB) == 0;
  }
  // Closes the descriptor (errno kept), so that TryLock() can be tried again.
  void Release() {
    const int err = errno;
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    errno = err;
  }

 private:
  int fd_ = -1;
};

// Removes the sibling build directories of `name` ('.NAME.creating.XXXXXX',
// and the '.NAME.creating' of older builds) that no living creator holds: a
// creator killed before its rename left them.
Status RemoveAbandonedBuilds(const std::filesystem::path& parent, const std::string& name) {
  namespace fs = std::filesystem;
  const std::string prefix = "." + name + ".creating";
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(parent, ec)) {
    const std::string file = entry.path().filename().string();
    if (file.compare(0, prefix.size(), prefix) != 0) continue;
    if (file.size() != prefix.size() && file[prefix.size()] != '.') continue;
    DirLock lock;
    if (!lock.TryLock(entry.path())) continue;  // a creator at work
    fs::remove_all(entry.path(), ec);
    if (ec)
      return Status::IOError("cannot remove '" + entry.path().string() + "': " + ec.message());
  }
  if (ec) return Status::IOError("cannot read '" + parent.string() + "': " + ec.message());
  return Status::OK();
}

// What a creator that finds `dir` taken says: another creator won the race.
Status CreatedMeanwhile(const std::string& dir) {
  return Status::InvalidArgument("the store '" + dir +
                                 "' was created by another process meanwhile (`eulerdeck status "
                                 "--store " +
                                 dir + "`)");
}

}  // namespace

Status CreateStore(const std::string& dir, const StoreParams& params) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path target = fs::absolute(fs::path(dir), ec).lexically_normal();
  if (ec) return Status::IOError("cannot resolve '" + dir + "': " + ec.message());
  const fs::path path = target.has_filename() ? target : target.parent_path();
  if (fs::exists(path, ec)) {
    if (!fs::is_directory(path, ec))
      return Status::InvalidArgument("'" + dir + "' exists and is not a directory");
    if (StoreExists(path.string())) return CreatedMeanwhile(dir);
    if (!fs::is_empty(path, ec)) return MissingStore(dir);
  }
  fs::create_directories(path.parent_path(), ec);
  if (ec)
    return Status::IOError("cannot create '" + path.parent_path().string() + "': " + ec.message());
  Status s = RemoveAbandonedBuilds(path.parent_path(), path.filename().string());
  if (!s.ok()) return s;
  // Each creator builds in a directory of its own, locked while it lives, so
  // that two creators of one store never touch each other's files: the first
  // rename wins, the other finds the name taken (rename(2) replaces only an
  // empty directory) and is refused.
  // Between mkdtemp() and the lock another creator's RemoveAbandonedBuilds()
  // may take the new directory for an abandoned one: it locks it (our flock
  // then fails with EWOULDBLOCK) or has already removed it (ENOENT). Either
  // way the directory is lost to us, not the store: build in a new one.
  const std::string pattern =
      (path.parent_path() / ("." + path.filename().string() + ".creating.XXXXXX")).string();
  fs::path building;
  DirLock lock;
  for (int attempt = 0;; ++attempt) {
    std::string name = pattern;
    if (::mkdtemp(name.data()) == nullptr) {
      return Status::IOError("cannot create a directory beside '" + dir +
                             "': " + std::strerror(errno));
    }
    building = name;
    if (lock.TryLock(building)) break;
    const int err = errno;
    lock.Release();
    if ((err == EWOULDBLOCK || err == ENOENT) && attempt < 100) continue;
    fs::remove_all(building, ec);
    return Status::IOError("cannot lock '" + building.string() + "': " + std::strerror(err));
  }
  {
    std::unique_ptr<FrontierStore> store;
    s = FrontierStore::Open(building.string(), FrontierStore::Mode::kReadWrite, 16u << 20, &store);
    if (s.ok()) s = store->PutParams(params);
    if (!s.ok()) {
      store.reset();
      fs::remove_all(building, ec);
      return s;
    }
  }
  // rename(2) replaces an empty directory; the parent's fsync makes it last.
  if (::rename(building.c_str(), path.c_str()) != 0) {
    const int err = errno;
    fs::remove_all(building, ec);
    if ((err == ENOTEMPTY || err == EEXIST) && StoreExists(path.string()))
      return CreatedMeanwhile(dir);
    return Status::IOError("cannot create the store '" + dir + "': " + std::strerror(err));
  }
  return SyncDirectory(path.parent_path());
}

Status FrontierStore::GetParams(StoreParams* params, bool* exists) {
  std::string value;
  rocksdb::Status s = rep_->db->Get(RecordReads(), kParamsKey, &value);
  if (s.IsNotFound()) {
    *exists = false;
    return Status::OK();
  }
  if (!s.ok()) return FromRocks(s, "reading the store's parameters");
  nlohmann::json j;
  Status st = ParseJson(value, "parameters", &j);
  if (!st.ok()) return st;
  *exists = true;
  Game game;
  if (!ParseGame(j.value("game", ""), &game).ok()) {
    return Status::Corruption("parameters record names an unknown game");
  }
  params->spec = GameSpec{game, j.value("ranks", 0), j.value("suits", 0)};
  params->format_version = j.value("format", 0);
  params->created = j.value("created", "");
  // Stores written before the policy was stored kept every level.
  if (!ParseKeep(j.value("keep", "all"), &params->keep)) {
    return Status::Corruption("parameters record names an unknown --keep policy");
  }
  const std::string kind = j.value("kind", "run");
  if (kind != "run" && kind != "count" && kind != "removed") {
    return Status::Corruption("parameters record names an unknown kind '" + kind + "'");
  }
  params->kind = kind == "count"     ? StoreKind::kCount
                 : kind == "removed" ? StoreKind::kRemoved
                                     : StoreKind::kRun;
  if (params->kind == StoreKind::kRemoved) {
    if (!j.contains("plan") || !j["plan"].is_object()) {
      return Status::Corruption("parameters record of a removed count holds no plan");
    }
    params->plan = j["plan"].dump();
  }
  params->subtree_target = j.value("subtrees", uint64_t{0});
  params->split_level = j.value("split_level", 0);
  params->tally = j.value("tally", "");
  params->committed_file = j.value("committed", false);
  for (auto [name, field] : {std::pair{"checkpoint_seconds", &params->checkpoint_seconds},
                             std::pair{"batch_seconds", &params->batch_seconds}}) {
    field->reset();
    if (!j.contains(name)) continue;
    if (!j[name].is_number() || !(j[name].get<double>() >= 0) ||
        !std::isfinite(j[name].get<double>())) {
      return Status::Corruption(std::string("parameters record holds an invalid ") + name);
    }
    *field = j[name].get<double>();
  }
  if (!params->tally.empty() &&
      (params->kind != StoreKind::kCount || params->tally != "reform-stats")) {
    return Status::Corruption("parameters record names an unknown tally '" + params->tally + "'");
  }
  return Status::OK();
}

Status FrontierStore::PutParams(const StoreParams& params) {
  nlohmann::json j = {{"format", params.format_version}, {"game", GameName(params.spec.game)},
                      {"ranks", params.spec.ranks},      {"suits", params.spec.suits},
                      {"created", params.created},       {"keep", KeepName(params.keep)}};
  if (params.committed_file) j["committed"] = true;
  if (params.checkpoint_seconds) j["checkpoint_seconds"] = *params.checkpoint_seconds;
  if (params.batch_seconds) j["batch_seconds"] = *params.batch_seconds;
  if (params.kind == StoreKind::kCount) {
    j["kind"] = StoreKindName(params.kind);
    j["subtrees"] = params.subtree_target;
    if (params.split_level > 0) j["split_level"] = params.split_level;
    if (!params.tally.empty()) j["tally"] = params.tally;
  }
  if (params.kind == StoreKind::kRemoved) {
    j["kind"] = StoreKindName(params.kind);
    nlohmann::json plan = nlohmann::json::parse(params.plan, nullptr, /*allow_exceptions=*/false);
    if (plan.is_discarded() || !plan.is_object()) {
      return Status::InvalidArgument("a removed count's plan is not a JSON object");
    }
    j["plan"] = plan;
  }
  // Through a flush, as the checkpoints: a record left in the WAL would be
  // moved into a table file by the next opening for writing, and a reader
  // opening meanwhile could miss it (its MANIFEST read before the move, the
  // WAL gone after it) and take the store for one without parameters.
  // Parameters that promise DIR/COMMITTED are written after it: a crash
  // between the two never leaves the promise without the file.
  if (params.committed_file) {
    std::lock_guard<std::mutex> lock(rep_->committed_mutex);
    if (!rep_->has_committed) {
      const uint64_t sequence = rep_->db->GetLatestSequenceNumber();
      if (Status c = rep_->Located(WriteCommitted(dir_, sequence)); !c.ok()) return c;
      rep_->has_committed = true;
      rep_->committed = sequence;
    }
  }
  rocksdb::WriteOptions wo;
  wo.disableWAL = true;
  Status s = rep_->Check(rep_->db->Put(wo, kParamsKey, j.dump()), "writing the store's parameters");
  if (s.ok()) s = rep_->FlushAll("writing the store's parameters");
  return rep_->Located(s);
}

Status FrontierStore::GetLevels(std::vector<LevelRecord>* levels) {
  levels->clear();
  std::unique_ptr<rocksdb::Iterator> it(rep_->db->NewIterator(RecordReads()));
  const std::string prefix(1, kLevelTag);
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
    nlohmann::json j;
    Status s = ParseJson(it->value().ToString(), "level", &j);
    if (!s.ok()) return s;
    levels->push_back(LevelRecordFromJson(j));
  }
  return FromRocks(it->status(), "reading the level records");
}

Status FrontierStore::GetProgress(ProgressRecord* p, bool* exists) {
  std::string value;
  rocksdb::Status s = rep_->db->Get(RecordReads(), kProgressKey, &value);
  if (s.IsNotFound()) {
    *exists = false;
    return Status::OK();
  }
  if (!s.ok()) return FromRocks(s, "reading the progress record");
  nlohmann::json j;
  Status st = ParseJson(value, "progress", &j);
  if (!st.ok()) return st;
  *exists = true;
  p->level = j.value("level", 0);
  p->next_ordinal = j.value("next_ordinal", uint64_t{0});
  p->done_input_key.clear();
  if (j.contains("done_input_key") && j["done_input_key"].is_array()) {
    for (const auto& b : j["done_input_key"])
      p->done_input_key.push_back(static_cast<char>(b.get<int>()));
  }
  p->input_blocks = j.value("input_blocks", uint64_t{0});
  p->entries = j.value("entries", uint64_t{0});
  p->blocks = j.value("blocks", uint64_t{0});
  p->raw_bytes = j.value("raw_bytes", uint64_t{0});
  p->stored_bytes = j.value("stored_bytes", uint64_t{0});
  p->checksum = j.value("checksum", uint64_t{0});
  p->seconds = j.value("seconds", 0.0);
  p->saved = j.value("saved", 0.0);
  p->deeper.clear();
  if (j.contains("deeper") && j["deeper"].is_array()) {
    for (const auto& d : j["deeper"]) {
      const LevelRecord r = LevelRecordFromJson(d);
      if (r.level != p->last_level() + 1) {
        return Status::Corruption("the progress record's deeper levels are out of order");
      }
      p->deeper.push_back(r);
    }
  }
  return Status::OK();
}

Status FrontierStore::Checkpoint(const ProgressRecord& p) {
  nlohmann::json key = nlohmann::json::array();
  for (char c : p.done_input_key) key.push_back(static_cast<uint8_t>(c));
  nlohmann::json j = {{"level", p.level},         {"next_ordinal", p.next_ordinal},
                      {"done_input_key", key},    {"input_blocks", p.input_blocks},
                      {"entries", p.entries},     {"blocks", p.blocks},
                      {"raw_bytes", p.raw_bytes}, {"stored_bytes", p.stored_bytes},
                      {"checksum", p.checksum},   {"seconds", p.seconds},
                      {"saved", UnixNow()}};
  if (!p.deeper.empty()) {
    nlohmann::json deeper = nlohmann::json::array();
    for (const LevelRecord& r : p.deeper) deeper.push_back(LevelRecordJson(r));
    j["deeper"] = deeper;
  }
  // The record goes with the blocks it describes, through the same flush
  // rather than the WAL: a reader opening the store sees both or neither
  // (a WAL record could be replayed by a reader whose MANIFEST is a moment
  // older than the blocks' table file).
  rocksdb::WriteOptions wo;
  wo.disableWAL = true;
  Status s = rep_->Check(rep_->db->Put(wo, kProgressKey, j.dump()), "writing a checkpoint");
  if (s.ok()) s = rep_->FlushAll("flushing a checkpoint");
  return rep_->Located(s);
}

Status FrontierStore::CommitPass(const std::vector<LevelRecord>& records) {
  rocksdb::WriteBatch batch;
  for (const LevelRecord& r : records) batch.Put(LevelKey(r.level), LevelRecordJson(r).dump());
  batch.Delete(kProgressKey);
  // As for a checkpoint: with its blocks, by the flush.
  std::string what = "committing level " + std::to_string(records.front().level);
  if (records.size() > 1) what += ".." + std::to_string(records.back().level);
  return rep_->WriteDurably(&batch, what);
}

Status FrontierStore::GetCountRecords(std::vector<CountRecord>* records) {
  records->clear();
  std::unique_ptr<rocksdb::Iterator> it(rep_->db->NewIterator(RecordReads()));
  const std::string prefix(1, kCountTag);
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
    CountRecord r;
    if (!ParseCountKey(std::string_view(it->key().data(), it->key().size()), &r.block, &r.first)) {
      return Status::Corruption("a count record has a malformed key");
    }
    r.value = it->value().ToString();
    records->push_back(std::move(r));
  }
  return FromRocks(it->status(), "reading the count records");
}

Status FrontierStore::PutCountRecords(const std::vector<CountRecord>& records) {
  rocksdb::WriteBatch batch;
  for (const CountRecord& r : records) batch.Put(CountKey(r.block, r.first), r.value);
  return rep_->WriteDurably(&batch, "writing count records");
}

Status FrontierStore::CommitLevels(const std::vector<LevelRecord>& records) {
  rocksdb::WriteBatch batch;
  for (const LevelRecord& r : records) batch.Put(LevelKey(r.level), LevelRecordJson(r).dump());
  return rep_->WriteDurably(&batch, "committing the counted levels");
}

Status FrontierStore::MarkLevelDropped(int level) {
  std::vector<LevelRecord> levels;
  Status s = GetLevels(&levels);
  if (!s.ok()) return s;
  for (LevelRecord r : levels) {
    if (r.level != level) continue;
    r.kept = false;
    rocksdb::WriteBatch batch;
    batch.Put(LevelKey(level), LevelRecordJson(r).dump());
    // Through the flush, as every durable record (WriteDurably), not the
    // WAL: a WAL record is replayed on top of whatever MANIFEST the opener
    // reads, so a reader could see this mark without the commit of the
    // level above; and one path to durability is easier to reason about
    // across a power cut (docs/reliability.md, "Open").
    return rep_->WriteDurably(&batch, "updating level " + std::to_string(level));
  }
  return Status::InvalidArgument("level " + std::to_string(level) + " is not committed");
}

Status FrontierStore::PutBlock(int level, uint64_t ordinal, uint32_t seq, std::string_view data) {
  rocksdb::WriteOptions wo;
  wo.disableWAL = true;  // made durable by the flush of the next checkpoint
  return rep_->Located(rep_->Check(
      rep_->db->Put(wo, BlockKey(level, ordinal, seq), rocksdb::Slice(data.data(), data.size())),
      "writing a block"));
}

Status FrontierStore::DeleteBlocks(int level, uint64_t from_ordinal) {
  // Most calls find nothing to delete (a start's sweep past its checkpoint,
  // the levels a count dropped before): a look costs less than the flush.
  // Blocks hidden by a tombstone count as none, which is right as long as
  // a tombstone is visible only once durable: every caller gives up when
  // WriteDurably fails, never retrying on this handle. The store's only
  // range deletion, and of blocks only: RecordReads() relies on it.
  const std::string from = BlockKeyFrom(level, from_ordinal);
  if (auto it = Blocks(level, from, BlockCheck::kNone); !it->Valid())
    return rep_->Located(it->status());
  const std::string what = "deleting blocks of level " + std::to_string(level);
  rocksdb::WriteBatch batch;
  Status s = rep_->Check(batch.DeleteRange(from, BlockKeyEnd(level)), what);
  if (!s.ok()) return s;
  return rep_->WriteDurably(&batch, what);
}

Status FrontierStore::CompactLevel(int level) {
  // The level's blocks are behind a range tombstone (DeleteBlocks): the
  // files that hold only them are deleted whole, then a compaction of the
  // range rewrites what shares a file with other keys. Without it the
  // tombstone waits for RocksDB's own compactions, which a run that writes
  // no more into that range never triggers: --keep last ended a 14-card run
  // with 763 MiB on disk for 207 MiB of kept level (issue 42, B3).
  const std::string from = BlockKeyFrom(level, 0), end = BlockKeyEnd(level);
  const rocksdb::Slice begin_slice(from), end_slice(end);
  const std::string what = "compacting the dropped level " + std::to_string(level);
  Status s =
      rep_->Check(rocksdb::DeleteFilesInRange(rep_->db.get(), rep_->db->DefaultColumnFamily(),
                                              &begin_slice, &end_slice,
                                              /*include_end=*/false),
                  what);
  if (!s.ok()) return rep_->Located(s);
  rocksdb::CompactRangeOptions options;
  options.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  return rep_->Located(
      rep_->Check(rep_->db->CompactRange(options, &begin_slice, &end_slice), what));
}

Status FrontierStore::CheckFreeSpace(uint64_t bytes, const std::string& what) {
  struct statvfs fs {};
  if (::statvfs(dir_.c_str(), &fs) != 0) {
    return Status::IOError("cannot read the free space of '" + dir_ + "': " + std::strerror(errno));
  }
  const uint64_t free_bytes = static_cast<uint64_t>(fs.f_bavail) * fs.f_frsize;
  // RocksDB needs room beyond our data: the flush of what the write buffers
  // hold now, and the MANIFEST's growth. (The listener catches what this
  // estimate misses: another process filling the device, a compaction.)
  uint64_t buffered = 0;
  rep_->db->GetIntProperty("rocksdb.cur-size-all-mem-tables", &buffered);
  const uint64_t needed = bytes + buffered + (4u << 20);
  if (free_bytes >= needed) return Status::OK();
  return Status::NoSpace("no space left on device in " + dir_ + " (" + what + " needs about " +
                         std::to_string(needed >> 20) + " MiB, " +
                         std::to_string(free_bytes >> 20) + " MiB free)");
}

namespace {

// Blocks are read with range deletions applied (a resume deletes the blocks
// past its checkpoint, a drop a whole level), where RocksDB 7.8 loses the
// error of the first data block of a table file that the iterator enters by
// Next() (see RecordReads()): the rest of that file's LSM level would vanish
// from the stream without a word. A Seek() into a file reports its damage.
// So a reader first seeks, without range deletions (which could seek past
// the file), to the first key of every table file that meets [from, end):
// one data block read per file, once per handle (its files never change),
// a small part of the stream that follows (a table file holds tens of MiB).
// The writer's handles need no such check: they read every table file
// whole before they write (VerifyFiles), and only read what they or those
// files wrote.
Status CheckFileEntries(rocksdb::DB* db, FileEntries* entries, const std::string& from,
                        const std::string& end) {
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  rocksdb::ReadOptions ro = RecordReads();
  ro.fill_cache = false;
  std::unique_ptr<rocksdb::Iterator> it;
  std::lock_guard<std::mutex> lock(entries->mu);
  for (const rocksdb::LiveFileMetaData& file : files) {
    if (file.largestkey < from || file.smallestkey >= end) continue;
    if (entries->checked.count(file.name) != 0) continue;
    if (!it) it.reset(db->NewIterator(ro));
    it->Seek(file.smallestkey);
    if (!it->status().ok()) return FromRocks(it->status(), "reading blocks");
    entries->checked.insert(file.name);
  }
  return Status::OK();
}

// A stream that cannot start: no blocks, and why.
class FailedBlockIterator : public FrontierStore::BlockIterator {
 public:
  explicit FailedBlockIterator(Status s) : s_(std::move(s)) {}
  bool Valid() const override { return false; }
  void Next() override {}
  std::string_view key() const override { return {}; }
  std::string_view value() const override { return {}; }
  Status status() const override { return s_; }

 private:
  Status s_;
};

class RocksBlockIterator : public FrontierStore::BlockIterator {
 public:
  // `entries`: the check above, for a reader's handle (nullptr: none).
  // `record`: the level's record, when the stream is held against it
  // (FrontierStore::BlockCheck::kLevel; nullptr: it is not).
  RocksBlockIterator(rocksdb::DB* db, int level, const std::string& from_key, FileEntries* entries,
                     const LevelRecord* record)
      : level_(level), end_(BlockKeyEnd(level)), end_slice_(end_) {
    const std::string start = BlockKeyFrom(level, 0);
    const std::string from = from_key.empty() ? start : from_key;
    if (entries != nullptr) {
      // From the level's first block when the stream reads it from there.
      checked_ = CheckFileEntries(db, entries, record != nullptr ? start : from, end_);
      if (!checked_.ok()) return;
    }
    rocksdb::ReadOptions ro;
    ro.verify_checksums = true;
    ro.iterate_upper_bound = &end_slice_;
    // Streaming a level once: do not evict hot index blocks with its data.
    ro.fill_cache = false;
    ro.readahead_size = 2 << 20;
    it_.reset(db->NewIterator(ro));
    if (record == nullptr) {
      it_->Seek(from);
      return;
    }
    tallying_ = true;
    record_ = *record;
    // A stream that starts past the level's first block reads the blocks
    // before it too (tallied, not shown): only the whole level can be held
    // against its record.
    it_->Seek(start);
    Settle();
    while (Valid() && key() < std::string_view(from)) Next();
  }
  bool Valid() const override { return it_ != nullptr && checked_.ok() && it_->Valid(); }
  void Next() override {
    it_->Next();
    Settle();
  }
  std::string_view key() const override {
    return std::string_view(it_->key().data(), it_->key().size());
  }
  std::string_view value() const override {
    return std::string_view(it_->value().data(), it_->value().size());
  }
  Status status() const override {
    if (!checked_.ok()) return checked_;
    return FromRocks(it_->status(), "reading blocks");
  }

 private:
  // After each move: the block under the cursor is tallied; at the level's
  // end (without an error of RocksDB's own) the tally is held against the
  // record, and a difference becomes the stream's status.
  void Settle() {
    if (!tallying_ || !checked_.ok()) return;
    const auto where = [&] { return "level " + std::to_string(level_); };
    if (it_->Valid()) {
      const std::string_view block = value();
      uint32_t n = 0;
      int k = 0;
      Status s = PeekBlock(block, &n, &k);
      if (!s.ok()) {
        checked_ =
            Status::Corruption(where() + ", block " + std::to_string(blocks_) + ": " + s.message());
        return;
      }
      ++blocks_;
      entries_ += n;
      stored_ += block.size();
      chain_ = ChainChecksum(chain_, block);
      return;
    }
    if (!it_->status().ok()) return;
    tallying_ = false;
    const LevelRecord& r = record_;
    if (blocks_ != r.blocks || entries_ != r.entries || stored_ != r.stored_bytes) {
      checked_ = Status::Corruption(
          where() + " is damaged: its blocks read as " + std::to_string(entries_) + " entries in " +
          std::to_string(blocks_) + " blocks (" + std::to_string(stored_) +
          " bytes), its record says " + std::to_string(r.entries) + " in " +
          std::to_string(r.blocks) + " (" + std::to_string(r.stored_bytes) + " bytes)");
    } else if (chain_ != r.checksum) {
      checked_ = Status::Corruption(where() + " is damaged: its blocks do not match its checksum");
    }
  }

  int level_;
  std::string end_;
  rocksdb::Slice end_slice_;
  Status checked_;
  bool tallying_ = false;
  LevelRecord record_;
  uint64_t blocks_ = 0, entries_ = 0, stored_ = 0, chain_ = 0;
  std::unique_ptr<rocksdb::Iterator> it_;
};

}  // namespace

std::unique_ptr<FrontierStore::BlockIterator> FrontierStore::Blocks(int level,
                                                                    const std::string& from_key,
                                                                    BlockCheck check) {
  FileEntries* entries = rep_->read_only ? &rep_->entries : nullptr;
  LevelRecord record;
  bool held = false;
  if (check == BlockCheck::kLevel) {
    // The level's record, if the level is committed and kept (a level being
    // built, or dropped, has nothing to be held against).
    std::string value;
    const rocksdb::Status rs = rep_->db->Get(RecordReads(), LevelKey(level), &value);
    Status s;
    if (rs.ok()) {
      nlohmann::json j;
      s = ParseJson(value, "level", &j);
      if (s.ok()) {
        record = LevelRecordFromJson(j);
        held = record.kept;
      }
    } else if (!rs.IsNotFound()) {
      s = FromRocks(rs, "reading the record of level " + std::to_string(level));
    }
    if (!s.ok()) return std::make_unique<FailedBlockIterator>(s);
  }
  return std::make_unique<RocksBlockIterator>(rep_->db.get(), level, from_key, entries,
                                              held ? &record : nullptr);
}

namespace {

// The footer of a block-based table file (RocksDB wiki, "Rocksdb
// BlockBasedTable Format", format_version >= 1): a checksum-type byte, two
// block handles (4 varints) padded with zeros to 40 bytes, a 4-byte format
// version and the 8-byte magic number. RocksDB reads the handles and ignores
// the padding, so a damaged padding byte goes unseen by VerifyChecksum();
// yet it means the file was damaged, which a verify must report.
Status CheckTableFooter(const std::string& path) {
  constexpr size_t kFooter = 1 + 40 + 4 + 8;
  constexpr uint64_t kMagic = 0x88e241b785f4cff7ull;  // kBlockBasedTableMagicNumber
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  const std::streamoff size = in ? static_cast<std::streamoff>(in.tellg()) : -1;
  if (size < static_cast<std::streamoff>(kFooter)) {
    return Status::Corruption("table file '" + path + "' is too short or unreadable");
  }
  uint8_t f[kFooter];
  in.seekg(size - static_cast<std::streamoff>(kFooter));
  in.read(reinterpret_cast<char*>(f), kFooter);
  if (!in) return Status::IOError("cannot read table file '" + path + "'");
  uint64_t magic = 0;
  for (int i = 7; i >= 0; --i) magic = magic << 8 | f[kFooter - 8 + i];
  if (magic != kMagic) return Status::Corruption("table file '" + path + "': bad magic number");
  size_t pos = 1;
  for (int v = 0; v < 4; ++v) {  // the handles: offset, size, offset, size
    int bytes = 0;
    while (pos < 41 && (f[pos] & 0x80) != 0 && bytes < 9) ++pos, ++bytes;
    // RocksDB writes each varint in its fewest bytes: a last byte of 0
    // after others is a flipped bit that reads as the same number.
    if (pos >= 41 || (f[pos] & 0x80) != 0 || (bytes > 0 && f[pos] == 0))
      return Status::Corruption("table file '" + path + "': damaged footer");
    ++pos;
  }
  for (; pos < 41; ++pos) {
    if (f[pos] != 0) {
      return Status::Corruption("table file '" + path + "': damaged footer (padding byte " +
                                std::to_string(pos) + ")");
    }
  }
  return Status::OK();
}

}  // namespace

bool WriterActive(const std::string& dir) {
  // RocksDB's lock is a POSIX record lock on DIR/LOCK (fcntl F_SETLK).
  const std::string path = (std::filesystem::path(dir) / "LOCK").string();
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return false;
  struct flock lock {};
  lock.l_type = F_WRLCK;
  lock.l_whence = SEEK_SET;
  const bool held = ::fcntl(fd, F_GETLK, &lock) == 0 && lock.l_type != F_UNLCK;
  ::close(fd);
  return held;
}

uint64_t FrontierStore::TableFileBytes() {
  std::vector<rocksdb::LiveFileMetaData> files;
  rep_->db->GetLiveFilesMetaData(&files);
  uint64_t bytes = 0;
  for (const rocksdb::LiveFileMetaData& file : files) bytes += file.size;
  return bytes;
}

Status FrontierStore::VerifyFiles(uint64_t* replaced, const std::atomic<bool>* stop,
                                  std::atomic<uint64_t>* bytes_done) {
  *replaced = 0;
  std::vector<rocksdb::LiveFileMetaData> files;
  rep_->db->GetLiveFilesMetaData(&files);
  const rocksdb::Options options;
  for (const rocksdb::LiveFileMetaData& file : files) {
    if (stop != nullptr && stop->load()) return Status::Cancelled("interrupted in the table files");
    if (bytes_done != nullptr) bytes_done->fetch_add(file.size, std::memory_order_relaxed);
    const std::string path = TablePath(file);
    // Each file read whole, checked by its own checksums (data, index and
    // meta blocks), then its footer's padding.
    rocksdb::SstFileReader reader(options);
    rocksdb::Status rs = reader.Open(path);
    if (rs.ok()) rs = reader.VerifyChecksum();
    Status s = FromRocks(rs, "table file '" + path + "'");
    if (s.ok()) s = CheckTableFooter(path);
    if (s.ok()) continue;
    // A running writer replaces files (compactions, drops) after this
    // reader's opening: the data live on in the files that replaced them,
    // which the walk over the levels reads. Not damage. The writer may be
    // this very handle (its own background compactions); the lock test
    // cannot see that, as POSIX locks never conflict within a process.
    std::error_code ec;
    if (!std::filesystem::exists(path, ec) && (!rep_->read_only || WriterActive(dir_))) {
      ++*replaced;
      continue;
    }
    return s.IsIOError() ? Status::Corruption(s.message()) : s;
  }
  return Status::OK();
}

uint64_t FrontierStore::DiskBytes() {
  uint64_t sst = 0, wal = 0;
  rep_->db->GetIntProperty("rocksdb.total-sst-files-size", &sst);
  rep_->db->GetIntProperty("rocksdb.cur-size-all-mem-tables", &wal);
  return sst + wal;
}

}  // namespace eulerdeck::storage
