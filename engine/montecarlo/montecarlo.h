// Monte Carlo estimates for the three games: uniform random decks (shuffle.h),
// played by the rules module, tallied per chunk of deck indices so that the
// result depends on (spec, seed, decks) only, never on the thread count.
#ifndef EULERDECK_ENGINE_MONTECARLO_MONTECARLO_H_
#define EULERDECK_ENGINE_MONTECARLO_MONTECARLO_H_

#include <atomic>
#include <cstdint>
#include <vector>

#include "engine/base/status.h"
#include "engine/cards/deck.h"
#include "engine/cards/game.h"
#include "engine/cards/histogram.h"

namespace eulerdeck {

struct McOptions {
  uint64_t seed = 1;
  int threads = 0;  // 0: all cores
  // Only hunt for the best result: a deck is abandoned as soon as even
  // removing every card left could not beat the best seen so far (Bersani 2010
  // §3(c)); the distributions are then not collected.
  bool best_only = false;
  std::atomic<uint64_t>* decks_done = nullptr;  // progress (relaxed)
  // If set, polled before each chunk of kMcChunk decks is started: once true
  // no chunk starts, the running ones finish, and MonteCarlo() returns
  // Cancelled with the tally of the chunks played (e.g. a signal,
  // tools/common/interrupt.h).
  const std::atomic<bool>* stop = nullptr;
};

// Decks per chunk, the unit of work (and of stopping): chunks are started in
// index order, so a run stopped early has played a prefix of whole chunks.
inline constexpr uint64_t kMcChunk = 1 << 14;

// The removed/score distributions (histogram.h), not collected in best-only
// mode, and the bests.
struct McTally : PlayHistogram {
  uint64_t decks = 0;
  uint64_t wins = 0;
  uint64_t outcomes[3] = {0, 0, 0};  // indexed by Outcome; not in best-only mode
  // The best score (hlm: Table 1's quantity; sum of removed values), and the
  // most cards removed, each with the first deck (lowest index) reaching it.
  int best_score = -1;
  uint64_t best_score_index = 0;
  Deck best_score_deck;
  int best_removed = -1;
  uint64_t best_removed_index = 0;
  Deck best_removed_deck;

  // Adds `other` (decks of other indices) into this tally.
  void Merge(const McTally& other);
};

// Plays decks with indices [first, first + count) of the seed's stream into
// *tally (added to what it holds). InvalidArgument for a bad spec. Cancelled
// when options.stop was set before the end: what was added is then exactly
// the decks [first, first + d) for some multiple d of kMcChunk (d < count),
// the same as MonteCarlo(spec, first, d) adds: an unbiased, reproducible
// estimate over the decks played.
Status MonteCarlo(const GameSpec& spec, uint64_t first, uint64_t count, const McOptions& options,
                  McTally* tally);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_MONTECARLO_MONTECARLO_H_
