#include "tools/common/format.h"

#include <cstdio>

namespace eulerdeck::tools {

std::string HumanCount(double x) {
  const char* suffix[] = {"", "k", "M", "G", "T", "P"};
  int i = 0;
  while (x >= 1000.0 && i < 5) {
    x /= 1000.0;
    ++i;
  }
  char buf[32];
  std::snprintf(buf, sizeof(buf), i == 0 ? "%.0f%s" : "%.2f%s", x, suffix[i]);
  return buf;
}

std::string HumanDuration(double seconds) {
  if (!(seconds >= 0) || seconds > 1e9) return "?";
  const long s = static_cast<long>(seconds + 0.5);
  char buf[32];
  if (s >= 3600) {
    std::snprintf(buf, sizeof(buf), "%ldh%02ldm", s / 3600, (s % 3600) / 60);
  } else if (s >= 60) {
    std::snprintf(buf, sizeof(buf), "%ldm%02lds", s / 60, s % 60);
  } else {
    std::snprintf(buf, sizeof(buf), "%lds", s);
  }
  return buf;
}

Probability MakeProbability(const mpz_class& wins, const mpz_class& total) {
  mpq_class p(wins, total);
  p.canonicalize();
  // A double holds any probability of a deck of up to 255 cards (>= 1e-300)
  // to the 12 digits shown.
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.12g", p.get_d());
  return {p.get_str(), buf};
}

}  // namespace eulerdeck::tools
