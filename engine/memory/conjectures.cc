#include "engine/memory/conjectures.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace eulerdeck {

namespace {

// The sign of a - b; in floating point, 0 within a relative 1e-12 (the
// steps of E(n,j)/n that matter are far larger; rounding is far smaller).
int Compare(const mpq_class& a, const mpq_class& b) {
  const int c = cmp(a, b);
  return c > 0 ? 1 : c < 0 ? -1 : 0;
}
template <class T>
int Compare(T a, T b) {
  const T tol = T(1e-12L) * (std::abs(a) + std::abs(b));
  return a - b > tol ? 1 : b - a > tol ? -1 : 0;
}

double ToDouble(const mpq_class& q) { return q.get_d(); }
template <class T>
double ToDouble(T x) {
  return static_cast<double>(x);
}

}  // namespace

template <class T>
TerminatingChecks CheckTerminating(const TerminatingTable<T>& t) {
  TerminatingChecks c;
  const int n_max = c.n_max = t.n_max;
  // Conjecture 1's pattern, and how far from a tie every choice is.
  for (int n = 1; n <= n_max; ++n) {
    for (int j = 1; j < n; ++j) {
      const TmMove want = j % 2 ? TmMove::kRisky : TmMove::kSafe;
      if (t.move[n][j] != want) {
        c.exceptions.push_back({n, j});
        c.pattern_holds_from = n + 1;
      }
      c.min_safe_risky_margin = std::min(
          c.min_safe_risky_margin, std::abs(ToDouble(t.safe[n][j]) - ToDouble(t.risky[n][j])));
    }
  }
  c.conjecture1_confirmed = c.pattern_holds_from <= kConjecture1FromN;
  // Conjecture 2: E(n,j)/n grows in n for even j and falls for odd j.
  for (int j = 1; j <= n_max; ++j) {
    for (int n = j; n < n_max; ++n) {
      const T a = t.value[n][j] / n, b = t.value[n + 1][j] / (n + 1);
      if (Compare(b, a) != (j % 2 == 0 ? 1 : -1)) {
        if (j >= kConjecture2FromJ) {
          c.conjecture2_failures.push_back({j, n});
        } else {
          c.small_j_failures[j].push_back(n);
        }
      }
    }
  }
  // The closed forms for j <= 4.
  for (int j = 0; j <= 4; ++j) {
    for (int n = j; n <= n_max; ++n) {
      ++c.closed_forms_checked;
      const mpq_class want = TerminatingClosedForm(n, j);
      if constexpr (std::is_same_v<T, mpq_class>) {
        c.closed_forms_failed += t.value[n][j] != want;
      } else {
        c.closed_forms_failed += std::abs(ToDouble(t.value[n][j]) - want.get_d()) > 1e-12 * (1 + n);
      }
    }
  }
  return c;
}

template <class T>
Status SurveyTerminating(int n_max, TerminatingTable<T>* table, TerminatingChecks* checks,
                         const TerminatingOptions& options) {
  const Status s = Terminating(n_max, table, options);
  if (s.ok() || s.IsCancelled()) *checks = CheckTerminating(*table);
  return s;
}

template TerminatingChecks CheckTerminating<mpq_class>(const TerminatingTable<mpq_class>&);
template TerminatingChecks CheckTerminating<double>(const TerminatingTable<double>&);
template TerminatingChecks CheckTerminating<long double>(const TerminatingTable<long double>&);
template Status SurveyTerminating<mpq_class>(int, TerminatingTable<mpq_class>*, TerminatingChecks*,
                                             const TerminatingOptions&);
template Status SurveyTerminating<double>(int, TerminatingTable<double>*, TerminatingChecks*,
                                          const TerminatingOptions&);
template Status SurveyTerminating<long double>(int, TerminatingTable<long double>*,
                                               TerminatingChecks*, const TerminatingOptions&);

}  // namespace eulerdeck
