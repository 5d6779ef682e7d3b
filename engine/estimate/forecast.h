// What an enumeration will cost, before it starts: a second or so of the
// tree estimator (knuth.h) gives the sub-decks the count will walk, and the
// time its exact counts took gives this machine's rate (issue 18: `count`
// says what it is about to do, and a job forecast to take more than a day
// needs --force).
#ifndef EULERDECK_ENGINE_ESTIMATE_FORECAST_H_
#define EULERDECK_ENGINE_ESTIMATE_FORECAST_H_

#include "engine/base/status.h"
#include "engine/cards/game.h"
#include "engine/estimate/knuth.h"

namespace eulerdeck {

struct CountForecast {
  LevelEstimate nodes;    // the sub-decks of every level: the count's work
  LevelEstimate winning;  // the winning decks
  // Sub-decks per second of one thread's walk, measured on this machine by
  // the estimator's exact counts (0 when they counted too little to time).
  double rate = 0;
  double seconds = 0;  // nodes.mean / (rate × threads); 0 when rate is 0
  int threads = 1;
  uint64_t samples = 0;
  double sampling_seconds = 0;
};

// Samples the tree of `spec` on one thread, in rounds of 4 times more
// descents from 1,000, until the node count's 95% half-width is within 10%
// or about `budget_seconds` have passed; the same seed every time, so a
// forecast depends only on the machine's speed. InvalidArgument as
// Estimate().
Status ForecastCount(const GameSpec& spec, int threads, double budget_seconds,
                     CountForecast* forecast);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_ESTIMATE_FORECAST_H_
