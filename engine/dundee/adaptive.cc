#include "engine/dundee/adaptive.h"

#include <algorithm>
#include <functional>
#include <map>
#include <utility>

#include "engine/dundee/counts.h"

namespace eulerdeck {

namespace {

// The memo key of both recursions: the remaining counts, largest first (the
// values' names do not matter, only how many cards each has left).
std::vector<int> SortedDesc(std::vector<int> s) {
  std::sort(s.begin(), s.end(), std::greater<int>());
  return s;
}

// Recurrence (3) on a sorted (non-increasing) composition. The rounds left
// follow from the cards left (one card per round), so the memo key is s.
template <class T>
class Greedy {
 public:
  Greedy(int c0, int m0) : c0_(c0), m0_(m0) {}

  T Win(const std::vector<int>& s) {
    const int c = TotalCards(s);
    const int rounds = m0_ - (c0_ - c);
    if (rounds <= 0 || s.back() == 0) return T(1);  // done, or a value is exhausted
    auto it = memo_.find(s);
    if (it != memo_.end()) return it->second;
    // The player names the last (least frequent) value; the card dealt is
    // any other value h with probability s_h / c. Equal counts give equal
    // terms, so each run of equal counts is evaluated once.
    T total(0);
    const int v = static_cast<int>(s.size());
    for (int i = 0; i < v - 1;) {
      int j = i;
      while (j < v - 1 && s[j] == s[i]) ++j;  // s[i..j) equal, the named one excluded
      std::vector<int> next = s;
      --next[i];
      total += T(s[i]) * T(j - i) / T(c) * Win(SortedDesc(next));
      i = j;
    }
    memo_.emplace(s, total);
    return total;
  }

 private:
  int c0_, m0_;  // the cards and rounds at the start
  std::map<std::vector<int>, T> memo_;
};

// Best and worst adaptive values over all bids. At each state the player
// names a value of some remaining count x (0 included): the win probability
// is T - [x > 0] x/c V(s - one card of count x), where T sums over every card
// that can be dealt.
class Adaptive {
 public:
  Adaptive(int c0, int m0) : c0_(c0), m0_(m0) {}

  // (best, worst) from the sorted composition s.
  std::pair<mpq_class, mpq_class> Values(const std::vector<int>& s) {
    const int c = TotalCards(s);
    const int rounds = m0_ - (c0_ - c);
    if (rounds <= 0) return {1, 1};
    if (auto it = memo_.find(s); it != memo_.end()) return it->second;
    // Each distinct count x > 0: its multiplicity and the values after a
    // card of count x is dealt.
    struct Option {
      int x, k;
      std::pair<mpq_class, mpq_class> after;
    };
    std::vector<Option> options;
    const int v = static_cast<int>(s.size());
    for (int i = 0; i < v;) {
      int j = i;
      while (j < v && s[j] == s[i]) ++j;
      if (s[i] > 0) {
        std::vector<int> next = s;
        --next[i];
        options.push_back({s[i], j - i, Values(SortedDesc(next))});
      }
      i = j;
    }
    mpq_class t_best = 0, t_worst = 0;
    for (const Option& o : options) {
      mpq_class share(o.x * o.k, c);  // GMP's arithmetic wants canonical operands
      share.canonicalize();
      t_best += share * o.after.first;
      t_worst += share * o.after.second;
    }
    t_best.canonicalize();
    t_worst.canonicalize();
    // Candidates: each distinct positive count, and 0 if some value is gone.
    std::vector<std::pair<int, std::pair<mpq_class, mpq_class>>> named;
    for (const Option& o : options) {
      mpq_class lose(o.x, c);
      lose.canonicalize();
      named.push_back({o.x, {t_best - lose * o.after.first, t_worst - lose * o.after.second}});
    }
    if (s.back() == 0) named.push_back({0, {t_best, t_worst}});
    mpq_class best = named[0].second.first, worst = named[0].second.second;
    for (const auto& [x, val] : named) {
      best = std::max(best, val.first);
      worst = std::min(worst, val.second);
    }
    // Theorem 2: the best bids are exactly the least frequent counts;
    // Theorem 3: in an undecided state the worst are the most frequent.
    const int least = s.back(), most = s.front();
    const bool undecided = rounds <= c - most;
    for (const auto& [x, val] : named) {
      if (best > 0 && (val.first == best) != (x == least)) greedy_unique = false;
      if (undecided && (val.second == worst) != (x == most)) anti_greedy_worst = false;
    }
    ++states;
    return memo_.emplace(s, std::make_pair(best, worst)).first->second;
  }

  bool greedy_unique = true, anti_greedy_worst = true;
  uint64_t states = 0;

 private:
  int c0_, m0_;
  std::map<std::vector<int>, std::pair<mpq_class, mpq_class>> memo_;
};

}  // namespace

template <class T>
T GreedyWin(const std::vector<int>& s, int m) {
  Greedy<T> g(TotalCards(s), m);
  return g.Win(SortedDesc(s));
}

template mpq_class GreedyWin<mpq_class>(const std::vector<int>&, int);
template double GreedyWin<double>(const std::vector<int>&, int);

AdaptiveResult AdaptiveDp(const std::vector<int>& s, int m) {
  Adaptive a(TotalCards(s), m);
  const auto [best, worst] = a.Values(SortedDesc(s));
  AdaptiveResult r;
  r.best = best;
  r.worst = worst;
  r.greedy_unique = a.greedy_unique;
  r.anti_greedy_worst = a.anti_greedy_worst;
  r.states = a.states;
  return r;
}

mpq_class WorstWinFormula(const std::vector<int>& s, int m) {
  const int c = TotalCards(s), top = *std::max_element(s.begin(), s.end());
  if (m > c - top) return 0;
  mpq_class p = 1;
  for (int i = 0; i < m; ++i) {
    mpq_class f(c - top - i, c - i);
    f.canonicalize();
    p *= f;
  }
  p.canonicalize();
  return p;
}

}  // namespace eulerdeck
