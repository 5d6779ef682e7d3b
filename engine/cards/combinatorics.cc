#include "engine/cards/combinatorics.h"

namespace eulerdeck {

mpz_class TotalDecks(const GameSpec& spec) {
  mpz_class num, den, s_fact;
  mpz_fac_ui(num.get_mpz_t(), static_cast<unsigned long>(spec.cards()));
  mpz_fac_ui(s_fact.get_mpz_t(), static_cast<unsigned long>(spec.suits));
  mpz_pow_ui(den.get_mpz_t(), s_fact.get_mpz_t(), static_cast<unsigned long>(spec.ranks));
  return num / den;
}

std::optional<uint64_t> TotalDecks64(const GameSpec& spec) {
  const mpz_class n = TotalDecks(spec);
  if (mpz_sizeinbase(n.get_mpz_t(), 2) > 64) return std::nullopt;
  uint64_t out = 0;
  mpz_export(&out, nullptr, -1, sizeof(out), 0, 0, n.get_mpz_t());
  return out;
}

}  // namespace eulerdeck
