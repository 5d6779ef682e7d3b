// A progress display for long jobs: on a terminal, one line redrawn in place
// with a bar, the rate and the ETA; otherwise (a log file, CI) a plain line
// every few seconds. Always on stderr, so stdout carries only results.
#ifndef EULERDECK_TOOLS_COMMON_PROGRESS_H_
#define EULERDECK_TOOLS_COMMON_PROGRESS_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace eulerdeck::tools {

// --quiet: no Progress draws anything for the rest of the process (set once
// by the command line parser, before any Progress starts).
void SetQuiet(bool quiet);
bool Quiet();

// Watches a counter that workers advance towards *total (which may be set
// after the start; 0 means not known yet). Starts drawing only after
// `delay_seconds`, so quick jobs print nothing. Stop() (or the destructor)
// clears the line. Thread-safe: workers only touch the counters.
class Progress {
 public:
  // `extra`, if set, is called at each redraw and its text appended (for
  // figures other than the counter, e.g. the level and bytes written).
  Progress(std::string label, std::string unit, const std::atomic<uint64_t>* done,
           const std::atomic<uint64_t>* total, double delay_seconds = 2.0,
           std::function<std::string()> extra = nullptr);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void Stop();

 private:
  void Loop();
  void Draw(double elapsed, bool tty);

  const std::string label_;
  const std::string unit_;
  const std::atomic<uint64_t>* done_;
  const std::atomic<uint64_t>* total_;
  const double delay_seconds_;
  const std::function<std::string()> extra_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  bool drawn_ = false;
  // The counter's value and the time when the current total was first seen.
  uint64_t base_total_ = 0;
  uint64_t base_done_ = 0;
  double base_elapsed_ = 0;
  std::thread thread_;
};

}  // namespace eulerdeck::tools

#endif  // EULERDECK_TOOLS_COMMON_PROGRESS_H_
