#include "tools/common/output_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace eulerdeck::tools {

OutputFile::OutputFile() : std::ostream(nullptr) {}

OutputFile::~OutputFile() {
  if (partial_.empty()) return;
  file_.close();
  std::remove(partial_.c_str());
}

Status OutputFile::Open(const std::string& path) {
  path_ = path;
  if (path == "-") {
    rdbuf(std::cout.rdbuf());
    open_ = stdout_ = true;
    return Status::OK();
  }
  partial_ = path + ".partial";
  if (!file_.open(partial_, std::ios::out | std::ios::trunc)) {
    partial_.clear();
    return Status::InvalidArgument("cannot write '" + path + "'");
  }
  rdbuf(&file_);
  open_ = true;
  return Status::OK();
}

Status OutputFile::Commit() {
  if (stdout_) {
    flush();
    if (good()) return Status::OK();
    return Status::IOError("could not write the results to standard output");
  }
  if (partial_.empty()) return Status::OK();
  errno = 0;
  flush();
  const bool wrote = good();
  const int err = errno;
  const bool closed = file_.close() != nullptr;
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
