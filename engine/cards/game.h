// The three games and their parameters, and the two functions that define how
// counting works in each of them. Everything else in eulerdeck — forward play,
// brute force, the backward (eulerian) enumeration, Monte Carlo — derives its
// behaviour from CountLimit() and CalledValue(), so the rules live here once.
//
// A deck has n = ranks * suits cards: the values 1..ranks, each `suits` times.
// Cards lie on a circle with a pointer; counting 1, 2, 3, ... visits the card
// under the pointer and moves the pointer on (the paper's "put the card at the
// bottom"). Count t names the value CalledValue(t). A card equal to the value
// named is removed (stored) and counting restarts at 1 on the next card. If no
// card matches within CountLimit(r) counts (r = cards remaining), then
//   mousetrap: the game stops, lost;
//   modular:   the game can never remove another card (dead-end);
//   hlm:       the CountLimit(r) cards just counted are burned and counting
//              restarts at 1 on the next card (with r <= ranks, none remain).
// See docs/rules.md for the worked examples.
#ifndef EULERDECK_ENGINE_CARDS_GAME_H_
#define EULERDECK_ENGINE_CARDS_GAME_H_

#include <cstdint>
#include <numeric>
#include <string>
#include <string_view>

#include "engine/base/status.h"

namespace eulerdeck {

enum class Game : uint8_t {
  kMousetrap,  // Cayley: count 1..ranks round the remaining cards, then stop
  kModular,    // Guy & Nowakowski: count 1..ranks, 1..ranks, ... for ever
  kHlm,        // He Loves Me, He Loves Me Not: count 1..min(ranks, r), burn
};

// A card's value, 1..ranks. One byte: a deck never has more than kMaxCards.
using Card = uint8_t;

// Largest deck the rules module accepts. Card values and positions fit in a
// byte, and a circle of this size sits comfortably on the stack.
inline constexpr int kMaxCards = 255;

struct GameSpec {
  Game game = Game::kMousetrap;
  int ranks = 0;  // m: values 1..ranks
  int suits = 1;  // s: copies of each value

  int cards() const { return ranks * suits; }
};

// "mousetrap" | "modular" | "hlm"  <->  Game.
const char* GameName(Game game);
Status ParseGame(std::string_view name, Game* game);

// OK when 1 <= ranks, 1 <= suits and ranks * suits <= kMaxCards; hlm also
// needs ranks >= 2 (its winning decks end on a card of value 2).
Status ValidateSpec(const GameSpec& spec);

// Number of counts that may be made on `remaining` cards (remaining >= 1)
// before the no-match rule applies: ranks (mousetrap), lcm(remaining, ranks)
// (modular: after that many steps pointer and count repeat together) or
// min(ranks, remaining) (hlm).
inline uint32_t CountLimit(const GameSpec& spec, uint32_t remaining) {
  const uint32_t m = static_cast<uint32_t>(spec.ranks);
  switch (spec.game) {
    case Game::kMousetrap:
      return m;
    case Game::kModular:
      return std::lcm(remaining, m);
    case Game::kHlm:
      return remaining < m ? remaining : m;
  }
  return 0;
}

// The value named at count t (t >= 1). Mousetrap and hlm never count past
// ranks, so one formula serves all three games.
inline Card CalledValue(const GameSpec& spec, uint32_t t) {
  return static_cast<Card>((t - 1) % static_cast<uint32_t>(spec.ranks) + 1);
}

// The score a winning deck reaches: every card removed (mousetrap, modular),
// or every card stored but a final 2 (hlm, Proposition 2.2 of seed 000).
int WinningScore(const GameSpec& spec);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_CARDS_GAME_H_
