#include "engine/removal/prefix.h"

#include <string>

#include "engine/cards/combinatorics.h"
#include "engine/removal/completions.h"

namespace eulerdeck {
namespace {

using internal::ValueMask;
using Count = unsigned __int128;

// Past this the permanent's table (16 bytes an entry) passes 1 GiB.
constexpr uint64_t kMaxTable = uint64_t{1} << 26;

class PrefixPlay {
 public:
  PrefixPlay(const GameSpec& spec, const std::vector<Card>& prefix, bool only)
      : spec_(spec), prefix_(prefix), only_(only) {}

  // The decks completing a play whose circle (from the pointer) holds
  // `circle` and whose values not yet removed are `avail`, `next` cards of
  // the prefix removed so far. Sets too_big_ instead of building a table
  // past kMaxTable.
  Count Walk(std::vector<ValueMask> circle, const std::vector<uint8_t>& avail, size_t next) {
    if (next == prefix_.size() && !only_) return Fill(circle, avail);
    const uint32_t r = static_cast<uint32_t>(circle.size());
    if (r == 0) return next == prefix_.size() ? 1 : 0;
    const uint32_t m = static_cast<uint32_t>(spec_.ranks);
    const uint32_t limit = CountLimit(spec_.policy().span, m, r);
    Count total = 0;
    uint32_t pos = 0;
    uint32_t v = 1;
    for (uint32_t t = 1; t <= limit; ++t) {
      const ValueMask bit = ValueMask{1} << (v - 1);
      if (circle[pos] & bit) {
        if (next < prefix_.size() && v == prefix_[next]) {
          // The card at pos is v, the next card of the prefix: removed, and
          // the count restarts after it.
          std::vector<uint8_t> rest(avail);
          const bool last = --rest[v - 1] == 0;
          std::vector<ValueMask> child;
          if (internal::CircleAfterRemoval(circle, pos, bit, last, &child))
            total += Walk(std::move(child), rest, next + 1);
        }
        // Or it is not v (any other removal here would break the order).
        circle[pos] &= ~bit;
        if (circle[pos] == 0) return total;
      }
      if (++pos == r) pos = 0;
      v = (v == m) ? 1 : v + 1;
    }
    // The game ends here, nothing more removed.
    if (next == prefix_.size()) total += Fill(circle, avail);
    return total;
  }

  bool too_big() const { return too_big_; }

 private:
  Count Fill(const std::vector<ValueMask>& circle, const std::vector<uint8_t>& avail) {
    bool simple = true;
    int k = 0;
    for (uint8_t c : avail) {
      simple &= c <= 1;
      k += c > 0;
    }
    const uint64_t table = simple ? (k >= 63 ? ~uint64_t{0} : uint64_t{1} << k)
                                  : internal::CompletionsTableSize(avail);
    if (table > kMaxTable) {
      too_big_ = true;
      return 0;
    }
    return internal::CompletionsOf<Count>(circle, avail);
  }

  const GameSpec& spec_;
  const std::vector<Card>& prefix_;
  const bool only_;
  bool too_big_ = false;
};

mpz_class ToMpz(Count x) {
  mpz_class hi(static_cast<unsigned long>(static_cast<uint64_t>(x >> 64)));
  mpz_class lo(static_cast<unsigned long>(static_cast<uint64_t>(x)));
  return (hi << 64) + lo;
}

}  // namespace

Status CountRemovalPrefix(const GameSpec& spec, const std::vector<Card>& prefix, bool only,
                          mpz_class* decks) {
  if (Status st = ValidateSpec(spec); !st.ok()) return st;
  if (spec.policy().on_match != OnMatch::kRemove || spec.policy().on_miss == OnMiss::kBurn) {
    return Status::NotSupported(std::string("removal orders are counted for mousetrap and "
                                            "modular, not ") +
                                GameName(spec.game));
  }
  if (spec.ranks > 64) return Status::OutOfRange("removal orders: at most 64 ranks");
  if (static_cast<int>(prefix.size()) > spec.cards()) {
    return Status::InvalidArgument("the order has more cards than the deck");
  }
  std::vector<uint8_t> avail(spec.ranks, static_cast<uint8_t>(spec.suits));
  for (Card c : prefix) {
    if (c < 1 || c > spec.ranks) {
      return Status::InvalidArgument("card " + std::to_string(c) + " of the order is not in 1.." +
                                     std::to_string(spec.ranks));
    }
    if (avail[c - 1]-- == 0) {
      return Status::InvalidArgument("card " + std::to_string(c) + " appears more than " +
                                     std::to_string(spec.suits) + " times in the order");
    }
  }
  if (TotalDecks(spec) >= (mpz_class(1) << 128)) {
    return Status::OutOfRange("more than 2^128 decks: counts would overflow");
  }
  const ValueMask full = spec.ranks == 64 ? ~ValueMask{0} : (ValueMask{1} << spec.ranks) - 1;
  std::vector<uint8_t> all(spec.ranks, static_cast<uint8_t>(spec.suits));
  PrefixPlay play(spec, prefix, only);
  const Count count = play.Walk(std::vector<ValueMask>(spec.cards(), full), all, 0);
  if (play.too_big()) {
    return Status::OutOfRange(
        "too many unknown cards after the order: the count's table would "
        "pass 2^26 entries");
  }
  *decks = ToMpz(count);
  return Status::OK();
}

}  // namespace eulerdeck
