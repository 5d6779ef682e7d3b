#include "engine/memory/solitaire.h"

#include <tbb/parallel_invoke.h>

#include <algorithm>
#include <atomic>
#include <cfloat>
#include <limits>
#include <map>

namespace eulerdeck {

namespace {

struct VariantName {
  SolitaireVariant variant;
  const char* name;
  const char* symbol;
  SolitaireCosts costs;
};

constexpr VariantName kVariants[] = {
    {SolitaireVariant::kMoves, "standard", "e", {1, 1, 2, 1}},
    {SolitaireVariant::kFree, "free", "e^f", {0, 0, 1, 1}},
    {SolitaireVariant::kPairs10, "pairs10", "e^1.0", {0, 1, 0, 0}},
    {SolitaireVariant::kPairs15, "pairs15", "e^1.5", {1, 0, 0, 0}},
    {SolitaireVariant::kPairs20, "pairs20", "e^2.0", {0, 0, 2, 0}},
    {SolitaireVariant::kOther, "other", "e^other", {0, 0, 0, 1}},
};

const VariantName& Find(SolitaireVariant v) {
  for (const VariantName& x : kVariants) {
    if (x.variant == v) return x;
  }
  return kVariants[0];
}

// The free variant's first collection is not followed by a useful free move
// when it is the last one, so the paper fixes e^f(1,0) = e^f(1,1) = 1 and
// runs (8.1) from n = 2 (its x(0,0) = 0 would give 0 for row 1).
bool HasFixedRowOne(SolitaireVariant v) { return v == SolitaireVariant::kFree; }

// Runs f(parity) for the even and the odd k chains, on two threads if asked
// and worth it.
template <class F>
void ForParities(int threads, int n, F&& f) {
  if (threads != 1 && n >= 256) {
    tbb::parallel_invoke([&] { f(0); }, [&] { f(1); });
  } else {
    f(0);
    f(1);
  }
}

}  // namespace

Status ParseSolitaireVariant(const std::string& text, SolitaireVariant* variant) {
  if (text == "moves") {
    *variant = SolitaireVariant::kMoves;
    return Status::OK();
  }
  for (const VariantName& x : kVariants) {
    if (text == x.name) {
      *variant = x.variant;
      return Status::OK();
    }
  }
  return Status::InvalidArgument("unknown --variant '" + text +
                                 "' (standard, free, pairs10, pairs15, pairs20, other)");
}

const char* SolitaireVariantName(SolitaireVariant v) { return Find(v).name; }
const char* SolitaireVariantSymbol(SolitaireVariant v) { return Find(v).symbol; }
SolitaireCosts CostsOf(SolitaireVariant v) { return Find(v).costs; }

mpq_class SolitaireExactRow::Value(int k) const {
  if (k < 0 || k > n) return 0;
  mpq_class q(numerator[k], denominator);
  q.canonicalize();
  return q;
}

Status SolitaireExact(SolitaireVariant variant, int n_max, int threads,
                      const std::function<bool(const SolitaireExactRow&)>& on_row) {
  if (n_max < 0) return Status::InvalidArgument("n must be >= 0");
  // (2n)^2 * 4 must fit the unsigned long multipliers of mpz_*_ui.
  if (n_max > (1 << 24)) return Status::InvalidArgument("n is too large for exact rows");
  const SolitaireCosts a = CostsOf(variant);
  SolitaireExactRow prev, cur;
  mpz_class lcm = 1;  // lcm(1..2n+1); the row denominator is its square
  prev.n = 0;
  prev.numerator.assign(1, 0);
  prev.denominator = 1;
  if (!on_row(prev)) return Status::OK();
  int first = 1;
  if (HasFixedRowOne(variant) && n_max >= 1) {
    lcm = 6;
    prev.n = 1;
    prev.denominator = lcm * lcm;
    prev.numerator.assign(2, prev.denominator);
    if (!on_row(prev)) return Status::OK();
    first = 2;
  }
  for (int n = first; n <= n_max; ++n) {
    // Bring the previous row to this row's denominator: multiply by the
    // square of lcm(1..2n+1) / lcm(1..2n-1) (1 unless 2n or 2n+1 is a prime
    // power).
    unsigned long ratio = 1;
    for (unsigned long d : {2ul * n, 2ul * n + 1}) {
      const unsigned long g = mpz_gcd_ui(nullptr, lcm.get_mpz_t(), d);
      lcm *= d / g;
      ratio *= d / g;
    }
    if (ratio != 1) {
      for (mpz_class& x : prev.numerator) x *= ratio * ratio;
    }
    const mpz_class& m = cur.denominator = lcm * lcm;
    cur.n = n;
    cur.numerator.resize(n + 1);
    // k = n: the first card turned is always known, x = a1 + x(n-1, n-1).
    cur.numerator[n] = m * a.known_first + prev.numerator[n - 1];
    std::atomic<bool> exact{true};  // written by both parity tasks
    ForParities(threads, n, [&](int parity) {
      mpz_class t;
      const unsigned long un = n;
      for (int k = n - 1 - ((n - 1 - parity) & 1); k >= 0; k -= 2) {
        const unsigned long uk = k, d1 = 2 * un - uk - 1;
        const unsigned long w_known = uk * d1;                  // k (2n-k-1)
        const unsigned long w_same = 2 * (un - uk) * (1 + uk);  // 2(n-k)(1+k)
        const unsigned long w_new = 4 * (un - uk) * (un - uk - 1);
        const unsigned long c0 = w_known * a.known_first +
                                 2 * (un - uk) * (a.pair_in_move + uk * a.known_second) +
                                 w_new * a.two_new;
        mpz_mul_ui(t.get_mpz_t(), m.get_mpz_t(), c0);
        if (k >= 1) mpz_addmul_ui(t.get_mpz_t(), prev.numerator[k - 1].get_mpz_t(), w_known);
        mpz_addmul_ui(t.get_mpz_t(), prev.numerator[k].get_mpz_t(), w_same);
        if (k + 2 <= n) mpz_addmul_ui(t.get_mpz_t(), cur.numerator[k + 2].get_mpz_t(), w_new);
        const unsigned long den = (2 * un - uk) * d1;
        if (mpz_tdiv_q_ui(cur.numerator[k].get_mpz_t(), t.get_mpz_t(), den) != 0) exact = false;
      }
    });
    if (!exact) {
      return Status::Internal("solitaire row " + std::to_string(n) +
                              ": lcm(1..2n+1)^2 is not a common denominator");
    }
    std::swap(prev, cur);
    if (!on_row(prev)) return Status::OK();
  }
  return Status::OK();
}

namespace {

// Row n from row n-1 (k = n already set). One descending pass over k: the
// two parity chains (x(n,k) needs x(n,k+2)) alternate, and x(n,k+1),
// x(n,k+2) stay in registers, so the loop waits on one multiply-add per
// chain rather than on a store and a reload.
template <class T>
void RowFloat(int n, T a1, T a2, T a3, T a4, T step, const T* recip,
              const SolitaireFloatRow<T>& prev, SolitaireFloatRow<T>* cur) {
  const T tn = n;
  const T* pv = prev.value.data();
  const T* pb = prev.bound.data();
  T* cv = cur->value.data();
  T* cb = cur->bound.data();
  T x1 = cv[n], e1 = cb[n];  // x(n,k+1) and its bound
  T x2 = 0, e2 = 0;          // x(n,k+2), 0 beyond n
  for (int k = n - 1; k >= 0; --k) {
    const T tk = k, r0 = recip[2 * n - k], r1 = recip[2 * n - k - 1];
    const T p_known = tk * r0, q_r1 = (2 * (tn - tk) * r0) * r1;
    const T w_second = q_r1 * tk, w_new = q_r1 * (2 * (tn - tk - 1));
    const T y_prev = pv[k];
    const T y_known = k >= 1 ? pv[k - 1] : T(0);
    const T b_known = k >= 1 ? pb[k - 1] : T(0);
    // Everything but the chain term first: it does not wait on x2.
    const T rest =
        q_r1 * (a2 + y_prev) + w_second * (a3 + y_prev) + p_known * (a1 + y_known) + w_new * a4;
    const T rest_bound = (q_r1 + w_second) * pb[k] + p_known * b_known;
    const T x = rest + w_new * x2;
    const T e = rest_bound + w_new * e2 + step * x;
    cv[k] = x;
    cb[k] = e;
    x2 = x1;
    e2 = e1;
    x1 = x;
    e1 = e;
  }
}

}  // namespace

// Rounding error. Every entry is a sum of four nonnegative terms
// w_i (a_i + y_i), each w_i at most five roundings away from exact integers
// (n < 2^24) and rounded reciprocals 1/j, so with exact inputs the computed
// entry is within gamma_10 = 10u/(1-10u) of the true one (u the unit
// roundoff: five for a weight, two for its term, three for the sum); 16u is
// used. The weights sum to 1, so input errors pass through
// as their weighted mean: bound(n,k) <= sum w_i bound_i + 16u x(n,k), computed
// alongside (rounding in the bound itself is a relative 1e-15 of it: first
// order). Over a game of about 1.6n moves this gives bound(n,0) of about
// 16u (1.6n)^2 / 2: 2e-11 for n = 10^4 in double, 1e-6 for n = 10^6 in long
// double.
template <class T>
Status SolitaireFloat(SolitaireVariant variant, int n_max,
                      const std::function<bool(const SolitaireFloatRow<T>&)>& on_row) {
  if (n_max < 0) return Status::InvalidArgument("n must be >= 0");
  if (n_max > (1 << 24)) return Status::InvalidArgument("n is too large");
  const SolitaireCosts a = CostsOf(variant);
  const T u = std::numeric_limits<T>::epsilon() / 2;
  const T step = 16 * u;
  SolitaireFloatRow<T> prev, cur;
  prev.value.assign(1, 0);
  prev.bound.assign(1, 0);
  if (!on_row(prev)) return Status::OK();
  int first = 1;
  if (HasFixedRowOne(variant) && n_max >= 1) {
    prev.n = 1;
    prev.value.assign(2, 1);
    prev.bound.assign(2, 0);
    if (!on_row(prev)) return Status::OK();
    first = 2;
  }
  const T a1 = a.known_first, a2 = a.pair_in_move, a3 = a.known_second, a4 = a.two_new;
  // Reciprocals 1/j (rounded once) replace the divisions of the loop.
  std::vector<T> recip(2 * static_cast<size_t>(n_max) + 2, 0);
  for (size_t j = 1; j < recip.size(); ++j) recip[j] = T(1) / T(j);
  for (int n = first; n <= n_max; ++n) {
    cur.n = n;
    cur.value.resize(n + 1);
    cur.bound.resize(n + 1);
    cur.value[n] = a1 + prev.value[n - 1];
    cur.bound[n] = prev.bound[n - 1] + step * cur.value[n];
    RowFloat(n, a1, a2, a3, a4, step, recip.data(), prev, &cur);
    std::swap(prev, cur);
    if (!on_row(prev)) return Status::OK();
  }
  return Status::OK();
}

template Status SolitaireFloat<double>(
    SolitaireVariant, int, const std::function<bool(const SolitaireFloatRow<double>&)>&);
template Status SolitaireFloat<long double>(
    SolitaireVariant, int, const std::function<bool(const SolitaireFloatRow<long double>&)>&);

std::vector<std::vector<mpq_class>> SolitaireReference(SolitaireVariant variant, int n_max) {
  const SolitaireCosts c = CostsOf(variant);
  auto frac = [](int a, int b) {  // GMP needs canonical operands
    mpq_class q(a, b);
    q.canonicalize();
    return q;
  };
  std::vector<std::vector<mpq_class>> x(n_max + 1);
  auto at = [&](int n, int k) -> mpq_class {
    if (n < 0 || k < 0 || k > n) return 0;
    return x[n][k];
  };
  for (int n = 0; n <= n_max; ++n) {
    x[n].assign(n + 1, 0);
    if (n == 0) continue;
    if (n == 1 && HasFixedRowOne(variant)) {
      x[1] = {1, 1};
      continue;
    }
    for (int k = n; k >= 0; --k) {
      const mpq_class p1 = frac(k, 2 * n - k), q = frac(2 * (n - k), 2 * n - k);
      mpq_class v = p1 * (c.known_first + at(n - 1, k - 1));
      if (k < n) {
        const int d1 = 2 * n - k - 1;
        v += q * (frac(1, d1) * (c.pair_in_move + at(n - 1, k)) +
                  frac(k, d1) * (c.known_second + at(n - 1, k)) +
                  frac(2 * (n - k - 1), d1) * (c.two_new + at(n, k + 2)));
      }
      x[n][k] = v;
    }
  }
  return x;
}

mpq_class SolitaireByPlay(SolitaireVariant variant, int n) {
  // Labels 0..n-1 twice each, in every distinct order; the strategy of
  // Lemma 4.1 turns unknown cards in this order.
  std::vector<int> order;
  for (int l = 0; l < n; ++l) order.insert(order.end(), 2, l);
  mpz_class total = 0;
  uint64_t decks = 0;
  do {
    ++decks;
    std::vector<int> seen(n, 0);  // cards of each label turned so far
    int next = 0, moves = 0, pairs10 = 0, pairs15 = 0, pairs20 = 0, other = 0;
    int known_pairs = 0;  // both cards known, not yet collected
    int collected = 0;
    while (collected < n) {
      ++moves;
      if (known_pairs > 0) {  // collect a known pair (it is a 2.0-pair)
        --known_pairs;
        ++collected;
        continue;
      }
      const int first = order[next++];
      if (++seen[first] == 2) {  // its partner is known: a 1.5-pair
        ++pairs15;
        ++collected;
        continue;
      }
      const int second = order[next++];
      ++seen[second];
      if (second == first) {
        ++pairs10;
        ++collected;
      } else if (seen[second] == 2) {
        ++pairs20;
        ++known_pairs;
      } else {
        ++other;
      }
    }
    int count = 0;
    switch (variant) {
      case SolitaireVariant::kMoves:
        count = moves;
        break;
      case SolitaireVariant::kFree:
        count = moves - (n - 1);  // every collection but the last is followed by a free move
        break;
      case SolitaireVariant::kPairs10:
        count = pairs10;
        break;
      case SolitaireVariant::kPairs15:
        count = pairs15;
        break;
      case SolitaireVariant::kPairs20:
        count = 2 * pairs20;
        break;
      case SolitaireVariant::kOther:
        count = other;
        break;
    }
    total += count;
  } while (std::next_permutation(order.begin(), order.end()));
  mpq_class mean(total, decks);
  mean.canonicalize();
  return mean;
}

}  // namespace eulerdeck
