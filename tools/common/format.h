// Number formatting shared by the tools' reports.
#ifndef EULERDECK_TOOLS_COMMON_FORMAT_H_
#define EULERDECK_TOOLS_COMMON_FORMAT_H_

#include <gmpxx.h>

#include <cstdint>
#include <string>

#include "engine/base/status.h"
#include "engine/cards/game.h"

namespace eulerdeck::tools {

// "1 deck", "2 decks", "2,946,397 decks": a count (with thousands
// separators, as Thousands()) and its noun, agreeing.
std::string Plural(uint64_t n, const std::string& noun);
// "1 entry", "2 entries": the same with an irregular plural.
std::string Plural(uint64_t n, const std::string& noun, const std::string& plural);
// "mousetrap (13 ranks x 1 suit, 13 cards)": the game line of every report.
std::string GameLine(const GameSpec& spec);

// "449,719", "0": a count with thousands separators, as every text for
// people writes counts (JSON, CSV and b-files keep plain digits).
std::string Thousands(uint64_t n);
std::string Thousands(const mpz_class& n);
// "449,719 decks", "1 deck": Plural() (which has thousands separators too).
std::string PluralThousands(uint64_t n, const std::string& noun);
// "8.0658e+67": n in scientific form with `digits` significant digits, for
// a count too long to read (beside its exact digits).
std::string Scientific(const mpz_class& n, int digits);

// "1.23M", "45.6k": compact counts for human-readable lines.
std::string HumanCount(double x);
// x with `digits` significant digits, as printf's %g: "76823", "1.74e+28"
// (estimates, which are not counts).
std::string Significant(double x, int digits);
// "1.9 MiB", "512 KiB", "37 B": sizes in binary units, as the memory
// budget and the peak RSS are given.
std::string HumanBytes(uint64_t bytes);
// "1h02m", "3m05s", "12s"; "?" for a negative or absurd value.
std::string HumanDuration(double seconds);

// wins / total in lowest terms ("3/20"), and as a decimal with 12 significant
// digits ("0.15"); `text` is `exact` as people read it ("449,719/39,916,800"),
// `exact` the plain digits of JSON and CSV.
struct Probability {
  std::string exact;
  std::string decimal;
  std::string text;
};
Probability MakeProbability(const mpz_class& wins, const mpz_class& total);

// q in decimal with `digits` significant digits, rounded to nearest
// ("8068.01689222622"); exact for any size of q.
std::string Decimal(const mpq_class& q, int digits);
// q rounded down (up) to `places` decimals: for the ends of an interval that
// must still contain the exact value.
std::string DecimalFloor(const mpq_class& q, int places);
std::string DecimalCeil(const mpq_class& q, int places);

// A 64-bit checksum as --json prints it (docs/output.md): 16 lower-case
// hexadecimal digits, "00f3a9c2...".
std::string Hex64(uint64_t x);

// A GMP integer from a 64-bit count (mpz_class has no uint64_t constructor
// where unsigned long is 32 bits; here it is 64, but say so once).
inline mpz_class Mpz(uint64_t x) {
  static_assert(sizeof(unsigned long) == sizeof(uint64_t));
  return mpz_class(static_cast<unsigned long>(x));
}

}  // namespace eulerdeck::tools

#endif  // EULERDECK_TOOLS_COMMON_FORMAT_H_
