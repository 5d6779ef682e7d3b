// A count's progress exported and imported into a new store
// (storage/count/count_progress.h): the count continues there to the in-memory
// count's levels, however often it moves; a damaged, altered or foreign
// document is refused and leaves nothing behind.
#include "storage/count/count_progress.h"

#include <xxhash.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "engine/eulerian/enumerate.h"
#include "engine/reform/stats.h"
#include "storage/count/stored_count.h"
#include "storage/count/stored_reform_stats.h"
#include "storage/run/stored_run.h"
#include "storage/store/frontier_store.h"
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
    bool merged_some = false;  // some export merged contiguous batches
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
      std::unique_ptr<FrontierStore> reader = OpenRW(here);
      CountProgress before;
      REQUIRE(ReadCountProgress(reader.get(), spec, &before).ok());
      if (before.split_level == 0) {
        // Still building the split level: nothing to export yet.
        std::string none;
        CHECK(ExportCountProgress(reader.get(), &none, nullptr).IsInvalidArgument());
        continue;
      }
      reader.reset();

      ProgressSummary summary;
      const std::string document = Export(here, &summary);
      CHECK(summary.subtrees_done == before.subtrees_done);
      CHECK(summary.subtrees_total == before.subtrees_total);
      CHECK(summary.winning == before.counted.level[spec.cards()]);
      CHECK(summary.batches <= before.batches);  // merged, never more
      merged_some = merged_some || summary.batches < before.batches;

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
    CHECK(merged_some);
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
  const std::string sibling = target.path() + "/.new.importing";

  // Refused with InvalidArgument (nothing built) or Corruption (found once
  // the split level is built), the message holding `why`, and nothing left.
  auto refused = [&](const std::string& document, bool invalid_argument, const std::string& why) {
    INFO(why);
    const Status s = ImportCountProgress(document, dir, kBudget, 1, nullptr, nullptr);
    INFO(s.ToString());
    CHECK(!s.ok());
    CHECK(s.IsInvalidArgument() == invalid_argument);
    CHECK(s.IsCorruption() == !invalid_argument);
    CHECK(s.ToString().find(why) != std::string::npos);
    CHECK(!std::filesystem::exists(dir));
    CHECK(!std::filesystem::exists(sibling));
  };
  auto with = [&](const std::function<void(nlohmann::json&)>& edit) {
    return Resealed(good, edit);
  };
  std::string flipped = good;
  const size_t at = flipped.find("656");
  REQUIRE(at != std::string::npos);
  flipped[at] = '7';
  refused(flipped, true, "checksum");
  refused(good.substr(0, good.size() / 2), true, "not a JSON object");
  refused("{}", true, "not of the format");
  refused(with([](nlohmann::json& d) { d["version"] = 99; }), true, "version 99");
  refused(with([](nlohmann::json& d) { d["winning"] = 657; }), true, "totals");
  refused(with([](nlohmann::json& d) { d["game"] = "treize"; }), true, "treize");
  refused(with([](nlohmann::json& d) { d["tally"] = "bogus"; }), true, "tally 'bogus'");
  refused(with([](nlohmann::json& d) { d["tally"] = kReformStatsTally; }), true,
          "a record's tally");
  refused(with([](nlohmann::json& d) { d["split_xxh64"] = "0123456789abcdefzz"; }), true,
          "16 hex digits");
  refused(with([](nlohmann::json& d) { d["records"][0]["counts"]["levels"][0] = -5; }), true,
          "negative");
  refused(with([](nlohmann::json& d) { d["subtree_target"] = -1; }), true, "negative");
  refused(with([](nlohmann::json& d) {
            d["records"][0]["first"] = 1;
            d["records"][0]["counts"]["subtrees"] = ~uint64_t{0};  // 1 + it wraps to 0
          }),
          true, "past its block");
  // Two records, the second starting inside the first; and two in the
  // wrong order.
  const auto split = [](nlohmann::json& d, uint32_t second_first) {
    nlohmann::json r = d["records"][0];
    r["first"] = second_first;
    r["counts"]["subtrees"] = 1;
    d["records"].push_back(r);
    d["records"][0]["counts"]["subtrees"] = r["counts"]["subtrees"].get<uint64_t>() + 1;
  };
  REQUIRE(summary.subtrees_total >= 3);
  refused(with([&](nlohmann::json& d) {
            d["records"][0]["counts"]["subtrees"] = 2;
            split(d, 1);
          }),
          true, "overlap");
  refused(with([&](nlohmann::json& d) {
            split(d, 2);
            std::swap(d["records"][0], d["records"][1]);
          }),
          true, "out of order");
  refused(with([](nlohmann::json& d) { d["split_level"] = d["split_level"].get<int>() + 1; }), true,
          "not of this split");
  // Sealed documents whose split this build does not make.
  refused(with([](nlohmann::json& d) { d["split_xxh64"] = "0123456789abcdef"; }), false,
          "not the exported one");
  refused(with([](nlohmann::json& d) { d["subtree_target"] = 5000; }), false,
          "splits the count at level");
  // Stopped while building the split level.
  {
    std::atomic<bool> stop{true};
    const Status s = ImportCountProgress(good, dir, kBudget, 1, &stop, nullptr);
    INFO(s.ToString());
    CHECK(s.IsCancelled());
    CHECK(!std::filesystem::exists(dir));
    CHECK(!std::filesystem::exists(sibling));
  }

  // An empty directory is taken; a refusal leaves it as it was.
  std::filesystem::create_directory(dir);
  {
    const Status s =
        ImportCountProgress(with([](nlohmann::json& d) { d["split_xxh64"] = "0123456789abcdef"; }),
                            dir, kBudget, 1, nullptr, nullptr);
    CHECK(s.IsCorruption());
    CHECK(std::filesystem::is_directory(dir));
    CHECK(std::filesystem::is_empty(dir));
    CHECK(!std::filesystem::exists(sibling));
  }
  // What a killed import left beside it is cleared, not taken for the store.
  std::filesystem::create_directory(sibling);
  { std::ofstream(sibling + "/junk") << "left by a kill"; }
  ProgressSummary imported;
  REQUIRE(ImportCountProgress(good, dir, kBudget, 1, nullptr, &imported).ok());
  CHECK(imported.winning == 656);
  CHECK(!std::filesystem::exists(sibling));
  CHECK(Export(dir) == good);

  // An existing store, a non-empty directory and a file are never written.
  const std::string before = Export(dir);
  CHECK(ImportCountProgress(good, dir, kBudget, 1, nullptr, nullptr).IsInvalidArgument());
  CHECK(Export(dir) == before);
  { std::ofstream(target.path() + "/file") << "not a store"; }
  CHECK(ImportCountProgress(good, target.path(), kBudget, 1, nullptr, nullptr).IsInvalidArgument());
  CHECK(ImportCountProgress(good, target.path() + "/file", kBudget, 1, nullptr, nullptr)
            .IsInvalidArgument());
  // Missing parents are made, as `count --store` makes them (issue 51, B7).
  REQUIRE(ImportCountProgress(good, target.path() + "/no/such", kBudget, 1, nullptr, nullptr).ok());
  CHECK(Export(target.path() + "/no/such") == good);

  // A stored run has no progress to export.
  TempDir run;
  REQUIRE(CreateStore(run.path(), NewStoreParams(spec, Keep::kAll)).ok());
  auto store = OpenRW(run.path());
  std::string doc;
  CHECK(ExportCountProgress(store.get(), &doc, nullptr).IsInvalidArgument());
}

}  // namespace
}  // namespace eulerdeck::storage
