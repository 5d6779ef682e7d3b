// The frontier store (storage/) against the in-memory enumerator and brute
// force, and its refusal of damaged or mismatched stores. The crash tests
// (SIGKILL and resume) are in kill_resume_test.sh.
#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "engine/cards/brute.h"
#include "engine/cards/combinatorics.h"
#include "engine/cards/rules.h"
#include "engine/eulerian/children.h"
#include "engine/eulerian/enumerate.h"
#include "engine/eulerian/path.h"
#include "storage/run/block_expander.h"
#include "storage/run/stored_run.h"
#include "storage/store/block_codec.h"
#include "storage/store/format.h"
#include "storage/store/frontier_store.h"
#include "storage/store/inspect.h"
#include "storage/store/live_status.h"
#include "storage/store/run_state.h"
#include "tests/support/open_store.h"
#include "tests/support/temp_dir.h"

namespace eulerdeck::storage {
namespace {

using testing::OpenRW;

namespace fs = std::filesystem;

// Temporary directories named after this test file.
class TempDir : public testing::TempDir {
 public:
  TempDir() : testing::TempDir("eulerdeck-store") {}
};

constexpr uint64_t kBudget = testing::kStoreBudget;

Status Run(FrontierStore* store, const GameSpec& spec, int threads = 2, int until = 0,
           Keep keep = Keep::kAll) {
  RunOptions options;
  options.threads = threads;
  options.until_level = until;
  options.keep = keep;
  options.checkpoint_seconds = 0;  // a checkpoint after every input block
  return RunStore(store, spec, options);
}

std::vector<LevelRecord> Levels(FrontierStore* store) {
  std::vector<LevelRecord> levels;
  REQUIRE(store->GetLevels(&levels).ok());
  return levels;
}

std::vector<GameSpec> Sweep() {
  std::vector<GameSpec> specs;
  for (Game g : {Game::kMousetrap, Game::kModular, Game::kHlm}) {
    for (int s = 1; s <= 4; ++s) {
      for (int m = (g == Game::kHlm ? 2 : 1); m * s <= 64; ++m) {
        const auto total = TotalDecks64(GameSpec{g, m, s});
        if (!total || *total > 400'000) break;
        specs.push_back(GameSpec{g, m, s});
      }
    }
  }
  // Larger cases: many blocks per level, two bytes per count (modular m=8:
  // limits up to lcm(7, 8) = 56; m=6 s=3: lcm(17, 6) = 102; hlm s=2 m=11).
  specs.push_back(GameSpec{Game::kMousetrap, 10, 1});
  specs.push_back(GameSpec{Game::kHlm, 11, 2});
  specs.push_back(GameSpec{Game::kModular, 5, 2});
  return specs;
}

TEST_CASE("store: run's level counts equal count's, and verify passes") {
  for (const GameSpec& spec : Sweep()) {
    INFO(GameName(spec.game) << " m=" << spec.ranks << " s=" << spec.suits);
    TempDir dir;
    auto store = OpenRW(dir.path());
    REQUIRE(Run(store.get(), spec).ok());
    CountResult count;
    REQUIRE(Count(spec, CountOptions{}, &count).ok());
    const auto levels = Levels(store.get());
    REQUIRE(static_cast<int>(levels.size()) == spec.cards());
    for (const LevelRecord& r : levels) CHECK(r.entries == count.level[r.level]);
    VerifyReport report;
    const Status v = VerifyStore(store.get(), &report);
    INFO(v.ToString());
    CHECK(v.ok());
    CHECK(report.levels_checked == spec.cards());
  }
}

TEST_CASE("store: the decks of the last level are exactly the winning decks") {
  for (const GameSpec& spec : Sweep()) {
    if (*TotalDecks64(spec) > 400'000) continue;
    INFO(GameName(spec.game) << " m=" << spec.ranks << " s=" << spec.suits);
    TempDir dir;
    auto store = OpenRW(dir.path());
    REQUIRE(Run(store.get(), spec).ok());
    std::set<std::string> decks;  // deck bytes
    bool all_win = true;
    PathDecoder decoder(spec);
    REQUIRE(ForEachEntry(store.get(), spec.cards(), [&](const uint16_t* path, int k) {
              const Card* d = decoder.Decode(path, k);
              const Deck deck(d, d + k);
              all_win &= CheckDeck(spec, deck).ok() && Play(spec, deck).outcome == Outcome::kWin;
              decks.insert(std::string(deck.begin(), deck.end()));
              return true;
            }).ok());
    BruteResult brute;
    REQUIRE(Brute(spec, BruteOptions{}, &brute).ok());
    // Distinct, all winning, and as many as brute force finds: the same set.
    CHECK(all_win);
    CHECK(decks.size() == brute.winning_decks);
    CHECK(Levels(store.get()).back().entries == brute.winning_decks);
  }
}

TEST_CASE("store: contents do not depend on threads, nor on stopping and going on") {
  const GameSpec spec{Game::kMousetrap, 10, 1};
  TempDir a, b, c;
  auto one = OpenRW(a.path());
  REQUIRE(Run(one.get(), spec, 1).ok());
  auto three = OpenRW(b.path());
  REQUIRE(Run(three.get(), spec, 3).ok());
  auto staged = OpenRW(c.path());
  REQUIRE(Run(staged.get(), spec, 2, 4).ok());
  CHECK(Levels(staged.get()).size() == 4);
  REQUIRE(Run(staged.get(), spec, 2, 7).ok());
  REQUIRE(Run(staged.get(), spec, 2).ok());
  const auto x = Levels(one.get()), y = Levels(three.get()), z = Levels(staged.get());
  REQUIRE(x.size() == y.size());
  REQUIRE(x.size() == z.size());
  for (size_t i = 0; i < x.size(); ++i) {
    CHECK(x[i].checksum == y[i].checksum);
    CHECK(x[i].checksum == z[i].checksum);
    CHECK(x[i].stored_bytes == z[i].stored_bytes);
  }
}

// The states `status` and `list` report (storage/store/run_state.h): a run that
// reaches --until-level is "stopped"; one stopped between two levels (Ctrl-C
// right after a commit, no checkpoint of a level in progress) is still
// "interrupted", by the live file it leaves; the finished run removes it.
TEST_CASE("store: stopped at --until-level, interrupted between levels, complete") {
  const GameSpec spec{Game::kMousetrap, 8, 1};
  TempDir dir;
  auto state = [&](bool complete) {
    std::unique_ptr<FrontierStore> reader;
    REQUIRE(
        FrontierStore::Open(dir.path(), FrontierStore::Mode::kReadOnly, 16u << 20, &reader).ok());
    ProgressRecord p;
    bool in_progress = false;
    REQUIRE(reader->GetProgress(&p, &in_progress).ok());
    return std::string(
        RunStateName(ReadRunActivity(dir.path(), complete, in_progress, true).state));
  };
  auto store = OpenRW(dir.path());
  REQUIRE(Run(store.get(), spec, 2, 4).ok());
  store.reset();
  CHECK(state(false) == "stopped");
  CHECK_FALSE(fs::exists(dir.path() + "/" + kLiveFile));

  store = OpenRW(dir.path());
  std::atomic<bool> stop{true};
  RunOptions options;
  options.stop = &stop;
  CHECK(RunStore(store.get(), spec, options).IsCancelled());
  store.reset();
  CHECK(fs::exists(dir.path() + "/" + kLiveFile));
  CHECK(state(false) == "interrupted");

  store = OpenRW(dir.path());
  REQUIRE(Run(store.get(), spec).ok());
  CHECK(Levels(store.get()).back().entries == 1812);  // OEIS A007709(8)
  store.reset();
  CHECK(state(true) == "complete");
  CHECK_FALSE(fs::exists(dir.path() + "/" + kLiveFile));
}

TEST_CASE("store: --keep last and none keep the counts and drop the blocks") {
  const GameSpec spec{Game::kHlm, 9, 2};
  TempDir a, b;
  auto last = OpenRW(a.path());
  REQUIRE(Run(last.get(), spec, 2, 0, Keep::kLast).ok());
  auto levels = Levels(last.get());
  REQUIRE(levels.size() == 18);
  CHECK(levels.back().entries == 105);  // Bersani, Table 2 (hlm s=2 m=9)
  for (size_t i = 0; i + 1 < levels.size(); ++i) CHECK_FALSE(levels[i].kept);
  CHECK(levels.back().kept);
  VerifyReport report;
  CHECK(VerifyStore(last.get(), &report).ok());
  CHECK(report.levels_checked == 1);
  auto none = OpenRW(b.path());
  REQUIRE(Run(none.get(), spec, 2, 0, Keep::kNone).ok());
  levels = Levels(none.get());
  CHECK(levels.back().entries == 105);
  CHECK_FALSE(levels.back().kept);
  uint64_t entries = 0;
  CHECK(ForEachEntry(none.get(), 18, [&](const uint16_t*, int) { return ++entries > 0; }).ok());
  CHECK(entries == 0);
}

TEST_CASE("store: a store of another game is refused, and nothing is written") {
  TempDir dir;
  auto store = OpenRW(dir.path());
  REQUIRE(Run(store.get(), GameSpec{Game::kHlm, 6, 2}).ok());
  const auto before = Levels(store.get());
  const Status s = Run(store.get(), GameSpec{Game::kHlm, 7, 2});
  CHECK(s.IsInvalidArgument());
  CHECK(s.message().find("holds hlm --ranks 6 --suits 2") != std::string::npos);
  const auto after = Levels(store.get());
  REQUIRE(after.size() == before.size());
  CHECK(after.back().checksum == before.back().checksum);
}

TEST_CASE("store: a second writer is refused with a clear message") {
  TempDir dir;
  auto store = OpenRW(dir.path());
  std::unique_ptr<FrontierStore> second;
  const Status s =
      FrontierStore::Open(dir.path(), FrontierStore::Mode::kReadWrite, kBudget, &second);
  CHECK(s.IsInvalidArgument());  // a conflict, not damage: exit 2
  CHECK(s.message().find("in use") != std::string::npos);
  // Readers are welcome while the writer works.
  std::unique_ptr<FrontierStore> reader;
  CHECK(FrontierStore::Open(dir.path(), FrontierStore::Mode::kReadOnly, kBudget, &reader).ok());
}

// Flips one byte of the payload of the first block of `level`, writing the
// block back through the store (so RocksDB's own checksums stay valid and
// only eulerdeck's can notice).
void FlipByte(FrontierStore* store, int level) {
  auto it = store->Blocks(level);
  REQUIRE(it->Valid());
  std::string block(it->value());
  int lv = 0;
  uint64_t ordinal = 0;
  uint32_t seq = 0;
  REQUIRE(ParseBlockKey(it->key(), &lv, &ordinal, &seq));
  it.reset();
  block[block.size() / 2 + kBlockHeaderBytes / 2] ^= 0x10;
  REQUIRE(store->PutBlock(level, ordinal, seq, block).ok());
}

TEST_CASE("store: a flipped byte in a block is refused by verify and by run") {
  const GameSpec spec{Game::kMousetrap, 9, 1};
  TempDir dir;
  auto store = OpenRW(dir.path());
  REQUIRE(Run(store.get(), spec, 2, 6).ok());
  FlipByte(store.get(), 6);
  VerifyReport report;
  const Status v = VerifyStore(store.get(), &report);
  CHECK(v.IsCorruption());
  CHECK(v.message().find("level 6, block 0") != std::string::npos);
  CHECK(v.message().find("checksum") != std::string::npos);
  const Status r = Run(store.get(), spec);
  CHECK(r.IsCorruption());
  CHECK(r.message().find("level 6") != std::string::npos);
  CHECK(Levels(store.get()).size() == 6);  // nothing committed past the damage
}

// The ordinals of a level's blocks, in key order.
std::vector<uint64_t> Ordinals(FrontierStore* store, int level) {
  std::vector<uint64_t> ordinals;
  for (auto it = store->Blocks(level); it->Valid(); it->Next()) {
    int lv = 0;
    uint64_t ordinal = 0;
    uint32_t seq = 0;
    REQUIRE(ParseBlockKey(it->key(), &lv, &ordinal, &seq));
    ordinals.push_back(ordinal);
  }
  return ordinals;
}

int TableFiles(const std::string& dir) {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    n += e.path().extension() == ".sst";
  return n;
}

TEST_CASE(
    "store: DeleteBlocks deletes from an ordinal on, durably, and writes nothing when empty") {
  TempDir dir;
  {
    auto store = OpenRW(dir.path());
    for (uint64_t ordinal = 0; ordinal < 6; ++ordinal) {
      REQUIRE(store->PutBlock(3, ordinal, 0, "block").ok());
    }
    REQUIRE(store->PutBlock(4, 0, 0, "block").ok());
    REQUIRE(store->DeleteBlocks(3, 3).ok());
    CHECK(Ordinals(store.get(), 3) == std::vector<uint64_t>{0, 1, 2});
    CHECK(Ordinals(store.get(), 4) == std::vector<uint64_t>{0});
    // Nothing left in the range, or none ever: no write, so no flush and
    // no table file.
    const int tables = TableFiles(dir.path());
    REQUIRE(tables >= 1);
    REQUIRE(store->DeleteBlocks(3, 3).ok());
    REQUIRE(store->DeleteBlocks(5, 0).ok());
    CHECK(TableFiles(dir.path()) == tables);
  }
  // Durable on return: the blocks written before it (without the WAL) and
  // the deletion, flushed together.
  auto store = OpenRW(dir.path());
  CHECK(Ordinals(store.get(), 3) == std::vector<uint64_t>{0, 1, 2});
  CHECK(Ordinals(store.get(), 4) == std::vector<uint64_t>{0});
  REQUIRE(store->DeleteBlocks(3, 0).ok());
  CHECK(Ordinals(store.get(), 3).empty());
  CHECK(Ordinals(store.get(), 4) == std::vector<uint64_t>{0});
}

TEST_CASE("store: a well-formed block with entries out of order is refused by verify") {
  const GameSpec spec{Game::kMousetrap, 8, 1};
  TempDir dir;
  auto store = OpenRW(dir.path());
  REQUIRE(Run(store.get(), spec).ok());
  const CountCoding coding{8, 1};
  auto it = store->Blocks(7);
  REQUIRE(it->Valid());
  PathBlock block;
  REQUIRE(DecodeBlock(it->value(), coding, &block).ok());
  int lv = 0;
  uint64_t ordinal = 0;
  uint32_t seq = 0;
  REQUIRE(ParseBlockKey(it->key(), &lv, &ordinal, &seq));
  it.reset();
  REQUIRE(block.entries() >= 2);
  std::swap_ranges(block.counts.begin(), block.counts.begin() + 7, block.counts.begin() + 7);
  std::string data;
  uint64_t raw = 0;
  EncodeBlock(block, coding, &data, &raw);
  REQUIRE(store->PutBlock(7, ordinal, seq, data).ok());
  VerifyReport report;
  const Status v = VerifyStore(store.get(), &report);
  CHECK(v.IsCorruption());
  CHECK(v.message().find("level 7, block 0, entry 1: out of order") != std::string::npos);
}

TEST_CASE("store: block codec round trip, one and two bytes per count") {
  for (int width : {1, 2}) {
    PathBlock block;
    block.k = 5;
    block.count_bytes = width;
    const uint16_t top = width == 1 ? 200 : 4000;
    for (uint16_t a = 1; a < 6; ++a) {
      for (uint16_t b = 1; b < top; b += 37) {
        for (uint16_t c = 2; c < 5; ++c) {
          block.counts.insert(block.counts.end(), {1, a, static_cast<uint16_t>(a + 5), b, c});
        }
      }
    }
    std::string data;
    uint64_t raw = 0;
    // Paths over 5 values with 5 copies each (no value can run out in a path
    // of 5 counts); modular-like counts up to `top`.
    const CountCoding coding{5, 5};
    EncodeBlock(block, coding, &data, &raw);
    PathBlock back;
    REQUIRE(DecodeBlock(data, coding, &back).ok());
    CHECK(back.counts == block.counts);
    data[data.size() - 1] ^= 1;
    CHECK(DecodeBlock(data, coding, &back).IsCorruption());
  }
}

// A block's entries as block format 1 (columns of bytes), as builds before
// format 2 wrote them.
RawBlock ToColumns(const RawBlock& raw) {
  RawBlock v1 = raw;
  v1.format = kBlockFormatColumns;
  std::string col1, col2;
  EntryReader reader(raw);
  for (uint32_t i = 0; i < raw.entries; ++i) {
    int suffix = 0;
    REQUIRE(reader.NextSuffix(&suffix));
    col1.push_back(static_cast<char>(suffix));
    for (int j = 0; j < suffix; ++j) {
      uint32_t r = 0;
      REQUIRE(reader.NextRank(&r));
      if (raw.count_bytes == 2) col2.push_back(static_cast<char>(r >> 8));
      col2.push_back(static_cast<char>(r & 0xff));
    }
  }
  REQUIRE(reader.AtEnd());
  v1.payload = col1 + col2;
  return v1;
}

// The same entries as block format 2 writes them (NibbleWriter).
RawBlock ToNibbles(const RawBlock& raw) {
  RawBlock v2 = raw;
  v2.format = kBlockFormat;
  v2.payload.clear();
  NibbleWriter w(&v2.payload, raw.count_bytes);
  EntryReader reader(raw);
  for (uint32_t i = 0; i < raw.entries; ++i) {
    int suffix = 0;
    REQUIRE(reader.NextSuffix(&suffix));
    w.Suffix(suffix);
    for (int j = 0; j < suffix; ++j) {
      uint32_t r = 0;
      REQUIRE(reader.NextRank(&r));
      w.Rank(r);
    }
  }
  REQUIRE(reader.AtEnd());
  w.Finish();
  return v2;
}

// Stores written before block format 3 (store format 1, every block of
// format 1; store format 2, every block of format 2; made here by rewriting
// a stopped run's blocks, level records and parameters as those builds
// wrote them) are read, verified and resumed by this build, which raises
// them to format 3 first; a format it does not know is refused by name.
TEST_CASE("store: a store of format 1 verifies and resumes, an unknown format is refused") {
  for (const int old : {1, 2})
    for (const GameSpec spec : {GameSpec{Game::kMousetrap, 9, 1}, GameSpec{Game::kModular, 5, 2}}) {
      INFO(GameName(spec.game) << " m=" << spec.ranks << " s=" << spec.suits << ", format " << old);
      const ChildRule rule(spec);
      TempDir ref_dir, dir;
      auto ref = OpenRW(ref_dir.path());
      REQUIRE(Run(ref.get(), spec).ok());
      auto store = OpenRW(dir.path());
      const int stop = spec.cards() - 3;
      REQUIRE(Run(store.get(), spec, 2, stop).ok());
      std::vector<LevelRecord> levels = Levels(store.get());
      REQUIRE(static_cast<int>(levels.size()) == stop);
      for (LevelRecord& r : levels) {
        r.checksum = r.stored_bytes = r.raw_bytes = 0;
        std::vector<std::pair<std::string, std::string>> blocks;  // key, block
        for (auto it = store->Blocks(r.level); it->Valid(); it->Next()) {
          RawBlock raw;
          REQUIRE(UnsealBlock(it->value(), &raw).ok());
          REQUIRE(raw.format == BlockFormatFor(rule, r.level));
          const RawBlock v1 = old == 1 ? ToColumns(raw) : ToNibbles(raw);
          std::string data;
          SealBlock(v1, &data);
          blocks.emplace_back(std::string(it->key()), data);
          r.checksum = ChainChecksum(r.checksum, data);
          r.stored_bytes += data.size();
          r.raw_bytes += v1.payload.size();
        }
        for (const auto& [key, data] : blocks) {
          int level = 0;
          uint64_t ordinal = 0;
          uint32_t seq = 0;
          REQUIRE(ParseBlockKey(key, &level, &ordinal, &seq));
          REQUIRE(store->PutBlock(level, ordinal, seq, data).ok());
        }
      }
      REQUIRE(store->CommitPass(levels).ok());
      StoreParams params;
      bool exists = false;
      REQUIRE(store->GetParams(&params, &exists).ok());
      params.format_version = old;
      REQUIRE(store->PutParams(params).ok());

      VerifyReport report;
      REQUIRE(VerifyStore(store.get(), &report).ok());
      REQUIRE(Run(store.get(), spec).ok());
      REQUIRE(store->GetParams(&params, &exists).ok());
      CHECK(params.format_version == kFormatVersion);
      const auto got = Levels(store.get()), want = Levels(ref.get());
      REQUIRE(got.size() == want.size());
      for (size_t i = 0; i < got.size(); ++i) CHECK(got[i].entries == want[i].entries);
      REQUIRE(VerifyStore(store.get(), &report).ok());
      // The old levels kept their blocks of the old format; the new ones are
      // of this build's (BlockFormatFor(): format 3 for mousetrap).
      for (const LevelRecord& r : got) {
        auto it = store->Blocks(r.level);
        REQUIRE(it->Valid());
        CHECK(static_cast<int>(static_cast<uint8_t>(it->value()[0])) ==
              (r.level <= stop ? (old == 1 ? int{kBlockFormatColumns} : int{kBlockFormat})
                               : BlockFormatFor(rule, r.level)));
        if (r.level > stop && spec.game == Game::kMousetrap)
          CHECK(BlockFormatFor(rule, r.level) == kBlockFormatTrie);
      }

      params.format_version = kFormatVersion + 1;
      REQUIRE(store->PutParams(params).ok());
      const Status s = Run(store.get(), spec);
      CHECK(s.IsNotSupported());
      CHECK(s.message().find("has format " + std::to_string(kFormatVersion + 1) +
                             ", this build reads 1 to " + std::to_string(kFormatVersion)) !=
            std::string::npos);
    }
}

// The free space a pass asks for when the extrapolation would refuse it
// (ForecastBytesEstimate, stored_run.h).
TEST_CASE("stored run: the bytes a pass will add, by the forecast of its levels") {
  auto level = [](int k, uint64_t entries, uint64_t bytes) {
    LevelRecord r;
    r.level = k;
    r.entries = entries;
    r.stored_bytes = bytes;
    return r;
  };
  ProgressRecord p;
  p.level = 4;
  p.deeper.resize(2);
  p.deeper[0].level = 5;
  p.deeper[1].level = 6;
  // Worked by hand: 1.0, 1.0 and 1.1 bytes an entry (growth 1.0 then 1.1, a
  // step of 0.1): levels 4-6 at 1.1 x 1.2 = 1.32, x 1.3 = 1.716, x 1.4 =
  // 2.4024 bytes an entry, 1000 entries each: 5438.4, and 10 % more: 5982.24.
  const std::vector<LevelRecord> small = {level(1, 100, 100), level(2, 400, 400),
                                          level(3, 1000, 1100)};
  const std::vector<double> high = {0, 100, 400, 1000, 1000, 1000, 1000};
  uint64_t bytes = 0;
  REQUIRE(ForecastBytesEstimate(small, p, high, &bytes));
  CHECK(bytes == 5982);
  // Less what the checkpoint says is written.
  p.stored_bytes = 1000;
  p.deeper[0].stored_bytes = 300;
  REQUIRE(ForecastBytesEstimate(small, p, high, &bytes));
  CHECK(bytes == 4682);
  p.stored_bytes = 0;
  p.deeper[0].stored_bytes = 0;
  // Growth within 1..1.5 a level: bytes an entry falling (2, 1, 0.5) are
  // taken as level 3's; rising fast (0.1, 0.2, 0.6), 1.5 times a level.
  REQUIRE(ForecastBytesEstimate({level(1, 100, 200), level(2, 100, 100), level(3, 100, 50)}, p,
                                high, &bytes));
  CHECK(bytes == 1650);  // 3000 x 0.5 x 1.1
  REQUIRE(ForecastBytesEstimate({level(1, 100, 10), level(2, 100, 20), level(3, 100, 60)}, p, high,
                                &bytes));
  CHECK(bytes == 4702);  // (0.9 + 1.35 + 2.025) x 1000 x 1.1 = 4702.5
  // A forecast without the pass's last level sizes nothing.
  bytes = 7;
  CHECK_FALSE(ForecastBytesEstimate(small, p, {0, 100, 400, 1000, 1000, 1000}, &bytes));
  CHECK(bytes == 7);
  CHECK_FALSE(ForecastBytesEstimate({}, p, high, &bytes));

  // Modular 13's levels 8-10 as `eulerdeck run --memory-budget 256MiB`
  // stored them (docs/performance.md, 2026-11-29, block format 3), and the
  // upper ends of the forecast's 95% intervals for levels 11-13 (ForecastRun
  // on this machine, 2026-11-29, 16 samples): its last pass wrote
  // 1,951,188,660 + 4,493,139,489 + 3,476,737,121 bytes. The estimate is
  // 1.18 times that (the extrapolation asks 2.36 times).
  const std::vector<LevelRecord> modular13 = {level(8, 51891840, 25723872),
                                              level(9, 259459200, 135714855),
                                              level(10, 1037836800, 585753754)};
  std::vector<double> modular13_high(14, 0.0);
  modular13_high[11] = 3.4577e9;
  modular13_high[12] = 7.00542e9;
  modular13_high[13] = 4.47054e9;
  ProgressRecord q;
  q.level = 11;
  q.deeper.resize(2);
  q.deeper[0].level = 12;
  q.deeper[1].level = 13;
  const double written = 1951188660.0 + 4493139489.0 + 3476737121.0;
  REQUIRE(ForecastBytesEstimate(modular13, q, modular13_high, &bytes));
  CHECK(static_cast<double>(bytes) >= 1.0 * written);
  CHECK(static_cast<double>(bytes) <= 1.3 * written);
}

}  // namespace
}  // namespace eulerdeck::storage
