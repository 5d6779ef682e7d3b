// CountRemovalPrefix() (engine/removal/prefix.h): the decks whose removal
// order begins with (or is exactly) a given order. Checked against brute
// force: every deck played forward, its removal order tallied, on the
// sizes of mousetrap and modular listed below (up to 113,400 decks), for
// every order of up to three cards (those no deck has included, which must
// count 0).
#include "engine/removal/prefix.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "engine/cards/rules.h"
#include "tests/support/only_card.h"

namespace eulerdeck {
namespace {

using Order = std::vector<Card>;

// Every distinct deck's full removal order (one char a card: GCC 12 warns
// falsely on comparing byte vectors), with how many decks have it.
std::map<std::string, uint64_t> BruteOrders(const GameSpec& spec) {
  Deck deck;
  for (int v = 1; v <= spec.ranks; ++v)
    for (int s = 0; s < spec.suits; ++s) deck.push_back(static_cast<Card>(v));
  std::map<std::string, uint64_t> orders;
  Order order(deck.size());
  do {
    const QuickResult r = PlayOrder(spec, deck.data(), static_cast<int>(deck.size()), order.data());
    ++orders[std::string(order.begin(), order.begin() + r.removed)];
  } while (std::next_permutation(deck.begin(), deck.end()));
  return orders;
}

// Every order of at most `length` cards that respects the suit counts.
void Orders(const GameSpec& spec, size_t length, Order* current, std::vector<Order>* out) {
  out->push_back(*current);
  if (current->size() == length) return;
  for (int v = 1; v <= spec.ranks; ++v) {
    if (std::count(current->begin(), current->end(), v) >= spec.suits) continue;
    current->push_back(static_cast<Card>(v));
    Orders(spec, length, current, out);
    current->pop_back();
  }
}

mpz_class Prefix(const GameSpec& spec, const Order& prefix, bool only) {
  mpz_class decks;
  const Status st = CountRemovalPrefix(spec, prefix, only, &decks);
  INFO(st.ToString());
  REQUIRE(st.ok());
  return decks;
}

TEST_CASE("prefix: equals brute force's removal orders, mousetrap and modular", "[prefix]") {
  struct Size {
    int ranks, suits;
  };
  const std::vector<Size> sizes = {{1, 1}, {2, 1}, {3, 1}, {4, 1}, {5, 1}, {6, 1}, {7, 1}, {8, 1},
                                   {2, 2}, {3, 2}, {4, 2}, {5, 2}, {2, 3}, {3, 3}, {2, 4}, {3, 4}};
  int checked = 0;
  for (Game game : {Game::kMousetrap, Game::kModular}) {
    for (const Size& size : sizes) {
      const GameSpec spec{game, size.ranks, size.suits};
      INFO(GameName(game) << " m=" << size.ranks << " s=" << size.suits);
      const std::map<std::string, uint64_t> orders = BruteOrders(spec);
      Order current;
      std::vector<Order> prefixes;
      Orders(spec, std::min<size_t>(3, spec.cards()), &current, &prefixes);
      for (const Order& prefix : prefixes) {
        uint64_t starting = 0;
        for (const auto& [order, decks] : orders) {
          bool starts = order.size() >= prefix.size();
          for (size_t i = 0; starts && i < prefix.size(); ++i)
            starts = static_cast<Card>(order[i]) == prefix[i];
          if (starts) starting += decks;
        }
        const auto exact = orders.find(std::string(prefix.begin(), prefix.end()));
        const uint64_t only = exact == orders.end() ? 0 : exact->second;
        INFO("prefix of " << prefix.size() << " cards, first " << (prefix.empty() ? 0 : prefix[0]));
        CHECK(Prefix(spec, prefix, false) == starting);
        CHECK(Prefix(spec, prefix, true) == only);
        ++checked;
      }
    }
  }
  CHECK(checked > 2000);
}

// The decks of n cards removing only card k, k = 1..n (OEIS A028306's row
// n - 1, whose data section stops three terms into row 9: 10 cards).
std::vector<uint64_t> OnlyCardRow(int n) {
  std::vector<uint64_t> row;
  for (int k = 1; k <= n; ++k)
    row.push_back(Prefix(GameSpec{Game::kMousetrap, n, 1}, {static_cast<Card>(k)}, true).get_ui());
  return row;
}

TEST_CASE("prefix: A028306's rows equal brute force up to 10 cards", "[prefix]") {
  for (int n = 1; n <= 10; ++n) {
    INFO("n = " << n);
    CHECK(OnlyCardRow(n) == testing::OnlyCardRowByBruteForce(n));
  }
  // Row 9's last three terms, not published: 10 cards, only card 8, 9 or 10.
  const std::vector<uint64_t> row = OnlyCardRow(10);
  CHECK(std::vector<uint64_t>(row.begin() + 7, row.end()) ==
        std::vector<uint64_t>{55004, 48800, 133496});
}

TEST_CASE("prefix: counts past 2^64 exactly", "[prefix]") {
  // Decks of 25 cards removing 2 first: position 2 holds 2, position 1 not
  // 1, so 24! - 23! = 23 * 23! (OEIS A001563(23) = 23 * 23!).
  mpz_class factorial = 1;
  for (int i = 2; i <= 23; ++i) factorial *= i;
  CHECK(Prefix(GameSpec{Game::kMousetrap, 25, 1}, {2}, false) == 23 * factorial);
}

TEST_CASE("prefix: refuses what it cannot count", "[prefix]") {
  mpz_class decks = 7;
  CHECK(CountRemovalPrefix(GameSpec{Game::kHlm, 5, 1}, {2}, false, &decks).IsNotSupported());
  CHECK(CountRemovalPrefix(GameSpec{Game::kTreize, 5, 1}, {2}, false, &decks).IsNotSupported());
  CHECK(
      CountRemovalPrefix(GameSpec{Game::kMousetrap, 5, 1}, {6}, false, &decks).IsInvalidArgument());
  CHECK(
      CountRemovalPrefix(GameSpec{Game::kMousetrap, 5, 1}, {0}, false, &decks).IsInvalidArgument());
  CHECK(CountRemovalPrefix(GameSpec{Game::kMousetrap, 5, 2}, {3, 3, 3}, false, &decks)
            .IsInvalidArgument());
  CHECK(CountRemovalPrefix(GameSpec{Game::kMousetrap, 40, 1}, {2}, false, &decks).IsOutOfRange());
  // 34! < 2^128, but 32 cards stay unknown: a table of 2^32 entries.
  CHECK(CountRemovalPrefix(GameSpec{Game::kMousetrap, 34, 1}, {2}, false, &decks).IsOutOfRange());
  CHECK(decks == 7);  // untouched on error
}

}  // namespace
}  // namespace eulerdeck
