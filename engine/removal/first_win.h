// The lexicographically first winning deck of mousetrap or modular with one
// suit (OEIS A261867 for mousetrap): each position takes the smallest value
// with which some completion of the deck still wins, that question being
// answered by the lazy deal of one_suit.h with the positions chosen so far
// fixed. At most n^2 such counts, the first ones the dearest.
#ifndef EULERDECK_ENGINE_REMOVAL_FIRST_WIN_H_
#define EULERDECK_ENGINE_REMOVAL_FIRST_WIN_H_

#include <atomic>

#include "engine/base/status.h"
#include "engine/cards/deck.h"
#include "engine/cards/game.h"

namespace eulerdeck {

// *deck: the first winning deck in lexicographic order; empty when no deck
// wins. NotSupported for other games or several suits; OutOfRange past 20
// cards; Cancelled when *stop was set.
Status FirstWinningDeck(const GameSpec& spec, int threads, const std::atomic<bool>* stop,
                        Deck* deck);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_REMOVAL_FIRST_WIN_H_
