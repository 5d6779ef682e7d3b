#include "tools/common/progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "tools/common/format.h"

namespace eulerdeck::tools {

namespace {

// Every counter is sampled this often, and a terminal line redrawn; a log
// line is written every kLogPeriodSeconds.
constexpr double kTickSeconds = 0.5;
constexpr double kLogPeriodSeconds = 10.0;
// Rates are measured over this much of the recent past: long enough to
// smooth the steps of a counter that moves by whole blocks, short enough to
// follow a job that slows down as it goes (a run's levels do).
constexpr double kWindowSeconds = 15.0;
// A rate needs samples at least this far apart.
constexpr double kMinSpanSeconds = 0.25;
// How long a ProgressStage::prior_seconds_left weighs in the ETA.
constexpr double kPriorSeconds = 20.0;
// The bar's inner width: at most (wider tells nothing more), at least (or
// none at all).
constexpr int kBarMax = 30;
constexpr int kBarMin = 6;

std::atomic<bool> g_quiet{false};

// The terminal's width in columns (re-read at each redraw, so a resized
// window is followed at once); 80 when stderr is no terminal or says
// nothing.
int TerminalColumns() {
  winsize ws{};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 80;
}

// "input blocks" -> "blocks": the unit as a narrow line shows it.
std::string LastWord(const std::string& unit) {
  const size_t space = unit.rfind(' ');
  return space == std::string::npos ? unit : unit.substr(space + 1);
}

std::string Percent(double fraction, int decimals) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.*f%%", decimals, 100.0 * std::clamp(fraction, 0.0, 1.0));
  return buf;
}

std::string WithUnit(const std::string& number, const std::string& unit) {
  return unit.empty() ? number : number + " " + unit;
}

// The parts of one progress line, in display order. Empty parts are left
// out.
struct Line {
  std::string label, percent, stage, counter, rate;
  std::vector<std::string> figures;
  std::string eta, stage_eta, elapsed;
  double bar_fraction = -1;  // negative: no bar
  bool bar_wanted = true;
  // The bar's inner width: set by the terminal's width alone (BarInner), so
  // that it never changes between two redraws of the same terminal while
  // the numbers beside it grow or shrink (issue 42, B3).
  int bar_inner = 0;

  // The line without the bar.
  std::string Join() const {
    std::string out = label;
    auto add = [&](const std::string& part) {
      if (!part.empty()) out.append(" ").append(part);
    };
    add(percent);
    add(stage);
    add(counter);
    add(rate);
    for (const std::string& f : figures) add(f);
    add(eta);
    add(stage_eta);
    add(elapsed);
    return out;
  }
  bool HasBar() const { return bar_fraction >= 0 && bar_wanted && bar_inner >= kBarMin; }
  // Fits `width` columns with the bar (if wanted).
  bool Fits(size_t width) const { return Join().size() + (HasBar() ? bar_inner + 3 : 0) <= width; }
  // The line with its bar after the label ("run [#####.....] 31% of work
  // level 11/12 ...").
  std::string Render(size_t width) const {
    std::string text = Join();
    if (!HasBar() || !Fits(width)) return text.substr(0, width);
    const int filled = static_cast<int>(std::clamp(bar_fraction, 0.0, 1.0) * bar_inner);
    std::string bar = " [" + std::string(filled, '#') + std::string(bar_inner - filled, '.') + "]";
    return text.insert(label.size(), bar);
  }
};

// A sixth of the terminal, in steps of kBarMin, at most kBarMax: 12 on 80
// columns (77 usable), 18 on 120, 30 from 180.
int BarInner(size_t width) {
  int inner = static_cast<int>(std::min<size_t>(kBarMax, width / 6));
  return inner - inner % kBarMin;
}

}  // namespace

void SetQuiet(bool quiet) { g_quiet.store(quiet); }
bool Quiet() { return g_quiet.load(); }

void Progress::WindowRate::Add(double time, double value) {
  samples_.emplace_back(time, value);
  // Keep one sample at or before the window's start, so that the rate
  // spans the whole window once the job is that old.
  while (samples_.size() > 2 && samples_[1].first <= time - kWindowSeconds) samples_.pop_front();
}

