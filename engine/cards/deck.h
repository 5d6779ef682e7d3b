// Decks: parsing, checking and printing sequences of card values.
#ifndef EULERDECK_ENGINE_CARDS_DECK_H_
#define EULERDECK_ENGINE_CARDS_DECK_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/status.h"
#include "engine/cards/game.h"

namespace eulerdeck {

// A deck top card first: values in 1..ranks.
using Deck = std::vector<Card>;

// Parses "1 4 3 2" or "1,4,3,2" (any mix of whitespace and commas) into
// values. A comma must stand between two values: "1,2,3,4," and "1,,2" are
// refused. Checks only that each token is a positive integer that fits a
// Card; the multiset is checked by CheckDeck(). Errors name the offending
// token.
Status ParseCards(std::string_view text, Deck* deck);

// OK when `deck` holds exactly `suits` copies of each value 1..ranks.
Status CheckDeck(const GameSpec& spec, const Deck& deck);

// ParseCards() then CheckDeck().
Status ParseDeck(std::string_view text, const GameSpec& spec, Deck* deck);

// "1 4 3 2" (values separated by `sep`).
std::string DeckToString(const Deck& deck, std::string_view sep = " ");

// The sorted deck 1..1 2..2 ... ranks..ranks: the first multiset permutation.
Deck SortedDeck(const GameSpec& spec);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_CARDS_DECK_H_
