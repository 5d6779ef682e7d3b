// What the enumeration hands to a statistic of the winning decks
// (engine/reform/stats.h): each winning deck with its removal order.
#ifndef EULERDECK_ENGINE_EULERIAN_WINNERS_H_
#define EULERDECK_ENGINE_EULERIAN_WINNERS_H_

#include <functional>

#include "engine/cards/deck.h"

namespace eulerdeck {

// Called with a winning deck's n cards and the order in which a play of it
// takes them out (PlayOrder(), engine/cards/rules.h: for hlm, the removed
// cards then the burned ones): its reformed deck. The enumeration has the
// order for free: a child of the backward tree is its parent with one card
// put back, the card the child's play takes out first, so the cards put
// back along a root-to-leaf path, last first, follow the root's own order.
using WinnerCallback = std::function<void(const Card* deck, const Card* order)>;

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_EULERIAN_WINNERS_H_
