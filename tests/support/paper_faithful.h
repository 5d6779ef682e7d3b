// A literal implementation of Bersani's procedure (Bersani 2010 §4), kept as the
// baseline the engine is measured against and as an independent cross-check
// of its level counts. For each winning k-string and each value x that may be
// prepended, it rebuilds the (k+1)-card sub-deck from the candidate string by
// counting along the empty slots, replays that sub-deck forward with the
// rules module, and keeps the candidate if the sub-deck wins and gives back
// exactly the candidate string.
//
// Strings are removal orders (hlm: stored cards, then the final burned 2).
// The rebuild places each card at the count equal to its value, which is how
// mousetrap and hlm remove cards; modular removals may happen at the value
// plus any multiple of m, which the string alone does not tell, so modular is
// not supported here (the paper gives no procedure for it either).
#ifndef EULERDECK_TESTS_SUPPORT_PAPER_FAITHFUL_H_
#define EULERDECK_TESTS_SUPPORT_PAPER_FAITHFUL_H_

#include <cstdint>
#include <vector>

#include "engine/cards/game.h"

namespace eulerdeck::bench {

// level[k], k = 1..n: winning k-strings (= winning k-card sub-decks).
// REQUIRES: spec.game != kModular, ValidateSpec(spec).ok().
std::vector<uint64_t> PaperFaithfulLevels(const GameSpec& spec);

}  // namespace eulerdeck::bench

#endif  // EULERDECK_TESTS_SUPPORT_PAPER_FAITHFUL_H_
