#include "engine/dundee/advance.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include "engine/dundee/counts.h"
#include "engine/dundee/factorials.h"

namespace eulerdeck {

using dundee::Binomial;
using dundee::Factorial;

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
  // The (c-k)! are those of the whole deck, also when m < c: the positions
  // without a bid are bids on a value with no cards (the paper's "value 0").
  mpz_class numerator = 0;
  for (size_t k = 0; k < rook.size(); ++k) {
    const mpz_class term = rook[k] * Factorial(c - k);
    if (k % 2) {
      numerator -= term;
    } else {
      numerator += term;
    }
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
      prob = A(std::vector<int>(b.begin() + 1, b.end()), std::vector<int>(s.begin() + 1, s.end()),
               f + s[0]);
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

bool AlmostRegular(const std::vector<int>& b, int m) {
  const int v = static_cast<int>(b.size());
  const int lo = m / v, hi = (m + v - 1) / v;
  if (TotalCards(b) != m) return false;
  return std::all_of(b.begin(), b.end(), [&](int x) { return x == lo || x == hi; });
}

}  // namespace eulerdeck
