// The Problem of Thirteen and Dundee (seed 002, Litwack, Pikhurko &
// Pongnumkul): a uniformly shuffled deck with s_i cards of value i
// (i = 1..v, c cards in all) is dealt face up for m <= c rounds; before each
// card the player names a value, and loses on the first coincidence.
//
// Adaptive players may use the cards seen; the greedy one names a least
// frequent remaining value (a value with no cards left wins surely), which is
// the unique optimum for v >= 3 (Theorem 2). Advance players fix all bids
// beforehand; only the counts b_i matter (a bid vector, sum b = m).
#ifndef EULERDECK_ENGINE_DUNDEE_DUNDEE_H_
#define EULERDECK_ENGINE_DUNDEE_DUNDEE_H_

#include <gmpxx.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/base/status.h"

namespace eulerdeck {

// Counts per value: "4^13" (13 values with 4 cards each), "5,3,2", or a mix
// such as "4^12,3". InvalidArgument naming the problem. Entries may be 0
// (for bids; a deck needs at least one card); at most 1000 cards in all.
Status ParseCounts(const std::string& text, std::vector<int>* counts);
std::string CountsString(const std::vector<int>& counts);  // "5,3,2"
int TotalCards(const std::vector<int>& counts);            // the sum

// ---- Adaptive play ---------------------------------------------------------

// g_m(s): the greedy strategy's win probability, by recurrence (3) memoised
// on the sorted remaining composition. T = mpq_class or double.
template <class T>
T GreedyWin(const std::vector<int>& s, int m);

// The best and the worst adaptive strategies by dynamic programming over all
// bids at every state (each distinct remaining count is one choice), exact.
// `greedy_unique` tells whether, at every state reached with a round left
// that is not already decided, the best bids are exactly the least frequent
// values (Theorem 2's uniqueness); `anti_greedy_worst` likewise for the worst
// bids and the most frequent values (Theorem 3).
struct AdaptiveResult {
  mpq_class best, worst;
  bool greedy_unique = true;
  bool anti_greedy_worst = true;
  uint64_t states = 0;
};
AdaptiveResult AdaptiveDp(const std::vector<int>& s, int m);

// Theorem 3: the smallest adaptive win probability, 0 if m > c - max s, else
// prod_{i<m} (c - max s - i) / (c - i). (Also the worst advance bid's,
// Corollary 6.)
mpq_class WorstWinFormula(const std::vector<int>& s, int m);

// ---- Advance bids ----------------------------------------------------------

// Pr(b, s) by inclusion-exclusion over the rook polynomial of the forbidden
// board: deck positions 1..c against the c cards, bids on positions 1..m; the
// forbidden cells are v disjoint b_i x s_i blocks, so
//   r(x) = prod_i sum_j C(b_i,j) C(s_i,j) j! x^j,
//   Pr = sum_k (-1)^k r_k (c-k)! / c!.
// Polynomial in v and m. b and s of the same length, sum b <= sum s.
mpq_class AdvanceWin(const std::vector<int>& b, const std::vector<int>& s);

// The same by the paper's appendix recursion a(b, s, f) (exponential in v;
// for cross-checks on small decks).
mpq_class AdvanceWinRecursion(const std::vector<int>& b, const std::vector<int>& s);

// Forward brute force over every distinct order of the deck (c <= 12): the
// advance bid's bids in value order; the greedy player (ties to the lowest
// value). For tests: shares nothing with the recurrences.
mpq_class AdvanceWinByDeals(const std::vector<int>& b, const std::vector<int>& s);
mpq_class GreedyWinByDeals(const std::vector<int>& s, int m);

// All optimal advance bids for m rounds (Problem 4). Pr(b, s) is symmetric
// under permuting values with equal counts, so bids are searched, and
// listed, with b non-decreasing inside each group of equal s (the paper's
// Table 2 convention). If that search has more than `max_bids` candidates,
// only bids of Lemma 13's shape are searched (s_i = s_j => |b_i - b_j| <= 1,
// s_i > s_j => b_i <= b_j): the lemma proves one of them optimal, so the
// optimal probability is still exact, but other optimal bids may be missed
// (`exhaustive` says which search ran).
struct OptimalBids {
  mpq_class probability;
  std::vector<std::vector<int>> bids;
  uint64_t searched = 0;
  bool exhaustive = true;
  // All optimal bids, counting every order of equal-s values' entries
  // (Theorem 5's count: 7 for s = (1,1,1), m = 3).
  mpz_class all_bids = 0;
};
Status FindOptimalBids(const std::vector<int>& s, int m, uint64_t max_bids, OptimalBids* out);

// Monte Carlo cross-check: `decks` random deals (the uniform shuffles of
// shuffle.h, stream `seed`) played by the greedy player (bids empty) or by
// the advance bid `bids` (named in value order); *wins gets the wins.
// OutOfRange for decks of more than 255 cards.
Status DundeeMonteCarlo(const std::vector<int>& s, int m, const std::vector<int>& bids, uint64_t decks,
                        uint64_t seed, uint64_t* wins);

// Bids with every entry floor(m/v) or ceil(m/v) (Theorem 5's optimum for a
// regular deck).
bool AlmostRegular(const std::vector<int>& b, int m);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_DUNDEE_DUNDEE_H_
