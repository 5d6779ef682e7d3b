// CountSubtrees (engine/eulerian/subtrees.h): the levels 1..d of the tree,
// built by the level expansion, plus the subtrees below every sub-deck of
// level d counted in batches, must give exactly Count()'s levels, for every
// split level d, every batching and thread count, in all three games.
#include "engine/eulerian/subtrees.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <vector>

#include "engine/cards/rules.h"
#include "engine/eulerian/children.h"
#include "engine/eulerian/enumerate.h"
#include "engine/eulerian/expand.h"
#include "tests/support/published.h"

namespace eulerdeck {
namespace {

// The paths of level d, in key order, by expanding level 1 d-1 times.
std::vector<uint16_t> LevelPaths(const GameSpec& spec, int d, std::vector<uint64_t>* sizes) {
  const ChildRule rule(spec);
  std::vector<uint16_t> paths;
  for (Card c : rule.Roots()) paths.push_back(c);
  sizes->assign(spec.cards() + 1, 0);
  (*sizes)[1] = paths.size();
  LevelExpander expander(rule);
  for (int k = 1; k < d; ++k) {
    std::vector<uint16_t> next;
    const size_t entries = paths.size() / k;
    expander.Expand(paths.data(), entries, k, entries * 64 + 64, &next, [] {});
    paths = std::move(next);
    (*sizes)[k + 1] = paths.size() / (k + 1);
  }
  return paths;
}

void CheckSplit(const GameSpec& spec, int d, size_t batch, int threads) {
  CountResult reference;
  REQUIRE(Count(spec, CountOptions(), &reference).ok());
  std::vector<uint64_t> level;
  const std::vector<uint16_t> paths = LevelPaths(spec, d, &level);
  const size_t entries = paths.size() / d;
  REQUIRE(level[d] == reference.level[d]);
  SubtreeCounts sum;
  sum.level.assign(spec.cards() + 1, 0);
  for (size_t first = 0; first < entries; first += batch) {
    const size_t count = std::min(batch, entries - first);
    SubtreeCounts part;
    REQUIRE(
        CountSubtrees(spec, paths.data() + first * d, count, d, threads, nullptr, nullptr, &part)
            .ok());
    REQUIRE(part.subtrees == count);
    uint64_t in_buckets = 0;
    for (uint64_t b : part.sizes) in_buckets += b;
    REQUIRE(in_buckets == count);
    REQUIRE(sum.Add(part).ok());
  }
  for (int j = 1; j <= d; ++j) sum.level[j] = level[j];
  INFO(GameName(spec.game) << " m=" << spec.ranks << " s=" << spec.suits << " d=" << d
                           << " batch=" << batch << " threads=" << threads);
  CHECK(sum.level == reference.level);
  CHECK(sum.subtrees == entries);
}

TEST_CASE("subtrees: the levels to a split plus the counted subtrees are Count()'s levels",
          "[subtrees]") {
  const std::vector<GameSpec> specs = {{Game::kMousetrap, 9, 1}, {Game::kMousetrap, 4, 2},
                                       {Game::kModular, 8, 1},   {Game::kModular, 3, 2},
                                       {Game::kHlm, 9, 2},       {Game::kHlm, 5, 3}};
  for (const GameSpec& spec : specs) {
    for (int d = 1; d < spec.cards(); d += 2) {
      CheckSplit(spec, d, 1, 1);
      CheckSplit(spec, d, 7, 2);
      CheckSplit(spec, d, 1000, 3);
    }
  }
}

TEST_CASE("subtrees: published counts through a split (A007709, Bersani 2010 Tables 2, 5)",
          "[subtrees]") {
  // mousetrap s=1 m=10: 65503 (OEIS A007709); modular s=2 m=4: 1182
  // (Table 5); hlm s=3 m=6: 1177 (Table 2).
  const std::vector<std::pair<GameSpec, uint64_t>> cases = {{{Game::kMousetrap, 10, 1}, 65503},
                                                            {{Game::kModular, 4, 2}, 1182},
                                                            {{Game::kHlm, 6, 3}, 1177}};
  for (const auto& [spec, winning] : cases) {
    std::vector<uint64_t> level;
    const int d = 4;
    const std::vector<uint16_t> paths = LevelPaths(spec, d, &level);
    SubtreeCounts counts;
    REQUIRE(
        CountSubtrees(spec, paths.data(), paths.size() / d, d, 2, nullptr, nullptr, &counts).ok());
    CHECK(counts.level[spec.cards()] == winning);
  }
}

// The removal order handed with every winning deck (winners.h) must be the
// one a play of the deck gives: reform-stats takes it as the reformed deck.
TEST_CASE("subtrees: the removal order handed with each winning deck is its play's, three games",
          "[subtrees]") {
  const std::vector<GameSpec> specs = {
      {Game::kMousetrap, 9, 1}, {Game::kMousetrap, 4, 2}, {Game::kMousetrap, 3, 3},
      {Game::kModular, 9, 1},   {Game::kModular, 3, 3},   {Game::kHlm, 8, 2},
      {Game::kHlm, 4, 3},       {Game::kMousetrap, 1, 1}, {Game::kMousetrap, 2, 1}};
  for (const GameSpec& spec : specs) {
    const int n = spec.cards();
    std::atomic<uint64_t> seen{0}, wrong{0};
    const WinnerCallback check = [&](const Card* deck, const Card* order) {
      Card played[64];
      const QuickResult r = PlayOrder(spec, deck, n, played);
      seen.fetch_add(1);
      bool same = r.outcome == Outcome::kWin;
      for (int i = 0; i < n; ++i) same = same && played[i] == order[i];
      if (!same) wrong.fetch_add(1);
    };
    INFO(GameName(spec.game) << " m=" << spec.ranks << " s=" << spec.suits);
    CountOptions options;
    options.on_winning_deck = check;
    CountResult reference;
    REQUIRE(Count(spec, options, &reference).ok());
    CHECK(seen.load() == reference.winning());
    CHECK(wrong.load() == 0);
    for (int d = 1; d < n; d += 3) {
      seen = 0;
      std::vector<uint64_t> level;
      const std::vector<uint16_t> paths = LevelPaths(spec, d, &level);
      SubtreeCounts counts;
      REQUIRE(CountSubtrees(spec, paths.data(), paths.size() / d, d, 2, nullptr, nullptr, &counts,
                            &check)
                  .ok());
      CHECK(seen.load() == reference.winning());
      CHECK(wrong.load() == 0);
    }
  }
}

TEST_CASE("subtrees: a stop flag set before the batch cancels it", "[subtrees]") {
  const GameSpec spec{Game::kMousetrap, 11, 1};
  std::vector<uint64_t> level;
  const std::vector<uint16_t> paths = LevelPaths(spec, 2, &level);
  std::atomic<bool> stop{true};
  SubtreeCounts counts;
  // A walk looks at the flag every 2^14 calls: the batch (millions of
  // sub-decks) is cut, so it cannot be complete.
  const Status s =
      CountSubtrees(spec, paths.data(), paths.size() / 2, 2, 1, &stop, nullptr, &counts);
  CHECK(s.IsCancelled());
  CHECK(CountSubtrees(spec, paths.data(), 1, 0, 1, nullptr, nullptr, &counts).IsInvalidArgument());
}

}  // namespace
}  // namespace eulerdeck
