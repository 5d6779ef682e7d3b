#include "engine/memory/terminating.h"

#include <string>

namespace eulerdeck {

namespace {

// a/b in T (for GMP, a canonical quotient).
template <class T>
T Ratio(long a, long b) {
  return T(a) / T(b);
}

}  // namespace

template <class T>
Status Terminating(int n_max, TerminatingTable<T>* t, const TerminatingOptions& options) {
  if (n_max < 0 || n_max >= (1 << 20)) return Status::InvalidArgument("n must be in 0..1048575");
  t->n_max = n_max;
  t->value.assign(n_max + 1, {});
  t->safe.assign(n_max + 1, {});
  t->risky.assign(n_max + 1, {});
  t->move.assign(n_max + 1, {});
  for (int n = 0; n <= n_max; ++n) {
    t->value[n].assign(n + 1, T(0));
    t->safe[n].assign(n + 1, T(0));
    t->risky[n].assign(n + 1, T(0));
    t->move[n].assign(n + 1, TmMove::kNoChoice);
    if (n == 0) continue;
    const auto& E = t->value;
    for (int j = 0; j <= n; ++j) {
      const long k = n - j, N = n + j, jj = j;
      T risky(0), safe(0);
      if (k >= 1) {
        const T first_matches = Ratio<T>(k, N) * (1 + E[n - 1][j]);
        risky += first_matches;
        safe += first_matches;
      }
      if (j >= 1) {
        const long pairs = N * (N - 1);  // >= 2: j >= 1 means N >= 2
        if (j >= 2) risky += Ratio<T>(4 * jj * (jj - 1), pairs) * (n - E[n][j - 2]);
        risky += Ratio<T>(2 * jj, pairs) * (1 + E[n - 1][j - 1]);
        if (k >= 1) risky += Ratio<T>(2 * jj * k, pairs) * (n - 1 - E[n - 1][j - 1]);
        if (k >= 1) safe += Ratio<T>(2 * jj, N) * (n - E[n][j - 1]);
      }
      t->risky[n][j] = risky;
      t->safe[n][j] = safe;
      if (k == 0) {
        t->value[n][j] = risky;  // no known card: two unseen cards, forced
      } else if (j == 0) {
        t->value[n][j] = risky;  // nothing to choose: every first card matches
      } else if (safe > risky) {
        t->value[n][j] = safe;
        t->move[n][j] = TmMove::kSafe;
      } else {
        t->value[n][j] = risky;
        t->move[n][j] = risky > safe ? TmMove::kRisky : TmMove::kTie;
      }
    }
    if (options.entries_done != nullptr) {
      options.entries_done->fetch_add(n + 1, std::memory_order_relaxed);
    }
    if (n < n_max && options.stop != nullptr && options.stop->load(std::memory_order_relaxed)) {
      // Rows 0..n are the table of n_max = n.
      t->n_max = n;
      t->value.resize(n + 1);
      t->safe.resize(n + 1);
      t->risky.resize(n + 1);
      t->move.resize(n + 1);
      return Status::Cancelled("interrupted after n = " + std::to_string(n) + " of " +
                               std::to_string(n_max));
    }
  }
  return Status::OK();
}

template Status Terminating<mpq_class>(int, TerminatingTable<mpq_class>*,
                                       const TerminatingOptions&);
template Status Terminating<double>(int, TerminatingTable<double>*, const TerminatingOptions&);
template Status Terminating<long double>(int, TerminatingTable<long double>*,
                                         const TerminatingOptions&);

mpq_class TerminatingClosedForm(int n, int j) {
  const mpz_class x = n;
  mpq_class q;
  switch (j) {
    case 0:
      q = x;
      break;
    case 1:
      q = mpq_class(x + 2, 3);
      break;
    case 2:
      q = mpq_class(11 * x - 12, 15);
      break;
    case 3:
      q = mpq_class(13 * x * x + 119 * x - 180, 35 * (x + 3));
      break;
    case 4:
      q = mpq_class(211 * x * x + 72 * x + 1232, 315 * (x + 4));
      break;
    default:
      return -1;
  }
  q.canonicalize();
  return q;
}

}  // namespace eulerdeck
