// A results file (CSV, b-file, plot data) that appears under its name only
// when complete, or standard output when the name is "-"; and what a closed
// standard output does to the tools.
#ifndef EULERDECK_TOOLS_COMMON_OUTPUT_FILE_H_
#define EULERDECK_TOOLS_COMMON_OUTPUT_FILE_H_

#include <fstream>
#include <ostream>
#include <string>

#include "engine/base/status.h"

namespace eulerdeck::tools {

// The exit status of a tool whose standard output was closed by its reader
// (`eulerdeck export ... --decks - | head -1`): 128 + SIGPIPE, what a shell
// reports for a process that SIGPIPE killed, so that scripts see what they
// see of every other Unix tool. Nothing is printed (docs/output.md).
inline constexpr int kExitClosedStdout = 141;

// What an output path names decides how it is written (docs/output.md,
// "Output files"):
// - "-": standard output.
// - a regular file, or nothing yet: written as NAME.partial and renamed to
//   NAME by Commit() once every byte is flushed without error, so a full
//   disk, a failed write or an interrupted run never leaves a short file
//   that looks complete under NAME. Dropped (NAME.partial removed) when
//   destroyed uncommitted, or when the process ends on a closed standard
//   output (EndQuietlyOnClosedStdout).
// - a symbolic link: followed (to at most 40 links); what it finally names
//   is written as if named directly, so a link to a regular file keeps
//   being a link to the new, complete file (its .partial is written beside
//   the target), and a dangling link gets its target created.
// - anything else that is not a directory (a character or block device, a
//   FIFO): opened and written in place, never replaced. A FIFO's open waits
//   for its reader, as any writer's does. A write error is Commit()'s
//   IOError.
// - a directory: refused by Open().
// Not thread-safe.
class OutputFile : public std::ostream {
 public:
  OutputFile();
  ~OutputFile() override;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Opens the output as above, before any work starts so that a typo does
  // not cost the run. InvalidArgument, one line naming the file (as `what`,
  // e.g. "--csv file", then the path) and why, when it cannot: a directory,
  // a missing parent directory, no permission.
  Status Open(const std::string& path, const std::string& what = "");

  bool is_open() const { return open_; }
  // True when the output goes to standard output ("-"): the command then
  // prints nothing else there.
  bool is_stdout() const { return stdout_; }
  // True when the output is written in place (a device, a FIFO).
  bool in_place() const { return in_place_; }

  // Flushes, checks, closes and (a regular file) renames NAME.partial to
  // NAME. OK and nothing done when the file was never opened; IOError naming
  // the file (and the partial file removed) when any write failed.
  Status Commit();

 private:
  std::filebuf file_;
  bool open_ = false;
  bool stdout_ = false;
  bool in_place_ = false;
  std::string path_;     // as given, for messages
  std::string target_;   // what is renamed onto: path_, or the target of its links
  std::string partial_;  // target_ + ".partial" while it exists
  int slot_ = -1;        // partial_'s slot in the list a closed stdout removes
};

// Makes a closed standard output end the process quietly: when standard
// output is a pipe whose last reader leaves (or a write to standard output
// finds its reader gone), every open OutputFile's NAME.partial is removed
// and the process ends at once with kExitClosedStdout, printing nothing. A
// watcher thread (standard output a pipe) sees the reader leave even while
// the job writes nothing; the SIGPIPE handler covers any other case. (A
// stored run or count then ends as under `kill -9`, which its store is made
// to survive: `resume` continues it.) A SIGPIPE from any other descriptor (a
// FIFO named as an output whose reader left) no longer kills: that write
// fails with EPIPE, the output's error. Call once, early in main().
void EndQuietlyOnClosedStdout();

}  // namespace eulerdeck::tools

#endif  // EULERDECK_TOOLS_COMMON_OUTPUT_FILE_H_
