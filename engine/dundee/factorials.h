// Exact factorials and binomials shared by the advance-bid formula and the
// optimal-bid count. Internal to engine/dundee/ (namespace dundee).
#ifndef EULERDECK_ENGINE_DUNDEE_FACTORIALS_H_
#define EULERDECK_ENGINE_DUNDEE_FACTORIALS_H_

#include <gmpxx.h>

namespace eulerdeck {
namespace dundee {

// n!, from a per-thread table that grows on demand: Pr(b, s) needs the same
// few factorials for every bid an optimal-bid search tries. The reference
// stays valid for the life of the calling thread (the table never moves an
// entry).
const mpz_class& Factorial(unsigned long n);

// C(n, k); 0 when k > n.
mpz_class Binomial(unsigned long n, unsigned long k);

}  // namespace dundee
}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_DUNDEE_FACTORIALS_H_
