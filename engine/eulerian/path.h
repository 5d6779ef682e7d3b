// Paths: a winning sub-deck named by the counts at which its cards are
// removed, read from the end of the game backwards (t_1 = the last card's
// value, t_j = the count removing the card added at level j). The frontier
// store keeps paths (docs/storage_format.md); this rebuilds the sub-decks.
#ifndef EULERDECK_ENGINE_EULERIAN_PATH_H_
#define EULERDECK_ENGINE_EULERIAN_PATH_H_

#include <array>
#include <cstdint>
#include <vector>

#include "engine/cards/deck.h"
#include "engine/eulerian/children.h"

namespace eulerdeck {

// Rebuilds sub-decks from paths, reusing the work for the prefix shared with
// the previous path (consecutive paths of a level share most of it). Not
// thread-safe; one per thread.
class PathDecoder {
 public:
  explicit PathDecoder(const GameSpec& spec) : spec_(spec) {}

  // The sub-deck (k cards) of `path`. The pointer stays valid until the
  // next call. Does not check that the path is valid (see PathIsValid).
  const Card* Decode(const uint16_t* path, int k);

 private:
  GameSpec spec_;
  std::vector<uint16_t> last_;                      // the previous path
  std::vector<std::array<Card, kNodeBytes>> deck_;  // deck_[j]: sub-deck of j+1 cards
};

// True when `path` (k counts) is a winning sub-deck: t_1 a root and each
// t_{j+1} a valid child count of the sub-deck of path[0..j) (children.h).
bool PathIsValid(const ChildRule& rule, const uint16_t* path, int k);

// The reduced string of the sub-deck of `path`: its removal order,
// v(t_k), ..., v(t_1).
Deck PathString(const GameSpec& spec, const uint16_t* path, int k);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_EULERIAN_PATH_H_
