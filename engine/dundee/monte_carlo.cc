#include "engine/dundee/monte_carlo.h"

#include <string>

#include "engine/base/shuffle.h"
#include "engine/dundee/counts.h"
#include "engine/dundee/deals.h"

namespace eulerdeck {

Status DundeeMonteCarlo(const std::vector<int>& s, int m, const std::vector<int>& bids,
                        uint64_t decks, uint64_t seed, uint64_t* wins,
                        const DundeeMonteCarloOptions& options, uint64_t* played) {
  const int c = TotalCards(s);
  // The limit of the card games' Monte Carlo (255 cards), kept for the
  // CLI's contract; the shuffle itself would take more.
  if (c > 255) return Status::OutOfRange("Monte Carlo takes decks of at most 255 cards");
  if (m < 0 || m > c) {
    return Status::InvalidArgument("the rounds must be in 0.." + std::to_string(c));
  }
  if (!bids.empty() && (bids.size() != s.size() || TotalCards(bids) != m)) {
    return Status::InvalidArgument("the bids must have one count per value and sum to the rounds");
  }
  const DundeeDeal sorted = SortedDeal(s);
  const DundeeDeal named = SortedDeal(bids);  // the advance bid's sequence
  const DeckShuffler shuffler(seed);
  DundeeDeal deal(sorted.size());
  uint64_t won = 0, d = 0, counted = 0;
  auto count = [&] {
    if (options.deals_done != nullptr) options.deals_done->fetch_add(d - counted);
    counted = d;
  };
  for (; d < decks; ++d) {
    if (options.stop != nullptr && options.stop->load(std::memory_order_relaxed)) break;
    deal = sorted;
    shuffler.Shuffle(d, deal.data(), c);
    won += bids.empty() ? GreedySurvives(s, m, deal) : AdvanceSurvives(named, deal);
    if ((d & 1023) == 0) count();
  }
  count();
  *wins = won;
  if (played != nullptr) *played = d;
  if (d < decks) {
    return Status::Cancelled("interrupted after " + std::to_string(d) + " of " +
                             std::to_string(decks) + " deals");
  }
  return Status::OK();
}

Status CheckDundeeMonteCarlo(const std::vector<int>& s, int m, const std::vector<int>& bids,
                             uint64_t decks, uint64_t seed, double exact,
                             DundeeMonteCarloCheck* out, const DundeeMonteCarloOptions& options) {
  if (decks == 0) return Status::InvalidArgument("a Monte Carlo check needs at least one deal");
  uint64_t wins = 0;
  const Status st = DundeeMonteCarlo(s, m, bids, decks, seed, &wins, options, &decks);
  if (!st.ok() && !(st.IsCancelled() && decks > 0)) return st;
  DundeeMonteCarloCheck r;
  r.deals = decks;
  r.wins = wins;
  r.estimate = static_cast<double>(wins) / decks;
  r.ci = Wilson95(wins, decks);
  r.contains = r.ci.low <= exact && exact <= r.ci.high;
  *out = r;
  return st;
}

}  // namespace eulerdeck
