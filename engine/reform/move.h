// A move of the reform search (search.h): one strategy for finding starting
// decks with long reform sequences, which works in bounded steps, keeps its
// best deck, and can be checkpointed as a list of decks to restart from.
//
// The search's driver (search.cc) owns the clock, the threads, the
// checkpoints and the stop flag; a move only does work when asked, in steps
// small enough (well under a second) for the driver to stop, checkpoint or
// report between them. A move is deterministic: the same spec, seed, seeded
// decks and sequence of Step() calls give the same results, so a run is
// repeated by its seed and its amount of work.
//
// Internal to engine/reform.
#ifndef EULERDECK_ENGINE_REFORM_MOVE_H_
#define EULERDECK_ENGINE_REFORM_MOVE_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/cards/deck.h"
#include "engine/cards/game.h"
#include "engine/reform/follow.h"

namespace eulerdeck {

class ReformMove {
 public:
  virtual ~ReformMove() = default;

  // The method named in the search's result ("basin-descent", ...).
  virtual const char* name() const = 0;

  // About `work` units of work (a unit: one deck played, or one deck's
  // predecessors rebuilt); returns the units done. 0 means the move has
  // nothing left to do (it covered everything it can reach).
  virtual uint64_t Step(uint64_t work) = 0;

  // The best starting deck met so far and its sequence (scored as the
  // contest does, follow.h); empty before the first one.
  virtual const Deck& best_deck() const = 0;
  virtual ReformScore best_score() const = 0;

  // The decks a checkpoint keeps so that the move restarts where it stood
  // (its best first, then whatever its state needs: the deepest points of
  // a descent, the ends of chains), at most `limit`.
  virtual std::vector<Deck> Keep(size_t limit) const = 0;

  // Restarts from decks a checkpoint kept, or that another searcher found.
  // Decks of the wrong size or not permutations are ignored.
  virtual void Seed(const std::vector<Deck>& decks) = 0;
};

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_REFORM_MOVE_H_
