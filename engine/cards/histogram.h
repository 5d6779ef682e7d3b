// The distributions that every way of playing many decks tallies: brute force
// over all decks and Monte Carlo over random ones.
#ifndef EULERDECK_ENGINE_CARDS_HISTOGRAM_H_
#define EULERDECK_ENGINE_CARDS_HISTOGRAM_H_

#include <cstdint>
#include <vector>

#include "engine/cards/game.h"

namespace eulerdeck {

struct PlayHistogram {
  // removed[i]: decks that remove (hlm: store) exactly i cards, i = 0..n.
  std::vector<uint64_t> removed;
  // score[v]: decks whose removed (stored) cards sum to v, v = 0..TotalValue.
  std::vector<uint64_t> score;

  // Zeros, sized for every deck of `spec`.
  void Reset(const GameSpec& spec) {
    removed.assign(spec.cards() + 1, 0);
    score.assign(TotalValue(spec) + 1, 0);
  }
  // One deck that removed `cards` cards worth `value`. REQUIRES: Reset().
  void Add(uint32_t cards, uint32_t value) {
    ++removed[cards];
    ++score[value];
  }
  // Adds `other` (decks of other indices or prefixes), growing to fit.
  void Merge(const PlayHistogram& other) {
    if (removed.size() < other.removed.size()) removed.resize(other.removed.size(), 0);
    for (size_t i = 0; i < other.removed.size(); ++i) removed[i] += other.removed[i];
    if (score.size() < other.score.size()) score.resize(other.score.size(), 0);
    for (size_t i = 0; i < other.score.size(); ++i) score[i] += other.score[i];
  }
};

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_CARDS_HISTOGRAM_H_
