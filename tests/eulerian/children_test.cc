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

// Condition (2) from its definition (children.h): t is blocked when
// t = h_i + a*ranks + b*(k+1) for some card i and a, b >= 0.
bool BlockedByDefinition(const GameSpec& spec, const Card* deck, int k, uint32_t t) {
  for (int i = 0; i < k; ++i) {
    const uint32_t h = deck[i] + static_cast<uint32_t>(k - i);
    for (uint32_t a = 0; h + a * spec.ranks <= t; ++a) {
      if ((t - h - a * spec.ranks) % static_cast<uint32_t>(k + 1) == 0) return true;
    }
  }
  return false;
}

// The wide form (counts past 63: modular's lcm limits, 64 ranks) builds the
// blocked set by closing the h_i under adding ranks and k+1; it must give
// the set of the definition on every sub-deck size, for sub-decks drawn at
// random (any multiset of values with at most `suits` copies each).
TEST_CASE("children: ValidCounts and ForEachChild of many words equal conditions (2), (3)") {
  const GameSpec specs[] = {{Game::kModular, 12, 1},   {Game::kModular, 20, 1},
                            {Game::kModular, 16, 4},   {Game::kModular, 64, 1},
                            {Game::kMousetrap, 64, 1}, {Game::kModular, 7, 9}};
  uint64_t state = 0x9e3779b97f4a7c15ull;
  auto next = [&](uint32_t bound) {  // splitmix64
    state += 0x9e3779b97f4a7c15ull;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return static_cast<uint32_t>((z ^ (z >> 31)) % bound);
  };
  int wide = 0;
  for (const GameSpec& spec : specs) {
    const ChildRule rule(spec);
    INFO(GameName(spec.game) << " m=" << spec.ranks << " s=" << spec.suits);
    for (int k = 1; k < spec.cards(); ++k) {
      for (int trial = 0; trial < 20; ++trial) {
        Card deck[kNodeBytes] = {};
        std::vector<int> held(spec.ranks + 1, 0);
        for (int i = 0; i < k; ++i) {
          Card v;
          do v = static_cast<Card>(1 + next(spec.ranks));
          while (held[v] == spec.suits);
          ++held[v];
          deck[i] = v;
        }
        ChildCounts valid;
        rule.ValidCounts(deck, k, &valid);
        wide += valid.words > 1;
        for (uint32_t t = 1; t <= valid.limit; ++t) {
          INFO("k=" << k << " t=" << t);
          REQUIRE(valid.Contains(t) == !BlockedByDefinition(spec, deck, k, t));
        }
        // Condition (3) added through the available values repeated every
        // `ranks` counts (many words: by doubling) equals testing each count.
        const AvailableValues avail(spec, deck, k);
        std::vector<uint32_t> masked, tested;
        rule.ForEachChild(valid, avail, [&](uint32_t t, Card) { masked.push_back(t); });
        rule.ForEachChild(deck, k, [&](uint32_t t, Card) { tested.push_back(t); });
        REQUIRE(masked == tested);
      }
    }
  }
  CHECK(wide > 1000);  // the wide form was exercised
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
