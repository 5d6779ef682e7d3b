// OpenRW: a store opened for writing with a small memory budget, or the test
// stops there with RocksDB's reason. Shared by the store tests.
#ifndef EULERDECK_TESTS_SUPPORT_OPEN_STORE_H_
#define EULERDECK_TESTS_SUPPORT_OPEN_STORE_H_

#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "storage/store/frontier_store.h"

namespace eulerdeck::testing {

// The memory budget of the stores the tests open (caches, a level's build).
inline constexpr uint64_t kStoreBudget = 64ull << 20;

inline std::unique_ptr<storage::FrontierStore> OpenRW(const std::string& dir) {
  std::unique_ptr<storage::FrontierStore> store;
  const Status s = storage::FrontierStore::Open(dir, storage::FrontierStore::Mode::kReadWrite,
                                                kStoreBudget, &store);
  INFO(s.ToString());
  REQUIRE(s.ok());
  return store;
}

}  // namespace eulerdeck::testing

#endif  // EULERDECK_TESTS_SUPPORT_OPEN_STORE_H_
