// A progress display for long jobs: on a terminal, one line redrawn in place
// (never wider than the terminal, so it never wraps) with a bar, the counts
// and their unit, the rate and the ETA; otherwise (a log file, CI) a plain
// line every ten seconds. Always on stderr, so stdout carries only results.
//
// A job of several stages (the levels of a stored run) also says which stage
// it is in ("level 11/12") and how much of the whole job is done, so that the
// bar and the ETA are the whole job's, not the current stage's.
//
// Rates are measured over a sliding window of the last seconds: a rate is
// neither stuck at its value from the start nor zero after a stage change,
// and an ETA is "?" only while nothing says how fast the job goes.
#ifndef EULERDECK_TOOLS_COMMON_PROGRESS_H_
#define EULERDECK_TOOLS_COMMON_PROGRESS_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace eulerdeck::tools {

// --quiet: no Progress draws anything for the rest of the process (set once
// by the command line parser, before any Progress starts).
void SetQuiet(bool quiet);
bool Quiet();

// One figure of the line beside the counter ("5.17 MiB written"), with a
// shorter form for a narrow terminal ("5.17 MiB"; empty: the same).
struct ProgressFigure {
  explicit ProgressFigure(std::string text, std::string narrow = "")
      : text(std::move(text)), narrow(std::move(narrow)) {}
  std::string text;
  std::string narrow;
};

// What a job of several stages reports at each redraw, besides the counter of
// the stage in progress (ProgressOptions::done / total).
struct ProgressStage {
  std::string name = "level";  // shown as "level 11/12"
  int index = 0;               // the stage in progress, from 1; 0: none shown
  int count = 0;               // the stages in all

  // The whole job's work, in any unit roughly proportional to time (a run
  // uses input entries read plus a share of the entries written): done so
  // far, which never decreases, and in all, an estimate that may change as
  // the job learns (0: not known). The bar and the percentage show their
  // ratio, and the ETA is what remains at the rate `work_done` grew over
  // the window. Unknown: the bar and the ETA are the current stage's.
  double work_done = 0;
  double work_total = 0;
  // A forecast of the job's time left, made before it started (negative:
  // none). A rate measured over the first seconds misleads (the first
  // levels of a run cost less per entry than the last), so for its first
  // kPriorSeconds the ETA moves from this forecast to the measured one in
  // proportion to the time elapsed.
  double prior_seconds_left = -1;
  // A job that stops at a deadline (reform-search's budget): the seconds
  // left to it (negative: none). The ETA never exceeds them, and is them
  // while nothing is measured yet.
  double seconds_left_limit = -1;

  // A count that never decreases, over every stage (e.g. entries written by
  // this process), whose windowed rate is shown instead of the counter's:
  // "1.23M entries/s". Empty unit: the counter's rate is shown.
  uint64_t rate_count = 0;
  std::string rate_unit;

  // More figures, most important first: a narrow terminal shortens them,
  // then drops the last ones first.
  std::vector<ProgressFigure> figures;
};

struct ProgressOptions {
  std::string label;  // "run": the line's first word
  // The counter's unit, plural ("input blocks"); a narrow line keeps only
  // its last word ("blocks"), the narrowest none.
  std::string unit;
  // The counter workers advance towards *total (which may be set after the
  // start, 0 meaning not known yet; a new total or a counter that goes back
  // starts a new stage's measurement). Both must outlive the Progress.
  const std::atomic<uint64_t>* done = nullptr;
  const std::atomic<uint64_t>* total = nullptr;
  // Nothing is drawn before this, so quick jobs print nothing.
  double delay_seconds = 2.0;
  // If set, called at each redraw; its text is shown as the last figure
  // (for figures other than the counter, e.g. a running estimate).
  std::function<std::string()> extra;
  // If set, called on the display's thread about twice a second (so it
  // must be thread-safe and cheap): the job's stage and overall work.
  std::function<ProgressStage()> stage;
};

// Watches the counters on a thread of its own. Stop() (or the destructor)
// clears the line. Thread-safe: workers only touch the counters.
class Progress {
 public:
  explicit Progress(ProgressOptions options);
  // A job of one stage (kept for the commands that predate ProgressOptions).
  Progress(std::string label, std::string unit, const std::atomic<uint64_t>* done,
           const std::atomic<uint64_t>* total, double delay_seconds = 2.0,
           std::function<std::string()> extra = nullptr);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void Stop();

 private:
  // The rate of a quantity over the last kWindowSeconds, from samples taken
  // at each tick.
  class WindowRate {
   public:
    void Add(double time, double value);
    void Reset() { samples_.clear(); }
    // Units per second; negative while the samples span too short a time
    // to tell.
    double Rate() const;

   private:
    std::deque<std::pair<double, double>> samples_;  // (time, value), oldest first
  };

  void Loop();
  // Takes this tick's sample of every counter; draws if `draw`.
  void Tick(double elapsed, bool tty, bool draw);

  const ProgressOptions options_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  bool drawn_ = false;
  // Touched by the display's thread only.
  uint64_t stage_total_ = 0;  // the counter's total when its stage began
  uint64_t last_done_ = 0;
  WindowRate done_rate_, work_rate_, count_rate_;
  bool work_known_ = false;  // the last tick's stage had a work_total
  std::thread thread_;
};

}  // namespace eulerdeck::tools

#endif  // EULERDECK_TOOLS_COMMON_PROGRESS_H_
