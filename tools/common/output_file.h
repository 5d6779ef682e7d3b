// A results file (CSV, b-file, plot data) that appears under its name only
// when complete, or standard output when the name is "-".
#ifndef EULERDECK_TOOLS_COMMON_OUTPUT_FILE_H_
#define EULERDECK_TOOLS_COMMON_OUTPUT_FILE_H_

#include <fstream>
#include <ostream>
#include <string>

#include "engine/base/status.h"

namespace eulerdeck::tools {

// Written as NAME.partial and renamed to NAME by Commit() once every byte is
// flushed without error, so a full disk, a failed write or an interrupted
// run never leaves a short file that looks complete under NAME. Dropped
// (NAME.partial removed) when destroyed uncommitted. The name "-" writes to
// standard output instead (nothing to rename; Commit() checks the writes),
// which is how every output path of the tools accepts "-". Not thread-safe.
class OutputFile : public std::ostream {
 public:
  OutputFile();
  ~OutputFile() override;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Opens NAME.partial for writing (or selects standard output for "-"),
  // before any work starts so that a typo does not cost the run.
  // InvalidArgument naming the file when it cannot.
  Status Open(const std::string& path);

  bool is_open() const { return open_; }
  // True when the output goes to standard output ("-"): the command then
  // prints nothing else there.
  bool is_stdout() const { return stdout_; }

  // Flushes, checks, closes and renames NAME.partial to NAME. OK and nothing
  // done when the file was never opened; IOError naming the file (and the
  // partial file removed) when any write failed.
  Status Commit();

 private:
  std::filebuf file_;
  bool open_ = false;
  bool stdout_ = false;
  std::string path_;
  std::string partial_;
};

}  // namespace eulerdeck::tools

#endif  // EULERDECK_TOOLS_COMMON_OUTPUT_FILE_H_
