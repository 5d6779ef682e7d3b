// The last levels counted below one sub-deck (engine/eulerian/last_levels.h)
// two ways, by bits and through views, against a third that builds every
// descendant with ChildRule::ForEachChild() (children.h, itself checked
// against brute force in children_test.cc). Sub-decks: every one of the
// level counted from (or an even sample of it) for small games of all three
// kinds and 1 to 4 suits, and random ones of large games, where the bits do
// not fit a word (ranks + cards >= 64) and only the views count.
#include "engine/eulerian/last_levels.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <vector>

#include "engine/eulerian/children.h"
#include "engine/eulerian/rule_core.h"

namespace eulerdeck {
namespace {

using Node = std::vector<Card>;

// Adds to level[] the descendants of `node` (k cards), every one built.
void CountBuilt(const ChildRule& rule, const Node& node, std::vector<uint64_t>* level) {
  const int k = static_cast<int>(node.size());
  if (k == rule.spec().cards()) return;
  Card child[kNodeBytes] = {};
  Card parent[kNodeBytes] = {};
  std::copy(node.begin(), node.end(), parent);
  rule.ForEachChild(parent, k, [&](uint32_t t, Card x) {
    MakeChild(parent, k, t, x, child);
    ++(*level)[k + 1];
    CountBuilt(rule, Node(child, child + k + 1), level);
  });
}

// Checks the three counts below `node`; returns whether bits were used.
bool CheckNode(const ChildRule& rule, const Node& node) {
  const int n = rule.spec().cards(), k = static_cast<int>(node.size());
  internal::LastLevels<internal::kHitTableSize> bits, views;
  bits.Init(rule.core(), /*build_leaves=*/false);
  views.Init(rule.core(), /*build_leaves=*/false);
  views.ForceViews();
  REQUIRE(k + bits.fused_levels() == n);
  const AvailableValues avail(rule.spec(), node.data(), k);
  std::vector<uint64_t> by_bits(n + 1, 0), by_views(n + 1, 0), built(n + 1, 0);
  Card buf[kNodeBytes] = {};
  std::copy(node.begin(), node.end(), buf);
  bits.Count(buf, k, avail, by_bits.data());
  views.Count(buf, k, avail, by_views.data());
  CountBuilt(rule, node, &built);
  INFO(rule.spec().ranks << " ranks x " << rule.spec().suits << " suits, k = " << k);
  REQUIRE(by_bits == built);
  REQUIRE(by_views == built);
  return bits.uses_bits();
}

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

TEST_CASE("last levels: bits and views equal the built descendants, every small game",
          "[last_levels]") {
  int specs = 0;
  for (Game g : {Game::kMousetrap, Game::kModular, Game::kHlm}) {
    for (int s = 1; s <= 4; ++s) {
      for (int m = 2; m * s <= 12; ++m) {
        const GameSpec spec{g, m, s};
        const ChildRule rule(spec);
        internal::LastLevels<internal::kHitTableSize> probe;
        probe.Init(rule.core(), false);
        if (probe.fused_levels() == 0) continue;
        const std::vector<Node> level = Level(rule, spec.cards() - probe.fused_levels());
        const size_t step = level.size() / 3000 + 1;  // at most about 3000 each
        for (size_t i = 0; i < level.size(); i += step) REQUIRE(CheckNode(rule, level[i]));
        ++specs;
      }
    }
  }
  CHECK(specs >= 40);
}

// A random winning sub-deck of k cards: random children from a random root,
// started again where a path ends early.
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

TEST_CASE("last levels: views alone where the bits do not fit a word", "[last_levels]") {
  std::mt19937_64 rng(50);
  for (const GameSpec& spec : {GameSpec{Game::kMousetrap, 40, 1}, GameSpec{Game::kHlm, 22, 2},
                               GameSpec{Game::kMousetrap, 9, 6}, GameSpec{Game::kHlm, 16, 3},
                               GameSpec{Game::kMousetrap, 20, 1}}) {
    const ChildRule rule(spec);
    internal::LastLevels<internal::kHitTableSize> probe;
    probe.Init(rule.core(), false);
    REQUIRE(probe.fused_levels() > 0);
    INFO(spec.ranks << " x " << spec.suits);
    CHECK(probe.uses_bits() == (spec.ranks + spec.cards() < 64));
    for (int i = 0; i < 300; ++i) {
      CheckNode(rule, RandomNode(rule, spec.cards() - probe.fused_levels(), &rng));
    }
  }
}

}  // namespace
}  // namespace eulerdeck
