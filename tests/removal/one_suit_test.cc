// The one-suit solver's level-synchronous last levels (engine/removal/
// one_suit.h): SortByKey() against std::sort by key, and the plays it counts
// one by one against the distinct plays of each level, found by a plain
// walk of the lazy deal.
#include "engine/removal/one_suit.h"

#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/cards/game.h"
#include "engine/removal/removed.h"

namespace eulerdeck::internal {
namespace {

// Equal keys adjacent and in increasing order: the same words as std::sort
// by the key alone gives, up to the order within a run of equal keys.
void CheckSortedByKey(std::vector<uint64_t> words, int key_bits) {
  const uint64_t mask = (uint64_t{1} << key_bits) - 1;
  std::vector<uint64_t> expected = words;
  std::sort(expected.begin(), expected.end(), [mask](uint64_t x, uint64_t y) {
    return (x & mask) < (y & mask) || ((x & mask) == (y & mask) && x < y);
  });
  std::vector<uint64_t> tmp;
  SortByKey(words, tmp, key_bits);
  REQUIRE(words.size() == expected.size());
  // Within a run of equal keys the order is free: compare the runs sorted.
  for (size_t i = 0; i < words.size();) {
    size_t j = i;
    while (j < words.size() && (words[j] & mask) == (words[i] & mask)) ++j;
    std::sort(words.begin() + i, words.begin() + j);
    i = j;
  }
  CHECK(words == expected);
}

TEST_CASE("one suit: SortByKey puts equal keys together whatever lies above them", "[removed]") {
  std::mt19937_64 rng(57);
  // Keys of 4-card plays at m = 13 (10 + 16 bits) and of 5-card plays at
  // m = 12 (10 + 25 bits): the last pass's 11 bits reach above the key.
  for (int key_bits : {26, 35, 11, 22, 33, 43, 7}) {
    INFO("key bits " << key_bits);
    const uint64_t mask = (uint64_t{1} << key_bits) - 1;
    // 100 keys, each with multiplicities 1, 2 and 3 above it: 300 words
    // (the radix path), which must sort into 100 runs of 3.
    std::vector<uint64_t> keys(100);
    for (uint64_t& k : keys) k = rng() & mask;
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    std::vector<uint64_t> words;
    for (uint64_t k : keys) {
      for (uint64_t w : {1, 2, 3}) words.push_back(k | w << key_bits);
    }
    std::shuffle(words.begin(), words.end(), rng);
    CheckSortedByKey(words, key_bits);
    std::vector<uint64_t> tmp, sorted = words;
    SortByKey(sorted, tmp, key_bits);
    size_t runs = 0;
    for (size_t i = 0; i < sorted.size(); ++i) {
      runs += i == 0 || (sorted[i] & mask) != (sorted[i - 1] & mask);
    }
    CHECK(runs == keys.size());
    // Many words, random multiplicities of every width above the key; and
    // a few (the comparison sort's path).
    for (size_t size : {size_t{5000}, size_t{255}, size_t{3}}) {
      std::vector<uint64_t> many(size);
      for (uint64_t& x : many) x = (keys[rng() % keys.size()]) | (rng() >> key_bits << key_bits);
      CheckSortedByKey(many, key_bits);
    }
  }
}

// The plays of r cards (r = kBigLeafCards..kSyncTop) that the lazy deal of
// one suit reaches from the full deck, as (values left, each position's
// possible values from the pointer), absolute value masks (bit v: value v +
// 1): every count stepped through as the rules read it (engine/cards/game.h:
// within CountLimit() counts, count t names value (t - 1) mod m + 1 at the
// card (t - 1) mod r from the pointer; the card holds it in some decks:
// removed there, the play goes on after it, unless a card is left with no
// value; or it does not, and once a card can hold no value the play stops).
std::vector<std::vector<std::vector<uint32_t>>> ReachedPlays(const GameSpec& spec) {
  const int m = spec.ranks;
  std::vector<std::vector<std::vector<uint32_t>>> level(m + 1);
  const uint32_t all = (uint32_t{1} << m) - 1;
  std::vector<uint32_t> root(m, all);
  root.push_back(all);  // the values left, last
  level[m].push_back(root);
  for (int r = m; r > kBigLeafCards; --r) {
    const uint32_t limit = CountLimit(spec, r);
    for (std::vector<uint32_t> play : level[r]) {
      const uint32_t avail = play[r];
      for (uint32_t t = 1; t <= limit; ++t) {
        const uint32_t v = (t - 1) % m;
        const int pos = static_cast<int>((t - 1) % r);
        const uint32_t bit = uint32_t{1} << v;
        if (!(avail & bit) || !(play[pos] & bit)) continue;
        std::vector<uint32_t> child;
        bool alive = true;
        for (int i = 1; i < r; ++i) {
          child.push_back(play[(pos + i) % r] & ~bit);
          alive &= child.back() != 0;
        }
        child.push_back(avail & ~bit);
        if (alive) level[r - 1].push_back(std::move(child));
        play[pos] &= ~bit;
        if (!play[pos]) break;
      }
    }
    // Identical plays once.
    std::vector<std::vector<uint32_t>>& next = level[r - 1];
    std::sort(next.begin(), next.end());
    next.erase(std::unique(next.begin(), next.end()), next.end());
  }
  return level;
}

// The permanent of masks' 0/1 matrix by the definition: every assignment of
// distinct values to the positions (r <= 9), or, past that, by a plain
// dynamic programme over the sets of values the first positions take.
uint64_t PermanentByDefinition(const std::vector<uint32_t>& masks) {
  const int r = static_cast<int>(masks.size());
  if (r <= 9) {
    std::vector<int> perm(r);
    for (int i = 0; i < r; ++i) perm[i] = i;
    uint64_t ways = 0;
    do {
      bool fits = true;
      for (int p = 0; p < r && fits; ++p) fits = (masks[p] >> perm[p]) & 1u;
      ways += fits;
    } while (std::next_permutation(perm.begin(), perm.end()));
    return ways;
  }
  std::vector<uint64_t> dp(size_t{1} << r, 0);
  dp[0] = 1;
  for (uint32_t set = 0; set < (1u << r); ++set) {
    const int p = std::popcount(set);
    if (!dp[set] || p == r) continue;
    for (int v = 0; v < r; ++v) {
      if ((masks[p] >> v & 1u) && !(set >> v & 1u)) dp[set | 1u << v] += dp[set];
    }
  }
  return dp[(size_t{1} << r) - 1];
}

TEST_CASE("one suit: a stopped play's completions are the permanent of its masks", "[removed]") {
  // Every way Completions() takes (4 cards from the table, 5 along a row, 6
  // to 8 split between rows, 9 along a row into splits, more layered).
  // Known values first: all ones give r!, all but the diagonal the
  // derangements (A000166).
  const uint64_t derangements[] = {1,    0,     1,      2,       9,        44,       265,
                                   1854, 14833, 133496, 1334961, 14684570, 176214841};
  uint64_t factorial = 1;
  for (int r = 4; r <= 12; ++r) {
    INFO("r = " << r);
    factorial = 1;
    for (int i = 2; i <= r; ++i) factorial *= i;
    const uint32_t all = (1u << r) - 1;
    std::vector<uint32_t> ones(r, all), off_diagonal(r);
    for (int p = 0; p < r; ++p) off_diagonal[p] = all & ~(1u << p);
    CHECK(StoppedCompletions(ones.data(), r) == factorial);
    CHECK(StoppedCompletions(off_diagonal.data(), r) == derangements[r]);
  }
  // Random matrices, sparse to dense (a stopped play's masks are dense),
  // against the definition.
  std::mt19937_64 rng(20261128);
  for (int r = 4; r <= 12; ++r) {
    for (int density : {30, 55, 80, 95}) {
      const int cases = r <= 9 ? 12 : 4;
      for (int c = 0; c < cases; ++c) {
        std::vector<uint32_t> masks(r, 0);
        for (int p = 0; p < r; ++p) {
          for (int v = 0; v < r; ++v) masks[p] |= uint32_t{rng() % 100 < uint64_t(density)} << v;
        }
        INFO("r = " << r << ", density " << density << "%, case " << c);
        CHECK(StoppedCompletions(masks.data(), r) == PermanentByDefinition(masks));
      }
    }
  }
}

TEST_CASE("one suit: each distinct play of a level is counted once", "[removed]") {
  // Keys past a multiple of the sort's 11-bit digits: plays of 4 cards at
  // m = 10 (8 + 16 bits), of 4 and 5 at m = 11 (9 + 16, 9 + 25 bits).
  for (const GameSpec& spec : {GameSpec{Game::kMousetrap, 10, 1}, GameSpec{Game::kMousetrap, 11, 1},
                               GameSpec{Game::kModular, 10, 1}}) {
    INFO(GameName(spec.game) << " m=" << spec.ranks);
    const auto reached = ReachedPlays(spec);
    // Every task in one call on one thread, levels larger than any: each
    // level is counted once, so its plays are the distinct ones reached.
    RemovedOptions options;
    options.level_entries = uint64_t{1} << 40;
    std::unique_ptr<RemovedPlan> plan;
    REQUIRE(PlanRemovedOneSuit(spec, options, &plan).ok());
    std::vector<uint64_t> rows = plan->top();
    REQUIRE(plan->CountTasks(0, plan->tasks(), &rows).ok());
    const std::vector<uint64_t> plays = SyncPlays(*plan);
    for (int r = kBigLeafCards; r <= kSyncTop; ++r) {
      INFO("plays of " << r << " cards");
      CHECK(reached[r].size() > 256);  // the sort's radix path
      CHECK(plays[r] == reached[r].size());
    }
    // The rows as a count of the whole plan gives them.
    RemovedResult whole;
    REQUIRE(CountRemovedOneSuit(spec, RemovedOptions{}, &whole).ok());
    CHECK(rows == whole.removed);
  }
}

}  // namespace
}  // namespace eulerdeck::internal
