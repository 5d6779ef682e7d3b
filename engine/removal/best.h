// The best reachable score of He Loves Me, He Loves Me Not where C_max (a
// win) is out of reach: the largest sum of stored values any deck reaches,
// how many decks reach it, how many cards those decks store, and the first
// of them (Bersani 2010, Table 3 for one suit; Table 1 gives the best scores
// Monte Carlo found for 2..4 suits).
//
// A branch-and-bound search over the same lazily dealt decks as removed.h:
// play branches at every count into "this card is the value named" (stored)
// and "it is not"; burned cards leave the circle with their values unknown.
// A deck's score is everything less what it burns, and the burned cards'
// values come from those not stored, so a play can be abandoned as soon as
// its score plus the values left, less the least the cards already burned
// can be worth, falls below the best score found (by this or any other
// thread). Stored-first order finds a good score early. At the end of a
// play the burned cards may take any values left that their sets allow:
// that number of decks (completions.h) reach the play's score.
//
// When some deck wins, the best score is C_max and the winning decks are
// counted by the backward enumeration (engine/eulerian/enumerate.h) instead:
// this search is quick where few plays come close to the best score, slow
// where many decks win.
#ifndef EULERDECK_ENGINE_REMOVAL_BEST_H_
#define EULERDECK_ENGINE_REMOVAL_BEST_H_

#include <atomic>
#include <cstdint>
#include <vector>

#include "engine/base/status.h"
#include "engine/cards/deck.h"
#include "engine/cards/game.h"

namespace eulerdeck {

struct BestOptions {
  int threads = 0;  // 0: all cores
  int show = 0;     // keep the first `show` best decks (lexicographic order)
  // If set, polled between tasks: once true, BestScore() returns Cancelled.
  const std::atomic<bool>* stop = nullptr;
  // Progress: tasks finished, and their number once the play is split.
  std::atomic<uint64_t>* tasks_done = nullptr;
  std::atomic<uint64_t>* tasks_total = nullptr;
};

struct BestResult {
  int best_score = 0;     // the largest score any deck reaches
  int winning_score = 0;  // C_max (WinningScore(spec)): reached only by a win
  uint64_t decks = 0;     // decks reaching best_score
  // stored[i]: of those decks, how many store exactly i cards (i = 0..n).
  std::vector<uint64_t> stored;
  std::vector<Deck> examples;  // the first options.show of them, sorted
  // "count" when some deck wins (then the best score is C_max and the
  // backward enumeration of engine/eulerian counts the winning decks;
  // examples, if asked for, come from the search pruned at C_max), else
  // "search".
  const char* method = "";
  uint64_t tasks = 0;  // plays a few events deep the search was split into
  uint64_t nodes = 0;  // play states visited, all threads
};

// InvalidArgument for a bad spec; NotSupported for a game whose score is
// not studied (only hlm's is); OutOfRange past 64 cards, or past 2^64 decks
// when no deck wins.
Status BestScore(const GameSpec& spec, const BestOptions& options, BestResult* result);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_REMOVAL_BEST_H_
