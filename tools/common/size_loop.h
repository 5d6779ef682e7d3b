// The loop over the sizes of a job that is not resumable and may take a
// --ranks range (brute, count --removed, best): each size is solved under
// a progress display and timed, then handed to the command to print. The
// three commands differ in what they solve and print, not in how a size
// fails, so that is decided here once:
// - interrupted (Ctrl-C, SIGTERM): the line that runs what is left, and the
//   shell's status for the signal;
// - an internal check failed (a distribution that does not sum to the deck
//   count): the message and exit status 1;
// - anything else: bad input, exit status 2.
#ifndef EULERDECK_TOOLS_COMMON_SIZE_LOOP_H_
#define EULERDECK_TOOLS_COMMON_SIZE_LOOP_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "engine/base/status.h"
#include "engine/cards/game.h"
#include "tools/common/cli.h"
#include "tools/common/interrupt.h"
#include "tools/common/progress.h"

namespace eulerdeck::tools {

struct SizeLoop {
  const char* program;                   // "eulerdeck best"
  const std::vector<std::string>& args;  // the command's arguments
  const std::vector<GameSpec>& specs;    // the sizes, in order
  bool range;                            // --ranks A..B
  std::string label;                     // progress label; " m=<ranks>" is added in a range
  std::string unit;                      // what the progress counts ("tasks", "decks")
  std::string not_resumable;             // the interrupted line's note
  // A job kept in a store (one size): interrupted, it says how to resume.
  std::string store = "";
};

// The "time" line a single-size job ends with, on stderr: "time  1.234 s"
// and `detail` after a comma when not empty; none under --quiet.
inline void PrintTime(double seconds, const std::string& detail = "") {
  if (Quiet()) return;
  char line[64];
  std::snprintf(line, sizeof(line), "%.3f s", seconds);
  std::cout.flush();
  std::cerr << "time           " << line << (detail.empty() ? "" : ", ") << detail << "\n";
}

// The first line of a range's table: "game  mousetrap, 1 suit".
inline void PrintRangeTitle(const GameSpec& first) {
  std::cout << "game  " << GameName(first.game) << ", "
            << (first.suits == 1 ? std::string("1 suit") : std::to_string(first.suits) + " suits")
            << "\n";
}

// One size's result in the mode the job asked for: a JSON line (json()
// returns the object), a row of the range's table, or the text report;
// after a single size's result, the time line (with `detail`).
template <class Json, class Row, class Report>
void PrintSizeResult(bool json_mode, bool text, bool range, Json&& json, Row&& row, Report&& report,
                     double seconds, const std::string& detail = "") {
  if (json_mode) {
    std::cout << json().dump() << "\n" << std::flush;
  } else if (text && range) {
    row();
  } else if (text) {
    report();
  }
  if (!range) PrintTime(seconds, detail);
}

// For each size: solve(spec, &done, &total) -> Status, with done and total
// shown by the progress display (solve may set total itself), then
// emit(spec, seconds) after a success. Returns the exit status.
template <typename Solve, typename Emit>
int RunSizes(const SizeLoop& loop, const StopOnSignals& signals, Solve&& solve, Emit&& emit) {
  for (const GameSpec& spec : loop.specs) {
    std::atomic<uint64_t> done{0}, total{0};
    const auto start = std::chrono::steady_clock::now();
    Status s;
    {
      Progress progress(loop.range ? loop.label + " m=" + std::to_string(spec.ranks) : loop.label,
                        loop.unit, &done, &total);
      s = solve(spec, &done, &total);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (s.IsCancelled() && !loop.store.empty()) {
      std::cout.flush();
      std::cerr << loop.program << ": " << s.ToString()
                << "; continue with `eulerdeck resume --store " << loop.store << "`\n";
      return signals.ExitCode();
    }
    if (s.IsCancelled()) {
      std::cout.flush();
      std::cerr << InterruptedLine(loop.program, loop.args, loop.specs, spec, loop.range, s,
                                   loop.not_resumable)
                << "\n";
      return signals.ExitCode();
    }
    if (s.code() == Status::Code::kInternal || s.IsCorruption() || s.IsIOError() || s.IsNoSpace()) {
      // A failed check, a damaged store, a failing or full device (a full
      // one with its cure, as run's).
      std::cerr << loop.program << ": " << s.ToString();
      if (s.IsNoSpace() && !loop.store.empty()) {
        std::cerr << "; free space and run `eulerdeck resume --store " << loop.store << "`";
      }
      std::cerr << "\n";
      return kExitCheckFailed;
    }
    if (!s.ok()) return BadInput(loop.program, s.ToString());
    emit(spec, seconds);
  }
  return kExitOk;
}

}  // namespace eulerdeck::tools

#endif  // EULERDECK_TOOLS_COMMON_SIZE_LOOP_H_