double Progress::WindowRate::Rate() const {
  if (samples_.size() < 2) return -1;
  const double span = samples_.back().first - samples_.front().first;
  if (span < kMinSpanSeconds) return -1;
  return std::max(0.0, samples_.back().second - samples_.front().second) / span;
}

Progress::Progress(ProgressOptions options)
    : options_(std::move(options)), thread_([this] { Loop(); }) {}

Progress::Progress(std::string label, std::string unit, const std::atomic<uint64_t>* done,
                   const std::atomic<uint64_t>* total, double delay_seconds,
                   std::function<std::string()> extra)
    : Progress(ProgressOptions{std::move(label), std::move(unit), done, total, delay_seconds,
                               std::move(extra), nullptr}) {}

Progress::~Progress() { Stop(); }

void Progress::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stop_) return;
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
  if (drawn_ && isatty(STDERR_FILENO)) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
  }
}

void Progress::Loop() {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const bool tty = isatty(STDERR_FILENO);
  std::unique_lock<std::mutex> lock(mu_);
  if (Quiet()) return;
  double next_log = options_.delay_seconds;
  double next_tick = 0;
  while (!stop_) {
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    if (elapsed >= next_tick) {
      // Sampled from the start, drawn only after the delay: the first line
      // already has a rate.
      bool draw = elapsed >= options_.delay_seconds;
      if (!tty) {
        draw = elapsed >= next_log;
        if (draw) next_log = elapsed + kLogPeriodSeconds;
      }
      Tick(elapsed, tty, draw);
      next_tick = elapsed + kTickSeconds;
    }
    cv_.wait_for(lock, std::chrono::duration<double>(std::max(0.01, next_tick - elapsed)));
  }
}

