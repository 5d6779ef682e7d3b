// Dundee played deal by deal: the value type of a dealt card, one deal played
// by the greedy player or by an advance bid, and exact win probabilities by
// brute force over every distinct deal. The brute force shares nothing with
// the recurrences (adaptive.h, advance.h) it checks; the Monte Carlo
// (monte_carlo.h) plays random deals with the same functions.
//
// s: counts per value (counts.h).
#ifndef EULERDECK_ENGINE_DUNDEE_DEALS_H_
#define EULERDECK_ENGINE_DUNDEE_DEALS_H_

#include <gmpxx.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "engine/dundee/counts.h"

namespace eulerdeck {

// A dealt card of Dundee is its value alone, 0..v-1: no suit, no rank, and
// nothing of the card games' Card. One byte, because the Monte Carlo shuffles
// deals with engine/base/shuffle.h, which permutes bytes.
using DundeeValue = uint8_t;
static_assert(kMaxDundeeValues <= 256, "a Dundee value must fit in a DundeeValue");

// The cards in the order dealt (or a sequence of named values).
using DundeeDeal = std::vector<DundeeValue>;

// s_0 cards of value 0, then s_1 of value 1, and so on: the deck before it
// is shuffled; or, given a bid b, the values named round by round (any order
// of an advance bid has the same win probability).
DundeeDeal SortedDeal(const std::vector<int>& s);

// Calls f(deal) for every distinct order of the deck, in lexicographic order,
// and returns their number (c! / prod s_i!: keep c small, <= 12 or so).
uint64_t ForAllDeals(const std::vector<int>& s, const std::function<void(const DundeeDeal&)>& f);

// Greedy play of one deal of the deck s: before each of the first m cards,
// name the least frequent remaining value (the lowest on ties). True if no
// named value coincides. REQUIRES: m <= deal.size().
bool GreedySurvives(const std::vector<int>& s, int m, const DundeeDeal& deal);

// Advance play of one deal: `named` (SortedDeal(b)) against the first
// named.size() cards. REQUIRES: named.size() <= deal.size().
bool AdvanceSurvives(const DundeeDeal& named, const DundeeDeal& deal);

// Pr(b, s) and g_m(s) by playing every deal (ties to the lowest value): for
// tests of advance.h and adaptive.h.
mpq_class AdvanceWinByDeals(const std::vector<int>& b, const std::vector<int>& s);
mpq_class GreedyWinByDeals(const std::vector<int>& s, int m);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_DUNDEE_DEALS_H_
