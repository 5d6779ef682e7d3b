#include "engine/base/shuffle.h"

#include <Random123/philox.h>

#include <pcg_random.hpp>
#include <utility>

namespace eulerdeck {

namespace {

// Uniform in [0, bound) without bias (Lemire's multiply-and-reject).
uint32_t Below(pcg32& rng, uint32_t bound) {
  uint64_t product = static_cast<uint64_t>(rng()) * bound;
  uint32_t low = static_cast<uint32_t>(product);
  if (low < bound) {
    const uint32_t threshold = static_cast<uint32_t>(-bound) % bound;
    while (low < threshold) {
      product = static_cast<uint64_t>(rng()) * bound;
      low = static_cast<uint32_t>(product);
    }
  }
  return static_cast<uint32_t>(product >> 32);
}

}  // namespace

void DeckShuffler::Shuffle(uint64_t index, uint8_t* cards, int n) const {
  // One Philox4x32-10 block of counter `index` under key `seed` gives the
  // deck its own PCG32 state and stream: decks are independent (Philox is a
  // keyed bijection of the counter) and the draws are cheap (PCG32).
  const r123::Philox4x32::key_type key = {
      {static_cast<uint32_t>(seed_), static_cast<uint32_t>(seed_ >> 32)}};
  const r123::Philox4x32::ctr_type ctr = {
      {static_cast<uint32_t>(index), static_cast<uint32_t>(index >> 32), 0, 0}};
  const r123::Philox4x32::ctr_type block = r123::Philox4x32()(ctr, key);
  pcg32 rng((static_cast<uint64_t>(block.v[1]) << 32) | block.v[0],
            (static_cast<uint64_t>(block.v[3]) << 32) | block.v[2]);
  for (int j = n - 1; j > 0; --j) {
    const uint32_t r = Below(rng, static_cast<uint32_t>(j + 1));
    std::swap(cards[j], cards[r]);
  }
}

}  // namespace eulerdeck
