// Reproducible random streams: stream `index` of seed `seed` depends on
// (seed, index) and nothing else — one block of Random123's counter-based
// Philox4x32-10 seeds a PCG32 generator for that stream alone — so that work
// shared out among any number of threads draws the same numbers, and any
// one item (a deck, a sample) can be drawn again from its index.
#ifndef EULERDECK_ENGINE_BASE_STREAMS_H_
#define EULERDECK_ENGINE_BASE_STREAMS_H_

#include <Random123/philox.h>

#include <cstdint>
#include <pcg_random.hpp>

namespace eulerdeck {

inline pcg32 RandomStream(uint64_t seed, uint64_t index) {
  const r123::Philox4x32::key_type key = {
      {static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)}};
  const r123::Philox4x32::ctr_type ctr = {
      {static_cast<uint32_t>(index), static_cast<uint32_t>(index >> 32), 0, 0}};
  const r123::Philox4x32::ctr_type block = r123::Philox4x32()(ctr, key);
  return pcg32((static_cast<uint64_t>(block.v[1]) << 32) | block.v[0],
               (static_cast<uint64_t>(block.v[3]) << 32) | block.v[2]);
}

// Uniform in [0, bound) without bias (Lemire's multiply-and-reject).
inline uint32_t Below(pcg32& rng, uint32_t bound) {
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

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_BASE_STREAMS_H_
