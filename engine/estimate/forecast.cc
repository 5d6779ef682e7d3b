#include "engine/estimate/forecast.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>

#include "engine/base/parallel.h"

namespace eulerdeck {
namespace {

// A stored run's bytes per sub-deck, RocksDB's overhead included (the
// store's `du -sb` over the sub-decks of every level), by game. Since store
// format 3 (2026-11-29), levels are stored as tries where their ranks
// allow (storage/run/block_expander.h, BlockFormatFor()):
// mousetrap m = 12 0.39, hlm m = 13 s = 2 0.75, modular m = 11 0.73 (0.61,
// 0.95 and 0.77 in format 2, 2026-11-24). docs/performance.md §33.
double RunBytesPerSubDeck(const GameSpec& spec) {
  return spec.game == Game::kMousetrap ? 0.4 : 0.75;
}

// A stored run's time over the in-memory count's, one thread, the same three
// cases and day: 2.3, 2.2 and 1.8 (sorting, compressing and writing every
// level instead of walking it depth first). Applied at any thread count,
// as the count's own time is: both scale with the threads (on 2 threads,
// the same cases gave 2.5, 2.1 and 1.7, whole commands, 2026-11-24).
constexpr double kRunOverCount = 2.2;

}  // namespace

TimeForecast SecondsForWork(double sub_decks, double relative_error, double cpu_rate, double share,
                            int threads) {
  TimeForecast t;
  if (cpu_rate <= 0 || sub_decks <= 0) return t;
  const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  const int used = std::min(EffectiveThreads(threads), cores);
  t.seconds = sub_decks / (cpu_rate * used * std::clamp(share, 0.01, 1.0));
  // Independent errors multiply: their logarithms add in quadrature.
  const double nodes = std::log1p(std::max(0.0, relative_error));
  const double rate = std::log(kRateErrorFactor);
  t.factor = std::exp(std::sqrt(nodes * nodes + rate * rate));
  return t;
}

double CoreShare(double load, int threads, int cores) {
  if (!(load >= 0)) load = 0;
  const double used = std::min(std::max(1, threads), std::max(1, cores));
  return std::clamp(std::max(1, cores) / (load + used), 0.01, 1.0);
}

namespace {

// The other processes' runnable threads now, weighted by nice (LoadMeter);
// -1 when /proc cannot be read.
double RunnableOthers() {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::directory_iterator procs("/proc", ec);
  if (ec) return -1;
  const std::string self = std::to_string(::getpid());
  double load = 0;
  for (const fs::directory_entry& p : procs) {
    const std::string pid = p.path().filename().string();
    if (pid.empty() || !std::isdigit(static_cast<unsigned char>(pid[0])) || pid == self) continue;
    std::error_code task_ec;
    for (const fs::directory_entry& t : fs::directory_iterator(p.path() / "task", task_ec)) {
      std::ifstream in(t.path() / "stat");
      std::string line;
      if (!std::getline(in, line)) continue;
      // "pid (comm) S ppid ...": the fields after the last ')' start at
      // the state (field 3); nice is field 19.
      const size_t close = line.rfind(')');
      if (close == std::string::npos) continue;
      std::istringstream fields(line.substr(close + 1));
      std::string field;
      std::string state;
      long nice = 0;
      for (int i = 3; i <= 19 && fields >> field; ++i) {
        if (i == 3) state = field;
        if (i == 19) nice = std::strtol(field.c_str(), nullptr, 10);
      }
      if (state == "R") load += std::pow(1.25, -static_cast<double>(nice));
    }
  }
  return load;
}

}  // namespace

struct LoadMeter::Rep {
  std::mutex mu;
  std::condition_variable cv;
  bool stop = false;
  double sum = 0;
  int samples = 0;
  std::thread thread;
  void Sample() {
    double load = RunnableOthers();
    if (load < 0) {
      double average[1] = {0};
      load = getloadavg(average, 1) == 1 ? average[0] : 0;
    }
    std::lock_guard<std::mutex> lock(mu);
    sum += load;
    ++samples;
  }
};

LoadMeter::LoadMeter() : rep_(new Rep) {
  rep_->Sample();
  rep_->thread = std::thread([r = rep_] {
    std::unique_lock<std::mutex> lock(r->mu);
    while (!r->cv.wait_for(lock, std::chrono::milliseconds(50), [r] { return r->stop; })) {
      lock.unlock();
      r->Sample();
      lock.lock();
    }
  });
}

LoadMeter::~LoadMeter() {
  {
    std::lock_guard<std::mutex> lock(rep_->mu);
    rep_->stop = true;
  }
  rep_->cv.notify_all();
  rep_->thread.join();
  delete rep_;
}

double LoadMeter::Share(int threads) {
  double load = 0;
  {
    std::lock_guard<std::mutex> lock(rep_->mu);
    load = rep_->samples > 0 ? rep_->sum / rep_->samples : 0;
  }
  const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  return CoreShare(load, EffectiveThreads(threads), cores);
}

Status ForecastCount(const GameSpec& spec, int threads, double budget_seconds,
                     CountForecast* forecast) {
  *forecast = CountForecast();
  const auto start = std::chrono::steady_clock::now();
  LoadMeter load;  // the machine's load while the sampling runs
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
  forecast->level_high.assign(r.level.size(), 0.0);
  for (size_t k = 1; k < r.level.size(); ++k) {
    forecast->level[k] = r.level[k].mean;
    forecast->level_high[k] = r.level[k].high;
  }
  forecast->samples = r.samples;
  forecast->width = options.width;
  forecast->threads = EffectiveThreads(threads);
  forecast->sampling_seconds = elapsed();
  forecast->share = load.Share(threads);
  // Too little counted to time (a tiny tree): the count itself is instant.
  if (r.counting_seconds > 1e-3 && r.sub_decks_counted > 0) {
    forecast->rate = r.sub_decks_counted / r.counting_seconds;
    const double relative =
        r.nodes.mean > 0 ? std::max(0.0, r.nodes.high - r.nodes.mean) / r.nodes.mean : 0;
    const TimeForecast t = SecondsForWork(forecast->nodes.mean, relative, forecast->rate,
                                          forecast->share, forecast->threads);
    forecast->seconds = t.seconds;
    forecast->factor = t.factor;
  }
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
  forecast->disk_bytes = forecast->sub_decks * RunBytesPerSubDeck(spec);
  if (forecast->count.nodes.mean > 0) {
    forecast->seconds = forecast->count.seconds * kRunOverCount *
                        (forecast->sub_decks / forecast->count.nodes.mean);
  }
  return Status::OK();
}

}  // namespace eulerdeck
