// BestScore() (engine/removal/best.h): the best hlm score. Checked against
// brute force (the top of the score distribution over every deck) on every
// hlm size with at most 10^7 decks, against Bersani 2010 Table 3 (one suit,
// m = 2..10 here, to 16 in best_slow_test.cc) and Table 2 (the winning
// decks, where the best score is C_max), and by playing every deck shown.
#include "engine/removal/best.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "engine/cards/brute.h"
#include "engine/cards/combinatorics.h"
#include "engine/cards/rules.h"
#include "tests/removal/table3.h"

namespace eulerdeck {
namespace {

BestResult Best(const GameSpec& spec, int show, int threads = 0) {
  BestOptions options;
  options.show = show;
  options.threads = threads;
  BestResult r;
  const Status s = BestScore(spec, options, &r);
  INFO(s.ToString());
  REQUIRE(s.ok());
  return r;
}

// Every deck shown reaches the best score, storing as many cards as listed.
void CheckExamples(const GameSpec& spec, const BestResult& r) {
  for (const Deck& d : r.examples) {
    const GameResult g = Play(spec, d);
    CHECK(g.score == r.best_score);
    CHECK(r.stored[g.removed.size()] > 0);
  }
  CHECK(std::is_sorted(r.examples.begin(), r.examples.end()));
  CHECK(std::adjacent_find(r.examples.begin(), r.examples.end()) == r.examples.end());
}

TEST_CASE("best: equals the top of brute force's score distribution", "[best]") {
  int cases = 0;
  for (int suits = 1; suits <= 4; ++suits) {
    for (int ranks = 2;; ++ranks) {
      const GameSpec spec{Game::kHlm, ranks, suits};
      const std::optional<uint64_t> total = TotalDecks64(spec);
      if (!total || *total > 10'000'000) break;
      BruteResult brute;
      REQUIRE(Brute(spec, BruteOptions{}, &brute).ok());
      int top = static_cast<int>(brute.score.size()) - 1;
      while (top > 0 && brute.score[top] == 0) --top;
      const BestResult r = Best(spec, 5);
      INFO("hlm m=" << ranks << " s=" << suits);
      CHECK(r.best_score == top);
      CHECK(r.decks == brute.score[top]);
      CHECK(r.winning_score == WinningScore(spec));
      CHECK(std::string(r.method) == (top == WinningScore(spec) ? "count" : "search"));
      uint64_t sum = 0;
      for (uint64_t x : r.stored) sum += x;
      CHECK(sum == r.decks);
      CHECK(r.examples.size() == std::min<uint64_t>(5, r.decks));
      CheckExamples(spec, r);
      ++cases;
    }
  }
  CHECK(cases >= 15);
}

TEST_CASE("best: Bersani 2010 Table 3, one suit, m = 2..10", "[best]") {
  for (const Table3Row& row : Table3()) {
    if (row.m > 10) continue;
    const GameSpec spec{Game::kHlm, row.m, 1};
    const BestResult r = Best(spec, 10);
    INFO("m=" << row.m);
    CHECK(r.best_score == row.best);
    CHECK(r.winning_score == row.c_max);
    CHECK(r.decks == row.decks);
    for (int i : row.stored) CHECK(r.stored[i] > 0);
    if (!row.deck.empty()) {
      REQUIRE(r.examples.size() == 1);
      CHECK(r.examples[0] == row.deck);
    }
    CheckExamples(spec, r);
  }
}

TEST_CASE("best: where decks win, C_max and Table 2's counts", "[best]") {
  // Bersani 2010, Table 2: hlm s = 2, m = 6..9 (1, 7, 8, 105 winning decks).
  const std::vector<std::pair<int, uint64_t>> table2 = {{6, 1}, {7, 7}, {8, 8}, {9, 105}};
  for (const auto& [m, winning] : table2) {
    const BestResult r = Best(GameSpec{Game::kHlm, m, 2}, 0);
    INFO("m=" << m);
    CHECK(r.best_score == r.winning_score);
    CHECK(r.decks == winning);
    CHECK(r.stored[2 * m - 1] == winning);
  }
  // The decks shown come from the search pruned at C_max, which must find
  // every winning deck (it is checked against the count inside).
  const BestResult r = Best(GameSpec{Game::kHlm, 7, 2}, 3, 2);
  CHECK(r.examples.size() == 3);
  CheckExamples(GameSpec{Game::kHlm, 7, 2}, r);
}

TEST_CASE("best: the same answer on 1 and 2 threads", "[best]") {
  for (int m : {11, 12}) {
    const BestResult one = Best(GameSpec{Game::kHlm, m, 1}, 10, 1);
    const BestResult two = Best(GameSpec{Game::kHlm, m, 1}, 10, 2);
    CHECK(one.best_score == two.best_score);
    CHECK(one.stored == two.stored);
    CHECK(one.examples == two.examples);
  }
}

TEST_CASE("best: refuses other games and bad sizes", "[best]") {
  BestResult r;
  CHECK(BestScore(GameSpec{Game::kMousetrap, 5, 1}, BestOptions{}, &r).IsNotSupported());
  CHECK(BestScore(GameSpec{Game::kHlm, 1, 1}, BestOptions{}, &r).IsInvalidArgument());
  CHECK(BestScore(GameSpec{Game::kHlm, 17, 4}, BestOptions{}, &r).IsOutOfRange());  // 68 cards
  // No deck wins with one suit, and 21! passes 2^64.
  CHECK(BestScore(GameSpec{Game::kHlm, 21, 1}, BestOptions{}, &r).IsOutOfRange());
}

}  // namespace
}  // namespace eulerdeck
