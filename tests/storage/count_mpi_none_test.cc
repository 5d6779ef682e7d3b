// The build without MPI (-DEULERDECK_MPI=OFF) differs from the MPI build in
// one file, storage/count_mpi_none.cc, which stands in for count_mpi.cc. An
// MPI build (CI's) links it into this small program ahead of the storage
// library, so that it takes count_mpi.cc's place there, and checks that the
// count goes through it as through a world of one process: the same levels
// as the plain count, OEIS A007709(10) winning decks.
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "engine/eulerian/enumerate.h"
#include "storage/count/stored_count.h"
#include "storage/store/frontier_store.h"
#include "storage/transport/count_mpi.h"
#include "tests/support/temp_dir.h"

namespace eulerdeck::storage {
namespace {

TEST_CASE("count without MPI: a world of one that counts like the plain count",
          "[count_mpi_none]") {
  CHECK_FALSE(MpiBuilt());
  int argc = 0;
  char** argv = nullptr;
  CHECK(MpiStart(&argc, &argv) == 0);
  CHECK(MpiWorldSize() == 1);
  CHECK(MpiLocalRank() == 0);
  CHECK(MpiServe(nullptr).ok());
  // count --gpu: a world of one agrees with its own device, as it opened.
  std::vector<std::string> lines;
  CHECK(MpiOpenDevices(Status::OK(), "device 0 of 1: X", &lines).ok());
  CHECK(lines == std::vector<std::string>{"device 0 of 1: X"});
  const Status none = MpiOpenDevices(Status::NotSupported("--gpu: no GPU found"), "", &lines);
  CHECK(none.IsNotSupported());
  CHECK(none.message() == "--gpu: no GPU found");
  CHECK(lines.empty());
  const GameSpec spec{Game::kMousetrap, 10, 1};
  CountResult plain;
  REQUIRE(Count(spec, CountOptions{}, &plain).ok());
  testing::TempDir dir("eulerdeck-count-mpi-none");
  std::unique_ptr<FrontierStore> store;
  REQUIRE(FrontierStore::Open(dir.path(), FrontierStore::Mode::kReadWrite, 64u << 20, &store).ok());
  CountStoreOptions options;
  options.threads = 2;
  options.subtree_target = 500;
  CountResult result;
  REQUIRE(CountStoreMpi(store.get(), spec, options, &result).ok());
  CHECK(result.level == plain.level);
  CHECK(result.level.back() == 65503);
  MpiFinish(0);
}

}  // namespace
}  // namespace eulerdeck::storage
