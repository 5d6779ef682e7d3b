#include "engine/base/stats.h"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>

namespace eulerdeck {

Interval Wilson95(uint64_t k, uint64_t n) {
  if (n == 0) return {0.0, 1.0};
  const double z = 1.959963984540054;
  const double p = static_cast<double>(k) / n, z2 = z * z, nn = static_cast<double>(n);
  const double center = (p + z2 / (2 * nn)) / (1 + z2 / nn);
  const double half = z * std::sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn)) / (1 + z2 / nn);
  // At k = 0 (k = n) the bound is exactly 0 (1); rounding would leave ~1e-17.
  return {k == 0 ? 0.0 : std::max(0.0, center - half), k == n ? 1.0 : std::min(1.0, center + half)};
}

double StudentT95(uint64_t samples) {
  const boost::math::students_t t(static_cast<double>(samples - 1));
  return boost::math::quantile(boost::math::complement(t, 0.025));
}

}  // namespace eulerdeck
