#include "engine/dundee/dundee.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <sstream>

#include "engine/base/shuffle.h"

namespace eulerdeck {

namespace {

constexpr int kMaxValues = 100;
constexpr int kMaxCount = 1000;
// The recursions go one level per card: 1000 levels fit any stack.
constexpr int kMaxTotal = 1000;

std::vector<int> SortedDesc(std::vector<int> s) {
  std::sort(s.begin(), s.end(), std::greater<int>());
  return s;
}

// n!, from a table that grows on demand: Pr(b, s) needs the same few
// factorials for every bid an optimal-bid search tries.
const mpz_class& Factorial(unsigned long n) {
  thread_local std::vector<mpz_class> table{1};
  while (table.size() <= n) table.push_back(table.back() * static_cast<unsigned long>(table.size()));
  return table[n];
}

mpz_class Binomial(unsigned long n, unsigned long k) {
  mpz_class b;
  mpz_bin_uiui(b.get_mpz_t(), n, k);
  return b;
}

}  // namespace

Status ParseCounts(const std::string& text, std::vector<int>* counts) {
  std::vector<int> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    const size_t caret = item.find('^');
    long value = -1, times = 1;
    try {
      size_t used = 0;
      const std::string head = item.substr(0, caret);
      value = std::stol(head, &used);
      if (used != head.size()) value = -1;
      if (caret != std::string::npos) {
        const std::string tail = item.substr(caret + 1);
        times = std::stol(tail, &used);
        if (used != tail.size()) times = -1;
      }
    } catch (const std::exception&) {
      value = -1;
    }
    if (value < 0 || value > kMaxCount || times < 1 || times > kMaxValues) {
      return Status::InvalidArgument("'" + item + "' in '" + text +
                                     "' is not a count (0.." + std::to_string(kMaxCount) +
                                     ") or count^times");
    }
    out.insert(out.end(), times, static_cast<int>(value));
    if (out.size() > static_cast<size_t>(kMaxValues)) {
      return Status::InvalidArgument("'" + text + "' has more than " + std::to_string(kMaxValues) + " values");
    }
  }
  if (out.empty()) return Status::InvalidArgument("no counts in '" + text + "'");
  const std::string trimmed = text.substr(0, text.find_last_not_of(" \t") + 1);
  if (!trimmed.empty() && trimmed.back() == ',') return Status::InvalidArgument("'" + text + "' ends with a comma");
  if (TotalCards(out) > kMaxTotal) {
    return Status::InvalidArgument("'" + text + "' has more than " + std::to_string(kMaxTotal) + " cards");
  }
  *counts = std::move(out);
  return Status::OK();
}

int TotalCards(const std::vector<int>& counts) { return std::accumulate(counts.begin(), counts.end(), 0); }

std::string CountsString(const std::vector<int>& counts) {
  std::string s;
  for (int x : counts) s += (s.empty() ? "" : ",") + std::to_string(x);
  return s;
}

// ---- Adaptive play ---------------------------------------------------------

namespace {

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
  int c0_, m0_;
  std::map<std::vector<int>, T> memo_;
};

}  // namespace

template <class T>
T GreedyWin(const std::vector<int>& s, int m) {
  Greedy<T> g(TotalCards(s), m);
  return g.Win(SortedDesc(s));
}

template mpq_class GreedyWin<mpq_class>(const std::vector<int>&, int);
template double GreedyWin<double>(const std::vector<int>&, int);

