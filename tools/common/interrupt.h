// Ctrl-C and `kill` (SIGINT, SIGTERM) as a request: while a StopOnSignals
// lives, the first such signal only sets a flag, which a long job polls to
// stop at a consistent point and say how to continue; a second one kills the
// process as usual (the stored runs are crash-safe either way).
#ifndef EULERDECK_TOOLS_COMMON_INTERRUPT_H_
#define EULERDECK_TOOLS_COMMON_INTERRUPT_H_

#include <atomic>
#include <csignal>
#include <string>

namespace eulerdeck::tools {

class StopOnSignals {
 public:
  StopOnSignals();
  ~StopOnSignals();  // restores the default handlers
  StopOnSignals(const StopOnSignals&) = delete;
  StopOnSignals& operator=(const StopOnSignals&) = delete;

  // Lines for stderr, written from the signal handler itself (so they
  // appear however long the job takes to reach a consistent point):
  // `first` when the first signal arrives, `again` when a second one ends
  // the process at once (it then dies of that signal, 130 or 143, as
  // without a handler). Each ends with a newline; "" writes nothing. Set
  // before the job starts (at most 511 bytes each).
  void SetNotes(const std::string& first, const std::string& again);

  const std::atomic<bool>* flag() const;
  // The signal that arrived (0: none) and the shell's exit status for it
  // (128 + signal: 130 for SIGINT, 143 for SIGTERM).
  int signal() const;
  int ExitCode() const { return 128 + signal(); }
};

}  // namespace eulerdeck::tools

#endif  // EULERDECK_TOOLS_COMMON_INTERRUPT_H_
