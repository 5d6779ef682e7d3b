#include "storage/frontier_store.h"

#include <fcntl.h>
#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/metadata.h>
#include <rocksdb/options.h>
#include <rocksdb/table.h>
#include <rocksdb/write_batch.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "storage/fault_injection.h"
#include "storage/format.h"

namespace eulerdeck::storage {

namespace {

// Openings of a read-only store before a race with the writer's deletions
// is reported (about 1.3 s of waiting in all).
constexpr int kReadOnlyOpenAttempts = 8;

// rocksdb::Status -> Status, keeping Corruption and IOError apart. RocksDB's
// messages may span lines (one per missing file); ours are one line.
Status FromRocks(const rocksdb::Status& s, const std::string& what) {
  if (s.ok()) return Status::OK();
  std::string text = s.ToString();
  while (!text.empty() && text.back() == '\n') text.pop_back();
  for (size_t at; (at = text.find('\n')) != std::string::npos;) text.replace(at, 1, "; ");
  if (s.IsCorruption()) return Status::Corruption(what + ": " + text);
  if (s.IsNotSupported()) return Status::NotSupported(what + ": " + text);
  return Status::IOError(what + ": " + text);
}

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
  std::error_code ec;
  if (std::filesystem::is_directory(dir, ec) && !std::filesystem::is_empty(dir, ec)) {
    // Writing here would make a new, empty database beside the old files.
    return Status::Corruption("'" + dir +
                              "' holds files but no CURRENT: not a store, or a store whose "
                              "CURRENT file was lost (refusing to touch it)");
  }
  return Status::InvalidArgument("no store at '" + dir + "'");
}

struct FrontierStore::Rep {
  std::unique_ptr<rocksdb::DB> db;
  bool read_only = false;
};

FrontierStore::FrontierStore(std::string dir, std::unique_ptr<Rep> rep)
    : dir_(std::move(dir)), rep_(std::move(rep)) {}

FrontierStore::~FrontierStore() = default;

Status FrontierStore::Open(const std::string& dir, Mode mode, uint64_t memory_budget_bytes,
                           std::unique_ptr<FrontierStore>* store, FaultInjection* faults) {
  rocksdb::Options options;
  if (faults != nullptr) options.env = faults->env();
  const bool read_only = mode == Mode::kReadOnly;
  options.create_if_missing = !read_only;
  // Our blocks are zstd-compressed already; compressing them again would
  // cost time for nothing.
  options.compression = rocksdb::kNoCompression;
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

  auto rep = std::make_unique<Rep>();
  rep->read_only = read_only;
  rocksdb::DB* db = nullptr;
  rocksdb::Status s;
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
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return Status::IOError("cannot create store directory '" + dir + "': " + ec.message());
    s = rocksdb::DB::Open(options, dir, &db);
  }
  if (!s.ok()) {
    if (s.IsIOError() && s.ToString().find("lock") != std::string::npos) {
      // Not damage: the request conflicts with another writer (bad input).
      return Status::InvalidArgument("store '" + dir + "' is in use by another process (" +
                                     s.ToString() + ")");
    }
    return FromRocks(s, "cannot open store '" + dir + "'");
  }
  rep->db.reset(db);
  store->reset(new FrontierStore(dir, std::move(rep)));
  return Status::OK();
}

namespace {

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
    if (!fs::is_empty(path, ec)) return MissingStore(dir);
  }
  fs::create_directories(path.parent_path(), ec);
  if (ec)
    return Status::IOError("cannot create '" + path.parent_path().string() + "': " + ec.message());
  // The sibling is ours by its name: one left by a crash is removed.
  const fs::path building = path.parent_path() / ("." + path.filename().string() + ".creating");
  fs::remove_all(building, ec);
  if (ec) return Status::IOError("cannot remove '" + building.string() + "': " + ec.message());
  {
    std::unique_ptr<FrontierStore> store;
    Status s =
        FrontierStore::Open(building.string(), FrontierStore::Mode::kReadWrite, 16u << 20, &store);
    if (s.ok()) s = store->PutParams(params);
    if (!s.ok()) {
      store.reset();
      fs::remove_all(building, ec);
      return s;
    }
  }
  // rename(2) replaces an empty directory; the parent's fsync makes it last.
  fs::rename(building, path, ec);
  if (ec) {
    const std::string why = ec.message();
    fs::remove_all(building, ec);
    return Status::IOError("cannot create the store '" + dir + "': " + why);
  }
  return SyncDirectory(path.parent_path());
}

Status FrontierStore::GetParams(StoreParams* params, bool* exists) {
  std::string value;
  rocksdb::Status s = rep_->db->Get(rocksdb::ReadOptions(), kParamsKey, &value);
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
  return Status::OK();
}

Status FrontierStore::PutParams(const StoreParams& params) {
  const nlohmann::json j = {{"format", params.format_version}, {"game", GameName(params.spec.game)},
                            {"ranks", params.spec.ranks},      {"suits", params.spec.suits},
                            {"created", params.created},       {"keep", KeepName(params.keep)}};
  rocksdb::WriteOptions wo;
  wo.sync = true;
  return FromRocks(rep_->db->Put(wo, kParamsKey, j.dump()), "writing the store's parameters");
}

