// A search for starting decks with long reform sequences, scored as the
// Mousetrap contest scores them (seed 001): a sequence ending on a cycle
// beats any other, then the longer wins (distinct decks met).
//
// Where every deck can be classified in the time given (the reform
// statistics, stats.h), that is the search: its answer is the optimum.
// Beyond, three moves that use the structure of the reform map:
// - random decks followed forward, which find the cycles (modular has many;
//   the identity is one up to at least 17 cards);
// - from every cycle found, a beam search backwards: the decks whose
//   reformed deck is in the current layer are rebuilt from it (Rebuild(),
//   engine/eulerian/rebuild.h; modular decks may have several), a layer of
//   at most `beam` decks is kept, and the deepest layer reached gives the
//   longest pre-period into that cycle; searches cut short are widened
//   while no new cycle turns up;
// - random winning decks (a random descent of the backward tree), each
//   extended backwards by rebuilding its predecessors and forwards by play:
//   the dead-end chains mousetrap has instead of cycles.
// The random choices come from a seeded generator, so a run is repeated by
// its seed; the result says after how many decks the best was found.
#ifndef EULERDECK_ENGINE_REFORM_SEARCH_H_
#define EULERDECK_ENGINE_REFORM_SEARCH_H_

#include <atomic>
#include <cstdint>

#include "engine/base/status.h"
#include "engine/cards/deck.h"
#include "engine/cards/game.h"
#include "engine/reform/follow.h"

namespace eulerdeck {

struct ReformSearchOptions {
  double seconds = 60;  // the heuristic phase's budget
  uint64_t seed = 1;
  // Independent searchers, one per thread (0: all cores), seeds derived
  // from `seed`; 1 gives the single searcher of `seed`.
  int threads = 1;
  // Classify every deck (stats.h) when the size is small enough for that to
  // take seconds (mousetrap n <= 13, modular n <= 10); false: the heuristic
  // moves only (to test them against the known optimum).
  bool exhaustive = true;
  // Layer width of the first backward beam search from each cycle. A
  // search cut short (a layer truncated, or its time up) is done again, 8
  // times wider, in the rounds that find no new cycle: modular n = 11's
  // 66-deck cycle has an in-tree that 20,000 decks a layer lose the deepest
  // branch of (199-202 decks for most seeds instead of 203).
  uint64_t beam = 20000;
  // If not 0, the heuristic phase also stops after following this many
  // decks: with the seed, a run that is repeated exactly (while the time
  // does not cut a backward search short first).
  uint64_t max_decks = 0;
  const std::atomic<bool>* stop = nullptr;
  std::atomic<uint64_t>* decks_followed = nullptr;  // progress, if set
};

struct ReformSearchResult {
  Deck deck;                // the best starting deck found
  ReformScore score;        // its sequence
  const char* method = "";  // "exhaustive", "backward-beam", "random-winners", "random-decks"
  bool optimal = false;     // proven: every deck was classified
  uint64_t decks_followed = 0;
  uint64_t found_after = 0;   // decks the best's searcher had followed when it found it
  double found_seconds = 0;   // and the seconds it had searched (exhaustive: all of them)
  uint64_t cycles_found = 0;  // distinct cycles met (by the searcher that met most)
  int thread = 0;             // the searcher that found the best
};

// Mousetrap or modular, one suit, 2 <= n <= 64 cards. InvalidArgument /
// NotSupported otherwise; Cancelled when *stop was set (the best so far is
// in *result).
Status ReformSearch(const GameSpec& spec, const ReformSearchOptions& options,
                    ReformSearchResult* result);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_REFORM_SEARCH_H_
