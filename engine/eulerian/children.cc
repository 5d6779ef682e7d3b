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
  static_assert(kMaxTableWords == 4, "ValidCountsWide's switch covers 2 to 4 words");
  const int n = spec.cards();
  per_size_.assign(n, PerSize());
  const uint32_t m = static_cast<uint32_t>(spec.ranks);
  uint32_t max_limit = 0;
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
    if (p.words > 1 && p.words <= kMaxTableWords) {
      p.shifted_s.assign(static_cast<size_t>(p.limit + 1) * p.words, 0);
      for (uint32_t h = 0; h <= p.limit; ++h) {
        OrShiftedWords(&p.shifted_s[static_cast<size_t>(h) * p.words], p.s_bits.data(), p.words,
                       p.words, h);
      }
    }
    max_limit = std::max(max_limit, p.limit);
  }
  value_of_.assign(max_limit + 1, 0);
  for (uint32_t t = 1; t <= max_limit; ++t) value_of_[t] = CalledValue(spec, t);
  // The repeated values' table, for limits of 2 to 4 words: value v (bit v
  // of the available values' bits, byte v / 8) stands for the counts
  // v + j * ranks below 256.
  if (max_limit >= 64 && m <= 63) {
    repeated_chunks_ = static_cast<int>(m / 8) + 1;
    repeated_.assign(static_cast<size_t>(repeated_chunks_) * 256 * kMaxTableWords, 0);
    for (int c = 0; c < repeated_chunks_; ++c) {
      for (uint32_t byte = 0; byte < 256; ++byte) {
        uint64_t* row = &repeated_[(static_cast<size_t>(c) * 256 + byte) * kMaxTableWords];
        for (uint32_t b = 0; b < 8; ++b) {
          const uint32_t v = 8 * c + b;
          if (!((byte >> b) & 1) || v < 1 || v > m) continue;
          for (uint32_t t = v; t < 64 * kMaxTableWords; t += m)
            row[t >> 6] |= uint64_t{1} << (t & 63);
        }
      }
    }
  }
}

namespace {

// The blocked counts of ValidCountsWide() as an OR of table rows, with the
// number of words fixed so that the rows are ORed in registers.
template <int W>
void OrRows(const uint64_t* rows, const Card* parent, int k, uint32_t limit, uint64_t* blocked) {
  uint64_t acc[W] = {};
  for (int i = 0; i < k; ++i) {
    const uint32_t h = parent[i] + static_cast<uint32_t>(k - i);
    if (h > limit) continue;
    const uint64_t* row = rows + static_cast<size_t>(h) * W;
    for (int w = 0; w < W; ++w) acc[w] |= row[w];
  }
  for (int w = 0; w < W; ++w) blocked[w] = acc[w];
}

}  // namespace

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
  switch (p.shifted_s.empty() ? 0 : p.words) {
    case 2:
      OrRows<2>(p.shifted_s.data(), parent, k, p.limit, blocked);
      break;
    case 3:
      OrRows<3>(p.shifted_s.data(), parent, k, p.limit, blocked);
      break;
    case 4:
      OrRows<4>(p.shifted_s.data(), parent, k, p.limit, blocked);
      break;
    default:  // wider: a shifted copy of S per card
      std::memset(blocked, 0, sizeof(uint64_t) * p.words);
      for (int i = 0; i < k; ++i) {
        const uint32_t h = parent[i] + static_cast<uint32_t>(k - i);
        if (h <= p.limit) OrShiftedWords(blocked, p.s_bits.data(), p.words, p.words, h);
      }
  }
  for (int j = 0; j < p.words; ++j) blocked[j] = ~blocked[j];
  blocked[0] &= ~uint64_t{1};
  blocked[p.words - 1] &= p.last_word_mask;
}

}  // namespace eulerdeck