namespace {

// Best and worst adaptive values over all bids. At each state the player
// names a value of some remaining count x (0 included): the win probability
// is T - [x > 0] x/c V(s - one card of count x), where T sums over every card
// that can be dealt.
class Adaptive {
 public:
  Adaptive(int c0, int m0) : c0_(c0), m0_(m0) {}

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

// ---- Advance bids ----------------------------------------------------------

mpq_class AdvanceWin(const std::vector<int>& b, const std::vector<int>& s) {
  const int c = TotalCards(s);
  std::vector<mpz_class> rook{1};  // coefficients of the rook polynomial
  for (size_t i = 0; i < s.size(); ++i) {
    const int top = std::min(b[i], s[i]);
    std::vector<mpz_class> block(top + 1);
    for (int j = 0; j <= top; ++j) block[j] = Binomial(b[i], j) * Binomial(s[i], j) * Factorial(j);
    std::vector<mpz_class> product(rook.size() + top, 0);
    for (size_t a = 0; a < rook.size(); ++a) {
      for (int j = 0; j <= top; ++j) product[a + j] += rook[a] * block[j];
    }
    rook = std::move(product);
  }
  mpz_class numerator = 0;
  for (size_t k = 0; k < rook.size(); ++k) {
    const mpz_class term = rook[k] * Factorial(c - k);
    if (k % 2) numerator -= term; else numerator += term;
  }
  mpq_class p(numerator, Factorial(c));
  p.canonicalize();
  return p;
}

namespace {

// The appendix's a(b, s, f): bids left b, cards left s (value by value), f
// cards that can no longer coincide; sum b = sum s + f.
class Recursion {
 public:
  mpq_class A(const std::vector<int>& b, const std::vector<int>& s, int f) {
    if (b.empty()) return 1;
    const auto key = std::make_tuple(b, s, f);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    mpq_class prob = 0;
    if (b[0] == 0) {
      // Value 1 is never named again: its cards are safe.
      prob = A(std::vector<int>(b.begin() + 1, b.end()), std::vector<int>(s.begin() + 1, s.end()), f + s[0]);
    } else {
      const int n = f + TotalCards(s);
      std::vector<int> nb = b;
      --nb[0];
      for (size_t i = 1; i < s.size(); ++i) {
        if (s[i] == 0) continue;
        std::vector<int> ns = s;
        --ns[i];
        prob += mpq_class(s[i]) / n * A(nb, ns, f);
      }
      if (f > 0) prob += mpq_class(f) / n * A(nb, s, f - 1);
      prob.canonicalize();
    }
    memo_.emplace(key, prob);
    return prob;
  }

 private:
  std::map<std::tuple<std::vector<int>, std::vector<int>, int>, mpq_class> memo_;
};

}  // namespace

mpq_class AdvanceWinRecursion(const std::vector<int>& b, const std::vector<int>& s) {
  std::vector<int> bb = b, ss = s;
  const int extra = TotalCards(s) - TotalCards(b);
  if (extra > 0) {  // bids on a value with no cards, which never coincide
    bb.push_back(extra);
    ss.push_back(0);
  }
  Recursion r;
  return r.A(bb, ss, 0);
}

namespace {

// Calls f(deck) for every distinct order of the multiset, deck values 0..v-1.
template <class F>
uint64_t ForAllDeals(const std::vector<int>& s, F&& f) {
  std::vector<int> deck;
  for (size_t i = 0; i < s.size(); ++i) deck.insert(deck.end(), s[i], static_cast<int>(i));
  uint64_t orders = 0;
  do {
    ++orders;
    f(deck);
  } while (std::next_permutation(deck.begin(), deck.end()));
  return orders;
}

// Greedy play of one deal: name the least frequent remaining value (the
// lowest index on ties). True if it survives m rounds.
template <class Deck>
bool GreedySurvives(const std::vector<int>& s, int m, const Deck& deck) {
  std::vector<int> left = s;
  for (int t = 0; t < m; ++t) {
    const int named = static_cast<int>(std::min_element(left.begin(), left.end()) - left.begin());
    if (deck[t] == named) return false;
    --left[deck[t]];
  }
  return true;
}

}  // namespace

mpq_class AdvanceWinByDeals(const std::vector<int>& b, const std::vector<int>& s) {
  std::vector<int> bids;
  for (size_t i = 0; i < b.size(); ++i) bids.insert(bids.end(), b[i], static_cast<int>(i));
  uint64_t wins = 0;
  const uint64_t orders = ForAllDeals(s, [&](const std::vector<int>& deck) {
    bool ok = true;
    for (size_t t = 0; t < bids.size() && ok; ++t) ok = deck[t] != bids[t];
    wins += ok;
  });
  mpq_class p(static_cast<unsigned long>(wins), static_cast<unsigned long>(orders));
  p.canonicalize();
  return p;
}

mpq_class GreedyWinByDeals(const std::vector<int>& s, int m) {
  uint64_t wins = 0;
  const uint64_t orders = ForAllDeals(s, [&](const std::vector<int>& deck) { wins += GreedySurvives(s, m, deck); });
  mpq_class p(static_cast<unsigned long>(wins), static_cast<unsigned long>(orders));
  p.canonicalize();
  return p;
}

bool AlmostRegular(const std::vector<int>& b, int m) {
  const int v = static_cast<int>(b.size());
  const int lo = m / v, hi = (m + v - 1) / v;
  if (TotalCards(b) != m) return false;
  return std::all_of(b.begin(), b.end(), [&](int x) { return x == lo || x == hi; });
}

namespace {

// Enumerates bids (sum m) non-decreasing inside each group of equal s, in
// index order. With `lemma13`, only Lemma 13's shape: inside a group the
// entries differ by at most 1, and a value with more cards is named at most
// as often as one with fewer. f(bid) returns false to stop.
class BidSearch {
 public:
  BidSearch(const std::vector<int>& s, int m, bool lemma13) : s_(s), m_(m), lemma13_(lemma13), b_(s.size(), 0) {}

