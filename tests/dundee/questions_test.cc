// The CLI's questions as single calls (engine/dundee/questions.h): each
// report holds the pieces it is assembled from, and bad queries are refused.
#include "engine/dundee/questions.h"

#include <catch2/catch.hpp>
#include <vector>

#include "engine/dundee/adaptive.h"
#include "engine/dundee/advance.h"
#include "engine/dundee/counts.h"
#include "tests/dundee/test_util.h"

namespace eulerdeck {
namespace {

using dundee_test::Counts;
using dundee_test::Q;

TEST_CASE("dundee: the greedy question") {
  DundeeGreedyQuery q;
  q.deck = {5, 3, 2};
  q.rounds = 10;
  DundeeGreedyReport r;
  REQUIRE(AnswerDundeeGreedy(q, &r).ok());
  CHECK(r.greedy == Q(17, 120));
  CHECK(r.greedy_double == Q(17, 120).get_d());
  CHECK(r.adaptive.states == 36);
  CHECK(r.optimal_equals_greedy);
  CHECK(r.theorem3_applies);
  CHECK(r.worst_formula_agrees);
  CHECK(!r.monte_carlo);
  // A count of 0: Theorem 3 does not apply.
  q.deck = {5, 0, 2};
  q.rounds = 7;
  REQUIRE(AnswerDundeeGreedy(q, &r).ok());
  CHECK(r.greedy == 1);
  CHECK(!r.theorem3_applies);
  // In double, with a Monte Carlo check against that value.
  q.deck = Counts(13, 4);
  q.rounds = 52;
  q.exact = false;
  q.mc_deals = 5000;
  q.mc_seed = 3;
  REQUIRE(AnswerDundeeGreedy(q, &r).ok());
  CHECK(r.greedy_double == GreedyWin<double>(q.deck, 52));
  REQUIRE(r.monte_carlo);
  CHECK(r.monte_carlo->deals == 5000);
  CHECK(r.monte_carlo->wins == 1303);  // `cardlab dundee greedy ... --seed 3` before the split
  CHECK(r.monte_carlo->contains);
  // Refused: no cards, too many rounds, a deck too big for the Monte Carlo.
  q.deck = {0, 0};
  q.rounds = 0;
  CHECK(AnswerDundeeGreedy(q, &r).IsInvalidArgument());
  q.deck = {2, 2};
  q.rounds = 5;
  CHECK(AnswerDundeeGreedy(q, &r).IsInvalidArgument());
  q.deck = {300};
  q.rounds = 1;
  CHECK(AnswerDundeeGreedy(q, &r).IsOutOfRange());
}

TEST_CASE("dundee: the advance question") {
  DundeeAdvanceQuery q;
  q.deck = {3, 2, 2};
  q.bids = {1, 3, 3};
  q.recursion = true;
  DundeeAdvanceReport r;
  REQUIRE(AnswerDundeeAdvance(q, &r).ok());
  CHECK(r.rounds == 7);
  CHECK(r.probability == Q(3, 35));
  CHECK(r.recursion == Q(3, 35));
  CHECK(r.recursion_agrees);
  CHECK(!r.almost_regular);
  q.deck = Counts(13, 4);
  q.bids = Counts(13, 4);
  q.recursion = false;
  q.mc_deals = 20000;
  q.mc_seed = 11;
  REQUIRE(AnswerDundeeAdvance(q, &r).ok());
  CHECK(r.almost_regular);
  CHECK(r.probability == AdvanceWin(q.bids, q.deck));
  REQUIRE(r.monte_carlo);
  CHECK(r.monte_carlo->contains);
  // Refused: lengths differ, more bids than cards.
  q.mc_deals = 0;
  q.deck = {2, 2, 2};
  q.bids = {3, 3};
  CHECK(AnswerDundeeAdvance(q, &r).IsInvalidArgument());
  q.deck = {2, 2};
  q.bids = {3, 3};
  CHECK(AnswerDundeeAdvance(q, &r).IsInvalidArgument());
}

TEST_CASE("dundee: the optimal-bids question") {
  DundeeOptimalBidsQuery q;
  q.decks = SortedDecks(3, 11);
  int rows = 0;
  REQUIRE(TabulateOptimalBids(q, [&](const DundeeOptimalBidsRow& row) {
            CHECK(row.rounds == row.cards);
            CHECK(row.cards == TotalCards(row.deck));
            ++rows;
          }).ok());
  CHECK(rows == 41);  // Table 2
  q.rounds_all = true;
  rows = 0;
  REQUIRE(TabulateOptimalBids(q, [&](const DundeeOptimalBidsRow&) { ++rows; }).ok());
  CHECK(rows == 356);  // docs/data/dundee_v3_c11_all_m.csv
  q.decks = {{5, 3, 2}};
  q.rounds_all = false;
  q.rounds = 6;
  std::vector<DundeeOptimalBidsRow> got;
  REQUIRE(
      TabulateOptimalBids(q, [&](const DundeeOptimalBidsRow& row) { got.push_back(row); }).ok());
  REQUIRE(got.size() == 1);
  CHECK(got[0].optimal.probability == Q(19, 105));
  CHECK(got[0].optimal.bids == std::vector<Counts>({{0, 2, 4}}));
  q.rounds = 11;
  CHECK(TabulateOptimalBids(q, [](const DundeeOptimalBidsRow&) {}).IsInvalidArgument());
}

}  // namespace
}  // namespace eulerdeck
