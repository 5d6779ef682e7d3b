// The GPU's warp machine (engine/gpu/warp_walk.h) on the host's warp
// (host_warp.h: its lanes run phase by phase), piece by piece against the
// CPU's code: the register deck (reg_deck.h) against MakeChild() /
// UnmakeChild() / ValidCounts() (rule_core.h), the closed-form bottom
// against LastLevels::Count() (last_levels.h, itself checked against the
// built descendants in last_levels_test.cc), and the whole walk against
// Count() (enumerate.h) level by level and against the stack walk root by
// root, with warps of 1 to 32 lanes and rings of 1 and 64 jobs.
#include "engine/gpu/warp_walk.h"

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <random>
#include <vector>

#include "engine/cards/combinatorics.h"
#include "engine/eulerian/children.h"
#include "engine/eulerian/enumerate.h"
#include "engine/eulerian/last_levels.h"
#include "engine/eulerian/rule_core.h"
#include "engine/eulerian/stack_walk.h"
#include "engine/gpu/gpu_worker.h"
#include "engine/gpu/host_device.h"
#include "engine/gpu/host_warp.h"
#include "engine/gpu/reg_deck.h"
#include "tests/support/published.h"

namespace eulerdeck {
namespace {

using Node = std::vector<Card>;

// The winning sub-decks of k cards, breadth first from the roots.
std::vector<Node> Level(const ChildRule& rule, int k) {
  std::vector<Node> cur;
  for (Card r : rule.Roots()) cur.push_back(Node{r});
  for (int j = 1; j < k; ++j) {
    std::vector<Node> next;
    for (const Node& d : cur) {
      Card child[kNodeBytes] = {};
      Card parent[kNodeBytes] = {};
      std::copy(d.begin(), d.end(), parent);
      rule.ForEachChild(parent, j, [&](uint32_t t, Card x) {
        MakeChild(parent, j, t, x, child);
        next.emplace_back(child, child + j + 1);
      });
    }
    cur.swap(next);
  }
  return cur;
}

// A random winning sub-deck of k cards (random children from a random
// root, started again where a path ends early).
Node RandomNode(const ChildRule& rule, int k, std::mt19937_64* rng) {
  for (;;) {
    const std::vector<Card> roots = rule.Roots();
    Node d{roots[(*rng)() % roots.size()]};
    while (static_cast<int>(d.size()) < k) {
      std::vector<Node> kids;
      Card child[kNodeBytes] = {};
      Card parent[kNodeBytes] = {};
      std::copy(d.begin(), d.end(), parent);
      const int j = static_cast<int>(d.size());
      rule.ForEachChild(parent, j, [&](uint32_t t, Card x) {
        MakeChild(parent, j, t, x, child);
        kids.emplace_back(child, child + j + 1);
      });
      if (kids.empty()) break;
      d = kids[(*rng)() % kids.size()];
    }
    if (static_cast<int>(d.size()) == k) return d;
  }
}

// The three lowest missing cards of `node`, as Bottom() takes them.
uint32_t Missing3(const ChildRule& rule, const Node& node) {
  const AvailableValues avail(rule.spec(), node.data(), static_cast<int>(node.size()));
  Card miss[3];
  avail.Missing(3, miss);
  return miss[0] | (miss[1] << 8) | (miss[2] << 16);
}

// Checks Bottom() (and the lane's own missing cards) below `node` (cards -
// 3 cards) against LastLevels::Count() (`last`, initialized for the rule).
template <int kWords>
void CheckBottom(const ChildRule& rule, const gpu::WarpRule& warp_rule,
                 internal::LastLevels<internal::kHitTableSize>& last, const Node& node) {
  const int K = static_cast<int>(node.size());
  REQUIRE(K == rule.spec().cards() - 3);
  REQUIRE(last.fused_levels() == 3);
  const AvailableValues avail(rule.spec(), node.data(), K);
  uint64_t expected[kMaxEnumCards + 1] = {};
  Card buf[kNodeBytes] = {};
  std::copy(node.begin(), node.end(), buf);
  last.Count(buf, K, avail, expected);
  const auto deck = gpu::RegDeck<kWords>::FromCards(node.data(), K);
  gpu::Held held = gpu::Held::None(warp_rule);
  for (Card c : node) held.Take(c);
  const uint32_t miss = held.Missing3(warp_rule);
  uint32_t got[3];
  gpu::Bottom(deck, K, miss, warp_rule, got);
  if (miss != Missing3(rule, node) || got[0] != expected[K + 1] || got[1] != expected[K + 2] ||
      got[2] != expected[K + 3]) {
    INFO(rule.spec().ranks << " ranks x " << rule.spec().suits << " suits, K = " << K);
    REQUIRE(miss == Missing3(rule, node));
    REQUIRE(got[0] == expected[K + 1]);
    REQUIRE(got[1] == expected[K + 2]);
    REQUIRE(got[2] == expected[K + 3]);
  }
}

// The games of every kind with 1-4 suits and at most 12 cards that the warp
// machine takes, and which kinds they are.
TEST_CASE("warp walk: the bottom equals LastLevels::Count on every level-(n-3) sub-deck",
          "[warp_walk]") {
  int specs = 0;
  uint64_t nodes = 0;
  bool kinds[3] = {};
  for (Game g : {Game::kMousetrap, Game::kModular, Game::kHlm}) {
    for (int s = 1; s <= 4; ++s) {
      for (int m = 2; m * s <= 12; ++m) {
        const GameSpec spec{g, m, s};
        const ChildRule rule(spec);
        if (gpu::WarpWords(rule.core(), 1) == 0) continue;
        INFO(GameName(g) << " m=" << m << " s=" << s);
        gpu::WarpRule warp_rule;
        gpu::BuildWarpRule(rule.core(), &warp_rule);
        internal::LastLevels<internal::kHitTableSize> last;
        last.Init(rule.core(), /*build_leaves=*/false);
        for (const Node& node : Level(rule, spec.cards() - 3)) {  // both deck widths in turn
          if (nodes++ % 2 == 0) {
            CheckBottom<gpu::kWarpSmallWords>(rule, warp_rule, last, node);
          } else {
            CheckBottom<gpu::kWarpLargeWords>(rule, warp_rule, last, node);
          }
        }
        ++specs;
        kinds[static_cast<int>(g == Game::kMousetrap ? 0 : g == Game::kHlm ? 1 : 2)] = true;
      }
    }
  }
  // Mousetrap m=5..12 (s=1), 3..6 (s=2), 2..4 (s=3), 2..3 (s=4); hlm alike
  // from m=2; modular never (its limits pass the ranks: the stack walk).
  CHECK(specs >= 30);
  CHECK(kinds[0]);
  CHECK(kinds[1]);
  CHECK_FALSE(kinds[2]);
  CHECK(nodes > 100000);
}

TEST_CASE("warp walk: the bottom on random sub-decks of mousetrap 18 and hlm s=2 m=17",
          "[warp_walk]") {
  std::mt19937_64 rng(56);
  for (const GameSpec& spec : {GameSpec{Game::kMousetrap, 18, 1}, GameSpec{Game::kHlm, 17, 2},
                               GameSpec{Game::kMousetrap, 10, 2}, GameSpec{Game::kHlm, 7, 4}}) {
    const ChildRule rule(spec);
    const int words = gpu::WarpWords(rule.core(), 7);
    INFO(GameName(spec.game) << " m=" << spec.ranks << " s=" << spec.suits);
    REQUIRE(words > 0);
    gpu::WarpRule warp_rule;
    gpu::BuildWarpRule(rule.core(), &warp_rule);
    internal::LastLevels<internal::kHitTableSize> last;
    last.Init(rule.core(), /*build_leaves=*/false);
    for (int i = 0; i < 400; ++i) {
      const Node node = RandomNode(rule, spec.cards() - 3, &rng);
      if (words == gpu::kWarpSmallWords) {
        CheckBottom<gpu::kWarpSmallWords>(rule, warp_rule, last, node);
      }
      CheckBottom<gpu::kWarpLargeWords>(rule, warp_rule, last, node);
    }
  }
  CHECK(gpu::WarpWords(ChildRule(GameSpec{Game::kMousetrap, 18, 1}).core(), 7) ==
        gpu::kWarpSmallWords);
  CHECK(gpu::WarpWords(ChildRule(GameSpec{Game::kHlm, 17, 2}).core(), 20) == gpu::kWarpLargeWords);
}

// MakeChild/UnmakeChild on the reversed, packed deck against rule_core.h's.
template <int kWords>
void CheckDeckOps(std::mt19937_64* rng) {
  using Deck = gpu::RegDeck<kWords>;
  for (int trial = 0; trial < 20000; ++trial) {
    const int k = 1 + static_cast<int>((*rng)() % (Deck::kBytes - 1));  // k + 1 <= kBytes
    Card parent[kNodeBytes] = {}, child[kNodeBytes] = {}, back[kNodeBytes] = {};
    for (int i = 0; i < k; ++i) parent[i] = static_cast<Card>(1 + (*rng)() % 31);
    const uint32_t t = 1 + static_cast<uint32_t>((*rng)() % 40);
    const Card x = static_cast<Card>(1 + (*rng)() % 31);
    MakeChild(parent, k, t, x, child);
    const Deck d = Deck::FromCards(parent, k);
    const Deck c = d.Child(k, t, x);
    Card got[kNodeBytes] = {};
    c.ToCards(k + 1, got);
    INFO("k = " << k << ", t = " << t);
    REQUIRE(std::equal(child, child + k + 1, got));
    // Bytes past the sub-deck stay zero.
    for (int j = k + 1; j < Deck::kBytes; ++j) REQUIRE(c.Byte(j) == 0);
    const int q = RemovalSlot(k, t);
    UnmakeChild(child, k, q, back);
    uint32_t removed = 0;
    const Deck p = c.Parent(k, q, &removed);
    REQUIRE(removed == x);
    for (int i = 0; i < kWords; ++i) REQUIRE(p.w[i] == d.w[i]);
    Card up[kNodeBytes] = {};
    p.ToCards(k, up);
    REQUIRE(std::equal(back, back + k, up));
  }
}

TEST_CASE("warp walk: the register deck's operations equal MakeChild and UnmakeChild",
          "[warp_walk]") {
  std::mt19937_64 rng(5600);
  CheckDeckOps<gpu::kWarpSmallWords>(&rng);
  CheckDeckOps<gpu::kWarpLargeWords>(&rng);
  CheckDeckOps<2>(&rng);
}

TEST_CASE("warp walk: a lane's children mask equals ForEachChild", "[warp_walk]") {
  // Conditions (1)-(3) in registers (ValidMask, Held::Available) against
  // ChildRule's, on every sub-deck of the first levels of a few games.
  std::mt19937_64 rng(7);
  for (const GameSpec& spec : {GameSpec{Game::kMousetrap, 9, 1}, GameSpec{Game::kHlm, 5, 3},
                               GameSpec{Game::kMousetrap, 4, 4}, GameSpec{Game::kHlm, 17, 2}}) {
    const ChildRule rule(spec);
    gpu::WarpRule warp_rule;
    gpu::BuildWarpRule(rule.core(), &warp_rule);
    const int n = spec.cards();
    for (int i = 0; i < 3000; ++i) {
      const int k = 1 + static_cast<int>(rng() % (n - 1));
      const Node node = RandomNode(rule, k, &rng);
      Card buf[kNodeBytes] = {};
      std::copy(node.begin(), node.end(), buf);
      uint32_t expected = 0;
      rule.ForEachChild(buf, k, [&](uint32_t t, Card x) {
        REQUIRE(x == t);
        expected |= 1u << t;
      });
      gpu::Held held = gpu::Held::None(warp_rule);
      for (Card c : node) held.Take(c);
      const auto deck = gpu::RegDeck<gpu::kWarpLargeWords>::FromCards(node.data(), k);
      INFO(GameName(spec.game) << " m=" << spec.ranks << " s=" << spec.suits << " k=" << k);
      REQUIRE((gpu::ValidMask(deck, k, warp_rule) & held.Available(warp_rule)) == expected);
      // Give() undoes Take().
      if (k > 1) {
        gpu::Held less = held;
        less.Give(node[0]);
        gpu::Held again = gpu::Held::None(warp_rule);
        for (int j = 1; j < k; ++j) again.Take(node[j]);
        for (int j = 0; j < gpu::kWarpMaxSuits; ++j) REQUIRE(less.b[j] == again.b[j]);
      }
    }
  }
}

CountResult CpuCount(const GameSpec& spec) {
  CountResult r;
  const Status s = Count(spec, CountOptions{}, &r);
  INFO(s.ToString());
  REQUIRE(s.ok());
  return r;
}

std::unique_ptr<gpu::GpuWorker> Host(int threads, uint64_t split_target, int lanes, int ring,
                                     int stop_after_polls = 0,
                                     uint32_t poll_mask = gpu::kWarpPollMask) {
  std::unique_ptr<gpu::GpuWorker> worker;
  REQUIRE(gpu::GpuWorker::OpenHost(threads, &worker).ok());
  worker->set_split_target(split_target);
  gpu::HostWarpOptions options;
  options.lanes = lanes;
  options.ring_size = ring;
  options.stop_after_polls = stop_after_polls;
  options.poll_mask = poll_mask;
  worker->SetHostWarp(options);
  return worker;
}

TEST_CASE("warp walk: equals Count() level by level, warps of 1-32 lanes, rings of 1 and 64",
          "[warp_walk]") {
  // Every game the warp machine takes with at most 2 million decks (the
  // others go to the stack walk and are checked in gpu_walk_test.cc), with
  // splits to a few roots and to many.
  std::vector<GameSpec> specs;
  for (Game g : {Game::kMousetrap, Game::kHlm}) {
    for (int s = 1; s <= 4; ++s) {
      for (int m = 2; m * s <= 64; ++m) {
        const GameSpec spec{g, m, s};
        const auto total = TotalDecks64(spec);
        if (!total || *total > 2'000'000) break;
        if (gpu::WarpWords(ChildRule(spec).core(), 1) > 0) specs.push_back(spec);
      }
    }
  }
  REQUIRE(specs.size() >= 20);
  const struct {
    int lanes, ring;
    uint64_t split;
  } warps[] = {{32, 64, 1},  {32, 1, 3000},  {1, 64, 100}, {1, 1, 1},
               {7, 64, 500}, {32, 64, 5000}, {17, 3, 40},  {32, 31, 2000}};
  for (const GameSpec& spec : specs) {
    INFO(GameName(spec.game) << " m=" << spec.ranks << " s=" << spec.suits);
    const CountResult cpu = CpuCount(spec);
    for (const auto& w : warps) {
      INFO(w.lanes << " lanes, ring " << w.ring << ", split " << w.split);
      auto worker = Host(2, w.split, w.lanes, w.ring);
      CountResult got;
      REQUIRE(gpu::CountOnDevice(worker.get(), spec, CountOptions{}, &got).ok());
      CHECK(got.level == cpu.level);
    }
  }
}

TEST_CASE("warp walk: the published counts that run in half a second", "[warp_walk]") {
  // Each entry on one warp shape, the shapes taken in turn (the default
  // warp of 32 lanes and 64 jobs runs them all in gpu_walk_test.cc); the
  // rings of one job, which make the host count one job per step, on the
  // entries of no measurable time only.
  const struct { int lanes, ring; } shapes[] = {{5, 1}, {13, 64}, {32, 1}, {32, 17}};
  int checked = 0;
  for (const Published& p : PublishedCounts()) {
    if (p.seconds > 0.5) continue;  // the rest: gpu_walk_test.cc, on the default warp
    const GameSpec spec{p.game, p.ranks, p.suits};
    if (p.game == Game::kModular || spec.cards() < 5) continue;  // the stack walk's
    INFO(p.source << ": " << GameName(p.game) << " m=" << p.ranks << " s=" << p.suits);
    REQUIRE(gpu::WarpWords(ChildRule(spec).core(), 1) > 0);
    const auto& shape = shapes[checked % 4 + (p.seconds > 0 && checked % 2 == 0 ? 1 : 0)];
    auto worker = Host(2, 4096, shape.lanes, shape.ring);
    CountResult got;
    REQUIRE(gpu::CountOnDevice(worker.get(), spec, CountOptions{}, &got).ok());
    CHECK(got.winning() == p.winning);
    ++checked;
  }
  CHECK(checked >= 40);
}

// The sub-decks strictly below each root, by the stack walk.
std::vector<uint64_t> StackSizes(const ChildRule& rule, const std::vector<Node>& roots) {
  struct Hooks {
    bool Poll() { return false; }
    void Leaf(const Card*, const Card*) {}
  } hooks;
  const int n = rule.spec().cards();
  auto walk = std::make_unique<internal::StackWalk<1, internal::kHitTableSize>>();
  walk->Init(rule.core(), false);
  std::vector<uint64_t> sizes;
  for (const Node& root : roots) {
    std::vector<uint64_t> level(n + 1, 0);
    REQUIRE(
        walk->WalkFrom(root.data(), static_cast<int>(root.size()), level.data(), nullptr, hooks));
    uint64_t total = 0;
    for (uint64_t c : level) total += c;
    sizes.push_back(total);
  }
  return sizes;
}

TEST_CASE("warp walk: per-root sizes equal the stack walk's", "[warp_walk]") {
  for (const GameSpec& spec : {GameSpec{Game::kMousetrap, 10, 1}, GameSpec{Game::kHlm, 8, 2},
                               GameSpec{Game::kMousetrap, 5, 3}}) {
    INFO(GameName(spec.game) << " m=" << spec.ranks << " s=" << spec.suits);
    const ChildRule rule(spec);
    const int n = spec.cards();
    for (int k : {1, 3, n - 4}) {
      const std::vector<Node> roots = Level(rule, k);
      REQUIRE(gpu::WarpWords(rule.core(), k) > 0);
      const std::vector<uint64_t> expected = StackSizes(rule, roots);
      std::vector<Card> flat;
      for (const Node& r : roots) flat.insert(flat.end(), r.begin(), r.end());
      for (int lanes : {32, 3}) {
        std::vector<uint64_t> sizes(roots.size(), ~uint64_t{0}), level(n + 1, 0);
        EulerdeckGpuBatch batch;
        batch.rule_image = rule.image().data();
        batch.rule_words = rule.image().size();
        batch.roots = flat.data();
        batch.root_count = roots.size();
        batch.root_cards = k;
        batch.level = level.data();
        batch.sizes = sizes.data();
        batch.stop = nullptr;
        gpu::HostWarpOptions options;
        options.lanes = lanes;
        options.ring_size = lanes == 32 ? 64 : 2;
        char message[256] = {};
        REQUIRE(gpu::HostDeviceCount(&batch, 2, options, message, sizeof(message)) ==
                EULERDECK_GPU_OK);
        INFO("k = " << k << ", " << lanes << " lanes");
        CHECK(sizes == expected);
        uint64_t total = 0, below = 0;
        for (uint64_t c : level) total += c;
        for (uint64_t c : sizes) below += c;
        CHECK(total == below);
      }
    }
  }
}

TEST_CASE("warp walk: a stop cancels the batch, and the batch counted again is whole",
          "[warp_walk]") {
  // The resumable count counts an interrupted batch again (stored_count.h):
  // a batch stopped inside (the warps look every 2^8 iterations here, and
  // see the stop at their fifth look) and counted again gives the counts of
  // one never stopped.
  const GameSpec spec{Game::kMousetrap, 11, 1};
  const CountResult cpu = CpuCount(spec);
  {
    auto worker = Host(2, 64, 32, gpu::kWarpRing, /*stop_after_polls=*/5, /*poll_mask=*/255);
    CountResult r;
    CHECK(gpu::CountOnDevice(worker.get(), spec, CountOptions{}, &r).IsCancelled());
  }
  {  // the stop flag itself, raised before: seen at the first poll
    auto worker = Host(2, 64, 32, gpu::kWarpRing);
    std::atomic<bool> stop{true};
    CountOptions options;
    options.stop = &stop;
    CountResult r;
    CHECK(gpu::CountOnDevice(worker.get(), spec, options, &r).IsCancelled());
  }
  auto worker = Host(2, 64, 32, gpu::kWarpRing, 0, 255);
  CountResult again;
  REQUIRE(gpu::CountOnDevice(worker.get(), spec, CountOptions{}, &again).ok());
  CHECK(again.level == cpu.level);
}

TEST_CASE("warp walk: EULERDECK_GPU_KERNEL=old takes the stack walk, the same counts",
          "[warp_walk]") {
  const GameSpec spec{Game::kHlm, 10, 2};
  const CountResult cpu = CpuCount(spec);
  ::setenv(gpu::kKernelEnv, "old", 1);
  CHECK(gpu::OldKernelAsked());
  auto worker = Host(2, 1000, 32, gpu::kWarpRing);
  CountResult old_kernel;
  const Status s = gpu::CountOnDevice(worker.get(), spec, CountOptions{}, &old_kernel);
  ::unsetenv(gpu::kKernelEnv);
  CHECK_FALSE(gpu::OldKernelAsked());
  REQUIRE(s.ok());
  CHECK(old_kernel.level == cpu.level);
}

}  // namespace
}  // namespace eulerdeck