  template <class F>
  bool Run(F&& f) {
    return Place(0, m_, f);
  }

 private:
  template <class F>
  bool Place(size_t i, int left, F& f) {
    const size_t v = s_.size();
    if (i == v) return left == 0 ? f(b_) : true;
    int lo = 0, hi = left;
    if (i + 1 == v) lo = left;  // the last entry takes what is left
    for (size_t p = 0; p < i; ++p) {
      if (s_[p] == s_[i]) {
        lo = std::max(lo, b_[p]);  // non-decreasing inside the group
        if (lemma13_) hi = std::min(hi, b_[p] + 1);
      } else if (lemma13_ && s_[p] > s_[i]) {
        lo = std::max(lo, b_[p]);
      } else if (lemma13_ && s_[p] < s_[i]) {
        hi = std::min(hi, b_[p]);
      }
    }
    for (int x = lo; x <= hi; ++x) {
      b_[i] = x;
      if (!Place(i + 1, left - x, f)) return false;
    }
    b_[i] = 0;
    return true;
  }

  const std::vector<int>& s_;
  int m_;
  bool lemma13_;
  std::vector<int> b_;
};

}  // namespace

Status FindOptimalBids(const std::vector<int>& s, int m, uint64_t max_bids, OptimalBids* out) {
  const int c = TotalCards(s);
  if (m < 0 || m > c) return Status::InvalidArgument("the rounds must be in 0.." + std::to_string(c));
  // Count the canonical bids first (cheap next to evaluating them).
  uint64_t candidates = 0;
  BidSearch(s, m, false).Run([&](const std::vector<int>&) { return ++candidates <= max_bids; });
  const bool exhaustive = candidates <= max_bids;
  OptimalBids r;
  r.exhaustive = exhaustive;
  bool first = true;
  BidSearch(s, m, !exhaustive).Run([&](const std::vector<int>& b) {
    ++r.searched;
    const mpq_class p = AdvanceWin(b, s);
    if (first || p > r.probability) {
      r.probability = p;
      r.bids.clear();
      first = false;
    }
    if (p == r.probability) r.bids.push_back(b);
    return true;
  });
  // Each listed bid stands for the distinct rearrangements of its entries
  // inside each group of equal s: a multinomial per group.
  for (const std::vector<int>& b : r.bids) {
    mpz_class ways = 1;
    std::map<int, std::map<int, int>> groups;  // s value -> b value -> times
    for (size_t i = 0; i < s.size(); ++i) ++groups[s[i]][b[i]];
    for (const auto& [sv, bs] : groups) {
      int n = 0;
      for (const auto& [bv, k] : bs) n += k;
      mpz_class w = Factorial(n);
      for (const auto& [bv, k] : bs) w /= Factorial(k);
      ways *= w;
    }
    r.all_bids += ways;
  }
  *out = std::move(r);
  return Status::OK();
}

Status DundeeMonteCarlo(const std::vector<int>& s, int m, const std::vector<int>& bids, uint64_t decks,
                        uint64_t seed, uint64_t* wins) {
  const int c = TotalCards(s);
  // A dealt card is its value 0..v-1 in one byte, as the shuffle takes them.
  if (c > 255) return Status::OutOfRange("Monte Carlo takes decks of at most 255 cards");
  std::vector<uint8_t> sorted;
  for (size_t i = 0; i < s.size(); ++i) sorted.insert(sorted.end(), s[i], static_cast<uint8_t>(i));
  std::vector<int> named;  // the advance bid's sequence
  for (size_t i = 0; i < bids.size(); ++i) named.insert(named.end(), bids[i], static_cast<int>(i));
  const DeckShuffler shuffler(seed);
  std::vector<uint8_t> deck(sorted.size());
  uint64_t won = 0;
  for (uint64_t d = 0; d < decks; ++d) {
    deck = sorted;
    shuffler.Shuffle(d, deck.data(), c);
    if (bids.empty()) {
      won += GreedySurvives(s, m, deck);
    } else {
      bool ok = true;
      for (int t = 0; t < m && ok; ++t) ok = deck[t] != named[t];
      won += ok;
    }
  }
  *wins = won;
  return Status::OK();
}

}  // namespace eulerdeck
