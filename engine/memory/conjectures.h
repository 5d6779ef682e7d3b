// The claims of Alfthan (2007, Terminating Memory §2.3 and Appendix A)
// checked over a table of E(n,j) (terminating.h):
//
// - Conjecture 1: "except for smaller boards, n < 16, the optimal strategy
//   is to use the risky strategy when j is odd and safe strategy when j is
//   even" (1 <= j < n, where there is a choice). Up to n = 200 it has exactly
//   twelve exceptions, all with n <= 15.
// - Conjecture 2: "except for smaller j, j < 18, E(n,j)/n is monotone in n
//   for fixed j, growing if j is even and declining if j is odd". Read
//   literally (every n >= j) it fails at j = 21, from n = 21 to 22; from
//   n = j + 1 on it holds up to n = 2000 (docs/memory.md).
// - The closed forms for j <= 4 (TerminatingClosedForm).
#ifndef EULERDECK_ENGINE_MEMORY_CONJECTURES_H_
#define EULERDECK_ENGINE_MEMORY_CONJECTURES_H_

#include <map>
#include <utility>
#include <vector>

#include "engine/base/status.h"
#include "engine/memory/terminating.h"

namespace eulerdeck {

constexpr int kConjecture1FromN = 16;  // Conjecture 1: no exception for n >= 16
constexpr int kConjecture2FromJ = 18;  // Conjecture 2: every j >= 18

struct TerminatingChecks {
  int n_max = 0;
  // Every (n, j), 1 <= j < n, whose optimal move is not "risky iff j is
  // odd" (a tie counts as an exception), by n then j.
  std::vector<std::pair<int, int>> exceptions;
  // The smallest a with no exception for n >= a: Conjecture 1 holds on
  // a <= n <= n_max, and is confirmed when a <= kConjecture1FromN.
  int pattern_holds_from = 1;
  bool conjecture1_confirmed = true;
  // Conjecture 2, for every j >= kConjecture2FromJ and n >= j: each (j, n)
  // where the step from E(n,j)/n to E(n+1,j)/(n+1) is not strict in the
  // conjectured direction, by j then n. In floating point, two values within
  // a relative 1e-12 of each other count as equal (so as a failure).
  std::vector<std::pair<int, int>> conjecture2_failures;
  // The same for 1 <= j < kConjecture2FromJ, which the conjecture excludes:
  // j -> every such n, for the j that have one.
  std::map<int, std::vector<int>> small_j_failures;
  // E(n,j) against the closed form for 0 <= j <= 4, j <= n <= n_max: exactly,
  // or in floating point within 1e-12 (1 + n).
  int closed_forms_checked = 0;
  int closed_forms_failed = 0;
  // The smallest |safe - risky| for 1 <= j < n (each side rounded to double
  // first): how far from a tie the table is; 1e300 when n_max < 2.
  double min_safe_risky_margin = 1e300;
};

// Checks the table (T = mpq_class, double, long double; its n_max may be 0).
template <class T>
TerminatingChecks CheckTerminating(const TerminatingTable<T>& table);

// Terminating(n_max, table), then CheckTerminating into *checks: the whole
// survey in one call. Errors as Terminating's. Cancelled when options.stop
// was set: *table and *checks are then those of the rows done, exactly the
// survey of n_max = table->n_max (n_max = 0 if not even row 1 was done).
template <class T>
Status SurveyTerminating(int n_max, TerminatingTable<T>* table, TerminatingChecks* checks,
                         const TerminatingOptions& options = {});

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_MEMORY_CONJECTURES_H_
