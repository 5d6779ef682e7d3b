// What an enumeration will cost, before it starts: a second or so of the
// tree estimator (knuth.h) gives the sub-decks the count will walk, and the
// time its exact counts took gives this machine's rate (issue 18: `count`
// says what it is about to do, and a job forecast to take more than a day
// needs --force).
#ifndef EULERDECK_ENGINE_ESTIMATE_FORECAST_H_
#define EULERDECK_ENGINE_ESTIMATE_FORECAST_H_

#include <vector>

#include "engine/base/status.h"
#include "engine/cards/game.h"
#include "engine/estimate/knuth.h"

namespace eulerdeck {

struct CountForecast {
  LevelEstimate nodes;        // the sub-decks of every level: the count's work
  LevelEstimate winning;      // the winning decks
  std::vector<double> level;  // [k]: the estimated sub-decks of k cards; [0] unused
  // Sub-decks per second of one thread's walk, measured on this machine by
  // the estimator's exact counts (0 when they counted too little to time).
  double rate = 0;
  double seconds = 0;  // nodes.mean / (rate × threads); 0 when rate is 0
  int threads = 1;
  uint64_t samples = 0;  // the sampler's samples, each a population of `width`
  uint32_t width = 0;
  double sampling_seconds = 0;
};

// Samples the tree of `spec` on one thread with populations of
// kForecastWidth sub-decks a level (knuth.h), in rounds of 4 times more
// samples from 16, until the node count's 95% half-width is within 10% or
// about `budget_seconds` have passed; the same seed every time, so a
// forecast depends only on the machine's speed. InvalidArgument as
// Estimate().
inline constexpr uint32_t kForecastWidth = 64;
Status ForecastCount(const GameSpec& spec, int threads, double budget_seconds,
                     CountForecast* forecast);

// What a stored run (`eulerdeck run`, storage/) of the same tree will cost:
// the same sub-decks, written level by level as sorted compressed runs.
struct RunForecast {
  CountForecast count;
  int last_level = 0;    // the last level the run will write
  double sub_decks = 0;  // those it will write, levels 1..last_level
  // The store's size at its largest: every level written, whatever --keep
  // says. Levels dropped by --keep last/none leave the disk only when
  // RocksDB compacts their files, and a pass writes up to --pass-levels
  // levels before its input is dropped, so the peak of a mousetrap m = 12
  // run was the same with --keep last as with --keep all (2026-11-24).
  double disk_bytes = 0;
  double seconds = 0;  // 0 when count.rate is 0
};

// Up to level `last_level` (0: the last). The run's disk is the sub-decks
// times kRunBytesPerSubDeck and its time the count's share of those levels
// times kRunOverCount, both measured (forecast.cc, docs/estimates.md).
Status ForecastRun(const GameSpec& spec, int threads, int last_level, double budget_seconds,
                   RunForecast* forecast);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_ESTIMATE_FORECAST_H_
