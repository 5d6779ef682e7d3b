#include "engine/base/shuffle.h"

#include <utility>

#include "engine/base/streams.h"

namespace eulerdeck {

void DeckShuffler::Shuffle(uint64_t index, uint8_t* cards, int n) const {
  // The deck's own stream: decks are independent (Philox is a keyed
  // bijection of the counter) and the draws are cheap (PCG32).
  pcg32 rng = RandomStream(seed_, index);
  for (int j = n - 1; j > 0; --j) {
    const uint32_t r = Below(rng, static_cast<uint32_t>(j + 1));
    std::swap(cards[j], cards[r]);
  }
}

}  // namespace eulerdeck
