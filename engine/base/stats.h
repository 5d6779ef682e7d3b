// Confidence intervals: for proportions, shared by every Monte Carlo estimate
// (the card games, Dundee's deal-by-deal checks), and for means of i.i.d.
// samples (the tree estimates of engine/estimate).
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

// The factor t of the 95% interval mean ± t standard errors of a mean of
// `samples` i.i.d. observations: the 97.5% quantile of Student's t with
// samples - 1 degrees of freedom (12.706 for 2 samples, 2.131 for 16, 1.984
// for 100, 1.95996 in the limit). The normal 1.96 understates the width for
// few samples, as `count`'s forecast draws (16). REQUIRES samples >= 2.
double StudentT95(uint64_t samples);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_BASE_STATS_H_
