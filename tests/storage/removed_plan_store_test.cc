// The count --removed store (storage/count/stored_removed.h) through its
// API: a store resumes only with the plan it was made with (another
// fingerprint, split or kind is refused with nothing written), and a store
// counted in two sessions, the first stopped, gives CountRemoved()'s rows,
// which for mousetrap n = 9 are OEIS A028305's published row 9.
#include <atomic>
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "engine/removal/removed.h"
#include "storage/count/stored_removed.h"
#include "storage/store/frontier_store.h"
#include "tests/support/temp_dir.h"

namespace eulerdeck::storage {
namespace {

class TempDir : public testing::TempDir {
 public:
  TempDir() : testing::TempDir("eulerdeck-removed-store") {}
};

constexpr uint64_t kBudget = 64ull << 20;
const GameSpec kSpec{Game::kMousetrap, 9, 1};
// OEIS A028305, row n = 9 (T(9, k), k = 0..9), as published.
const std::vector<uint64_t> kRow9 = {133496, 89162, 55340, 32135, 19026,
                                     12685,  6753,  4305,  0,     9978};

Status Count(const std::string& dir, int depth, const std::atomic<bool>* stop,
             RemovedResult* result) {
  std::unique_ptr<FrontierStore> store;
  Status s = FrontierStore::Open(dir, FrontierStore::Mode::kReadWrite, kBudget, &store);
  if (!s.ok()) return s;
  StoreParams params;
  bool exists = false;
  s = store->GetParams(&params, &exists);
  std::unique_ptr<RemovedPlan> plan;
  if (s.ok()) s = PlanForStore(kSpec, exists ? &params : nullptr, dir, depth, 0, &plan);
  RemovedStoreOptions options;
  options.threads = 2;
  options.checkpoint_seconds = 0;
  options.batch_seconds = 0.0001;
  options.stop = stop;
  if (s.ok()) s = RemovedStore(store.get(), *plan, options, result);
  return s;
}

TEST_CASE("removed store: stopped, then resumed, gives A028305's row", "[removed_store]") {
  TempDir tmp;
  const std::string dir = tmp.path() + "/store";
  const std::atomic<bool> stop{true};
  RemovedResult result;
  CHECK(Count(dir, 3, &stop, &result).IsCancelled());
  REQUIRE(Count(dir, 0, nullptr, &result).ok());
  CHECK(result.removed == kRow9);
  RemovedResult plain;
  REQUIRE(CountRemoved(kSpec, RemovedOptions{}, &plain).ok());
  CHECK(plain.removed == kRow9);
}

TEST_CASE("removed store: another plan, split or kind is refused, nothing written",
          "[removed_store]") {
  TempDir tmp;
  const std::string dir = tmp.path() + "/store";
  RemovedResult result;
  REQUIRE(Count(dir, 2, nullptr, &result).ok());
  CHECK(result.removed == kRow9);
  // Another split.
  CHECK(Count(dir, 3, nullptr, &result).IsInvalidArgument());
  // Another fingerprint (a build whose cut differs): the recorded plan altered.
  std::unique_ptr<FrontierStore> store;
  REQUIRE(FrontierStore::Open(dir, FrontierStore::Mode::kReadWrite, kBudget, &store).ok());
  StoreParams params;
  bool exists = false;
  REQUIRE(store->GetParams(&params, &exists).ok());
  RemovedPlanRecord plan;
  REQUIRE(DecodeRemovedPlan(params.plan, kSpec.cards(), &plan).ok());
  plan.fingerprint ^= 1;
  params.plan = EncodeRemovedPlan(plan);
  REQUIRE(store->PutParams(params).ok());
  std::vector<CountRecord> before;
  REQUIRE(store->GetCountRecords(&before).ok());
  std::unique_ptr<RemovedPlan> made;
  const Status s = PlanForStore(kSpec, &params, dir, 0, 0, &made);
  CHECK(s.IsInvalidArgument());
  CHECK(s.message().find("fingerprint") != std::string::npos);
  RemovedProgress progress;
  REQUIRE(ReadRemovedProgress(store.get(), &progress).ok());
  CHECK(progress.batches == before.size());
  // Another kind: a stored run's parameters are no count --removed.
  params.kind = StoreKind::kRun;
  CHECK(CheckRemovedParams(params, kSpec, dir).IsInvalidArgument());
  // Another game.
  params.kind = StoreKind::kRemoved;
  CHECK(CheckRemovedParams(params, GameSpec{Game::kModular, 9, 1}, dir).IsInvalidArgument());
}

}  // namespace
}  // namespace eulerdeck::storage
