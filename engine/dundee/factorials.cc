#include "engine/dundee/factorials.h"

#include <deque>

namespace eulerdeck {
namespace dundee {

const mpz_class& Factorial(unsigned long n) {
  // A deque: growing it never moves the entries already handed out.
  thread_local std::deque<mpz_class> table{1};
  while (table.size() <= n) {
    table.push_back(table.back() * static_cast<unsigned long>(table.size()));
  }
  return table[n];
}

mpz_class Binomial(unsigned long n, unsigned long k) {
  mpz_class b;
  mpz_bin_uiui(b.get_mpz_t(), n, k);
  return b;
}

}  // namespace dundee
}  // namespace eulerdeck
