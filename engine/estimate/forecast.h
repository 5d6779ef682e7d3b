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

// The one model of a job's time (issue 42, B2): what `count` and `run`
// forecast, what `status` says an interrupted count has left, and what
// `eulerdeck oeis` adds up. Sub-decks at a rate per thread measured in CPU
// time by the sampler's own exact counts (the same walk as the count's, so
// the machine's speed, whatever runs beside it), on the cores the job's
// threads can have, each getting `share` of a core (LoadMeter: from the
// other processes' runnable threads, 1 on an idle machine). Its error is a factor: the
// sub-decks' 95% interval combined with kRateErrorFactor, the spread of the
// rate and of the share between forecasts of one job (measured,
// docs/estimates.md).
inline constexpr double kRateErrorFactor = 1.5;
struct TimeForecast {
  double seconds = 0;  // 0: no rate to tell
  double factor = 1;   // the time lies within seconds / factor .. seconds × factor
};
// `relative_error`: the sub-decks' 95% half-width over their estimate (0
// when they are known). `threads` as EffectiveThreads() takes it, capped at
// the machine's cores (more threads than cores are no faster). `share` is
// clamped to 0.1..1. No time (seconds 0) when cpu_rate <= 0. Thread-safe.
TimeForecast SecondsForWork(double sub_decks, double relative_error, double cpu_rate, double share,
                            int threads);

// The share of a core each of a job's `threads` threads will get beside
// `load` other runnable tasks, each weighted as the scheduler weighs its
// nice value against ours (a task at nice 10 counts about 0.1), on `cores`
// cores: cores / (load + threads), at most 1 (and at least 0.01).
double CoreShare(double load, int threads, int cores);

// Measures that load while it lives: every 50 ms, the runnable threads of
// the other processes (/proc/*/task/*/stat, state R), each weighted
// 1.25^-nice (CFS's weights; 0 for SCHED_IDLE is not told apart), averaged.
// Not the share the sampling itself got (its CPU time over the wall's): over
// its one second that swung from 0.14 to 0.9 beside compilers (forecasts of
// one count from 16 s to 2 min for 78..102 s); nor the load average, which
// counts a niced task as a whole one and lags a minute (forecasts 1.3..2.9
// times the time beside niced builds), 2026-11-26, docs/estimates.md.
// Without /proc: the 1-minute load average. Thread-safe: Share() from any
// thread.
class LoadMeter {
 public:
  LoadMeter();
  ~LoadMeter();
  LoadMeter(const LoadMeter&) = delete;
  LoadMeter& operator=(const LoadMeter&) = delete;
  // CoreShare() of the load measured so far (one sample at least), on this
  // machine's cores.
  double Share(int threads);

 private:
  struct Rep;
  Rep* rep_;
};

struct CountForecast {
  LevelEstimate nodes;             // the sub-decks of every level: the count's work
  LevelEstimate winning;           // the winning decks
  std::vector<double> level;       // [k]: the estimated sub-decks of k cards; [0] unused
  std::vector<double> level_high;  // [k]: the upper end of level[k]'s 95% interval
  // Sub-decks per CPU-second of one thread's walk, measured on this machine
  // by the estimator's exact counts (0 when they counted too little to time).
  double rate = 0;
  double share = 1;    // of a core, that each thread will get (LoadMeter)
  double seconds = 0;  // SecondsForWork(nodes, …): 0 when rate is 0
  double factor = 1;   // its error: seconds ×/÷ factor
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
  // says. A pass writes up to --pass-levels levels before its input is
  // dropped (and compacted away, FrontierStore::CompactLevel), so the peak
  // of a mousetrap m = 12 run was the same with --keep last as with --keep
  // all (2026-11-24, before that compaction: measured again, it may be less).
  double disk_bytes = 0;
  double seconds = 0;  // 0 when count.rate is 0; its error is count.factor
};

// Up to level `last_level` (0: the last). The run's disk is the sub-decks
// times the bytes a sub-deck takes in its game's stores (measured) and its time the count's share
// of those levels times kRunOverCount, both measured (forecast.cc, docs/estimates.md).
Status ForecastRun(const GameSpec& spec, int threads, int last_level, double budget_seconds,
                   RunForecast* forecast);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_ESTIMATE_FORECAST_H_
