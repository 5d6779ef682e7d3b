// The games and how counting works in each of them. Every game is one entry
// of the policy table (GamePolicy, kGamePolicies in game.cc); forward play,
// brute force, the backward (eulerian) enumeration, Monte Carlo and both
// command-line tools read a game's behaviour from its policy and nowhere else.
// Adding a game is adding one entry (and its tests and published values).
//
// A deck has n = ranks * suits cards: the values 1..ranks, each `suits` times.
// Cards lie on a circle with a pointer; counting 1, 2, 3, ... visits the card
// under the pointer and moves the pointer on (the paper's "put the card at the
// bottom"). Count t names the value CalledValue(t). When the card visited
// equals the value named (a match), the policy's `on_match` applies:
//   remove: the card is removed (stored) and counting restarts at 1 on the
//           next card (mousetrap, modular, hlm);
//   lose:   the game is lost (treize).
// If no card matches within CountLimit(r) counts (r = cards remaining), the
// policy's `on_miss` applies:
//   mousetrap: the game stops, lost;
//   modular:   the game can never remove another card (dead-end);
//   hlm:       the CountLimit(r) cards just counted are burned and counting
//              restarts at 1 on the next card (with r <= ranks, none remain);
//   treize:    every card was dealt without a match: won.
// See docs/rules.md for the worked examples.
#ifndef EULERDECK_ENGINE_CARDS_GAME_H_
#define EULERDECK_ENGINE_CARDS_GAME_H_

#include <cstdint>
#include <numeric>
#include <string>
#include <string_view>

#include "engine/base/status.h"

namespace eulerdeck {

// Indexes kGamePolicies; values are never stored on disk as numbers (stores
// record the name), but keep the order anyway.
enum class Game : uint8_t {
  kMousetrap,  // Cayley: count 1..ranks round the remaining cards, then stop
  kModular,    // Guy & Nowakowski: count 1..ranks, 1..ranks, ... for ever
  kHlm,        // He Loves Me, He Loves Me Not: count 1..min(ranks, r), burn
  kTreize,     // Montmort's Treize / Frustration solitaire: a match loses
};
inline constexpr int kGameCount = 4;

// A card's value, 1..ranks. One byte: a deck never has more than kMaxCards.
using Card = uint8_t;

// Largest deck the rules module accepts. Card values and positions fit in a
// byte, and a circle of this size sits comfortably on the stack.
inline constexpr int kMaxCards = 255;

// How many counts may be made on r remaining cards before the miss rule.
enum class CountSpan : uint8_t {
  kRanks,         // ranks
  kLcmWithRanks,  // lcm(r, ranks): after that many steps pointer and count repeat
  kMinRanks,      // min(ranks, r)
  kRemaining,     // r: one pass through the cards
};
enum class OnMatch : uint8_t { kRemove, kLose };
enum class OnMiss : uint8_t { kLose, kDeadEnd, kBurn, kWin };

// Everything that makes a game what it is. Immutable; one entry per Game.
struct GamePolicy {
  Game game;
  const char* name;    // command-line name: "mousetrap"
  const char* title;   // for help text: "Mousetrap (Cayley)"
  const char* source;  // where the rules and the published values come from
  CountSpan span;
  OnMatch on_match;
  OnMiss on_miss;
  // hlm: a game is won only when every card but one was stored and the one
  // burned is a 2 (Proposition 2.2 of Bersani 2010). Then the winning score
  // leaves the 2 out, the reformed deck ends with it, the backward tree has
  // the single root 2, and decks need ranks >= 2.
  bool ends_on_burned_two;
  // The score (sum of the values removed) is a studied quantity (Bersani's
  // Table 1 for hlm): tools print its distribution.
  bool score_studied;
  // The winning decks form the backward tree of engine/eulerian/children.h:
  // every win removes every card, one match at a time, and the first removal
  // leaves a winning sub-deck. False when no card is ever removed.
  bool enumerable;
};

// The table itself (game.cc), and the policy of `game`: inline, because
// forward play reads it for every count. Thread-safe (constant).
extern const GamePolicy kGamePolicies[kGameCount];
inline const GamePolicy& Policy(Game game) { return kGamePolicies[static_cast<int>(game)]; }

struct GameSpec {
  Game game = Game::kMousetrap;
  int ranks = 0;  // m: values 1..ranks
  int suits = 1;  // s: copies of each value

  int cards() const { return ranks * suits; }
  const GamePolicy& policy() const { return Policy(game); }
};

// The policy's name  <->  Game.
const char* GameName(Game game);
Status ParseGame(std::string_view name, Game* game);
// "mousetrap | modular | hlm | treize", for help text.
std::string GameNameList(const char* separator);

// OK when 1 <= ranks, 1 <= suits and ranks * suits <= kMaxCards; hlm also
// needs ranks >= 2 (its winning decks end on a card of value 2).
Status ValidateSpec(const GameSpec& spec);

// Number of counts that may be made on `remaining` cards (remaining >= 1)
// before the no-match rule applies (the policy's CountSpan), m = ranks.
inline uint32_t CountLimit(CountSpan span, uint32_t m, uint32_t remaining) {
  switch (span) {
    case CountSpan::kRanks:
      return m;
    case CountSpan::kLcmWithRanks:
      return std::lcm(remaining, m);
    case CountSpan::kMinRanks:
      return remaining < m ? remaining : m;
    case CountSpan::kRemaining:
      return remaining;
  }
  return 0;
}

inline uint32_t CountLimit(const GameSpec& spec, uint32_t remaining) {
  return CountLimit(spec.policy().span, static_cast<uint32_t>(spec.ranks), remaining);
}

// The value named at count t (t >= 1): 1..ranks, then again from 1. One
// formula serves every game (mousetrap and hlm never count past ranks).
inline Card CalledValue(const GameSpec& spec, uint32_t t) {
  return static_cast<Card>((t - 1) % static_cast<uint32_t>(spec.ranks) + 1);
}

// The sum of the values of all the deck's cards: suits * ranks(ranks+1)/2,
// the most any game can score.
int TotalValue(const GameSpec& spec);

// The score a winning deck reaches: every card removed (mousetrap, modular),
// every card stored but a final 2 (hlm, Proposition 2.2 of Bersani 2010), none
// (treize: no card is ever removed).
int WinningScore(const GameSpec& spec);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_CARDS_GAME_H_
