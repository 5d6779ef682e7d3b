// Forward play of one deck under the rules of game.h.
//
// One template core (rules_core.h) plays every game; Play() wraps it with a
// recorder that keeps everything a person wants to see, PlayQuick() with one
// that keeps three numbers and never allocates, for brute force and Monte
// Carlo. Both therefore follow exactly the same rules.
#ifndef EULERDECK_ENGINE_CARDS_RULES_H_
#define EULERDECK_ENGINE_CARDS_RULES_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "engine/cards/deck.h"
#include "engine/cards/game.h"

namespace eulerdeck {

enum class Outcome : uint8_t {
  kWin,      // every card removed (hlm: every card stored but a final 2;
             // treize: every card dealt without a match)
  kLoss,     // mousetrap: the count passed ranks; hlm: any game not won;
             // treize: a match
  kDeadEnd,  // modular: no card can ever be removed again
};
const char* OutcomeName(Outcome outcome);  // "win" | "loss" | "dead-end"

// One step of the count: the card under the pointer and the value named.
struct Visit {
  Card card;
  Card called;
  bool removed;  // card == called: this card was removed (stored)
};

struct GameResult {
  Outcome outcome = Outcome::kLoss;
  Deck removed;   // removed (hlm: stored) cards, in the order they went
  Deck burned;    // hlm only: burned cards, in the order they went
  Deck residual;  // cards still on the table when play stopped, from the pointer
  int score = 0;  // sum of the values of the removed (stored) cards
  // For a winning deck of a game that removes cards, the reformed deck: the
  // removal order, with hlm's final burned 2 appended (the paper's reduced
  // eulerian string, Bersani 2010 §4). None for treize (nothing is removed).
  std::optional<Deck> reformed;
  std::vector<Visit> trace;  // every count, when asked for (lagrangian string)
};

struct PlayOptions {
  bool trace = false;
};

// Plays `deck`: a whole deck, or any sub-deck (fewer cards, each value at
// most `suits` times), whose count limits follow the cards present.
// REQUIRES: ValidateSpec(spec).ok(), 1 <= deck.size() <= kMaxCards and every
// value in 1..spec.ranks.
GameResult Play(const GameSpec& spec, const Deck& deck, PlayOptions options = {});

// The same game reduced to what statistics need. No allocation.
struct QuickResult {
  Outcome outcome;
  uint16_t removed;  // number of cards removed (stored)
  uint32_t score;    // sum of their values
};

// Plays the `n` cards at `cards` (n >= 1, values in 1..spec.ranks). Unlike
// Play() it accepts sub-decks: any n cards, each value at most `suits` times
// or not; the count limits follow the number of cards actually present.
QuickResult PlayQuick(const GameSpec& spec, const Card* cards, int n);

// PlayQuick() that also writes the removal order into order[0..removed) and,
// for hlm, appends the burned cards after them in the order they went (so a
// winning hlm sub-deck yields its reduced string in order[0..n)). No
// allocation. REQUIRES: order has room for n cards.
QuickResult PlayOrder(const GameSpec& spec, const Card* cards, int n, Card* order);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_CARDS_RULES_H_