void Progress::Tick(double elapsed, bool tty, bool draw) {
  const uint64_t done = options_.done->load(std::memory_order_relaxed);
  const uint64_t total = options_.total->load(std::memory_order_relaxed);
  // A new total or a counter going back is a new stage (the next level of
  // a run): its counter's rate starts afresh. The job's work and rate
  // counts go on, so the overall ETA and the rate shown do not blink.
  if (total != stage_total_ || done < last_done_) {
    stage_total_ = total;
    done_rate_.Reset();
  }
  last_done_ = done;
  done_rate_.Add(elapsed, static_cast<double>(done));
  ProgressStage stage;
  if (options_.stage) stage = options_.stage();
  // The job's work becoming known (a count's work left, estimated after
  // its start) starts its rate afresh: the work done so far appears at
  // once and is not a rate.
  if (stage.work_total > 0 && !work_known_) work_rate_.Reset();
  work_known_ = stage.work_total > 0;
  work_rate_.Add(elapsed, stage.work_done);
  count_rate_.Add(elapsed, static_cast<double>(stage.rate_count));
  if (!draw) return;

  // What is known: the stage's fraction and ETA from the counter, the job's
  // from its work (when given).
  const double stage_fraction = total ? static_cast<double>(done) / total : -1;
  const double done_rate = done_rate_.Rate();
  const double stage_eta =
      total && done_rate > 0 && total >= done ? (total - done) / done_rate : -1;
  const bool has_work = stage.work_total > 0;
  const double work_rate = work_rate_.Rate();
  const double fraction =
      has_work ? std::min(1.0, stage.work_done / stage.work_total) : stage_fraction;
  double eta = !has_work       ? stage_eta
               : work_rate > 0 ? std::max(0.0, stage.work_total - stage.work_done) / work_rate
                               : -1;
  if (stage.prior_seconds_left >= 0 && elapsed < kPriorSeconds) {
    const double measured = elapsed / kPriorSeconds;
    const double prior = std::max(0.0, stage.prior_seconds_left);
    eta = eta < 0 ? prior : measured * eta + (1 - measured) * prior;
  }
  if (stage.seconds_left_limit >= 0)
    eta = eta < 0 ? stage.seconds_left_limit : std::min(eta, stage.seconds_left_limit);
  const bool own_rate = !stage.rate_unit.empty();
  double rate = own_rate ? count_rate_.Rate() : done_rate;
  // Nothing counted yet (a job whose first tasks take long): no rate rather
  // than "0/s", which reads as stuck.
  if (rate == 0 && (own_rate ? stage.rate_count : done) == 0) rate = -1;
  const std::string rate_unit = own_rate ? stage.rate_unit : LastWord(options_.unit);
  const std::string count_text =
      total ? HumanCount(done) + "/" + HumanCount(total) : HumanCount(done);
  const std::string stage_text = stage.index > 0 ? stage.name + " " + std::to_string(stage.index) +
                                                       "/" + std::to_string(stage.count)
                                                 : "";
  std::vector<ProgressFigure> figures = stage.figures;
  if (options_.extra) {
    std::string extra = options_.extra();
    if (!extra.empty()) figures.emplace_back(std::move(extra));
  }

  if (!tty) {
    // A log line: everything, plainly, one line per period.
    std::string text = options_.label + ":";
    auto add = [&](const std::string& part, bool first = false) {
      if (!part.empty()) text.append(first ? " " : ", ").append(part);
    };
    add(stage_text, true);
    add(WithUnit(count_text, options_.unit) +
            (stage_fraction >= 0 ? " (" + Percent(stage_fraction, 1) + ")" : ""),
        stage_text.empty());
    if (rate >= 0) add(WithUnit(HumanCount(rate), rate_unit) + "/s");
    for (const ProgressFigure& f : figures) add(f.text);
    if (has_work) add(Percent(fraction, 1) + " of the whole job");
    add("elapsed " + HumanDuration(elapsed));
    if (has_work && stage.index > 0) add(stage.name + " ETA " + HumanDuration(stage_eta));
    add("ETA " + HumanDuration(eta));
    std::fprintf(stderr, "%s\n", text.c_str());
    std::fflush(stderr);
    drawn_ = true;
    return;
  }

  // A terminal line: everything that fits in three columns less than the
  // terminal's width, shortened and then dropped in the order of `steps`,
  // least useful first. Three: a line of the full width leaves the cursor
  // past the edge, where some terminals wrap at once, and the "^C" the
  // terminal echoes on Ctrl-C must fit too, or it wraps and the line
  // above it stays behind when the job clears its line.
  Line line;
  line.label = options_.label;
  line.bar_fraction = fraction;
  // The bar and the percentage are the same fraction; with the job's work
  // known it is of the work (estimated), not of the counter beside it
  // ("34% 629.71k/1.54M subtrees" read as 34% of the subtrees), and says so
  // (docs/output.md).
  line.percent = fraction < 0 ? ""
                 : has_work   ? Percent(fraction, 0) + " of work"
                              : Percent(fraction, 1);
  line.stage = stage_text;
  line.counter = WithUnit(count_text, options_.unit);
  line.rate = rate >= 0 ? WithUnit(HumanCount(rate), rate_unit) + "/s" : "";
  for (const ProgressFigure& f : figures) line.figures.push_back(f.text);
  line.eta = "ETA " + HumanDuration(eta);
  if (has_work && stage.index > 0)
    line.stage_eta = "(" + stage.name + " " + HumanDuration(stage_eta) + ")";
  line.elapsed = "elapsed " + HumanDuration(elapsed);

  std::vector<std::function<void()>> steps = {
      [&] { line.elapsed.clear(); }, [&] { line.stage_eta.clear(); },
      [&] { line.counter = WithUnit(count_text, LastWord(options_.unit)); },
      [&] {
        for (size_t i = 0; i < figures.size(); ++i)
          if (!figures[i].narrow.empty()) line.figures[i] = figures[i].narrow;
      }};
  for (size_t i = figures.size(); i-- > 0;) steps.push_back([&, i] { line.figures.resize(i); });
  // The units go before the bar: "28.92M/s" and "418/424" still read, and
  // a bar that comes and goes with the numbers' widths is a bar that
  // changes width.
  steps.push_back([&] { line.rate = rate >= 0 ? HumanCount(rate) + "/s" : ""; });
  steps.push_back([&] { line.counter = count_text; });
  steps.push_back([&] { line.bar_wanted = false; });
  steps.push_back([&] { line.rate.clear(); });
  steps.push_back([&] { line.percent.clear(); });
  const size_t width = static_cast<size_t>(std::max(10, TerminalColumns() - 3));
  line.bar_inner = BarInner(width);
  for (size_t i = 0; i < steps.size() && !line.Fits(width); ++i) steps[i]();
  std::fprintf(stderr, "\r\033[K%s", line.Render(width).c_str());
  std::fflush(stderr);
  drawn_ = true;
}

}  // namespace eulerdeck::tools
