#include "storage/frontier_store.h"

#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <rocksdb/table.h>
#include <rocksdb/write_batch.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "storage/format.h"

namespace eulerdeck::storage {

namespace {

// rocksdb::Status -> Status, keeping Corruption and IOError apart.
Status FromRocks(const rocksdb::Status& s, const std::string& what) {
  if (s.ok()) return Status::OK();
  if (s.IsCorruption()) return Status::Corruption(what + ": " + s.ToString());
  if (s.IsNotSupported()) return Status::NotSupported(what + ": " + s.ToString());
  return Status::IOError(what + ": " + s.ToString());
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

bool StoreExists(const std::string& dir) {
  // RocksDB writes CURRENT when it creates a database and keeps it after.
  return std::filesystem::exists(std::filesystem::path(dir) / "CURRENT");
}

struct FrontierStore::Rep {
  std::unique_ptr<rocksdb::DB> db;
  bool read_only = false;
};

FrontierStore::FrontierStore(std::string dir, std::unique_ptr<Rep> rep)
    : dir_(std::move(dir)), rep_(std::move(rep)) {}

FrontierStore::~FrontierStore() = default;

Status FrontierStore::Open(const std::string& dir, Mode mode, uint64_t memory_budget_bytes,
                           std::unique_ptr<FrontierStore>* store) {
  rocksdb::Options options;
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
    if (!StoreExists(dir)) return Status::InvalidArgument("no store at '" + dir + "'");
    s = rocksdb::DB::OpenForReadOnly(options, dir, &db);
  } else {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return Status::IOError("cannot create store directory '" + dir + "': " + ec.message());
    s = rocksdb::DB::Open(options, dir, &db);
  }
  if (!s.ok()) {
    if (s.IsIOError() && s.ToString().find("lock") != std::string::npos) {
      return Status::IOError("store '" + dir + "' is in use by another process (" + s.ToString() +
                             ")");
    }
    return FromRocks(s, "cannot open store '" + dir + "'");
  }
  rep->db.reset(db);
  store->reset(new FrontierStore(dir, std::move(rep)));
  return Status::OK();
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
  return Status::OK();
}

Status FrontierStore::PutParams(const StoreParams& params) {
  const nlohmann::json j = {{"format", params.format_version},
                            {"game", GameName(params.spec.game)},
                            {"ranks", params.spec.ranks},
                            {"suits", params.spec.suits},
                            {"created", params.created}};
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

uint64_t FrontierStore::DiskBytes() {
  uint64_t sst = 0, wal = 0;
  rep_->db->GetIntProperty("rocksdb.total-sst-files-size", &sst);
  rep_->db->GetIntProperty("rocksdb.cur-size-all-mem-tables", &wal);
  return sst + wal;
}

}  // namespace eulerdeck::storage
