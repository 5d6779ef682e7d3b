#include "engine/estimate/forecast.h"

#include <algorithm>
#include <chrono>

#include "engine/base/parallel.h"

namespace eulerdeck {
namespace {

// A stored run's bytes per sub-deck, RocksDB's overhead included: 0.61
// (mousetrap m = 12), 0.77 (modular m = 11) and 0.95 (hlm m = 13 s = 2)
// on 2026-11-24 (the store's `du -sb` over the sub-decks of every level);
// the block codec alone gives 0.63-0.85 at the widest levels
// (docs/performance.md §12).
constexpr double kRunBytesPerSubDeck = 0.8;
// A stored run's time over the in-memory count's, one thread, the same three
// cases and day: 2.3, 2.2 and 1.8 (sorting, compressing and writing every
// level instead of walking it depth first). Applied at any thread count,
// as the count's own time is: both scale with the threads (on 2 threads,
// the same cases gave 2.5, 2.1 and 1.7, whole commands, 2026-11-24).
constexpr double kRunOverCount = 2.2;

}  // namespace

Status ForecastCount(const GameSpec& spec, int threads, double budget_seconds,
                     CountForecast* forecast) {
  *forecast = CountForecast();
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  EstimateOptions options;
  options.threads = 1;  // the rate is per thread
  options.seed = 1;
  // Deep enough that the exact counts are most of the work (they time the
  // rate), never the whole tree of a small deck.
  options.exact_levels = std::min(6, spec.cards() - 1);
  // Populations rather than single descents: on bushy trees the node count
  // converges far sooner for the same work (hlm s = 4 m = 8 in a second:
  // 1.6e12 +-8% against 2.6e12 +-90% with 64,000 descents; 400 samples of
  // width 1000 give 1.57e12), and the rate they time is nearer the count's
  // (the forecast of the count's seconds on 6 sizes: 1.11-1.29 times the
  // count's, against 1.2-2.15 with descents; docs/estimates.md).
  options.width = kForecastWidth;
  EstimateResult r;
  for (options.samples = 16;; options.samples *= 4) {
    const double before = elapsed();
    Status s = Estimate(spec, options, &r);
    if (!s.ok()) return s;
    const double round = elapsed() - before;
    const bool precise = r.nodes.mean > 0 && (r.nodes.high - r.nodes.mean) <= 0.1 * r.nodes.mean;
    // The next round takes about 4 times this one: stop if it would overrun.
    if (precise || elapsed() + 4 * round > budget_seconds) break;
  }
  forecast->nodes = r.nodes;
  forecast->winning = r.winning();
  forecast->level.assign(r.level.size(), 0.0);
  for (size_t k = 1; k < r.level.size(); ++k) forecast->level[k] = r.level[k].mean;
  forecast->samples = r.samples;
  forecast->width = options.width;
  forecast->threads = EffectiveThreads(threads);
  // Too little counted to time (a tiny tree): the count itself is instant.
  if (r.counting_seconds > 1e-3 && r.sub_decks_counted > 0) {
    forecast->rate = r.sub_decks_counted / r.counting_seconds;
    forecast->seconds = forecast->nodes.mean / (forecast->rate * forecast->threads);
  }
  forecast->sampling_seconds = elapsed();
  return Status::OK();
}

Status ForecastRun(const GameSpec& spec, int threads, int last_level, double budget_seconds,
                   RunForecast* forecast) {
  *forecast = RunForecast();
  if (Status s = ForecastCount(spec, threads, budget_seconds, &forecast->count); !s.ok()) return s;
  const std::vector<double>& level = forecast->count.level;
  const int last = last_level > 0 ? std::min<int>(last_level, spec.cards()) : spec.cards();
  forecast->last_level = last;
  for (int k = 1; k <= last; ++k) forecast->sub_decks += level[k];
  forecast->disk_bytes = forecast->sub_decks * kRunBytesPerSubDeck;
  if (forecast->count.nodes.mean > 0) {
    forecast->seconds = forecast->count.seconds * kRunOverCount *
                        (forecast->sub_decks / forecast->count.nodes.mean);
  }
  return Status::OK();
}

}  // namespace eulerdeck