Status FrontierStore::GetLevels(std::vector<LevelRecord>* levels) {
  levels->clear();
  std::unique_ptr<rocksdb::Iterator> it(rep_->db->NewIterator(rocksdb::ReadOptions()));
  const std::string prefix(1, kLevelTag);
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
    nlohmann::json j;
    Status s = ParseJson(it->value().ToString(), "level", &j);
    if (!s.ok()) return s;
    LevelRecord r;
    r.level = j.value("level", 0);
    r.entries = j.value("entries", uint64_t{0});
    r.blocks = j.value("blocks", uint64_t{0});
    r.raw_bytes = j.value("raw_bytes", uint64_t{0});
    r.stored_bytes = j.value("stored_bytes", uint64_t{0});
    r.checksum = j.value("checksum", uint64_t{0});
    r.seconds = j.value("seconds", 0.0);
    r.kept = j.value("kept", true);
    levels->push_back(r);
  }
  return FromRocks(it->status(), "reading the level records");
}

Status FrontierStore::GetProgress(ProgressRecord* p, bool* exists) {
  std::string value;
  rocksdb::Status s = rep_->db->Get(rocksdb::ReadOptions(), kProgressKey, &value);
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
  return Status::OK();
}

Status FrontierStore::Checkpoint(const ProgressRecord& p) {
  rocksdb::Status s = rep_->db->Flush(rocksdb::FlushOptions());
  if (!s.ok()) return FromRocks(s, "flushing blocks before a checkpoint");
  nlohmann::json key = nlohmann::json::array();
  for (char c : p.done_input_key) key.push_back(static_cast<uint8_t>(c));
  const nlohmann::json j = {{"level", p.level},         {"next_ordinal", p.next_ordinal},
                            {"done_input_key", key},    {"input_blocks", p.input_blocks},
                            {"entries", p.entries},     {"blocks", p.blocks},
                            {"raw_bytes", p.raw_bytes}, {"stored_bytes", p.stored_bytes},
                            {"checksum", p.checksum},   {"seconds", p.seconds}};
  rocksdb::WriteOptions wo;
  wo.sync = true;
  return FromRocks(rep_->db->Put(wo, kProgressKey, j.dump()), "writing a checkpoint");
}

Status FrontierStore::CommitLevel(const LevelRecord& record) {
  rocksdb::Status s = rep_->db->Flush(rocksdb::FlushOptions());
  if (!s.ok()) return FromRocks(s, "flushing blocks before a commit");
  rocksdb::WriteBatch batch;
  batch.Put(LevelKey(record.level), LevelRecordJson(record).dump());
  batch.Delete(kProgressKey);
  rocksdb::WriteOptions wo;
  wo.sync = true;
  return FromRocks(rep_->db->Write(wo, &batch), "committing level " + std::to_string(record.level));
}

Status FrontierStore::MarkLevelDropped(int level) {
  std::vector<LevelRecord> levels;
  Status s = GetLevels(&levels);
  if (!s.ok()) return s;
  for (LevelRecord r : levels) {
    if (r.level != level) continue;
    r.kept = false;
    rocksdb::WriteOptions wo;
    wo.sync = true;
    return FromRocks(rep_->db->Put(wo, LevelKey(level), LevelRecordJson(r).dump()),
                     "updating level " + std::to_string(level));
  }
  return Status::InvalidArgument("level " + std::to_string(level) + " is not committed");
}

Status FrontierStore::PutBlock(int level, uint64_t ordinal, uint32_t seq, std::string_view data) {
  rocksdb::WriteOptions wo;
  wo.disableWAL = true;  // made durable by the Flush() of the next checkpoint
  return FromRocks(
      rep_->db->Put(wo, BlockKey(level, ordinal, seq), rocksdb::Slice(data.data(), data.size())),
      "writing a block");
}

Status FrontierStore::DeleteBlocks(int level, uint64_t from_ordinal) {
  rocksdb::WriteOptions wo;
  wo.sync = true;
  return FromRocks(rep_->db->DeleteRange(wo, rep_->db->DefaultColumnFamily(),
                                         BlockKeyFrom(level, from_ordinal), BlockKeyEnd(level)),
                   "deleting blocks of level " + std::to_string(level));
}

namespace {

class RocksBlockIterator : public FrontierStore::BlockIterator {
 public:
  RocksBlockIterator(rocksdb::DB* db, int level, const std::string& from_key)
      : end_(BlockKeyEnd(level)), end_slice_(end_) {
    rocksdb::ReadOptions ro;
    ro.iterate_upper_bound = &end_slice_;
    // Streaming a level once: do not evict hot index blocks with its data.
    ro.fill_cache = false;
    ro.readahead_size = 2 << 20;
    it_.reset(db->NewIterator(ro));
    it_->Seek(from_key.empty() ? BlockKeyFrom(level, 0) : from_key);
  }
  bool Valid() const override { return it_->Valid(); }
  void Next() override { it_->Next(); }
  std::string_view key() const override {
    return std::string_view(it_->key().data(), it_->key().size());
  }
  std::string_view value() const override {
    return std::string_view(it_->value().data(), it_->value().size());
  }
  Status status() const override { return FromRocks(it_->status(), "reading blocks"); }

 private:
  std::string end_;
  rocksdb::Slice end_slice_;
  std::unique_ptr<rocksdb::Iterator> it_;
};

}  // namespace

std::unique_ptr<FrontierStore::BlockIterator> FrontierStore::Blocks(int level,
                                                                    const std::string& from_key) {
  return std::make_unique<RocksBlockIterator>(rep_->db.get(), level, from_key);
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
    if (pos >= 41 || (f[pos] & 0x80) != 0)
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

Status FrontierStore::VerifyFiles() {
  Status s = FromRocks(rep_->db->VerifyChecksum(), "checking the table files");
  if (!s.ok()) return s;
  std::vector<rocksdb::LiveFileMetaData> files;
  rep_->db->GetLiveFilesMetaData(&files);
  for (const rocksdb::LiveFileMetaData& file : files) {
    s = CheckTableFooter(file.db_path + "/" + file.name);
    if (!s.ok()) return s;
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
