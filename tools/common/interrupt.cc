#include "tools/common/interrupt.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>

namespace eulerdeck::tools {

namespace {

// Lock-free atomics are safe to touch from a signal handler.
std::atomic<bool> stop_requested{false};
std::atomic<int> stop_signal{0};
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);

// SetNotes()'s lines, in fixed buffers: a handler may write() but not
// allocate. A length is published after its bytes.
char first_note[512], again_note[512];
std::atomic<size_t> first_length{0}, again_length{0};
static_assert(std::atomic<size_t>::is_always_lock_free);

void WriteNote(const char* note, const std::atomic<size_t>& length) {
  const size_t n = length.load(std::memory_order_acquire);
  if (n > 0 && ::write(STDERR_FILENO, note, n) < 0) return;  // nothing to do about it
}

extern "C" void OnStopSignal(int sig) {
  if (stop_requested.load()) {
    // The second one is not a request: the process ends at once, of the
    // signal, as without a handler, after its note.
    WriteNote(again_note, again_length);
    std::signal(sig, SIG_DFL);
    std::raise(sig);
    return;
  }
  stop_signal.store(sig);
  stop_requested.store(true);
  WriteNote(first_note, first_length);
}

void SetNote(const std::string& text, char* note, std::atomic<size_t>* length) {
  length->store(0, std::memory_order_release);
  const size_t n = std::min(text.size(), sizeof(first_note));
  std::memcpy(note, text.data(), n);
  length->store(n, std::memory_order_release);
}

}  // namespace

void StopOnSignals::SetNotes(const std::string& first, const std::string& again) {
  SetNote(first, first_note, &first_length);
  SetNote(again, again_note, &again_length);
}

StopOnSignals::StopOnSignals() {
  stop_requested.store(false);
  stop_signal.store(0);
  first_length.store(0);
  again_length.store(0);
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
