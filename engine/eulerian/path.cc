#include "engine/eulerian/path.h"

#include <algorithm>

namespace eulerdeck {

const Card* PathDecoder::Decode(const uint16_t* path, int k) {
  if (static_cast<int>(deck_.size()) < k) deck_.resize(k);
  // Shared prefix with the previous path: those sub-decks are still right.
  int shared = 0;
  const int limit = std::min<int>(k, static_cast<int>(last_.size()));
  while (shared < limit && last_[shared] == path[shared]) ++shared;
  if (shared == 0) {
    deck_[0][0] = static_cast<Card>(path[0]);
    shared = 1;
  }
  for (int j = shared; j < k; ++j) {
    ChildRule::MakeChild(deck_[j - 1].data(), j, path[j], CalledValue(spec_, path[j]),
                         deck_[j].data());
  }
  last_.assign(path, path + k);
  return deck_[k - 1].data();
}

bool PathIsValid(const ChildRule& rule, const uint16_t* path, int k) {
  const GameSpec& spec = rule.spec();
  const std::vector<Card> roots = rule.Roots();
  if (k < 1 || std::find(roots.begin(), roots.end(), path[0]) == roots.end()) return false;
  std::array<Card, kNodeBytes> deck{}, child{};
  deck[0] = static_cast<Card>(path[0]);
  for (int j = 1; j < k; ++j) {
    const uint32_t t = path[j];
    if (!rule.IsValidChild(deck.data(), j, t)) return false;
    ChildRule::MakeChild(deck.data(), j, t, CalledValue(spec, t), child.data());
    deck = child;
  }
  return true;
}

Deck PathString(const GameSpec& spec, const uint16_t* path, int k) {
  Deck s;
  for (int j = k - 1; j >= 0; --j) s.push_back(CalledValue(spec, path[j]));
  return s;
}

}  // namespace eulerdeck
