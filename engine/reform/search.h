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
#include <functional>
#include <vector>

#include "engine/base/status.h"
#include "engine/cards/deck.h"
#include "engine/cards/game.h"
#include "engine/reform/follow.h"

namespace eulerdeck {

struct ReformSearchState;

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
  // Progress of the exhaustive phase, if set: the enumeration's subtrees
  // done and in all (ReformStatsOptions).
  std::atomic<uint64_t>* classify_done = nullptr;
  std::atomic<uint64_t>* classify_total = nullptr;

  // A long search (reform-search --store, --hours): if set, the state a
  // checkpoint kept. Its seconds count towards `seconds` (the budget of the
  // whole search), its best stands until beaten, and every searcher
  // restarts from the decks it kept, with random choices of its own (the
  // seeds are drawn again for each restart).
  const ReformSearchState* resume = nullptr;
  // If set, called on the calling thread every `checkpoint_seconds` and once
  // at the end (stopped or not) with the state so far.
  std::function<void(const ReformSearchState&)> on_checkpoint;
  double checkpoint_seconds = 2;
  // The index of this process's first searcher among all of a job's (an MPI
  // rank's threads follow those of the ranks before it): searcher i draws
  // its seed as searcher first_searcher + i.
  int first_searcher = 0;
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

// An improvement of the best during a search: when and what it reached.
struct ReformImprovement {
  double seconds = 0;  // search seconds (over every run of a resumed search)
  ReformScore score;
};

// What a long search keeps at each checkpoint (storage/search: the store of
// `reform-search --store`), enough to resume it.
struct ReformSearchState {
  double seconds = 0;           // search seconds so far, every run together
  uint64_t decks_followed = 0;  // every run together
  uint64_t restarts = 0;        // resumptions so far
  bool finished = false;        // the budget was spent (or the search was exhaustive)
  ReformSearchResult best;      // deck empty: none yet
  // Per searcher, the decks its moves restart from (move.h: Keep()).
  std::vector<std::vector<Deck>> kept;
  // One deck of each cycle found (every searcher searches backwards from
  // each again when resumed).
  std::vector<Deck> cycles;
  std::vector<ReformImprovement> history;
};

// Whether ReformSearch() takes this game: mousetrap or modular, one suit,
// 2 <= n <= 64 cards; InvalidArgument / NotSupported otherwise (checked by
// the tools before they make anything, e.g. a store).
Status CheckReformSearchSpec(const GameSpec& spec);

// CheckReformSearchSpec()'s games only. InvalidArgument / NotSupported
// otherwise; Cancelled when *stop was set (the best so far is
// in *result).
Status ReformSearch(const GameSpec& spec, const ReformSearchOptions& options,
                    ReformSearchResult* result);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_REFORM_SEARCH_H_
