#include "tools/common/output_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace eulerdeck::tools {

OutputFile::~OutputFile() {
  if (partial_.empty()) return;
  close();
  std::remove(partial_.c_str());
}

Status OutputFile::Open(const std::string& path) {
  path_ = path;
  partial_ = path + ".partial";
  open(partial_);
  if (!is_open()) {
    partial_.clear();
    return Status::InvalidArgument("cannot write '" + path + "'");
  }
  return Status::OK();
}

Status OutputFile::Commit() {
  if (partial_.empty()) return Status::OK();
  errno = 0;
  flush();
  const bool wrote = good();
  const int err = errno;
  close();
  const bool closed = !fail();
  if (!wrote || !closed || std::rename(partial_.c_str(), path_.c_str()) != 0) {
    const int why = err != 0 ? err : errno;
    std::remove(partial_.c_str());
    partial_.clear();
    return Status::IOError("could not write '" + path_ + "'" +
                           (why != 0 ? std::string(" (") + std::strerror(why) + ")" : ""));
  }
  partial_.clear();
  return Status::OK();
}

}  // namespace eulerdeck::tools
