// Random decks, reproducibly: deck number i of seed s depends on (s, i) and
// nothing else (one block of Random123's counter-based Philox4x32-10 seeds a
// PCG32 generator for that deck alone), so a Monte Carlo run
// gives the same result on any number of threads, and any deck of a run can
// be regenerated from its index.
#ifndef EULERDECK_ENGINE_BASE_SHUFFLE_H_
#define EULERDECK_ENGINE_BASE_SHUFFLE_H_

#include <cstdint>

namespace eulerdeck {

class DeckShuffler {
 public:
  explicit DeckShuffler(uint64_t seed) : seed_(seed) {}

  // Permutes the bytes cards[0..n) uniformly at random (Fisher-Yates with
  // unbiased bounded draws), using stream `index`. The bytes are card values
  // of any game or lab; the shuffle knows none of them. Every arrangement of the n
  // positions is equally likely, so every distinct deck of a multiset is too.
  // Thread-safe (const, no state).
  void Shuffle(uint64_t index, uint8_t* cards, int n) const;

 private:
  uint64_t seed_;
};

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_BASE_SHUFFLE_H_
