// The child rule's interface (engine/eulerian/children.h) and the level
// expansion (engine/eulerian/expand.h): ForEachChild(), IsValidChild() and
// CountLastChildren() agree on every sub-deck of small trees, AvailableValues
// kept with Take()/Give() equals one built from the sub-deck, and
// LevelExpander yields each level in key order, the same whatever its
// chunking, with the sizes Count() finds. That the rule itself is right is
// checked against brute force in count_test.cc.
#include "engine/eulerian/children.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <vector>

#include "engine/eulerian/enumerate.h"
#include "engine/eulerian/expand.h"
#include "engine/eulerian/path.h"

namespace eulerdeck {
namespace {

const GameSpec kSpecs[] = {
    {Game::kMousetrap, 7, 1}, {Game::kMousetrap, 3, 3}, {Game::kModular, 7, 1},
    {Game::kModular, 3, 2},   {Game::kHlm, 8, 2},       {Game::kHlm, 3, 4},
};

// Every level of the tree of `spec`, each as flattened paths in key order,
// expanded `chunk` entries at a time.
std::vector<std::vector<uint16_t>> Levels(const ChildRule& rule, size_t chunk) {
  const int n = rule.spec().cards();
  std::vector<std::vector<uint16_t>> levels(1);
  for (Card c : rule.Roots()) levels[0].push_back(c);
  LevelExpander expander(rule);
  for (int k = 1; k < n; ++k) {
    const std::vector<uint16_t>& in = levels.back();
    std::vector<uint16_t> next, out;
    size_t calls = 0;
    expander.Expand(in.data(), in.size() / k, k, chunk, &out, [&] {
      ++calls;
      REQUIRE(out.size() == chunk * (k + 1));
      next.insert(next.end(), out.begin(), out.end());
      out.clear();
    });
    CHECK(out.size() < chunk * (k + 1));
    next.insert(next.end(), out.begin(), out.end());
    CHECK(calls == next.size() / (k + 1) / chunk);
    levels.push_back(std::move(next));
  }
  return levels;
}

TEST_CASE("children: LevelExpander gives sorted levels of Count()'s sizes, any chunking") {
  for (const GameSpec& spec : kSpecs) {
    INFO(GameName(spec.game) << " m=" << spec.ranks << " s=" << spec.suits);
    const ChildRule rule(spec);
    const auto levels = Levels(rule, 1000);
    CHECK(Levels(rule, 7) == levels);
    CountResult count;
    REQUIRE(Count(spec, CountOptions{}, &count).ok());
    for (int k = 1; k <= spec.cards(); ++k) {
      const std::vector<uint16_t>& level = levels[k - 1];
      CHECK(level.size() / k == count.level[k]);
      for (size_t i = k; i < level.size(); i += k) {
        CHECK(std::lexicographical_compare(level.begin() + (i - k), level.begin() + i,
                                           level.begin() + i, level.begin() + (i + k)));
      }
    }
  }
}

TEST_CASE("children: ForEachChild yields exactly the counts IsValidChild accepts") {
  for (const GameSpec& spec : kSpecs) {
    INFO(GameName(spec.game) << " m=" << spec.ranks << " s=" << spec.suits);
    const ChildRule rule(spec);
    const auto levels = Levels(rule, 1000);
    PathDecoder decoder(spec);
    for (int k = 1; k < spec.cards(); ++k) {
      const std::vector<uint16_t>& level = levels[k - 1];
      for (size_t i = 0; i < level.size(); i += k) {
        const Card* deck = decoder.Decode(&level[i], k);
        std::set<uint32_t> yielded;
        rule.ForEachChild(deck, k, [&](uint32_t t, Card x) {
          CHECK(x == CalledValue(spec, t));
          yielded.insert(t);
        });
        std::set<uint32_t> accepted;
        for (uint32_t t = 0; t <= rule.Limit(k) + spec.ranks + 1; ++t) {
          if (rule.IsValidChild(deck, k, t)) accepted.insert(t);
        }
        CHECK(yielded == accepted);
        // The incremental form the in-memory count uses agrees too.
        ChildCounts valid;
        rule.ValidCounts(deck, k, &valid);
        AvailableValues avail(spec);
        for (int j = 0; j < k; ++j) avail.Take(deck[j]);
        std::set<uint32_t> incremental;
        rule.ForEachChild(valid, avail, [&](uint32_t t, Card) { incremental.insert(t); });
        CHECK(incremental == yielded);
        if (k == spec.cards() - 1) {  // one card missing
          CHECK(rule.CountLastChildren(valid, avail) == yielded.size());
        }
      }
    }
  }
}

TEST_CASE("children: AvailableValues kept with Take/Give equals one built from the deck") {
  const GameSpec spec{Game::kHlm, 5, 3};
  const Card deck[] = {2, 5, 2, 1, 2, 5, 3};
  AvailableValues kept(spec);
  for (int k = 0; k <= 7; ++k) {
    INFO("k=" << k);
    const AvailableValues built(spec, deck, k);
    for (int w = 0; w < AvailableValues::kWords; ++w) CHECK(kept.bits()[w] == built.bits()[w]);
    for (Card v = 1; v <= 5; ++v) {
      CHECK(built.Has(v) == (std::count(deck, deck + k, v) < spec.suits));
    }
    if (k < 7) kept.Take(deck[k]);
  }
  // All three 2s taken: 2 is gone; the missing cards are counted per copy.
  CHECK_FALSE(kept.Has(2));
  Card missing[3];
  kept.Missing(3, missing);
  CHECK(missing[0] == 1);
  CHECK(missing[1] == 1);
  CHECK(missing[2] == 3);
  CHECK(kept.LowestAbove(1) == 3);
  kept.Give(2);
  CHECK(kept.Has(2));
  CHECK(kept.LowestAbove(1) == 2);
}

}  // namespace
}  // namespace eulerdeck
