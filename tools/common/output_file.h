// A results file (CSV) that appears under its name only when complete.
#ifndef EULERDECK_TOOLS_COMMON_OUTPUT_FILE_H_
#define EULERDECK_TOOLS_COMMON_OUTPUT_FILE_H_

#include <fstream>
#include <string>

#include "engine/base/status.h"

namespace eulerdeck::tools {

// Written as NAME.partial and renamed to NAME by Commit() once every byte is
// flushed without error, so a full disk, a failed write or an interrupted
// run never leaves a short file that looks complete under NAME. Dropped
// (NAME.partial removed) when destroyed uncommitted. Not thread-safe.
class OutputFile : public std::ofstream {
 public:
  OutputFile() = default;
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Opens NAME.partial for writing, before any work starts so that a typo
  // does not cost the run. InvalidArgument naming the file when it cannot.
  Status Open(const std::string& path);

  // Flushes, checks, closes and renames NAME.partial to NAME. OK and nothing
  // done when the file was never opened; IOError naming the file (and the
  // partial file removed) when any write failed.
  Status Commit();

 private:
  std::string path_;
  std::string partial_;
};

}  // namespace eulerdeck::tools

#endif  // EULERDECK_TOOLS_COMMON_OUTPUT_FILE_H_
