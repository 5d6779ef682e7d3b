// Cayley's last question ("in what orders the cards are thrown out") asked
// one order at a time: how many decks remove the cards `prefix` first, in
// that order (and, with `only`, remove nothing else). Steen's and
// Mundfrom's "hits" are these removals: "2 is the only hit" is prefix {2}
// only (OEIS A002469), "2 is the first card hit and 3 the next" is prefix
// {2, 3} (A018931), "eliminating just card k" is prefix {k} only (A028306).
//
// The play is the lazy deal of removed.h with its branches pruned by the
// prefix: a count that names the next card of the prefix may remove it or
// pass it; a count that names another value must pass (a removal there
// would break the order). Once the prefix is removed the positions still
// unknown are filled in every way (a permanent); with `only`, the count
// first runs on to the end of the game without removing anything. With
// one suit of mousetrap each value is named once per pass, so the play is
// a single path and the cost one permanent over the n - |prefix| unknown
// cards: 2^(n - |prefix|) table entries (modular names a value again each
// round, and branches).
#ifndef EULERDECK_ENGINE_REMOVAL_PREFIX_H_
#define EULERDECK_ENGINE_REMOVAL_PREFIX_H_

#include <gmpxx.h>

#include <vector>

#include "engine/base/status.h"
#include "engine/cards/deck.h"
#include "engine/cards/game.h"

namespace eulerdeck {

// *decks: the distinct decks of `spec` whose removal order begins with
// `prefix` (only: is exactly `prefix`). Mousetrap and modular, any suits.
// InvalidArgument for a bad spec or a prefix value out of 1..ranks or
// repeated more than `suits` times; NotSupported for hlm (its burns) and
// treize; OutOfRange when the decks pass 2^128 or the permanent's table
// would pass 2^26 entries (more than 26 unknown cards of one suit).
Status CountRemovalPrefix(const GameSpec& spec, const std::vector<Card>& prefix, bool only,
                          mpz_class* decks);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_REMOVAL_PREFIX_H_
