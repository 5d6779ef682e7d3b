// Advance bids: the player fixes every bid before the deal. Only how often
// each value is named matters (uniform shuffles make every order of the bids
// equally good), so a bid is a composition b with sum b = m rounds, b_i the
// times value i is named.
//
// b and s: counts per value (counts.h) of the same length, sum b <= sum s,
// at least one card.
#ifndef EULERDECK_ENGINE_DUNDEE_ADVANCE_H_
#define EULERDECK_ENGINE_DUNDEE_ADVANCE_H_

#include <gmpxx.h>

#include <vector>

namespace eulerdeck {

// Pr(b, s) by inclusion-exclusion over the rook polynomial of the forbidden
// board: deck positions 1..c against the c cards, bids on positions 1..m; the
// forbidden cells are v disjoint b_i x s_i blocks, so
//   r(x) = prod_i sum_j C(b_i,j) C(s_i,j) j! x^j,
//   Pr = sum_k (-1)^k r_k (c-k)! / c!.
// Polynomial in v and m, exact.
mpq_class AdvanceWin(const std::vector<int>& b, const std::vector<int>& s);

// The same by the paper's appendix recursion a(b, s, f): exponential in v,
// for cross-checks on small decks.
mpq_class AdvanceWinRecursion(const std::vector<int>& b, const std::vector<int>& s);

// Whether b sums to m with every entry floor(m/v) or ceil(m/v): Theorem 5's
// optimal bids for a regular deck.
bool AlmostRegular(const std::vector<int>& b, int m);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_DUNDEE_ADVANCE_H_
