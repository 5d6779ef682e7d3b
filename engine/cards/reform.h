// Reform sequences (the Mousetrap contest): play a deck, play its reformed deck, and so on,
// until a deck does not win (dead-end) or a deck seen before comes back.
#ifndef EULERDECK_ENGINE_CARDS_REFORM_H_
#define EULERDECK_ENGINE_CARDS_REFORM_H_

#include <cstdint>
#include <vector>

#include "engine/cards/deck.h"
#include "engine/cards/game.h"

namespace eulerdeck {

struct ReformResult {
  enum class End { kDeadEnd, kCycle, kLimit };
  // The distinct decks met, the starting deck first. length() is the Mousetrap contest's
  // "length of the sequence"; the starting deck was reformed length()-1 times
  // when the sequence ends on a dead-end.
  std::vector<Deck> decks;
  End end = End::kDeadEnd;
  // kCycle: the reformed deck of decks.back() is decks[cycle_start], so the
  // cycle has decks.size() - cycle_start decks.
  uint64_t cycle_start = 0;

  uint64_t length() const { return decks.size(); }
  uint64_t cycle_length() const { return end == End::kCycle ? decks.size() - cycle_start : 0; }
};

const char* ReformEndName(ReformResult::End end);  // "dead-end" | "cycle" | "limit"

// Follows the sequence from `deck`, stopping after `max_length` distinct decks
// (End::kLimit). REQUIRES: ValidateSpec(spec).ok(), CheckDeck(spec, deck).ok().
ReformResult Reform(const GameSpec& spec, const Deck& deck, uint64_t max_length);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_CARDS_REFORM_H_
