// The GPU worker's walk (engine/gpu/) on the host: the host stand-in runs the
// kernel body (batch_walk.h) with the same instantiations of the stack walk
// as the CUDA plugin, behind the same C interface, so these tests check on
// any machine everything the device does but the launch. Sources: Count()
// (engine/eulerian/enumerate.h, itself checked against brute force and the
// published values in tests/eulerian/count_test.cc) level by level, and the
// published counts (tests/support/published.h: OEIS A007709, Bersani 2010
// Tables 2, 4, 5).
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <memory>
#include <vector>

#include "engine/cards/combinatorics.h"
#include "engine/eulerian/children.h"
#include "engine/eulerian/enumerate.h"
#include "engine/eulerian/path.h"
#include "engine/eulerian/rule_core.h"
#include "engine/eulerian/subtrees.h"
#include "engine/gpu/batch_walk.h"
#include "engine/gpu/gpu_worker.h"
#include "tests/support/published.h"

namespace eulerdeck {
namespace {

CountResult CpuCount(const GameSpec& spec) {
  CountResult r;
  const Status s = Count(spec, CountOptions{}, &r);
  INFO(s.ToString());
  REQUIRE(s.ok());
  return r;
}

CountResult HostGpuCount(gpu::GpuWorker* worker, const GameSpec& spec) {
  CountResult r;
  const Status s = gpu::CountOnDevice(worker, spec, CountOptions{}, &r);
  INFO(s.ToString());
  REQUIRE(s.ok());
  return r;
}

// Every (game, m, s) with at most `max_decks` decks, as count_test.cc.
std::vector<GameSpec> SmallSpecs(uint64_t max_decks) {
  std::vector<GameSpec> specs;
  for (Game g : {Game::kMousetrap, Game::kModular, Game::kHlm}) {
    for (int s = 1; s <= 16; ++s) {
      for (int m = (g == Game::kHlm ? 2 : 1); m * s <= 64; ++m) {
        const GameSpec spec{g, m, s};
        const auto total = TotalDecks64(spec);
        if (!total || *total > max_decks) break;
        specs.push_back(spec);
      }
    }
  }
  return specs;
}

std::unique_ptr<gpu::GpuWorker> Host(int threads, uint64_t split_target) {
  std::unique_ptr<gpu::GpuWorker> worker;
  REQUIRE(gpu::GpuWorker::OpenHost(threads, &worker).ok());
  worker->set_split_target(split_target);
  return worker;
}

int KindOf(const GameSpec& spec) {
  const ChildRule rule(spec);
  return gpu::KindOf(rule.core());
}

TEST_CASE("gpu walk (host): equals Count() level by level for every small game and suit") {
  const std::vector<GameSpec> specs = SmallSpecs(20'000'000);
  REQUIRE(specs.size() > 60);
  // Splits of none (the roots as they are) and of many: the same counts.
  auto none = Host(3, 1), many = Host(3, 5000);
  for (const GameSpec& spec : specs) {
    INFO(GameName(spec.game) << " m=" << spec.ranks << " s=" << spec.suits);
    const CountResult cpu = CpuCount(spec);
    for (gpu::GpuWorker* worker : {none.get(), many.get()}) {
      const CountResult gpu = HostGpuCount(worker, spec);
      CHECK(gpu.level == cpu.level);
      CHECK(gpu.nodes == cpu.nodes);
    }
  }
}

TEST_CASE("gpu walk (host): reproduces the published counts (fast entries)") {
  auto worker = Host(0, 4096);
  int checked = 0;
  for (const Published& p : PublishedCounts()) {
    if (p.seconds > 2.0) continue;  // the rest: the device check (scripts/gpu_check.sh)
    INFO(p.source << ": " << GameName(p.game) << " m=" << p.ranks << " s=" << p.suits);
    const GameSpec spec{p.game, p.ranks, p.suits};
    const CountResult gpu = HostGpuCount(worker.get(), spec);
    CHECK(gpu.winning() == p.winning);
    CHECK(gpu.level == CpuCount(spec).level);
    ++checked;
  }
  CHECK(checked > 10);
}

TEST_CASE("gpu walk (host): every instantiation the plugin compiles is exercised") {
  // kNarrowSmall: one word of counts, h below 64; kNarrowLarge: ranks +
  // cards >= 64; kWideSmall/kWideLarge: modular limits past 63 (lcm). The
  // large ones are decks of one value, whose trees are small.
  const struct {
    GameSpec spec;
    int kind;
  } cases[] = {
      {{Game::kMousetrap, 9, 1}, gpu::kNarrowSmall},
      {{Game::kHlm, 6, 3}, gpu::kNarrowSmall},
      {{Game::kMousetrap, 1, 63}, gpu::kNarrowLarge},
      {{Game::kMousetrap, 1, 40}, gpu::kNarrowSmall},
      {{Game::kModular, 1, 64}, gpu::kWideLarge},
      {{Game::kModular, 9, 1}, gpu::kWideSmall},
      {{Game::kModular, 10, 1}, gpu::kWideSmall},
      {{Game::kModular, 4, 3}, gpu::kNarrowSmall},
      {{Game::kModular, 6, 2}, gpu::kWideSmall},
  };
  auto worker = Host(2, 64);
  for (const auto& c : cases) {
    INFO(GameName(c.spec.game) << " m=" << c.spec.ranks << " s=" << c.spec.suits);
    CHECK(KindOf(c.spec) == c.kind);
    CHECK(HostGpuCount(worker.get(), c.spec).level == CpuCount(c.spec).level);
  }
}

TEST_CASE("gpu walk (host): a batch of stored subtrees equals CountSubtrees()") {
  // The resumable count's unit of work (subtrees.h): the same level counts,
  // subtree sizes and number of subtrees, whatever the split.
  for (const GameSpec& spec : {GameSpec{Game::kMousetrap, 10, 1}, GameSpec{Game::kHlm, 5, 3},
                               GameSpec{Game::kModular, 9, 1}}) {
    INFO(GameName(spec.game) << " m=" << spec.ranks << " s=" << spec.suits);
    const ChildRule rule(spec);
    // The paths of level 4, built breadth first.
    const int k = 4;
    std::vector<std::vector<uint16_t>> paths;
    for (Card root : rule.Roots()) paths.push_back({static_cast<uint16_t>(root)});
    for (int level = 1; level < k; ++level) {
      std::vector<std::vector<uint16_t>> next;
      PathDecoder decoder(spec);
      for (const auto& path : paths) {
        Card node[kNodeBytes] = {};
        const Card* d = decoder.Decode(path.data(), level);
        std::copy(d, d + level, node);
        rule.ForEachChild(node, level, [&](uint32_t t, Card) {
          next.push_back(path);
          next.back().push_back(static_cast<uint16_t>(t));
        });
      }
      paths = std::move(next);
    }
    std::vector<uint16_t> flat;
    for (const auto& path : paths) flat.insert(flat.end(), path.begin(), path.end());
    SubtreeCounts cpu;
    REQUIRE(CountSubtrees(spec, flat.data(), paths.size(), k, 1, nullptr, nullptr, &cpu).ok());
    for (uint64_t target : {uint64_t{1}, uint64_t{1000}}) {
      auto worker = Host(2, target);
      SubtreeCounts gpu;
      std::atomic<uint64_t> counted{0};
      REQUIRE(worker->CountBatch(spec, flat.data(), paths.size(), k, nullptr, &counted, &gpu).ok());
      CHECK(gpu.level == cpu.level);
      CHECK(gpu.sizes == cpu.sizes);
      CHECK(gpu.subtrees == cpu.subtrees);
      uint64_t total = 0;
      for (uint64_t c : cpu.level) total += c;
      CHECK(counted.load() == total);
    }
  }
}

TEST_CASE("gpu walk (host): a raised stop flag cancels the batch") {
  auto worker = Host(2, 64);
  std::atomic<bool> stop{true};
  CountOptions options;
  options.stop = &stop;
  CountResult r;
  CHECK(gpu::CountOnDevice(worker.get(), GameSpec{Game::kMousetrap, 11, 1}, options, &r)
            .IsCancelled());
}

TEST_CASE("gpu worker: the host stand-in opens for any local rank, and counts the same") {
  // Under mpirun each rank opens the device of its local rank (modulo the
  // devices): the host stand-in has one, every core, whatever the rank.
  ::setenv(gpu::kPluginEnv, "host", 1);
  std::unique_ptr<gpu::GpuWorker> worker;
  const Status s = gpu::GpuWorker::Open(3, &worker);
  ::unsetenv(gpu::kPluginEnv);
  REQUIRE(s.ok());
  CHECK(worker->plugin_path().empty());
  CHECK(worker->description().rfind("the host stand-in of the GPU walk", 0) == 0);
  const GameSpec spec{Game::kMousetrap, 9, 1};
  CountResult r;
  REQUIRE(gpu::CountOnDevice(worker.get(), spec, CountOptions{}, &r).ok());
  CHECK(r.level.back() == 9978);  // OEIS A007709(9)
}

TEST_CASE("gpu worker: no plugin is one clear NotSupported") {
  ::setenv(gpu::kPluginEnv, "/nonexistent/libeulerdeck_gpu.so", 1);
  std::unique_ptr<gpu::GpuWorker> worker;
  const Status s = gpu::GpuWorker::Open(&worker);
  ::unsetenv(gpu::kPluginEnv);
  CHECK(s.IsNotSupported());
  CHECK(s.message().find("no GPU plugin") != std::string::npos);
}

}  // namespace
}  // namespace eulerdeck
