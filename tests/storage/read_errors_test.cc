// What readers of a store say when it cannot be read as asked (issue 51).
//
// A reader of a store whose table file is damaged reports the damage, never
// a part of the store as if it were the whole (A1): RocksDB 7.8
// lost the error of a damaged table file that an iterator entered by Next()
// while it applied range deletions, and the keys of that file and of every
// later file of its level vanished. Each case writes many small table files
// (one flush each, disjoint, so RocksDB moves them down whole), flips a
// byte in the data of each one in turn and reads the store read-only.
// tests/storage/reliability_test.sh §10 does the same through the tools.
//
// A reform-search store given where a store of levels or counts is expected
// is named as one (A4; §11 there through the tools).
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "storage/run/stored_run.h"
#include "storage/search/search_store.h"
#include "storage/store/block_codec.h"
#include "storage/store/format.h"
#include "storage/store/frontier_store.h"
#include "storage/store/inspect.h"
#include "storage/store/params.h"
#include "tests/support/open_store.h"
#include "tests/support/temp_dir.h"

namespace eulerdeck::storage {
namespace {

namespace fs = std::filesystem;

constexpr int kFiles = 24;   // of records
constexpr int kBlocks = 40;  // of 512 KiB

// The table files of `dir`, by name.
std::vector<std::string> TableFiles(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".sst") files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  return files;
}

// A copy of `from` at `to` with one bit of byte `offset` of `file` flipped.
void CopyFlipped(const std::string& from, const std::string& to, const std::string& file,
                 std::streamoff offset) {
  fs::remove_all(to);
  fs::copy(from, to, fs::copy_options::recursive);
  std::fstream f(fs::path(to) / file, std::ios::in | std::ios::out | std::ios::binary);
  REQUIRE(f);
  f.seekg(offset);
  char c = 0;
  f.read(&c, 1);
  c = static_cast<char>(c ^ 0x04);
  f.seekp(offset);
  f.write(&c, 1);
  REQUIRE(f);
}

std::unique_ptr<FrontierStore> OpenReader(const std::string& dir, Status* s) {
  std::unique_ptr<FrontierStore> store;
  *s = FrontierStore::Open(dir, FrontierStore::Mode::kReadOnly, testing::kStoreBudget, &store);
  return store;
}

TEST_CASE("read errors: the blocks of a damaged store are reported, never fewer") {
  testing::TempDir tmp("eulerdeck-read-errors");
  const std::string dir = tmp.path() + "/store", copy = tmp.path() + "/copy";
  // The smallest write buffers (4 MiB): RocksDB flushes them full of blocks
  // alone, into table files of disjoint ranges that it moves down whole,
  // one level of the LSM tree of many files. When its flush thread lags
  // behind the writes (a loaded machine: 19 of 150 tries beside four busy
  // processes gave 3 files), one flush takes every full buffer at once and
  // there are fewer, larger files: the store is then written again, until
  // it has at least 4.
  for (int attempt = 0; attempt < 20; ++attempt) {
    fs::remove_all(dir);
    std::unique_ptr<FrontierStore> store;
    REQUIRE(FrontierStore::Open(dir, FrontierStore::Mode::kReadWrite, 16u << 20, &store).ok());
    for (int i = 0; i < kBlocks; ++i) {
      REQUIRE(
          store->PutBlock(1, i, 0, std::string(512 << 10, static_cast<char>('a' + i % 26))).ok());
    }
    ProgressRecord p;
    p.level = 1;
    p.next_ordinal = kBlocks;
    REQUIRE(store->Checkpoint(p).ok());
    store.reset();
    if (TableFiles(dir).size() >= 4) break;
  }
  {
    Status s;
    auto store = OpenReader(dir, &s);
    REQUIRE(s.ok());
    int blocks = 0;
    for (auto it = store->Blocks(1); it->Valid(); it->Next()) ++blocks;
    REQUIRE(blocks == kBlocks);
  }
  REQUIRE(TableFiles(dir).size() >= 4);
  int reported = 0;
  for (const std::string& file : TableFiles(dir)) {
    CopyFlipped(dir, copy, file, 100);  // in the first data block
    Status s;
    auto store = OpenReader(copy, &s);
    if (!s.ok()) {
      INFO(s.ToString());
      CHECK(s.IsCorruption());
      ++reported;
      continue;
    }
    int blocks = 0;
    auto it = store->Blocks(1);
    for (; it->Valid(); it->Next()) ++blocks;
    INFO(file << ": " << blocks << " blocks, " << it->status().ToString());
    if (it->status().ok()) {
      CHECK(blocks == kBlocks);
    } else {
      CHECK(it->status().IsCorruption());
      ++reported;
    }
  }
  CHECK(reported > 0);
}

TEST_CASE("read errors: the records of a damaged store are reported, never fewer") {
  testing::TempDir tmp("eulerdeck-read-errors");
  const std::string dir = tmp.path() + "/store", copy = tmp.path() + "/copy";
  {
    auto store = testing::OpenRW(dir);
    for (int i = 0; i < kFiles; ++i) {
      // One record a flush: one table file each.
      REQUIRE(store
                  ->PutCountRecords({CountRecord{0, static_cast<uint32_t>(i),
                                                 std::string(200, static_cast<char>('a' + i))}})
                  .ok());
    }
  }
  int reported = 0;
  for (const std::string& file : TableFiles(dir)) {
    CopyFlipped(dir, copy, file, 40);  // in the record
    Status s;
    auto store = OpenReader(copy, &s);
    if (s.ok()) {
      std::vector<CountRecord> records;
      s = store->GetCountRecords(&records);
      INFO(file << ": " << records.size() << " records, " << s.ToString());
      if (s.ok()) CHECK(records.size() == kFiles);
    }
    if (!s.ok()) {
      INFO(s.ToString());
      CHECK(s.IsCorruption());
      ++reported;
    }
  }
  CHECK(reported > 0);
}

TEST_CASE("read errors: a damaged range deletion fails a reader's opening") {
  // Were its range deletion lost, the blocks it deleted would read again:
  // RocksDB refuses the table file (it did before issue 51 too).
  testing::TempDir tmp("eulerdeck-read-errors");
  const std::string dir = tmp.path() + "/store", copy = tmp.path() + "/copy";
  {
    auto store = testing::OpenRW(dir);
    for (int i = 0; i < 10; ++i) REQUIRE(store->PutBlock(1, i, 0, std::string(100, 'b')).ok());
    ProgressRecord p;
    p.level = 1;
    p.next_ordinal = 10;
    REQUIRE(store->Checkpoint(p).ok());
    REQUIRE(store->DeleteBlocks(1, 5).ok());  // a table file of one range deletion
  }
  const std::string end = BlockKeyEnd(1);
  int flipped = 0;
  for (const std::string& file : TableFiles(dir)) {
    std::ifstream in(fs::path(dir) / file, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.find("rocksdb.range_del") == std::string::npos) continue;
    const size_t at = bytes.find(end);
    REQUIRE(at != std::string::npos);
    CopyFlipped(dir, copy, file, static_cast<std::streamoff>(at));
    ++flipped;
    Status s;
    auto store = OpenReader(copy, &s);
    int blocks = 0;
    if (s.ok()) {
      auto it = store->Blocks(1);
      for (; it->Valid(); it->Next()) ++blocks;
      s = it->status();
    }
    INFO(file << ": " << blocks << " blocks, " << s.ToString());
    CHECK(s.IsCorruption());
  }
  CHECK(flipped == 1);
}

TEST_CASE("read errors: a damaged properties block or footer fails a reader's opening") {
  // RocksDB refuses a table file whose properties block is damaged; it
  // never reads a footer's padding, which a reader now checks.
  testing::TempDir tmp("eulerdeck-read-errors");
  const std::string dir = tmp.path() + "/store", copy = tmp.path() + "/copy";
  {
    auto store = testing::OpenRW(dir);
    REQUIRE(store->PutCountRecords({CountRecord{0, 0, std::string(200, 'a')}}).ok());
  }
  const std::vector<std::string> files = TableFiles(dir);
  REQUIRE(!files.empty());
  std::ifstream in(fs::path(dir) / files[0], std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t properties = bytes.find("raw.key.size");
  REQUIRE(properties != std::string::npos);
  for (std::streamoff offset : {static_cast<std::streamoff>(properties) + 10,
                                static_cast<std::streamoff>(bytes.size()) - 30}) {
    CopyFlipped(dir, copy, files[0], offset);
    Status s;
    auto store = OpenReader(copy, &s);
    INFO("byte " << offset << " of " << bytes.size() << ": " << s.ToString());
    CHECK(s.IsCorruption());
  }
}

TEST_CASE("read errors: a level streamed whole is held against its record") {
  // Issue 58, A1: RocksDB 7.8 also loses an iterator's checksum error in
  // MergingIterator::SeekImpl, which resets its status during the re-seek
  // that a range tombstone causes (fixed upstream after 7.8, pull requests
  // 11785 and 11786): when the newest copy of a block fails to read and the
  // next key in the merge is an older copy under the tombstone, the stream
  // ends there, without an error. The first-block guard of
  // CheckFileEntries() cannot see it. The layout of a resume: a level
  // compacted down from LSM level 0, its tail deleted (DeleteBlocks, a
  // range tombstone in a table file of its own) and written again, then
  // committed: three files in level 0 above the old copies. One bit is
  // flipped in each rewritten block after the first; every stream of the
  // level, whole or from a key, must report damage.
  testing::TempDir tmp("eulerdeck-read-errors");
  const std::string dir = tmp.path() + "/store", copy = tmp.path() + "/copy";
  constexpr int kLevelBlocks = 48, kKept = 20;
  // A budget of 64 MiB: write buffers of 16 MiB, which the 3 MiB of blocks
  // never fill, so that only the flushes below make table files.
  constexpr uint64_t kBudget = 64u << 20;
  std::vector<std::string> blocks;
  LevelRecord record;
  record.level = 1;
  std::mt19937_64 rng(58);
  for (int i = 0; i < kLevelBlocks; ++i) {
    RawBlock raw;
    raw.k = 1;
    raw.entries = 1000 + i;
    raw.payload.resize(64 << 10);
    for (char& c : raw.payload) c = static_cast<char>(rng());  // incompressible
    std::string sealed;
    SealBlock(raw, &sealed);
    record.entries += raw.entries;
    ++record.blocks;
    record.stored_bytes += sealed.size();
    record.checksum = ChainChecksum(record.checksum, sealed);
    blocks.push_back(std::move(sealed));
  }
  {
    // Four flushes, four files in level 0 (each holds the checkpoint's key,
    // so they overlap): RocksDB compacts them into one below, which is
    // awaited (level0_file_num_compaction_trigger is 4).
    std::unique_ptr<FrontierStore> store;
    REQUIRE(FrontierStore::Open(dir, FrontierStore::Mode::kReadWrite, kBudget, &store).ok());
    ProgressRecord p;
    p.level = 1;
    for (int i = 0; i < kLevelBlocks; ++i) {
      REQUIRE(store->PutBlock(1, i, 0, blocks[i]).ok());
      p.next_ordinal = i + 1;
      if (i % 12 == 11) REQUIRE(store->Checkpoint(p).ok());
    }
    for (int wait = 0; wait < 3000 && TableFiles(dir).size() > 1; ++wait)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    REQUIRE(TableFiles(dir).size() == 1);
  }
  {
    // What a resume does from a checkpoint at kKept: the tail deleted (one
    // flush), the same blocks written again (one flush), the level
    // committed (one flush): three files in level 0, below the trigger.
    std::unique_ptr<FrontierStore> store;
    REQUIRE(FrontierStore::Open(dir, FrontierStore::Mode::kReadWrite, kBudget, &store).ok());
    REQUIRE(store->DeleteBlocks(1, kKept).ok());
    ProgressRecord p;
    p.level = 1;
    for (int i = kKept; i < kLevelBlocks; ++i) REQUIRE(store->PutBlock(1, i, 0, blocks[i]).ok());
    p.next_ordinal = kLevelBlocks;
    REQUIRE(store->Checkpoint(p).ok());
    REQUIRE(store->CommitLevel(record).ok());
  }
  REQUIRE(TableFiles(dir).size() == 4);
  // The intact store streams whole, and so does every stream from a key.
  {
    Status s;
    auto store = OpenReader(dir, &s);
    REQUIRE(s.ok());
    int n = 0;
    auto it = store->Blocks(1);
    for (; it->Valid(); it->Next()) CHECK(it->value() == blocks[n++]);
    CHECK(it->status().ok());
    CHECK(n == kLevelBlocks);
    auto from = store->Blocks(1, BlockKey(1, 30, 0));
    REQUIRE(from->Valid());
    CHECK(from->value() == blocks[30]);
  }
  // The newest table file holding each block (file numbers grow).
  std::vector<std::string> files = TableFiles(dir);
  std::vector<std::string> contents;
  for (const std::string& f : files) {
    std::ifstream in(fs::path(dir) / f, std::ios::binary);
    contents.emplace_back((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  int flipped = 0, silent = 0;
  for (int i = kKept + 1; i < kLevelBlocks; ++i) {
    std::string file;
    size_t at = std::string::npos;
    int copies = 0;
    for (size_t f = 0; f < files.size(); ++f) {
      const size_t found = contents[f].find(blocks[i].substr(0, 64));
      if (found != std::string::npos) file = files[f], at = found, ++copies;
    }
    REQUIRE(copies == 2);  // the old one under the tombstone, and the new
    CopyFlipped(dir, copy, file, static_cast<std::streamoff>(at + blocks[i].size() / 2));
    ++flipped;
    Status s;
    auto store = OpenReader(copy, &s);
    if (!s.ok()) {
      INFO("block " << i << " in " << file << ": " << s.ToString());
      CHECK(s.IsCorruption());
      continue;
    }
    for (const std::string& from : {std::string(), BlockKey(1, kKept, 0)}) {
      int n = 0;
      auto it = store->Blocks(1, from);
      for (; it->Valid(); it->Next()) ++n;
      INFO("block " << i << " in " << file << ", from " << (from.empty() ? "the start" : "a key")
                    << ": " << n << " blocks, " << it->status().ToString());
      CHECK(it->status().IsCorruption());
      if (it->status().ok()) ++silent;
    }
  }
  CHECK(flipped == kLevelBlocks - kKept - 1);
  CHECK(silent == 0);
}

TEST_CASE("read errors: every reader of a level streamed short by a resume's tombstone fails") {
  // The same layout with the level of the issue: mousetrap 11, level 10
  // (765,075 entries; 51 blocks when the run stops there), a third of it
  // kept and the rest rewritten. Each reader that streams a level through the store's API,
  // for a flip in each rewritten block after the first: the stream
  // (FrontierStore::Blocks), ForEachEntry (`export --decks`), ForEachEntryFrom
  // (`inspect --from`), VerifyStore (`verify`), and a run building level 11
  // from it without reading its table files first (a count's levels). On
  // e117dfa a flip in the second rewritten block (22 of 51) streamed a part
  // of the level with no error in the stream, ForEachEntry and the run.
  testing::TempDir tmp("eulerdeck-read-errors");
  const std::string src = tmp.path() + "/src", dir = tmp.path() + "/store",
                    copy = tmp.path() + "/copy";
  const GameSpec spec{Game::kMousetrap, 11, 1};
  constexpr int kLevel = 10;
  constexpr uint64_t kBudget = 64u << 20;
  std::vector<LevelRecord> levels;
  std::vector<std::pair<std::string, std::string>> blocks;  // key, value
  {
    REQUIRE(CreateStore(src, NewStoreParams(spec, Keep::kAll)).ok());
    auto store = testing::OpenRW(src);
    RunOptions options;
    options.until_level = kLevel;
    REQUIRE(RunStore(store.get(), spec, options).ok());
    REQUIRE(store->GetLevels(&levels).ok());
    auto it = store->Blocks(kLevel);
    for (; it->Valid(); it->Next()) blocks.emplace_back(it->key(), it->value());
    REQUIRE(it->status().ok());
  }
  REQUIRE(levels.size() == kLevel);
  const LevelRecord record = levels.back();
  // Level 10 of mousetrap 11 as `eulerdeck status` gives it (e117dfa), the
  // level of the issue.
  CHECK(record.entries == 765075);
  REQUIRE(blocks.size() == record.blocks);
  // A resume's cut: the first block of an input block, a third of the way.
  size_t kept = blocks.size() / 3;
  int level = 0;
  uint64_t kept_ordinal = 0;
  uint32_t seq = 1;
  for (; kept < blocks.size(); ++kept) {
    REQUIRE(ParseBlockKey(blocks[kept].first, &level, &kept_ordinal, &seq));
    if (seq == 0) break;
  }
  REQUIRE(kept + 2 < blocks.size());
  const auto put = [&](FrontierStore* store, size_t from, size_t to) {
    for (size_t b = from; b < to; ++b) {
      uint64_t ordinal = 0;
      REQUIRE(ParseBlockKey(blocks[b].first, &level, &ordinal, &seq));
      REQUIRE(store->PutBlock(kLevel, ordinal, seq, blocks[b].second).ok());
    }
  };
  {
    // The levels below as records only (dropped), level 10's blocks in two
    // flushes: with the parameters' and the records' flushes, four files in
    // level 0, compacted below as in the test above.
    REQUIRE(CreateStore(dir, NewStoreParams(spec, Keep::kAll)).ok());
    std::unique_ptr<FrontierStore> store;
    REQUIRE(FrontierStore::Open(dir, FrontierStore::Mode::kReadWrite, kBudget, &store).ok());
    std::vector<LevelRecord> below(levels.begin(), levels.end() - 1);
    for (LevelRecord& r : below) r.kept = false;
    REQUIRE(store->CommitLevels(below).ok());
    ProgressRecord p;
    p.level = kLevel;
    for (size_t part = 0; part < 2; ++part) {
      put(store.get(), blocks.size() * part / 2, blocks.size() * (part + 1) / 2);
      REQUIRE(store->Checkpoint(p).ok());
    }
    for (int wait = 0; wait < 3000 && TableFiles(dir).size() > 1; ++wait)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    REQUIRE(TableFiles(dir).size() == 1);
  }
  {
    std::unique_ptr<FrontierStore> store;
    REQUIRE(FrontierStore::Open(dir, FrontierStore::Mode::kReadWrite, kBudget, &store).ok());
    REQUIRE(store->DeleteBlocks(kLevel, kept_ordinal).ok());
    put(store.get(), kept, blocks.size());
    ProgressRecord p;
    p.level = kLevel;
    REQUIRE(store->Checkpoint(p).ok());
    REQUIRE(store->CommitLevel(record).ok());
  }
  REQUIRE(TableFiles(dir).size() == 4);
  // Every reader of the intact store reads the level whole.
  const auto readers = [&](const std::string& d, bool intact) {
    std::vector<std::string> failed;  // the readers that did not report damage
    Status s;
    {
      auto store = OpenReader(d, &s);
      if (!s.ok()) return failed;  // damage found at the opening: all report it
      uint64_t n = 0;
      auto it = store->Blocks(kLevel);
      for (; it->Valid(); it->Next()) ++n;
      if (it->status().ok() != intact || (intact && n != record.blocks)) failed.push_back("Blocks");
      n = 0;
      s = ForEachEntry(store.get(), kLevel, [&](const uint16_t*, int) { return ++n, true; });
      if (s.ok() != intact || (intact && n != record.entries)) failed.push_back("ForEachEntry");
      // From the first entry of the first rewritten block.
      PathBlock first;
      REQUIRE(DecodeBlock(blocks[kept].second, CountCoding{spec.ranks, spec.suits}, &first).ok());
      const std::vector<uint16_t> from(first.path(0), first.path(0) + first.k);
      n = 0;
      s = ForEachEntryFrom(store.get(), kLevel, from,
                           [&](const uint16_t*, int) { return ++n, true; });
      if (s.ok() != intact) failed.push_back("ForEachEntryFrom");
      VerifyReport report;
      s = VerifyStore(store.get(), &report, VerifyOptions());
      if (s.ok() != intact) failed.push_back("VerifyStore");
    }
    fs::remove_all(d + ".run");
    fs::copy(d, d + ".run", fs::copy_options::recursive);
    std::unique_ptr<FrontierStore> store;
    s = FrontierStore::Open(d + ".run", FrontierStore::Mode::kReadWrite, kBudget, &store);
    if (s.ok()) {
      RunOptions options;
      options.until_level = kLevel + 1;
      options.verify_tables = false;
      s = RunStore(store.get(), spec, options);
    }
    if (s.ok() != intact) failed.push_back("RunStore: " + s.ToString());
    return failed;
  };
  CHECK(readers(dir, true).empty());
  std::vector<std::string> files = TableFiles(dir);
  std::vector<std::string> contents;
  for (const std::string& f : files) {
    std::ifstream in(fs::path(dir) / f, std::ios::binary);
    contents.emplace_back((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  int flipped = 0;
  for (size_t b = kept + 1; b < blocks.size(); ++b) {
    std::string file;
    size_t at = std::string::npos;
    int copies = 0;
    for (size_t f = 0; f < files.size(); ++f) {
      const size_t found = contents[f].find(blocks[b].second);
      if (found != std::string::npos) file = files[f], at = found, ++copies;
    }
    REQUIRE(copies == 2);
    CopyFlipped(dir, copy, file, static_cast<std::streamoff>(at + blocks[b].second.size() / 2));
    ++flipped;
    const std::vector<std::string> failed = readers(copy, false);
    INFO("block " << b << " of " << blocks.size() << " flipped in " << file);
    for (const std::string& reader : failed) CHECK(reader == "");
  }
  CHECK(flipped == static_cast<int>(blocks.size() - kept - 1));
}

TEST_CASE("read errors: a reform-search store is named as one") {
  CHECK(std::string(kSearchStoreDocument) == kSearchDocument);
  testing::TempDir tmp("eulerdeck-read-errors");
  const std::string dir = tmp.path() + "/search";
  fs::create_directory(dir);
  std::ofstream(fs::path(dir) / kSearchDocument) << "{}\n";
  const std::string said =
      "'" + dir + "' is a reform-search store, not a store of levels or counts: use `eulerdeck " +
      "status --store " + dir + "` or `eulerdeck resume --store " + dir + "`";
  Status s = MissingStore(dir);
  CHECK(s.IsInvalidArgument());
  CHECK(s.message() == said);
  std::unique_ptr<FrontierStore> store;
  s = FrontierStore::Open(dir, FrontierStore::Mode::kReadOnly, testing::kStoreBudget, &store);
  CHECK(s.IsInvalidArgument());
  CHECK(s.message() == said);
  s = CreateStore(dir, StoreParams());
  CHECK(s.IsInvalidArgument());
  CHECK(s.message() == said);
}

}  // namespace
}  // namespace eulerdeck::storage
