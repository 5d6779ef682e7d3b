#include "engine/estimate/forecast.h"

#include <algorithm>
#include <chrono>

#include "engine/base/parallel.h"

namespace eulerdeck {

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
  EstimateResult r;
  for (options.samples = 1000;; options.samples *= 4) {
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
  forecast->samples = r.samples;
  forecast->threads = EffectiveThreads(threads);
  // Too little counted to time (a tiny tree): the count itself is instant.
  if (r.counting_seconds > 1e-3 && r.sub_decks_counted > 0) {
    forecast->rate = r.sub_decks_counted / r.counting_seconds;
    forecast->seconds = forecast->nodes.mean / (forecast->rate * forecast->threads);
  }
  forecast->sampling_seconds = elapsed();
  return Status::OK();
}

}  // namespace eulerdeck
