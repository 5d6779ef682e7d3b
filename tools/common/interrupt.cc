#include "tools/common/interrupt.h"

namespace eulerdeck::tools {

namespace {

// Lock-free atomics are safe to touch from a signal handler.
std::atomic<bool> stop_requested{false};
std::atomic<int> stop_signal{0};
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);

extern "C" void OnStopSignal(int sig) {
  stop_signal.store(sig);
  stop_requested.store(true);
  std::signal(sig, SIG_DFL);  // the second one is not a request
}

}  // namespace

StopOnSignals::StopOnSignals() {
  stop_requested.store(false);
  stop_signal.store(0);
  std::signal(SIGINT, OnStopSignal);
  std::signal(SIGTERM, OnStopSignal);
}

StopOnSignals::~StopOnSignals() {
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
}

const std::atomic<bool>* StopOnSignals::flag() const { return &stop_requested; }

int StopOnSignals::signal() const { return stop_signal.load(); }

}  // namespace eulerdeck::tools
