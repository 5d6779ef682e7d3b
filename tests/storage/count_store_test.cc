// The resumable count (storage/stored_count.h) against the in-memory count:
// whole, stopped and resumed any number of times, with any split; and its
// refusal of stores it cannot continue. The SIGKILL trials are in
// count_kill_test.sh, the MPI ones in tests/tools/mpi_count_test.sh.
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

#include "engine/eulerian/enumerate.h"
#include "storage/frontier_store.h"
#include "storage/stored_count.h"
#include "storage/stored_run.h"
#include "tests/support/temp_dir.h"

namespace eulerdeck::storage {
namespace {

class TempDir : public testing::TempDir {
 public:
  TempDir() : testing::TempDir("eulerdeck-count-store") {}
};

std::unique_ptr<FrontierStore> OpenRW(const std::string& dir) {
  std::unique_ptr<FrontierStore> store;
  const Status s = FrontierStore::Open(dir, FrontierStore::Mode::kReadWrite, 64ull << 20, &store);
  INFO(s.ToString());
  REQUIRE(s.ok());
  return store;
}

CountResult Reference(const GameSpec& spec) {
  CountResult r;
  REQUIRE(Count(spec, CountOptions(), &r).ok());
  return r;
}

TEST_CASE("count store: equals the in-memory count in all three games, any split",
          "[count_store]") {
  const std::vector<GameSpec> specs = {{Game::kMousetrap, 10, 1}, {Game::kMousetrap, 5, 2},
                                       {Game::kModular, 9, 1},    {Game::kModular, 3, 3},
                                       {Game::kHlm, 10, 2},       {Game::kHlm, 6, 3},
                                       {Game::kMousetrap, 1, 1},  {Game::kHlm, 2, 1}};
  for (const GameSpec& spec : specs) {
    const CountResult reference = Reference(spec);
    for (uint64_t target : {uint64_t{1}, uint64_t{50}, uint64_t{5000}, kDefaultSubtrees}) {
      for (int threads : {1, 2, 3}) {
        TempDir dir;
        auto store = OpenRW(dir.path());
        CountStoreOptions options;
        options.threads = threads;
        options.subtree_target = target;
        CountResult result;
        const Status s = CountStore(store.get(), spec, options, &result);
        INFO(GameName(spec.game) << " m=" << spec.ranks << " s=" << spec.suits << " target "
                                 << target << " threads " << threads << ": " << s.ToString());
        REQUIRE(s.ok());
        CHECK(result.level == reference.level);
        CHECK(result.nodes == reference.nodes);
        // Complete: the store reads like a finished run, and counting again
        // only reads it back.
        std::vector<LevelRecord> levels;
        REQUIRE(store->GetLevels(&levels).ok());
        REQUIRE(levels.back().level == spec.cards());
        CountResult again;
        REQUIRE(CountStore(store.get(), spec, options, &again).ok());
        CHECK(again.level == reference.level);
        CountProgress progress;
        REQUIRE(ReadCountProgress(store.get(), spec, &progress).ok());
        CHECK(progress.subtrees_done == progress.subtrees_total);
      }
    }
  }
}

TEST_CASE("count store: stopped at random moments and resumed, the counts are the same",
          "[count_store]") {
  // mousetrap s=1 m=12 (3674670, OEIS A007709), modular s=1 m=10 (884371,
  // Bersani 2010 Table 5), hlm s=2 m=12 (76823, Table 2).
  const std::vector<std::pair<GameSpec, uint64_t>> cases = {{{Game::kMousetrap, 12, 1}, 3674670},
                                                            {{Game::kModular, 10, 1}, 884371},
                                                            {{Game::kHlm, 12, 2}, 76823}};
  for (const auto& [spec, winning] : cases) {
    const CountResult reference = Reference(spec);
    REQUIRE(reference.winning() == winning);
    TempDir dir;
    int sessions = 0;
    CountResult result;
    for (int delay_ms = 3;; delay_ms = delay_ms * 3 / 2 + 1) {
      auto store = OpenRW(dir.path());
      std::atomic<bool> stop{false};
      CountStoreOptions options;
      options.threads = 2;
      options.subtree_target = 2000;
      options.checkpoint_seconds = 0.01;
      options.batch_seconds = 0.005;
      options.stop = &stop;
      std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
        stop = true;
      });
      const Status s = CountStore(store.get(), spec, options, &result);
      stopper.join();
      ++sessions;
      INFO(s.ToString());
      REQUIRE((s.ok() || s.IsCancelled()));
      if (s.ok()) break;
      REQUIRE(sessions < 60);
    }
    INFO(GameName(spec.game) << " in " << sessions << " sessions");
    CHECK(sessions > 2);  // it was interrupted, more than once
    CHECK(result.level == reference.level);
  }
}

TEST_CASE("count store: refuses a run store, another game, another split", "[count_store]") {
  const GameSpec spec{Game::kMousetrap, 8, 1};
  TempDir dir;
  {
    auto store = OpenRW(dir.path());
    RunOptions run;
    REQUIRE(RunStore(store.get(), spec, run).ok());
    CountResult result;
    const Status s = CountStore(store.get(), spec, CountStoreOptions(), &result);
    CHECK(s.IsInvalidArgument());
    CHECK(s.message().find("stored run, not a count") != std::string::npos);
  }
  TempDir counted;
  auto store = OpenRW(counted.path());
  CountResult result;
  REQUIRE(CountStore(store.get(), spec, CountStoreOptions(), &result).ok());
  const Status other =
      CountStore(store.get(), GameSpec{Game::kModular, 8, 1}, CountStoreOptions(), &result);
  CHECK(other.IsInvalidArgument());
  CHECK(other.message().find("holds mousetrap --ranks 8 --suits 1, not modular") !=
        std::string::npos);
  CountProgress progress;
  REQUIRE(ReadCountProgress(store.get(), spec, &progress).ok());
  CHECK(progress.split_level == 2);  // 8 cards: never closer than 6 levels to the last
}

TEST_CASE("count store: overlapping or foreign count records are corruption", "[count_store]") {
  const GameSpec spec{Game::kMousetrap, 10, 1};
  TempDir dir;
  auto store = OpenRW(dir.path());
  CountStoreOptions options;
  options.subtree_target = 100;
  CountResult result;
  REQUIRE(CountStore(store.get(), spec, options, &result).ok());
  std::vector<CountRecord> records;
  REQUIRE(store->GetCountRecords(&records).ok());
  REQUIRE(records.size() >= 2);
  SECTION("overlap") {
    CountRecord r = records[0];
    r.first += 1;  // starts inside the first record
    REQUIRE(store->PutCountRecords({r}).ok());
  }
  SECTION("a record past the level") {
    CountRecord r = records[0];
    r.block = 1000000;
    REQUIRE(store->PutCountRecords({r}).ok());
  }
  SECTION("a malformed record") {
    CountRecord r = records[0];
    r.value = "{\"subtrees\": 1}";
    REQUIRE(store->PutCountRecords({r}).ok());
  }
  const Status s = CountStore(store.get(), spec, options, &result);
  INFO(s.ToString());
  CHECK(s.IsCorruption());
}

}  // namespace
}  // namespace eulerdeck::storage
