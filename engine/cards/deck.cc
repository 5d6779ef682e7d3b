#include "engine/cards/deck.h"

#include <charconv>

namespace eulerdeck {

Status ParseCards(std::string_view text, Deck* deck) {
  deck->clear();
  size_t i = 0;
  // A comma separates two values: one with no value before it (leading,
  // doubled) or after it (trailing: "1,2,3,4,") is refused, not skipped.
  // Whitespace separates freely.
  bool comma = false;  // a comma since the last value
  const auto stray = [&] {
    return Status::InvalidArgument("deck '" + std::string(text) +
                                   "' has a comma without a value on each side");
  };
  while (i < text.size()) {
    const char c = text[i];
    if (c == ',') {
      if (comma || deck->empty()) return stray();
      comma = true;
      ++i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\n') {
      ++i;
      continue;
    }
    comma = false;
    size_t j = i;
    while (j < text.size() && text[j] != ' ' && text[j] != ',' && text[j] != '\t' &&
           text[j] != '\n') {
      ++j;
    }
    const std::string_view token = text.substr(i, j - i);
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (ec == std::errc::result_out_of_range ||
        (ec == std::errc() && end == token.data() + token.size() && value > kMaxCards)) {
      return Status::InvalidArgument("deck value '" + std::string(token) + "' is too large");
    }
    if (ec != std::errc() || end != token.data() + token.size()) {
      return Status::InvalidArgument("deck value '" + std::string(token) + "' is not a number");
    }
    if (value == 0) {
      return Status::InvalidArgument("deck value 0: values start at 1");
    }
    if (deck->size() >= static_cast<size_t>(kMaxCards)) {
      return Status::InvalidArgument("deck has more than " + std::to_string(kMaxCards) + " cards");
    }
    deck->push_back(static_cast<Card>(value));
    i = j;
  }
  if (comma) return stray();
  if (deck->empty()) return Status::InvalidArgument("deck is empty");
  return Status::OK();
}

Status CheckDeck(const GameSpec& spec, const Deck& deck) {
  std::vector<int> copies(spec.ranks + 1, 0);
  for (Card c : deck) {
    if (c < 1 || c > spec.ranks) {
      return Status::InvalidArgument("deck value " + std::to_string(c) + " is out of range 1.." +
                                     std::to_string(spec.ranks));
    }
    ++copies[c];
  }
  if (static_cast<int>(deck.size()) != spec.cards()) {
    return Status::InvalidArgument(
        "deck has " + std::to_string(deck.size()) + (deck.size() == 1 ? " card" : " cards") +
        ", expected " + std::to_string(spec.cards()) + " (" + std::to_string(spec.ranks) +
        (spec.ranks == 1 ? " rank" : " ranks") + " x " + std::to_string(spec.suits) +
        (spec.suits == 1 ? " suit)" : " suits)"));
  }
  for (int v = 1; v <= spec.ranks; ++v) {
    if (copies[v] != spec.suits) {
      return Status::InvalidArgument(
          "deck has " + std::to_string(copies[v]) + (copies[v] == 1 ? " card" : " cards") +
          " of value " + std::to_string(v) + ", expected " + std::to_string(spec.suits));
    }
  }
  return Status::OK();
}

Status ParseDeck(std::string_view text, const GameSpec& spec, Deck* deck) {
  Status s = ParseCards(text, deck);
  if (s.ok()) s = CheckDeck(spec, *deck);
  return s;
}

std::string DeckToString(const Deck& deck, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < deck.size(); ++i) {
    if (i > 0) out.append(sep);
    out += std::to_string(deck[i]);
  }
  return out;
}

Deck SortedDeck(const GameSpec& spec) {
  Deck deck;
  deck.reserve(spec.cards());
  for (int v = 1; v <= spec.ranks; ++v) deck.insert(deck.end(), spec.suits, v);
  return deck;
}

}  // namespace eulerdeck
