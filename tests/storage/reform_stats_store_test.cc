// The resumable reform statistics (storage/count/stored_reform_stats.h) against
// brute force (following every deck of the size) and against the in-memory
// ReformStats(): whole, with any split and thread count, and stopped and
// resumed many times; and its refusal of stores it cannot continue. The
// SIGKILL trials are in count_kill_test.sh.
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

#include "engine/reform/stats.h"
#include "storage/count/stored_count.h"
#include "storage/count/stored_reform_stats.h"
#include "storage/store/frontier_store.h"
#include "tests/support/open_store.h"
#include "tests/support/reform_brute.h"
#include "tests/support/temp_dir.h"

namespace eulerdeck::storage {
namespace {

using testing::OpenRW;

class TempDir : public testing::TempDir {
 public:
  TempDir() : testing::TempDir("eulerdeck-reform-store") {}
};

void ExpectSame(const ReformStatsResult& a, const ReformStatsResult& b) {
  CHECK(a.total_decks == b.total_decks);
  CHECK(a.winning_decks == b.winning_decks);
  CHECK(a.unreformed == b.unreformed);
  CHECK(a.reformable == b.reformable);
  CHECK(a.cyclic_decks == b.cyclic_decks);
  CHECK(a.decks_on_cycles == b.decks_on_cycles);
  CHECK(a.cyclic_sequences == b.cyclic_sequences);
  CHECK(a.cycles == b.cycles);
  for (const auto& [x, y] : {std::pair{&a.longest_sequence, &b.longest_sequence},
                             std::pair{&a.longest_cyclic_sequence, &b.longest_cyclic_sequence},
                             std::pair{&a.longest_preperiod, &b.longest_preperiod},
                             std::pair{&a.longest_cycle, &b.longest_cycle}}) {
    CHECK(x->length == y->length);
    CHECK(DeckToString(x->deck) == DeckToString(y->deck));
  }
}

TEST_CASE("reform-stats store: equals following every deck, three games, any split",
          "[reform_store]") {
  const std::vector<GameSpec> specs = {{Game::kMousetrap, 8, 1}, {Game::kModular, 8, 1},
                                       {Game::kHlm, 4, 2},       {Game::kModular, 3, 3},
                                       {Game::kMousetrap, 2, 1}, {Game::kHlm, 2, 2}};
  for (const GameSpec& spec : specs) {
    for (uint64_t target : {uint64_t{1}, uint64_t{50}, kDefaultSubtrees}) {
      for (int threads : {1, 2}) {
        TempDir dir;
        auto store = OpenRW(dir.path());
        CountStoreOptions options;
        options.threads = threads;
        options.subtree_target = target;
        ReformStatsResult result;
        const Status s = ReformStatsStore(store.get(), spec, options, &result);
        INFO(GameName(spec.game) << " m=" << spec.ranks << " s=" << spec.suits << " target "
                                 << target << " threads " << threads << ": " << s.ToString());
        REQUIRE(s.ok());
        testing::ExpectEqualsBruteForce(spec, result);
        // Complete: asking again only reads the tallies back.
        ReformStatsResult again;
        REQUIRE(ReformStatsStore(store.get(), spec, options, &again).ok());
        ExpectSame(again, result);
      }
    }
  }
}

TEST_CASE("reform-stats store: stopped at random moments and resumed, the statistics are the same",
          "[reform_store]") {
  // Modular n = 10 has sequences ending on cycles; mousetrap n = 11 decks
  // reformable 4 times; hlm m = 5 s = 2 many suits.
  for (const GameSpec& spec : {GameSpec{Game::kModular, 10, 1}, GameSpec{Game::kMousetrap, 11, 1},
                               GameSpec{Game::kHlm, 5, 2}}) {
    ReformStatsResult reference;
    REQUIRE(ReformStats(spec, ReformStatsOptions{}, &reference).ok());
    TempDir dir;
    int sessions = 0;
    ReformStatsResult result;
    for (int delay_ms = 3;; delay_ms = delay_ms * 3 / 2 + 1) {
      auto store = OpenRW(dir.path());
      std::atomic<bool> stop{false};
      CountStoreOptions options;
      options.threads = 1 + sessions % 2;
      options.subtree_target = 500;
      options.checkpoint_seconds = 0.01;
      options.batch_seconds = 0.005;
      options.stop = &stop;
      std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
        stop = true;
      });
      const Status s = ReformStatsStore(store.get(), spec, options, &result);
      stopper.join();
      ++sessions;
      INFO(s.ToString());
      REQUIRE((s.ok() || s.IsCancelled()));
      if (s.ok()) break;
      REQUIRE(sessions < 60);
    }
    INFO(GameName(spec.game) << " m=" << spec.ranks << " in " << sessions << " sessions");
    CHECK(sessions > 2);  // it was interrupted, more than once
    ExpectSame(result, reference);
  }
}

TEST_CASE("reform-stats store: refuses a plain count, is refused by count, and a bad tally",
          "[reform_store]") {
  const GameSpec spec{Game::kMousetrap, 8, 1};
  {
    TempDir dir;
    auto store = OpenRW(dir.path());
    CountResult count;
    REQUIRE(CountStore(store.get(), spec, CountStoreOptions(), &count).ok());
    ReformStatsResult r;
    const Status s = ReformStatsStore(store.get(), spec, CountStoreOptions(), &r);
    CHECK(s.IsInvalidArgument());
    CHECK(s.message().find("holds a count, not a reform-stats count") != std::string::npos);
  }
  TempDir dir;
  auto store = OpenRW(dir.path());
  ReformStatsResult r;
  REQUIRE(ReformStatsStore(store.get(), spec, CountStoreOptions(), &r).ok());
  CountResult count;
  const Status s = CountStore(store.get(), spec, CountStoreOptions(), &count);
  CHECK(s.IsInvalidArgument());
  CHECK(s.message().find("holds a reform-stats count, not a count") != std::string::npos);
  const Status other =
      ReformStatsStore(store.get(), GameSpec{Game::kModular, 8, 1}, CountStoreOptions(), &r);
  CHECK(other.IsInvalidArgument());
  // One card: nothing to split.
  TempDir one;
  auto small = OpenRW(one.path());
  CHECK(ReformStatsStore(small.get(), GameSpec{Game::kMousetrap, 1, 1}, CountStoreOptions(), &r)
            .IsInvalidArgument());
  // A record whose tally cannot be read: refused, not merged.
  std::vector<CountRecord> records;
  REQUIRE(store->GetCountRecords(&records).ok());
  REQUIRE(!records.empty());
  const std::string good = records[0].value;
  const size_t at = records[0].value.find("\"tally\":\"{");
  REQUIRE(at != std::string::npos);
  records[0].value.replace(at, 10, "\"tally\":\"[");
  REQUIRE(store->PutCountRecords({records[0]}).ok());
  CHECK(ReformStatsStore(store.get(), spec, CountStoreOptions(), &r).IsCorruption());
}

}  // namespace
}  // namespace eulerdeck::storage
