// Adaptive play of Dundee (Litwack, Pikhurko & Pongnumkul): a
// uniformly shuffled deck with s_i cards of value i (c cards in all) is dealt
// face up for m <= c rounds; before each card the player names a value, using
// the cards seen so far, and loses on the first coincidence.
//
// The greedy player names a least frequent remaining value (a value with no
// cards left wins surely); it is the unique optimum for v >= 3 values
// (Theorem 2), and the anti-greedy player is the worst (Theorem 3).
//
// s: counts per value (counts.h), in any order; at least one card and
// 0 <= m <= TotalCards(s).
#ifndef EULERDECK_ENGINE_DUNDEE_ADAPTIVE_H_
#define EULERDECK_ENGINE_DUNDEE_ADAPTIVE_H_

#include <gmpxx.h>

#include <cstdint>
#include <vector>

namespace eulerdeck {

// g_m(s): the greedy strategy's win probability, by recurrence (3) memoised
// on the sorted remaining composition. T = mpq_class (exact) or double.
template <class T>
T GreedyWin(const std::vector<int>& s, int m);

// The best and the worst adaptive strategies by dynamic programming over all
// bids at every state (each distinct remaining count is one choice), exact.
// `greedy_unique` tells whether, at every state reached with a round left
// that is not already decided, the best bids are exactly the least frequent
// values (Theorem 2's uniqueness); `anti_greedy_worst` likewise for the worst
// bids and the most frequent values at every undecided state (Theorem 3).
struct AdaptiveResult {
  mpq_class best, worst;
  bool greedy_unique = true;
  bool anti_greedy_worst = true;
  uint64_t states = 0;  // distinct compositions solved
};
AdaptiveResult AdaptiveDp(const std::vector<int>& s, int m);

// Theorem 3: the smallest adaptive win probability, 0 if m > c - max s, else
// prod_{i<m} (c - max s - i) / (c - i). (Also the worst advance bid's,
// Corollary 6.) The theorem assumes every s_i >= 1.
mpq_class WorstWinFormula(const std::vector<int>& s, int m);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_DUNDEE_ADAPTIVE_H_
