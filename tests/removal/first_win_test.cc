// FirstWinningDeck() (engine/removal/first_win.h) against the obviously
// right search: every deck in lexicographic order, played until one wins.
#include "engine/removal/first_win.h"

#include <algorithm>
#include <catch2/catch.hpp>

#include "engine/cards/rules.h"

namespace eulerdeck {
namespace {

Deck FirstByBrute(const GameSpec& spec) {
  const int n = spec.cards();
  Deck d(n);
  for (int i = 0; i < n; ++i) d[i] = static_cast<Card>(i + 1);
  do {
    if (PlayQuick(spec, d.data(), n).outcome == Outcome::kWin) return d;
  } while (std::next_permutation(d.begin(), d.end()));
  return {};
}

TEST_CASE("first winning deck: equals the lexicographic brute-force search", "[first_win]") {
  for (Game game : {Game::kMousetrap, Game::kModular}) {
    for (int n = 1; n <= 9; ++n) {
      const GameSpec spec{game, n, 1};
      Deck deck;
      REQUIRE(FirstWinningDeck(spec, 0, nullptr, &deck).ok());
      INFO(GameName(game) << " n=" << n);
      CHECK(deck == FirstByBrute(spec));
    }
  }
}

TEST_CASE("first winning deck: refuses hlm and several suits", "[first_win]") {
  Deck deck;
  CHECK(FirstWinningDeck(GameSpec{Game::kHlm, 5, 1}, 0, nullptr, &deck).IsNotSupported());
  CHECK(FirstWinningDeck(GameSpec{Game::kMousetrap, 4, 2}, 0, nullptr, &deck).IsNotSupported());
}

}  // namespace
}  // namespace eulerdeck
