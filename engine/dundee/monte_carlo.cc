#include "engine/dundee/monte_carlo.h"

#include <string>

#include "engine/base/shuffle.h"
#include "engine/dundee/counts.h"
#include "engine/dundee/deals.h"

namespace eulerdeck {

Status DundeeMonteCarlo(const std::vector<int>& s, int m, const std::vector<int>& bids,
                        uint64_t decks, uint64_t seed, uint64_t* wins) {
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
  uint64_t won = 0;
  for (uint64_t d = 0; d < decks; ++d) {
    deal = sorted;
    shuffler.Shuffle(d, deal.data(), c);
    won += bids.empty() ? GreedySurvives(s, m, deal) : AdvanceSurvives(named, deal);
  }
  *wins = won;
  return Status::OK();
}

Status CheckDundeeMonteCarlo(const std::vector<int>& s, int m, const std::vector<int>& bids,
                             uint64_t decks, uint64_t seed, double exact,
                             DundeeMonteCarloCheck* out) {
  if (decks == 0) return Status::InvalidArgument("a Monte Carlo check needs at least one deal");
  uint64_t wins = 0;
  Status st = DundeeMonteCarlo(s, m, bids, decks, seed, &wins);
  if (!st.ok()) return st;
  DundeeMonteCarloCheck r;
  r.deals = decks;
  r.wins = wins;
  r.estimate = static_cast<double>(wins) / decks;
  r.ci = Wilson95(wins, decks);
  r.contains = r.ci.low <= exact && exact <= r.ci.high;
  *out = r;
  return Status::OK();
}

}  // namespace eulerdeck
