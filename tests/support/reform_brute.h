// The brute-force classification ReformStats() is tested against: every
// deck of the size followed with Reform(), tallied the same way. Shared by
// the default and the slow tests.
#ifndef EULERDECK_TESTS_SUPPORT_REFORM_BRUTE_H_
#define EULERDECK_TESTS_SUPPORT_REFORM_BRUTE_H_

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <vector>

#include "engine/cards/reform.h"
#include "engine/reform/stats.h"

namespace eulerdeck::testing {

inline void Offer(ReformExample* e, uint64_t length, const Deck& deck) {
  // Decks come in lexicographic order: the first of a length is the smallest.
  if (length > e->length) *e = ReformExample{length, deck};
}

inline void ExpectEqualsBruteForce(const GameSpec& spec, const ReformStatsResult& fast) {
  Deck deck;
  for (int v = 1; v <= spec.ranks; ++v)
    for (int s = 0; s < spec.suits; ++s) deck.push_back(static_cast<Card>(v));
  uint64_t total = 0, winning = 0, unreformed = 0, cyclic = 0, on_cycles = 0;
  std::vector<uint64_t> reformable(1, 0);
  std::map<uint64_t, uint64_t> cycle_decks, cyclic_sequences;
  ReformExample sequence, cyclic_sequence, preperiod, cycle;
  bool any_winner = false;
  uint64_t unfinished = 0;  // sequences longer than Reform() was let follow
  do {
    ++total;
    const ReformResult r = Reform(spec, deck, 1'000'000);
    if (r.end == ReformResult::End::kLimit) ++unfinished;
    if (r.end == ReformResult::End::kDeadEnd) {
      const uint64_t k = r.length() - 1;
      if (k == 0) {
        ++unreformed;
        continue;
      }
      ++winning;
      any_winner = true;
      if (reformable.size() <= k) reformable.resize(k + 1, 0);
      ++reformable[k];
      Offer(&sequence, r.length(), deck);
      continue;
    }
    ++winning;
    any_winner = true;
    ++cyclic;
    const uint64_t mu = r.cycle_start, lambda = r.cycle_length();
    ++cyclic_sequences[r.length()];
    if (mu == 0) {
      ++on_cycles;
      ++cycle_decks[lambda];
    } else {
      Offer(&preperiod, mu, deck);
    }
    Offer(&sequence, r.length(), deck);
    Offer(&cyclic_sequence, r.length(), deck);
    Offer(&cycle, lambda, deck);
  } while (std::next_permutation(deck.begin(), deck.end()));
  std::map<uint64_t, uint64_t> cycles;
  for (const auto& [length, decks] : cycle_decks) cycles[length] = decks / length;

  REQUIRE(unfinished == 0);
  CHECK(fast.total_decks == total);
  CHECK(fast.winning_decks == winning);
  CHECK(fast.unreformed == unreformed);
  CHECK(fast.reformable == reformable);
  CHECK(fast.cyclic_decks == cyclic);
  CHECK(fast.decks_on_cycles == on_cycles);
  CHECK(fast.cycles == cycles);
  CHECK(fast.cyclic_sequences == cyclic_sequences);
  CHECK(fast.longest_sequence.length == (any_winner ? sequence.length : 1));
  CHECK(fast.longest_sequence.deck == sequence.deck);
  CHECK(fast.longest_cyclic_sequence.length == cyclic_sequence.length);
  CHECK(fast.longest_cyclic_sequence.deck == cyclic_sequence.deck);
  CHECK(fast.longest_preperiod.length == preperiod.length);
  CHECK(fast.longest_preperiod.deck == preperiod.deck);
  CHECK(fast.longest_cycle.length == cycle.length);
  CHECK(fast.longest_cycle.deck == cycle.deck);
}

}  // namespace eulerdeck::testing

#endif  // EULERDECK_TESTS_SUPPORT_REFORM_BRUTE_H_
