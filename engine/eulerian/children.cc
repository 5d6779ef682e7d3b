#include "engine/eulerian/children.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace eulerdeck {

Status CheckEnumerable(const GameSpec& spec) {
  Status s = ValidateSpec(spec);
  if (!s.ok()) return s;
  if (!spec.policy().enumerable) {
    return Status::NotSupported(std::string(spec.policy().name) +
                                " has no backward tree to enumerate (no card is ever removed);"
                                " use brute or cardlab mc");
  }
  if (spec.cards() > kMaxEnumCards) {
    return Status::OutOfRange("the enumerator handles decks of at most " +
                              std::to_string(kMaxEnumCards) + " cards, not " +
                              std::to_string(spec.cards()));
  }
  if (spec.ranks > kMaxEnumRanks) {
    return Status::OutOfRange("the enumerator handles at most " + std::to_string(kMaxEnumRanks) +
                              " ranks");
  }
  return Status::OK();
}

ChildRule::ChildRule(const GameSpec& spec) : spec_(spec) {
  const int n = spec.cards();
  per_size_.assign(n, PerSize());
  const uint32_t m = static_cast<uint32_t>(spec.ranks);
  for (int k = 1; k < n; ++k) {
    PerSize& p = per_size_[k];
    p.limit = CountLimit(spec, static_cast<uint32_t>(k + 1));
    p.words = static_cast<int>(p.limit / 64) + 1;
    p.s_bits.assign(p.words, 0);
    for (uint32_t a = 0; a <= p.limit; a += m) {
      for (uint32_t v = a; v <= p.limit; v += static_cast<uint32_t>(k + 1)) {
        p.s_bits[v >> 6] |= uint64_t{1} << (v & 63);
      }
    }
    // Every h is >= 2, so S's elements above limit - 2 never reach a count.
    p.s_trivial = true;
    for (uint32_t v = 0; v + 2 <= p.limit; ++v) {
      if ((p.s_bits[v >> 6] >> (v & 63)) & 1) {
        p.s_elements.push_back(v);
        if (v > 0) p.s_trivial = false;
      }
    }
    const uint32_t top = p.limit & 63;
    p.last_word_mask = top == 63 ? ~uint64_t{0} : (uint64_t{1} << (top + 1)) - 1;
    if (p.words == 1) p.last_word_mask &= ~uint64_t{1};  // count 0 does not exist
  }
}

std::vector<Card> ChildRule::Roots() const {
  if (spec_.policy().ends_on_burned_two) return {2};
  std::vector<Card> roots;
  for (int v = 1; v <= spec_.ranks; ++v) roots.push_back(static_cast<Card>(v));
  return roots;
}

bool ChildRule::IsValidChild(const Card* parent, int k, uint32_t t) const {
  ChildCounts valid;
  ValidCounts(parent, k, &valid);
  if (t < 1 || t > valid.limit || !valid.Contains(t)) return false;
  const Card x = CalledValue(spec_, t);
  return AvailableValues::Available(static_cast<int>(std::count(parent, parent + k, x)),
                                    spec_.suits);
}

void ChildRule::ValidCountsWide(const Card* parent, int k, ChildCounts* out) const {
  const PerSize& p = per_size_[k];
  uint64_t* blocked = out->bits;
  std::memset(blocked, 0, sizeof(uint64_t) * p.words);
  for (int i = 0; i < k; ++i) {
    const uint32_t h = parent[i] + static_cast<uint32_t>(k - i);
    if (h <= p.limit) OrShiftedWords(blocked, p.s_bits.data(), p.words, p.words, h);
  }
  for (int j = 0; j < p.words; ++j) blocked[j] = ~blocked[j];
  blocked[0] &= ~uint64_t{1};
  blocked[p.words - 1] &= p.last_word_mask;
}

}  // namespace eulerdeck
