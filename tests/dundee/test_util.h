// Helpers shared by the tests of engine/dundee/ (tests/dundee/*_test.cc).
#ifndef EULERDECK_TESTS_DUNDEE_TEST_UTIL_H_
#define EULERDECK_TESTS_DUNDEE_TEST_UTIL_H_

#include <gmpxx.h>

#include <vector>

namespace eulerdeck {
namespace dundee_test {

using Counts = std::vector<int>;

// a/b in lowest terms.
inline mpq_class Q(long a, long b) {
  mpq_class q(a, b);
  q.canonicalize();
  return q;
}

// C(n, k), 0 outside 0 <= k <= n.
inline mpq_class Binom(long n, long k) {
  if (k < 0 || k > n) return 0;
  mpz_class b;
  mpz_bin_uiui(b.get_mpz_t(), n, k);
  return mpq_class(b);
}

}  // namespace dundee_test
}  // namespace eulerdeck

#endif  // EULERDECK_TESTS_DUNDEE_TEST_UTIL_H_
