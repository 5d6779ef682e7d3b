// Compositions: the counts s_1..s_v of a Dundee deck (cards of each value) or
// b_1..b_v of an advance bid (times each value is named), their notation, and
// the lists of decks the tables run over.
//
// Every function of the room takes counts as std::vector<int>, value i - 1 at
// index i - 1. The recursions of the room go one level per card, so they rely
// on the limits below: compositions that ParseCounts accepts are safe.
#ifndef EULERDECK_ENGINE_DUNDEE_COUNTS_H_
#define EULERDECK_ENGINE_DUNDEE_COUNTS_H_

#include <string>
#include <vector>

#include "engine/base/status.h"

namespace eulerdeck {

// At most this many values (a value then fits in one byte: see deals.h) ...
inline constexpr int kMaxDundeeValues = 100;
// ... and at most this many cards, per value and in all (1000 levels of
// recursion fit any stack).
inline constexpr int kMaxDundeeCards = 1000;

// Counts per value: "4^13" (13 values with 4 cards each), "5,3,2", or a mix
// such as "4^12,3". InvalidArgument naming the problem. Entries may be 0
// (for bids; a deck needs at least one card, which the caller checks).
Status ParseCounts(const std::string& text, std::vector<int>* counts);

std::string CountsString(const std::vector<int>& counts);  // "5,3,2"
int TotalCards(const std::vector<int>& counts);            // the sum

// Every deck s_1 >= ... >= s_values >= 1 with at most max_cards cards, by
// total and then lexicographically decreasing (the order of the paper's
// Table 2). Empty if values < 1.
std::vector<std::vector<int>> SortedDecks(int values, int max_cards);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_DUNDEE_COUNTS_H_
