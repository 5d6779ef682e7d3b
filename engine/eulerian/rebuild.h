// Cayley's first question, backwards: the decks whose removal order (the
// reformed deck, GameResult::reformed) is a given one.
//
// The backward step of children.h, walked along one path instead of the
// whole tree: the last card removed is a winning 1-card sub-deck (hlm: the
// final burned 2 is the root), and each earlier card x of the order is put
// back in front of the sub-deck D (k cards) at every count t that names it
// (t = x, x + ranks, ... up to CountLimit(k+1)) and that condition (2)
// accepts: no count u < t names the card it visits in the new sub-deck C.
// Mousetrap and hlm never count past the ranks, so each order has at most
// one deck; modular's counts go round the ranks again, and an order may
// have several decks, which a depth-first search over the t's finds.
//
// Unlike the enumerator (64 cards, Card = one byte), decks here are vectors
// of 32-bit values: the step needs neither bitsets nor the byte-sized
// forward rules, so Cayley's decks can be rebuilt for thousands of cards.
// Condition (2) is tested by counting, card after card, as forward play
// does: O(t) per candidate, so O(n^2) for mousetrap and hlm.
#ifndef EULERDECK_ENGINE_EULERIAN_REBUILD_H_
#define EULERDECK_ENGINE_EULERIAN_REBUILD_H_

#include <atomic>
#include <cstdint>
#include <vector>

#include "engine/base/status.h"
#include "engine/cards/game.h"

namespace eulerdeck {

// A deck or removal order of any size, top card first; values 1..ranks.
using WideDeck = std::vector<uint32_t>;

// The largest deck Rebuild() accepts (counts must fit 32 bits).
inline constexpr uint32_t kMaxRebuildCards = 1u << 20;

struct RebuildOptions {
  uint64_t max_decks = 1;  // stop after this many decks (>= 1)
  // If set, advanced (relaxed) by each card put back (RebuildResult::steps),
  // for progress display: n - 1 in all for mousetrap, n - 2 for hlm (the
  // root is placed without a step); modular's search may take back and put
  // back again.
  std::atomic<uint64_t>* steps_done = nullptr;
  // If set, polled at each candidate count: once true, the search stops and
  // Rebuild returns Cancelled, with the decks found so far (the first ones
  // of the search order, exactly those of a smaller max_decks) and
  // exhausted false (tools/common/interrupt.h sets it on Ctrl-C).
  const std::atomic<bool>* stop = nullptr;
};

struct RebuildResult {
  std::vector<WideDeck> decks;  // in the order the search met them
  bool exhausted = false;       // the search ended: `decks` are all of them
  uint64_t steps = 0;           // sub-decks built on the way (search effort)
};

// The decks of `game` (ranks values, suits copies each) whose removal order
// is `order`. InvalidArgument naming the problem when the order is not the
// full multiset (each value 1..ranks exactly suits times) or the sizes are
// out of range; NotSupported for a game that removes no card. An order with
// no deck is OK with no decks and exhausted.
Status Rebuild(Game game, uint32_t ranks, uint32_t suits, const WideDeck& order,
               const RebuildOptions& options, RebuildResult* result);

// The removal order of `deck` when it wins (every card removed; hlm: every
// card stored and the final 2 burned, which ends the order), false when it
// does not. The same rules as Play() (engine/cards/rules_core.h), written for
// decks of any size, so that a rebuilt deck is checked by playing it. Only
// for the games Rebuild() supports. If `stop` is set, it is polled after each
// removal: once true, play is abandoned and the result is false.
bool WideRemovalOrder(Game game, uint32_t ranks, const WideDeck& deck, WideDeck* order,
                      const std::atomic<bool>* stop = nullptr);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_EULERIAN_REBUILD_H_
