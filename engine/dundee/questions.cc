#include "engine/dundee/questions.h"

#include <algorithm>
#include <string>
#include <utility>

#include "engine/dundee/advance.h"
#include "engine/dundee/counts.h"

namespace eulerdeck {

namespace {

// The precondition every question shares: a deck with cards.
Status CheckDeck(const std::vector<int>& deck) {
  if (TotalCards(deck) == 0) return Status::InvalidArgument("the deck has no cards");
  return Status::OK();
}

}  // namespace

Status AnswerDundeeGreedy(const DundeeGreedyQuery& query, DundeeGreedyReport* report) {
  const std::vector<int>& s = query.deck;
  const int m = query.rounds;
  Status st = CheckDeck(s);
  if (!st.ok()) return st;
  const int c = TotalCards(s);
  if (m < 0 || m > c)
    return Status::InvalidArgument("the rounds must be in 0.." + std::to_string(c));
  DundeeGreedyReport r;
  if (query.exact) {
    r.greedy = GreedyWin<mpq_class>(s, m);
    r.greedy_double = r.greedy.get_d();
    r.adaptive = AdaptiveDp(s, m);
    r.optimal_equals_greedy = r.adaptive.best == r.greedy;
    r.worst_formula = WorstWinFormula(s, m);
    r.theorem3_applies = *std::min_element(s.begin(), s.end()) >= 1;
    r.worst_formula_agrees = r.worst_formula == r.adaptive.worst;
  } else {
    r.greedy_double = GreedyWin<double>(s, m);
  }
  if (query.mc_deals > 0) {
    DundeeMonteCarloCheck mc;
    st = CheckDundeeMonteCarlo(s, m, {}, query.mc_deals, query.mc_seed, r.greedy_double, &mc,
                               query.mc_options);
    if (!st.ok() && !st.IsCancelled()) return st;
    if (mc.deals > 0) r.monte_carlo = mc;
  }
  *report = std::move(r);
  return st;
}

Status AnswerDundeeAdvance(const DundeeAdvanceQuery& query, DundeeAdvanceReport* report) {
  const std::vector<int>& s = query.deck;
  const std::vector<int>& b = query.bids;
  Status st = CheckDeck(s);
  if (!st.ok()) return st;
  if (b.size() != s.size()) {
    return Status::InvalidArgument("the bids have " + std::to_string(b.size()) +
                                   " values, the deck " + std::to_string(s.size()));
  }
  if (TotalCards(b) > TotalCards(s))
    return Status::InvalidArgument("more bids (rounds) than cards");
  DundeeAdvanceReport r;
  r.rounds = TotalCards(b);
  r.probability = AdvanceWin(b, s);
  r.almost_regular = AlmostRegular(b, r.rounds);
  if (query.recursion) {
    r.recursion = AdvanceWinRecursion(b, s);
    r.recursion_agrees = r.recursion == r.probability;
  }
  if (query.mc_deals > 0) {
    DundeeMonteCarloCheck mc;
    st = CheckDundeeMonteCarlo(s, r.rounds, b, query.mc_deals, query.mc_seed, r.probability.get_d(),
                               &mc, query.mc_options);
    if (!st.ok() && !st.IsCancelled()) return st;
    if (mc.deals > 0) r.monte_carlo = mc;
  }
  *report = std::move(r);
  return st;
}

Status TabulateOptimalBids(const DundeeOptimalBidsQuery& query,
                           const std::function<void(const DundeeOptimalBidsRow&)>& row) {
  for (const std::vector<int>& s : query.decks) {
    Status st = CheckDeck(s);
    if (!st.ok()) return st;
    const int c = TotalCards(s);
    std::vector<int> ms;
    if (query.rounds_all) {
      for (int m = 1; m <= c; ++m) ms.push_back(m);
    } else {
      ms.push_back(query.rounds >= 0 ? query.rounds : c);
    }
    for (int m : ms) {
      if (query.stop != nullptr && query.stop->load(std::memory_order_relaxed)) {
        return Status::Cancelled("interrupted before deck " + CountsString(s) +
                                 ", m = " + std::to_string(m));
      }
      DundeeOptimalBidsRow r;
      r.deck = s;
      r.cards = c;
      r.rounds = m;
      st = FindOptimalBids(s, m, query.max_bids, &r.optimal, query.stop);
      if (!st.ok()) return st;
      row(r);
      if (query.rows_done != nullptr) query.rows_done->fetch_add(1, std::memory_order_relaxed);
    }
  }
  return Status::OK();
}

}  // namespace eulerdeck
