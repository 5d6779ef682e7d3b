// A count's progress exported and imported into a new store
// (storage/count_progress.h): the count continues there to the in-memory
// count's levels, however often it moves; a damaged, altered or foreign
// document is refused and leaves nothing behind.
#include "storage/count_progress.h"

#include <xxhash.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "engine/eulerian/enumerate.h"
#include "engine/reform/stats.h"
#include "storage/frontier_store.h"
#include "storage/stored_count.h"
#include "storage/stored_reform_stats.h"
#include "storage/stored_run.h"
#include "tests/support/open_store.h"
#include "tests/support/temp_dir.h"

namespace eulerdeck::storage {
namespace {

using testing::OpenRW;

class TempDir : public testing::TempDir {
 public:
  TempDir() : testing::TempDir("eulerdeck-count-progress") {}
};

constexpr uint64_t kBudget = testing::kStoreBudget;

std::string Export(const std::string& dir, ProgressSummary* summary = nullptr) {
  auto store = OpenRW(dir);
  std::string doc;
  const Status s = ExportCountProgress(store.get(), &doc, summary);
  INFO(s.ToString());
  REQUIRE(s.ok());
  return doc;
}

// Options that commit often, so that a stop after a few milliseconds
// leaves some of the subtrees counted and some not.
CountStoreOptions Often(int threads, const std::atomic<bool>* stop) {
  CountStoreOptions options;
  options.threads = threads;
  options.subtree_target = 2000;
  options.checkpoint_seconds = 0.01;
  options.batch_seconds = 0.005;
  options.stop = stop;
  return options;
}

// A document changed as `edit` says and sealed again with a valid checksum,
// as a document of another build or another store would be.
std::string Resealed(const std::string& document,
                     const std::function<void(nlohmann::json&)>& edit) {
  nlohmann::json doc = nlohmann::json::parse(document);
  edit(doc);
  doc.erase("xxh64");
  const std::string text = doc.dump();
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx",
                static_cast<unsigned long long>(XXH64(text.data(), text.size(), 0)));
  doc["xxh64"] = hex;
  return doc.dump();
}

TEST_CASE("count progress: moved to a new store at every interruption, the count ends the same",
          "[count_progress]") {
  // mousetrap s=1 m=12 (3674670, OEIS A007709), modular s=1 m=10 (884371,
  // Bersani 2010 Table 5), hlm s=2 m=13 (986994, Table 2).
  const std::vector<std::pair<GameSpec, uint64_t>> cases = {{{Game::kMousetrap, 12, 1}, 3674670},
                                                            {{Game::kModular, 10, 1}, 884371},
                                                            {{Game::kHlm, 13, 2}, 986994}};
  for (const auto& [spec, winning] : cases) {
    CountResult reference;
    REQUIRE(Count(spec, CountOptions(), &reference).ok());
    REQUIRE(reference.winning() == winning);
    std::vector<std::unique_ptr<TempDir>> dirs;
    dirs.push_back(std::make_unique<TempDir>());
    int moves = 0;
    CountResult result;
    for (int delay_ms = 3;; delay_ms += 4) {
      const std::string& here = dirs.back()->path();
      std::atomic<bool> stop{false};
      Status s;
      {
        auto store = OpenRW(here);
        std::thread stopper([&] {
          std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
          stop = true;
        });
        s = CountStore(store.get(), spec, Often(1 + moves % 2, &stop), &result);
        stopper.join();
      }
      INFO(GameName(spec.game) << " m=" << spec.ranks << " s=" << spec.suits << " after " << moves
                               << " moves: " << s.ToString());
      REQUIRE((s.ok() || s.IsCancelled()));
      if (s.ok()) break;
      REQUIRE(moves < 60);
      // Still building the split level: nothing to export yet.
      std::unique_ptr<FrontierStore> reader = OpenRW(here);
      CountProgress before;
      REQUIRE(ReadCountProgress(reader.get(), spec, &before).ok());
      reader.reset();
      if (before.split_level == 0) continue;

      ProgressSummary summary;
      const std::string document = Export(here, &summary);
      CHECK(summary.subtrees_done == before.subtrees_done);
      CHECK(summary.subtrees_total == before.subtrees_total);
      CHECK(summary.winning == before.counted.level[spec.cards()]);
      CHECK(summary.batches <= before.batches);  // merged, never more

      // Into an empty directory, which import takes as it takes a new one.
      dirs.push_back(std::make_unique<TempDir>());
      const std::string& there = dirs.back()->path();
      ProgressSummary imported;
      s = ImportCountProgress(document, there, kBudget, 1 + moves % 2, nullptr, &imported);
      INFO(s.ToString());
      REQUIRE(s.ok());
      CHECK(imported.subtrees_done == summary.subtrees_done);
      CHECK(imported.winning == summary.winning);
      // The new store exports the same document, byte for byte.
      CHECK(Export(there) == document);
      ++moves;  // the next session counts in `there`
    }
    INFO(GameName(spec.game) << " m=" << spec.ranks << " s=" << spec.suits << ", " << moves
                             << " moves");
    CHECK(moves >= 2);
    CHECK(result.level == reference.level);
  }
}

TEST_CASE("count progress: a reform-stats count moved to a new store keeps its tallies",
          "[count_progress]") {
  // Modular n = 10: sequences ending on cycles (docs/reform-stats.md).
  const GameSpec spec{Game::kModular, 10, 1};
  ReformStatsResult reference;
  REQUIRE(ReformStats(spec, ReformStatsOptions{}, &reference).ok());
  TempDir first, second;
  ReformStatsResult result;
  Status s;
  int delay_ms = 20;
  for (;; delay_ms = delay_ms * 3 / 2) {
    std::atomic<bool> stop{false};
    auto store = OpenRW(first.path());
    std::thread stopper([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
      stop = true;
    });
    CountStoreOptions options = Often(2, &stop);
    options.subtree_target = 500;
    s = ReformStatsStore(store.get(), spec, options, &result);
    stopper.join();
    REQUIRE((s.ok() || s.IsCancelled()));
    if (s.ok()) FAIL("the statistics finished before the stop: no partial count to move");
    CountProgress progress;
    REQUIRE(ReadCountProgress(store.get(), spec, &progress).ok());
    if (progress.subtrees_done > 0) break;
    REQUIRE(delay_ms < 5000);
  }
  const std::string document = Export(first.path());
  CHECK(nlohmann::json::parse(document)["tally"] == kReformStatsTally);
  const std::string there = second.path() + "/store";
  REQUIRE(ImportCountProgress(document, there, kBudget, 2, nullptr, nullptr).ok());
  auto store = OpenRW(there);
  CountStoreOptions options;
  options.threads = 2;
  s = ReformStatsStore(store.get(), spec, options, &result);
  INFO(s.ToString());
  REQUIRE(s.ok());
  CHECK(result.winning_decks == reference.winning_decks);
  CHECK(result.reformable == reference.reformable);
  CHECK(result.cyclic_decks == reference.cyclic_decks);
  CHECK(result.cycles == reference.cycles);
  CHECK(result.longest_sequence.length == reference.longest_sequence.length);
}

TEST_CASE("count progress: a damaged, altered or foreign document is refused, nothing written",
          "[count_progress]") {
  // hlm s=2 m=10 (656, Bersani 2010 Table 2), stopped part way.
  const GameSpec spec{Game::kHlm, 10, 2};
  TempDir source;
  {
    auto store = OpenRW(source.path());
    std::atomic<bool> stop{false};
    CountResult result;
    CountStoreOptions options = Often(1, &stop);
    options.subtree_target = 50;
    // A complete count exports too, every subtree counted.
    REQUIRE(CountStore(store.get(), spec, options, &result).ok());
    REQUIRE(result.winning() == 656);
  }
  ProgressSummary summary;
  const std::string good = Export(source.path(), &summary);
  CHECK(summary.subtrees_done == summary.subtrees_total);
  CHECK(summary.winning == 656);
  TempDir target;
  const std::string dir = target.path() + "/new";

  auto refused = [&](const std::string& document, bool invalid_argument, const char* why) {
    INFO(why);
    const Status s = ImportCountProgress(document, dir, kBudget, 1, nullptr, nullptr);
    INFO(s.ToString());
    CHECK(!s.ok());
    CHECK(s.IsInvalidArgument() == invalid_argument);
    CHECK(s.IsCorruption() == !invalid_argument);
    CHECK(!std::filesystem::exists(dir));  // nothing left behind
  };
  std::string flipped = good;
  const size_t at = flipped.find("656");
  REQUIRE(at != std::string::npos);
  flipped[at] = '7';
  refused(flipped, true, "a digit changed: the checksum");
  refused(good.substr(0, good.size() / 2), true, "cut short");
  refused("{}", true, "not a progress document");
  refused(Resealed(good, [](nlohmann::json& d) { d["version"] = 99; }), true, "another version");
  refused(Resealed(good, [](nlohmann::json& d) { d["winning"] = 657; }), true, "totals");
  refused(Resealed(good,
                   [](nlohmann::json& d) {
                     auto& r = d["records"];
                     r.push_back(r.front());
                   }),
          true, "a record twice");
  refused(Resealed(good, [](nlohmann::json& d) { d["game"] = "treize"; }), true, "no count");
  // Sealed documents whose split this build does not make: found once the
  // split level is built, and the new store removed again.
  refused(Resealed(good, [](nlohmann::json& d) { d["split_xxh64"] = "0123456789abcdef"; }), false,
          "other sub-decks at the split level");
  refused(
      Resealed(good, [](nlohmann::json& d) { d["split_level"] = d["split_level"].get<int>() + 1; }),
      true, "records of another split level");
  refused(Resealed(good,
                   [](nlohmann::json& d) {
                     d["subtree_target"] = 5000;  // this build splits higher
                   }),
          false, "another split target");

  // An existing store is never written.
  REQUIRE(ImportCountProgress(good, dir, kBudget, 1, nullptr, nullptr).ok());
  const std::string before = Export(dir);
  const Status s = ImportCountProgress(good, dir, kBudget, 1, nullptr, nullptr);
  CHECK(s.IsInvalidArgument());
  CHECK(Export(dir) == before);

  // A stored run has no progress to export.
  TempDir run;
  REQUIRE(CreateStore(run.path(), NewStoreParams(spec, Keep::kAll)).ok());
  auto store = OpenRW(run.path());
  std::string doc;
  CHECK(ExportCountProgress(store.get(), &doc, nullptr).IsInvalidArgument());
}

}  // namespace
}  // namespace eulerdeck::storage
