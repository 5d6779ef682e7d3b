// Monte Carlo cross-checks of Dundee: random deals (the uniform shuffles of
// engine/base/shuffle.h, the same streams as `cardlab mc`) played by the
// greedy player or by an advance bid (deals.h), and the Wilson interval of
// the result (engine/base/stats.h).
#ifndef EULERDECK_ENGINE_DUNDEE_MONTE_CARLO_H_
#define EULERDECK_ENGINE_DUNDEE_MONTE_CARLO_H_

#include <atomic>
#include <cstdint>
#include <vector>

#include "engine/base/stats.h"
#include "engine/base/status.h"

namespace eulerdeck {

// Plays deals 0..decks-1 of stream `seed` of the deck s for m rounds, by the
// greedy player (bids empty) or by the advance bid `bids` (named in value
// order, sum bids = m); *wins gets the wins. The result depends on (s, m,
// bids, decks, seed) only. OutOfRange for decks of more than 255 cards (the
// limit of the card games' Monte Carlo); InvalidArgument unless
// 0 <= m <= TotalCards(s) and, with bids, bids has s's length and sums to m.
struct DundeeMonteCarloOptions {
  // If set, advanced (relaxed) by the deals played, for progress display.
  std::atomic<uint64_t>* deals_done = nullptr;
  // If set, polled after each deal: once true, the run stops there and
  // returns Cancelled, *wins (and *played) those of deals 0..*played-1,
  // exactly what decks = *played gives (tools/common/interrupt.h sets it).
  const std::atomic<bool>* stop = nullptr;
};
Status DundeeMonteCarlo(const std::vector<int>& s, int m, const std::vector<int>& bids,
                        uint64_t decks, uint64_t seed, uint64_t* wins,
                        const DundeeMonteCarloOptions& options = {}, uint64_t* played = nullptr);

// A Monte Carlo run set against an exact win probability.
struct DundeeMonteCarloCheck {
  uint64_t deals = 0;
  uint64_t wins = 0;
  double estimate = 0;    // wins / deals
  Interval ci = {0, 1};   // Wilson95(wins, deals)
  bool contains = false;  // ci.low <= exact <= ci.high
};

// DundeeMonteCarlo(), then the interval and whether it contains `exact`.
// Fails as DundeeMonteCarlo() does, and with InvalidArgument for 0 decks.
// Cancelled when options.stop was set: *out is then the check of the
// out->deals deals played (0: nothing played, *out untouched).
Status CheckDundeeMonteCarlo(const std::vector<int>& s, int m, const std::vector<int>& bids,
                             uint64_t decks, uint64_t seed, double exact,
                             DundeeMonteCarloCheck* out,
                             const DundeeMonteCarloOptions& options = {});

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_DUNDEE_MONTE_CARLO_H_
