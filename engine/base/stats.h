// Confidence intervals for proportions, shared by every Monte Carlo estimate
// (the card games, Dundee's deal-by-deal checks).
#ifndef EULERDECK_ENGINE_BASE_STATS_H_
#define EULERDECK_ENGINE_BASE_STATS_H_

#include <cstdint>

namespace eulerdeck {

struct Interval {
  double low, high;
};

// Wilson score interval for k successes in n trials at 95% (z = 1.959964).
// Chosen over the normal (Wald) interval because it stays inside [0, 1] and
// keeps its coverage for the tiny win probabilities of the card games.
// n = 0 gives [0, 1].
Interval Wilson95(uint64_t k, uint64_t n);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_BASE_STATS_H_
