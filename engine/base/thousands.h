// Counts as people read them, for the messages of every layer.
#ifndef EULERDECK_ENGINE_BASE_THOUSANDS_H_
#define EULERDECK_ENGINE_BASE_THOUSANDS_H_

#include <cstdint>
#include <string>

namespace eulerdeck {

// "2,946,397", "999", "0": n with a comma between groups of three digits,
// as every text for people writes counts (JSON, CSV and b-files keep plain
// digits). The engine's and storage's messages (a Status a tool prints)
// use it; the tools use tools::Thousands() (tools/common/format.h), which
// is this for 64-bit counts.
inline std::string GroupThousands(uint64_t n) {
  const std::string digits = std::to_string(n);
  std::string grouped;
  grouped.reserve(digits.size() + digits.size() / 3);
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) grouped += ',';
    grouped += digits[i];
  }
  return grouped;
}

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_BASE_THOUSANDS_H_
