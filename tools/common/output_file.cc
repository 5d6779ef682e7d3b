#include "tools/common/output_file.h"

#include <poll.h>
#include <stdio_ext.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <thread>

namespace eulerdeck::tools {

namespace {

// The NAME.partial files open now, for the SIGPIPE handler to remove: a
// fixed table of lock-free slots, which a signal handler may read. A tool
// has a few outputs at once; one beyond the table is only not removed.
constexpr int kPartialSlots = 64;
std::atomic<const char*> open_partials[kPartialSlots];
static_assert(std::atomic<const char*>::is_always_lock_free);

int AddPartial(const char* name) {
  for (int i = 0; i < kPartialSlots; ++i) {
    const char* empty = nullptr;
    if (open_partials[i].compare_exchange_strong(empty, name)) return i;
  }
  return -1;
}

void DropPartial(int* slot) {
  if (*slot >= 0) open_partials[*slot].store(nullptr);
  *slot = -1;
}

// Removes the partial files and ends the process, quietly: standard output
// has no reader. Only async-signal-safe calls.
[[noreturn]] void EndOnClosedStdout() {
  for (auto& slot : open_partials) {
    if (const char* name = slot.load()) unlink(name);
  }
  _exit(kExitClosedStdout);
}

// True when standard output is a pipe without readers (poll reports POLLERR
// on such a write end) or a socket shut down (POLLHUP), waiting up to
// `timeout_ms` (-1: until it is).
bool StdoutClosed(int timeout_ms) {
  struct pollfd out = {STDOUT_FILENO, 0, 0};
  int n;
  while ((n = poll(&out, 1, timeout_ms)) < 0 && errno == EINTR) {
  }
  return n == 1 && (out.revents & (POLLERR | POLLHUP)) != 0;
}

// SIGPIPE: a write to a pipe (or socket) whose reader is gone, raised in the
// writing thread before write() returns EPIPE.
extern "C" void OnBrokenPipe(int) {
  const int saved = errno;
  if (StdoutClosed(0)) EndOnClosedStdout();
  errno = saved;  // another descriptor: its write fails with EPIPE
}

enum class Kind { kNew, kRegular, kDirectory, kOther };

// What `path` names, following symbolic links to the name that is none
// (*target): 0, or the errno that stopped it (ELOOP past 40 links, as the
// kernel's limit).
int Resolve(const std::string& path, std::string* target, Kind* kind) {
  std::string p = path;
  for (int links = 0; links <= 40; ++links) {
    struct stat st;
    if (lstat(p.c_str(), &st) != 0) {
      if (errno != ENOENT) return errno;
      *target = p;
      *kind = Kind::kNew;
      return 0;
    }
    if (!S_ISLNK(st.st_mode)) {
      *target = p;
      *kind = S_ISREG(st.st_mode)   ? Kind::kRegular
              : S_ISDIR(st.st_mode) ? Kind::kDirectory
                                    : Kind::kOther;
      return 0;
    }
    char buf[4096];
    const ssize_t n = readlink(p.c_str(), buf, sizeof(buf));
    if (n < 0) return errno;
    if (n == static_cast<ssize_t>(sizeof(buf))) return ENAMETOOLONG;
    std::string to(buf, static_cast<size_t>(n));
    // A relative target is relative to the link's directory.
    const size_t slash = p.rfind('/');
    if (to.empty() || (to[0] != '/' && slash != std::string::npos)) {
      to = p.substr(0, slash + 1) + to;
    }
    p = to;
  }
  return ELOOP;
}

std::string Why(int err) { return std::string(" (") + std::strerror(err) + ")"; }

}  // namespace

OutputFile::OutputFile() : std::ostream(nullptr) {}

OutputFile::~OutputFile() {
  if (in_place_) file_.close();
  if (partial_.empty()) return;
  DropPartial(&slot_);
  file_.close();
  std::remove(partial_.c_str());
}

Status OutputFile::Open(const std::string& path, const std::string& what) {
  path_ = path;
  if (path == "-") {
    rdbuf(std::cout.rdbuf());
    open_ = stdout_ = true;
    return Status::OK();
  }
  const std::string name = (what.empty() ? "" : what + " ") + "'" + path + "'";
  Kind kind = Kind::kNew;
  if (const int err = Resolve(path, &target_, &kind); err != 0) {
    return Status::InvalidArgument("cannot write " + name + Why(err));
  }
  if (kind == Kind::kDirectory) {
    return Status::InvalidArgument("cannot write " + name + ": it is a directory");
  }
  if (kind == Kind::kOther) {
    // A device or a FIFO: written in place (O_TRUNC, which fopen's "w"
    // adds, does nothing to either).
    errno = 0;
    if (!file_.open(path, std::ios::out)) {
      const int err = errno;
      return Status::InvalidArgument("cannot write " + name + (err != 0 ? Why(err) : ""));
    }
    in_place_ = true;
  } else {
    partial_ = target_ + ".partial";
    errno = 0;
    if (!file_.open(partial_, std::ios::out | std::ios::trunc)) {
      const int err = errno;
      partial_.clear();
      return Status::InvalidArgument("cannot write " + name + (err != 0 ? Why(err) : ""));
    }
    slot_ = AddPartial(partial_.c_str());
  }
  rdbuf(&file_);
  open_ = true;
  return Status::OK();
}

Status OutputFile::Commit() {
  if (stdout_) {
    errno = 0;
    flush();
    if (good()) return Status::OK();
    const int err = errno;
    // Said once, here: what standard output still buffers is dropped, so
    // that the tool's last look at it (FinishStdout) does not say it again
    // (issue 51, A5: `export --progress - >/dev/full` said it twice).
    __fpurge(stdout);
    std::clearerr(stdout);
    std::cout.clear();
    return Status::IOError("could not write the results to standard output" +
                           (err != 0 ? Why(err) : std::string()));
  }
  if (partial_.empty() && !in_place_) return Status::OK();
  errno = 0;
  flush();
  const bool wrote = good();
  const int err = errno;
  const bool closed = file_.close() != nullptr;
  if (in_place_) {
    in_place_ = false;
    if (wrote && closed) return Status::OK();
    const int why = err != 0 ? err : errno;
    return Status::IOError("could not write '" + path_ + "'" + (why != 0 ? Why(why) : ""));
  }
  if (!wrote || !closed || std::rename(partial_.c_str(), target_.c_str()) != 0) {
    const int why = err != 0 ? err : errno;
    DropPartial(&slot_);
    std::remove(partial_.c_str());
    partial_.clear();
    return Status::IOError("could not write '" + path_ + "'" + (why != 0 ? Why(why) : ""));
  }
  DropPartial(&slot_);
  partial_.clear();
  return Status::OK();
}

void EndQuietlyOnClosedStdout() {
  struct sigaction action = {};
  action.sa_handler = OnBrokenPipe;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGPIPE, &action, nullptr);
  // A job that computes long between two writes (a b-file written at the
  // end, the next size of a range) would only learn of its reader's end at
  // its next write: a watcher learns it at once. Only for a pipe: poll
  // reports POLLERR once its last reader is gone (a regular file or a
  // terminal never ends so).
  struct stat st;
  if (fstat(STDOUT_FILENO, &st) == 0 && S_ISFIFO(st.st_mode)) {
    std::thread([] {
      if (StdoutClosed(-1)) EndOnClosedStdout();
    }).detach();
  }
}

}  // namespace eulerdeck::tools
