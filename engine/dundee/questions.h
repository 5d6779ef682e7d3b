// The three questions of `cardlab dundee` (greedy, advance, optimal-bids),
// each as one call that runs the computation with its cross-checks and
// returns every number the report shows: the tool parses options and
// formats, nothing more. The pieces live in adaptive.h, advance.h,
// optimal_bids.h and monte_carlo.h.
#ifndef EULERDECK_ENGINE_DUNDEE_QUESTIONS_H_
#define EULERDECK_ENGINE_DUNDEE_QUESTIONS_H_

#include <gmpxx.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "engine/base/status.h"
#include "engine/dundee/adaptive.h"
#include "engine/dundee/monte_carlo.h"
#include "engine/dundee/optimal_bids.h"

namespace eulerdeck {

// ---- greedy: adaptive play ------------------------------------------------

struct DundeeGreedyQuery {
  std::vector<int> deck;  // counts per value, at least one card
  int rounds = 0;         // m, 0..cards
  bool exact = true;      // false: recurrence (3) in double, nothing else
  uint64_t mc_deals = 0;  // > 0: also a Monte Carlo check of that many deals
  uint64_t mc_seed = 1;
  DundeeMonteCarloOptions mc_options;  // its progress counter and stop flag
};

struct DundeeGreedyReport {
  // g_m(s) in double: the double recurrence's, or the exact value rounded.
  double greedy_double = 0;
  // Exact runs only: g_m(s), the best and worst over all adaptive strategies
  // (AdaptiveDp), and Theorem 3's closed form of the worst.
  mpq_class greedy;
  AdaptiveResult adaptive;
  bool optimal_equals_greedy = false;  // adaptive.best == greedy (Theorem 2)
  mpq_class worst_formula;             // WorstWinFormula()
  bool theorem3_applies = false;       // every count >= 1, the theorem's premise
  bool worst_formula_agrees = false;   // worst_formula == adaptive.worst
  // With mc_deals > 0: greedy play of random deals against greedy_double.
  std::optional<DundeeMonteCarloCheck> monte_carlo;
};

// InvalidArgument for a deck without cards or rounds outside 0..cards; the
// Monte Carlo's errors (a deck of more than 255 cards). Cancelled when the
// Monte Carlo was stopped (mc_options.stop): *report is then what
// mc_deals = report->monte_carlo->deals gives (no monte_carlo: none played).
Status AnswerDundeeGreedy(const DundeeGreedyQuery& query, DundeeGreedyReport* report);

// ---- advance: one advance bid ---------------------------------------------

struct DundeeAdvanceQuery {
  std::vector<int> deck;   // counts per value, at least one card
  std::vector<int> bids;   // times each value is named: deck's length, sum <= cards
  bool recursion = false;  // also the appendix recursion (exponential in v)
  uint64_t mc_deals = 0;   // > 0: also a Monte Carlo check of that many deals
  uint64_t mc_seed = 1;
  DundeeMonteCarloOptions mc_options;  // its progress counter and stop flag
};

struct DundeeAdvanceReport {
  int rounds = 0;         // m = sum of the bids
  mpq_class probability;  // Pr(b, s) by the rook polynomial
  bool almost_regular = false;
  // With query.recursion: AdvanceWinRecursion() and whether it equals
  // `probability` (a disagreement is a failed check, not bad input).
  mpq_class recursion;
  bool recursion_agrees = true;
  // With mc_deals > 0: the bid played on random deals against `probability`.
  std::optional<DundeeMonteCarloCheck> monte_carlo;
};

// InvalidArgument for a deck without cards, bids of another length than the
// deck, or more bids than cards; the Monte Carlo's errors. Cancelled as
// AnswerDundeeGreedy's.
Status AnswerDundeeAdvance(const DundeeAdvanceQuery& query, DundeeAdvanceReport* report);

// ---- optimal-bids: a table of optimal advance bids ------------------------

struct DundeeOptimalBidsQuery {
  std::vector<std::vector<int>> decks;  // each with at least one card
  bool rounds_all = false;              // every m in 1..cards, ...
  int rounds = -1;                      // ... else this m, or m = cards if -1
  uint64_t max_bids = kDefaultMaxBids;  // FindOptimalBids()' limit
  // If set, advanced (relaxed) by one for each row done, for progress.
  std::atomic<uint64_t>* rows_done = nullptr;
  // If set, polled between rows and inside each row's search: once true,
  // the table stops, the row under way unfinished (tools/common/interrupt.h
  // sets it).
  const std::atomic<bool>* stop = nullptr;
};

struct DundeeOptimalBidsRow {
  std::vector<int> deck;
  int cards = 0;
  int rounds = 0;
  OptimalBids optimal;
};

// One row per deck and m, in the order of `decks` and then of m, each handed
// to `row` as soon as it is found (long tables print as they go). Stops at
// the first failure: InvalidArgument for rounds beyond a deck's cards;
// Cancelled when query.stop was set (the rows handed over are the table's
// first rows, each complete).
Status TabulateOptimalBids(const DundeeOptimalBidsQuery& query,
                           const std::function<void(const DundeeOptimalBidsRow&)>& row);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_DUNDEE_QUESTIONS_H_
