#include "tools/common/format.h"

#include <cstdio>

#include "engine/base/thousands.h"

namespace eulerdeck::tools {

std::string Plural(uint64_t n, const std::string& noun) {
  return GroupThousands(n) + " " + noun + (n == 1 ? "" : "s");
}

std::string Plural(uint64_t n, const std::string& noun, const std::string& plural) {
  return GroupThousands(n) + " " + (n == 1 ? noun : plural);
}

std::string Thousands(const mpz_class& n) {
  std::string digits = mpz_class(abs(n)).get_str();
  for (size_t i = digits.size(); i > 3; i -= 3) digits.insert(i - 3, ",");
  return n < 0 ? "-" + digits : digits;
}

std::string Thousands(uint64_t n) { return GroupThousands(n); }

std::string PluralThousands(uint64_t n, const std::string& noun) {
  return Thousands(n) + " " + noun + (n == 1 ? "" : "s");
}

std::string Scientific(const mpz_class& n, int digits) {
  // mpf keeps the digits of any size (a double would do up to 1e308).
  mpf_class f(n, static_cast<mp_bitcnt_t>(digits * 3.33) + 64);
  char* out = nullptr;
  gmp_asprintf(&out, "%.*Fe", digits - 1, f.get_mpf_t());
  std::string s(out);
  void (*free_fn)(void*, size_t);
  mp_get_memory_functions(nullptr, nullptr, &free_fn);
  free_fn(out, s.size() + 1);
  return s;
}

std::string HumanBytes(uint64_t bytes) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double x = static_cast<double>(bytes);
  int unit = 0;
  while (x >= 1024 && unit < 5) {
    x /= 1024;
    ++unit;
  }
  char buf[32];
  if (unit == 0) {
    std::snprintf(buf, sizeof(buf), "%llu B", static_cast<unsigned long long>(bytes));
  } else {
    std::snprintf(buf, sizeof(buf),
                  x < 10    ? "%.2f %s"
                  : x < 100 ? "%.1f %s"
                            : "%.0f %s",
                  x, kUnits[unit]);
  }
  return buf;
}

std::string GameLine(const GameSpec& spec) {
  return std::string(GameName(spec.game)) + " (" + Plural(spec.ranks, "rank") + " x " +
         Plural(spec.suits, "suit") + ", " + Plural(spec.cards(), "card") + ")";
}

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

std::string Significant(double x, int digits) {
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%.*g", digits, x);
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
  return {p.get_str(), buf, Thousands(p.get_num()) + "/" + Thousands(p.get_den())};
}

std::string Decimal(const mpq_class& q, int digits) {
  // Enough bits that the value's magnitude (any exponent) does not eat into
  // the digits shown: mpf keeps a relative precision.
  mpf_class f(0, static_cast<mp_bitcnt_t>(digits * 3.33) + 64);
  f = q;
  char* out = nullptr;
  gmp_asprintf(&out, "%.*Fg", digits, f.get_mpf_t());
  std::string s(out);
  void (*free_fn)(void*, size_t);
  mp_get_memory_functions(nullptr, nullptr, &free_fn);
  free_fn(out, s.size() + 1);
  return s;
}

namespace {

// floor(q * 10^places) (or the ceiling) written with the decimal point.
std::string ScaledDecimal(const mpq_class& q, int places, bool up) {
  mpz_class scale;
  mpz_ui_pow_ui(scale.get_mpz_t(), 10, places);
  const mpq_class t = q * scale;
  mpz_class r;
  if (up) {
    mpz_cdiv_q(r.get_mpz_t(), t.get_num_mpz_t(), t.get_den_mpz_t());
  } else {
    mpz_fdiv_q(r.get_mpz_t(), t.get_num_mpz_t(), t.get_den_mpz_t());
  }
  const bool negative = r < 0;
  if (negative) r = -r;
  std::string digits = r.get_str();
  if (static_cast<int>(digits.size()) <= places) {
    digits.insert(0, places + 1 - digits.size(), '0');
  }
  if (places > 0) digits.insert(digits.size() - places, ".");
  return negative ? "-" + digits : digits;
}

}  // namespace

std::string Hex64(uint64_t x) {
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(x));
  return buf;
}

std::string DecimalFloor(const mpq_class& q, int places) { return ScaledDecimal(q, places, false); }
std::string DecimalCeil(const mpq_class& q, int places) { return ScaledDecimal(q, places, true); }

}  // namespace eulerdeck::tools
