#include "engine/shuffle.h"

#include <Random123/philox.h>

#include <utility>

namespace eulerdeck {

namespace {

// 32-bit words of stream `index`, four per Philox block.
class WordStream {
 public:
  WordStream(uint64_t seed, uint64_t index) {
    key_ = {{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)}};
    ctr_ = {{static_cast<uint32_t>(index), static_cast<uint32_t>(index >> 32), 0, 0}};
  }
  uint32_t Next() {
    if (used_ == 4) {
      block_ = rng_(ctr_, key_);
      ++ctr_.v[2];
      used_ = 0;
    }
    return block_.v[used_++];
  }

 private:
  r123::Philox4x32 rng_;
  r123::Philox4x32::key_type key_;
  r123::Philox4x32::ctr_type ctr_;
  r123::Philox4x32::ctr_type block_{};
  int used_ = 4;
};

// Uniform in [0, bound) without bias (Lemire's multiply-and-reject).
uint32_t Below(WordStream& words, uint32_t bound) {
  uint64_t product = static_cast<uint64_t>(words.Next()) * bound;
  uint32_t low = static_cast<uint32_t>(product);
  if (low < bound) {
    const uint32_t threshold = static_cast<uint32_t>(-bound) % bound;
    while (low < threshold) {
      product = static_cast<uint64_t>(words.Next()) * bound;
      low = static_cast<uint32_t>(product);
    }
  }
  return static_cast<uint32_t>(product >> 32);
}

}  // namespace

void DeckShuffler::Shuffle(uint64_t index, Card* cards, int n) const {
  WordStream words(seed_, index);
  for (int j = n - 1; j > 0; --j) {
    const uint32_t r = Below(words, static_cast<uint32_t>(j + 1));
    std::swap(cards[j], cards[r]);
  }
}

}  // namespace eulerdeck
