#include "engine/dundee/deals.h"

#include <algorithm>

namespace eulerdeck {

namespace {

// wins / orders in lowest terms.
mpq_class Fraction(uint64_t wins, uint64_t orders) {
  mpq_class p(static_cast<unsigned long>(wins), static_cast<unsigned long>(orders));
  p.canonicalize();
  return p;
}

}  // namespace

DundeeDeal SortedDeal(const std::vector<int>& s) {
  DundeeDeal deal;
  for (size_t i = 0; i < s.size(); ++i) deal.insert(deal.end(), s[i], static_cast<DundeeValue>(i));
  return deal;
}

uint64_t ForAllDeals(const std::vector<int>& s, const std::function<void(const DundeeDeal&)>& f) {
  DundeeDeal deal = SortedDeal(s);
  uint64_t orders = 0;
  do {
    ++orders;
    f(deal);
  } while (std::next_permutation(deal.begin(), deal.end()));
  return orders;
}

bool GreedySurvives(const std::vector<int>& s, int m, const DundeeDeal& deal) {
  std::vector<int> left = s;
  for (int t = 0; t < m; ++t) {
    const int named = static_cast<int>(std::min_element(left.begin(), left.end()) - left.begin());
    if (deal[t] == named) return false;
    --left[deal[t]];
  }
  return true;
}

bool AdvanceSurvives(const DundeeDeal& named, const DundeeDeal& deal) {
  for (size_t t = 0; t < named.size(); ++t) {
    if (deal[t] == named[t]) return false;
  }
  return true;
}

mpq_class AdvanceWinByDeals(const std::vector<int>& b, const std::vector<int>& s) {
  const DundeeDeal named = SortedDeal(b);
  uint64_t wins = 0;
  const uint64_t orders =
      ForAllDeals(s, [&](const DundeeDeal& deal) { wins += AdvanceSurvives(named, deal); });
  return Fraction(wins, orders);
}

mpq_class GreedyWinByDeals(const std::vector<int>& s, int m) {
  uint64_t wins = 0;
  const uint64_t orders =
      ForAllDeals(s, [&](const DundeeDeal& deal) { wins += GreedySurvives(s, m, deal); });
  return Fraction(wins, orders);
}

}  // namespace eulerdeck
