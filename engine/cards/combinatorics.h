// Exact deck counts. GMP integers: a 52-card deck has about 9.2e49 orders.
#ifndef EULERDECK_ENGINE_CARDS_COMBINATORICS_H_
#define EULERDECK_ENGINE_CARDS_COMBINATORICS_H_

#include <gmpxx.h>

#include <cstdint>
#include <optional>

#include "engine/cards/game.h"

namespace eulerdeck {

// N = (ranks*suits)! / (suits!)^ranks: the number of distinct decks.
mpz_class TotalDecks(const GameSpec& spec);

// TotalDecks() when it fits in 64 bits.
std::optional<uint64_t> TotalDecks64(const GameSpec& spec);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_CARDS_COMBINATORICS_H_
