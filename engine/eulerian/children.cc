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
  static_assert(kMaxTableWords == 4, "ValidCountsWide covers tables of 2 to 4 words");
  const int n = spec.cards();
  const uint32_t m = static_cast<uint32_t>(spec.ranks);
  RuleHeader header;
  std::memset(&header, 0, sizeof(header));
  header.magic = kRuleImageMagic;
  header.header_words = kRuleHeaderWords;
  header.cards = n;
  header.ranks = spec.ranks;
  header.suits = spec.suits;
  std::vector<uint64_t> pool;
  auto append = [&pool](const std::vector<uint64_t>& words) {
    const uint32_t at = static_cast<uint32_t>(pool.size());
    pool.insert(pool.end(), words.begin(), words.end());
    return at;
  };
  uint32_t max_limit = 0;
  for (int k = 1; k < n; ++k) {
    SizeRule& p = header.size[k];
    p.limit = CountLimit(spec, static_cast<uint32_t>(k + 1));
    p.words = static_cast<int>(p.limit / 64) + 1;
    std::vector<uint64_t> s_bits(p.words, 0);
    for (uint32_t a = 0; a <= p.limit; a += m) {
      for (uint32_t v = a; v <= p.limit; v += static_cast<uint32_t>(k + 1)) {
        s_bits[v >> 6] |= uint64_t{1} << (v & 63);
      }
    }
    p.s_bits0 = s_bits[0];
    p.s_bits_at = append(s_bits);
    // Every h is >= 2, so S's elements above limit - 2 never reach a count.
    p.s_trivial = 1;
    for (uint32_t v = 0; v + 2 <= p.limit; ++v) {
      if ((s_bits[v >> 6] >> (v & 63)) & 1) {
        if (p.s_element_count < kMaxViewSElements) p.s_elements[p.s_element_count] = v;
        ++p.s_element_count;
        if (v > 0) p.s_trivial = 0;
      }
    }
    const uint32_t top = p.limit & 63;
    p.last_word_mask = top == 63 ? ~uint64_t{0} : (uint64_t{1} << (top + 1)) - 1;
    if (p.words == 1) p.last_word_mask &= ~uint64_t{1};  // count 0 does not exist
    // For 2 to kMaxTableWords words: row h (words words) is S << h, for
    // h = 0..limit, so that the blocked set is an OR of k rows instead of k
    // shifted copies (a few KB per size; modular up to m = 16).
    p.shifted_at = kNoTable;
    if (p.words > 1 && p.words <= kMaxTableWords) {
      std::vector<uint64_t> rows(static_cast<size_t>(p.limit + 1) * p.words, 0);
      for (uint32_t h = 0; h <= p.limit; ++h) {
        OrShiftedWords(&rows[static_cast<size_t>(h) * p.words], s_bits.data(), p.words, p.words, h);
      }
      p.shifted_at = append(rows);
    }
    max_limit = std::max(max_limit, p.limit);
  }
  header.max_limit = max_limit;
  // value_of[t] = CalledValue(t) for every count up to the largest limit:
  // modular's children name values past the ranks, a division each.
  {
    std::vector<uint64_t> bytes((max_limit + 1 + 7) / 8, 0);
    Card* value_of = reinterpret_cast<Card*>(bytes.data());
    for (uint32_t t = 1; t <= max_limit; ++t) value_of[t] = CalledValue(spec, t);
    header.value_of_at = append(bytes);
  }
  // The repeated values' table, for limits of 2 to 4 words: value v (bit v
  // of the available values' bits, byte v / 8) stands for the counts
  // v + j * ranks below 256; a row of kMaxTableWords words for each byte
  // value of each of the first repeated_chunks bytes of the bits (when the
  // ranks fit them and some limit passes 63).
  if (max_limit >= 64 && m <= 63) {
    header.repeated_chunks = static_cast<int>(m / 8) + 1;
    std::vector<uint64_t> repeated(
        static_cast<size_t>(header.repeated_chunks) * 256 * kMaxTableWords, 0);
    for (int c = 0; c < header.repeated_chunks; ++c) {
      for (uint32_t byte = 0; byte < 256; ++byte) {
        uint64_t* row = &repeated[(static_cast<size_t>(c) * 256 + byte) * kMaxTableWords];
        for (uint32_t b = 0; b < 8; ++b) {
          const uint32_t v = 8 * c + b;
          if (!((byte >> b) & 1) || v < 1 || v > m) continue;
          for (uint32_t t = v; t < 64 * kMaxTableWords; t += m)
            row[t >> 6] |= uint64_t{1} << (t & 63);
        }
      }
    }
    header.repeated_at = append(repeated);
  }
  header.pool_words = static_cast<uint32_t>(pool.size());
  image_.assign(kRuleHeaderWords + pool.size(), 0);
  std::memcpy(image_.data(), &header, sizeof(header));
  std::copy(pool.begin(), pool.end(), image_.begin() + kRuleHeaderWords);
  core_ = RuleCore::Of(image_.data());
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

}  // namespace eulerdeck
