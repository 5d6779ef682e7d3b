#include "tools/common/progress.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "tools/common/format.h"

namespace eulerdeck::tools {

namespace {
// A terminal line is redrawn this often; a log line is written this often.
constexpr double kTtyPeriodSeconds = 0.5;
constexpr double kLogPeriodSeconds = 10.0;
std::atomic<bool> g_quiet{false};
}  // namespace

void SetQuiet(bool quiet) { g_quiet.store(quiet); }
bool Quiet() { return g_quiet.load(); }

Progress::Progress(std::string label, std::string unit, const std::atomic<uint64_t>* done,
                   const std::atomic<uint64_t>* total, double delay_seconds,
                   std::function<std::string()> extra)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      done_(done),
      total_(total),
      delay_seconds_(delay_seconds),
      extra_(std::move(extra)),
      thread_([this] { Loop(); }) {}

Progress::~Progress() { Stop(); }

void Progress::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stop_) return;
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
  if (drawn_ && isatty(STDERR_FILENO)) std::fprintf(stderr, "\r\033[K");
}

void Progress::Loop() {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const bool tty = isatty(STDERR_FILENO);
  const double period = tty ? kTtyPeriodSeconds : kLogPeriodSeconds;
  std::unique_lock<std::mutex> lock(mu_);
  double next = delay_seconds_;
  if (Quiet()) return;
  while (!stop_) {
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    if (elapsed >= next) {
      Draw(elapsed, tty);
      next = elapsed + period;
    }
    cv_.wait_for(lock,
                 std::chrono::duration<double>(std::max(0.01, std::min(period, next - elapsed))));
  }
}

void Progress::Draw(double elapsed, bool tty) {
  const uint64_t done = done_->load(std::memory_order_relaxed);
  const uint64_t total = total_->load(std::memory_order_relaxed);
  // A new total (the next level of a run) starts a new measurement.
  if (total != base_total_ || done < base_done_) {
    base_total_ = total;
    base_done_ = done;
    base_elapsed_ = elapsed;
  }
  const double fraction = total ? static_cast<double>(done) / total : 0.0;
  const double span = elapsed - base_elapsed_;
  const double rate = span > 0 ? (done - base_done_) / span : 0.0;
  const double eta = rate > 0 && total >= done ? (total - done) / rate : -1.0;
  std::string extra;  // (not " " + extra_(): g++ 12 warns falsely, -Wrestrict)
  if (extra_) extra.append(" ").append(extra_());
  if (tty) {
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(fraction * kWidth);
    std::string bar(filled, '#');
    bar.resize(kWidth, '.');
    std::fprintf(stderr, "\r\033[K%s [%s] %5.1f%% %s/%s %s/s ETA %s%s", label_.c_str(), bar.c_str(),
                 100.0 * fraction, HumanCount(done).c_str(), HumanCount(total).c_str(),
                 HumanCount(rate).c_str(), HumanDuration(eta).c_str(), extra.c_str());
  } else {
    std::fprintf(stderr, "%s: %.1f%% %s of %s %s, %s/s, elapsed %s, ETA %s%s\n", label_.c_str(),
                 100.0 * fraction, HumanCount(done).c_str(), HumanCount(total).c_str(),
                 unit_.c_str(), HumanCount(rate).c_str(), HumanDuration(elapsed).c_str(),
                 HumanDuration(eta).c_str(), extra.c_str());
  }
  std::fflush(stderr);
  drawn_ = true;
}

}  // namespace eulerdeck::tools
