// The optimal advance bids of a deck (Problem 4): every b with sum b = m of
// maximal Pr(b, s) (advance.h).
#ifndef EULERDECK_ENGINE_DUNDEE_OPTIMAL_BIDS_H_
#define EULERDECK_ENGINE_DUNDEE_OPTIMAL_BIDS_H_

#include <gmpxx.h>

#include <atomic>
#include <cstdint>
#include <vector>

#include "engine/base/status.h"

namespace eulerdeck {

// Pr(b, s) is symmetric under permuting values with equal counts, so bids are
// searched, and listed, with b non-decreasing inside each group of equal s
// (the paper's Table 2 convention), in lexicographic order. If that search
// has more than `max_bids` candidates, only bids of Lemma 13's shape are
// searched (s_i = s_j => |b_i - b_j| <= 1, s_i > s_j => b_i <= b_j): the
// lemma proves one of them optimal, so `probability` is still exact, but
// other optimal bids may be missed (`exhaustive` says which search ran).
struct OptimalBids {
  mpq_class probability;
  std::vector<std::vector<int>> bids;
  uint64_t searched = 0;  // bids evaluated
  bool exhaustive = true;
  // All optimal bids, counting every order of equal-s values' entries
  // (Theorem 5's count: 7 for s = (1,1,1), m = 3). Beyond 64 bits for
  // large decks, hence GMP.
  mpz_class all_bids = 0;
};

// The default `max_bids` (that of `cardlab dundee optimal-bids --max-bids`).
inline constexpr uint64_t kDefaultMaxBids = 200000;

// s: counts per value (counts.h) with at least one card. InvalidArgument
// unless 0 <= m <= TotalCards(s). If `stop` is set, it is polled at each bid:
// once true, the search ends with Cancelled and *out untouched.
Status FindOptimalBids(const std::vector<int>& s, int m, uint64_t max_bids, OptimalBids* out,
                       const std::atomic<bool>* stop = nullptr);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_DUNDEE_OPTIMAL_BIDS_H_
