// TempDir: a fresh directory under the system's temporary directory, removed
// with everything in it when the object goes. Shared by the store tests.
#ifndef EULERDECK_TESTS_SUPPORT_TEMP_DIR_H_
#define EULERDECK_TESTS_SUPPORT_TEMP_DIR_H_

#include <stdlib.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

namespace eulerdeck::testing {

class TempDir {
 public:
  // `prefix` names the directory ("eulerdeck-store" -> eulerdeck-store-XXXXXX).
  explicit TempDir(const std::string& prefix = "eulerdeck-test") {
    std::string tmpl = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
    REQUIRE(mkdtemp(tmpl.data()) != nullptr);
    path_ = tmpl;
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace eulerdeck::testing

#endif  // EULERDECK_TESTS_SUPPORT_TEMP_DIR_H_
