// Rebuild() (engine/eulerian/rebuild.h): the decks of a given removal order.
// Checked against forward play of every deck (brute force: all orders of
// all decks of small sizes, all three games, several suit counts), on
// Cayley's decks, and by round trips through forward play up to 1,000 cards.
#include "engine/eulerian/rebuild.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/cards/rules.h"

namespace eulerdeck {
namespace {

WideDeck Widen(const Deck& d) { return WideDeck(d.begin(), d.end()); }

// Every card of the spec, in increasing order.
Deck FullDeck(const GameSpec& spec) {
  Deck deck;
  for (int v = 1; v <= spec.ranks; ++v) deck.insert(deck.end(), spec.suits, Card(v));
  return deck;
}

WideDeck Identity(uint32_t n) {
  WideDeck order(n);
  for (uint32_t i = 0; i < n; ++i) order[i] = i + 1;
  return order;
}

std::vector<WideDeck> RebuildAll(const GameSpec& spec, const WideDeck& order) {
  RebuildResult r;
  RebuildOptions options;
  options.max_decks = 1u << 30;
  const Status s = Rebuild(spec.game, spec.ranks, spec.suits, order, options, &r);
  REQUIRE(s.ok());
  REQUIRE(r.exhausted);
  return r.decks;
}

TEST_CASE("rebuild: Cayley's decks that remove 1, 2, ..., n in order", "[rebuild]") {
  // Cayley 1857, as quoted by Bersani 2010 (seed 000), §2: the decks for
  // n <= 8 whose mousetrap removal order is the identity.
  const std::vector<std::string> cayley = {"1",     "12",     "132",     "1423",
                                           "13254", "142563", "1527436", "16245378"};
  for (uint32_t n = 1; n <= cayley.size(); ++n) {
    const std::vector<WideDeck> decks = RebuildAll({Game::kMousetrap, int(n), 1}, Identity(n));
    REQUIRE(decks.size() == 1);
    std::string text;
    for (uint32_t v : decks[0]) text += std::to_string(v);
    CHECK(text == cayley[n - 1]);
  }
}

TEST_CASE("rebuild: every order of every small deck, against forward play", "[rebuild]") {
  // Brute force: play every distinct deck, group the winners by removal
  // order; then every arrangement of the multiset, taken as an order, must
  // rebuild to exactly its group (none for the orders no deck has).
  const GameSpec specs[] = {
      {Game::kMousetrap, 7, 1}, {Game::kMousetrap, 3, 2}, {Game::kMousetrap, 2, 4},
      {Game::kModular, 7, 1},   {Game::kModular, 6, 1},   {Game::kModular, 4, 2},
      {Game::kModular, 2, 3},   {Game::kHlm, 2, 3},       {Game::kHlm, 3, 3},
      {Game::kHlm, 2, 4},       {Game::kHlm, 4, 3},
  };  // hlm wins are rare; each of these sizes has a few
  for (const GameSpec& spec : specs) {
    INFO(GameName(spec.game) << " m=" << spec.ranks << " s=" << spec.suits);
    Deck deck = FullDeck(spec);
    std::map<WideDeck, std::set<WideDeck>> by_order;
    uint64_t winners = 0;
    do {
      const GameResult r = Play(spec, deck);
      if (r.outcome == Outcome::kWin) {
        by_order[Widen(*r.reformed)].insert(Widen(deck));
        ++winners;
      }
    } while (std::next_permutation(deck.begin(), deck.end()));
    REQUIRE(winners > 0);
    uint64_t rebuilt = 0;
    std::sort(deck.begin(), deck.end());
    do {
      const WideDeck order = Widen(deck);
      const std::vector<WideDeck> decks = RebuildAll(spec, order);
      const std::set<WideDeck> got(decks.begin(), decks.end());
      REQUIRE(got.size() == decks.size());  // no deck twice
      const auto it = by_order.find(order);
      if (it == by_order.end()) {
        REQUIRE(got.empty());
      } else {
        REQUIRE(got == it->second);
      }
      rebuilt += decks.size();
    } while (std::next_permutation(deck.begin(), deck.end()));
    CHECK(rebuilt == winners);
  }
}

TEST_CASE("rebuild: wide forward play is Play() on decks Play() takes", "[rebuild]") {
  std::mt19937_64 rng(20261123);
  // hlm m=13 s=4 never wins in 20,000 deals: it checks losses only.
  const GameSpec specs[] = {{Game::kMousetrap, 9, 1}, {Game::kModular, 10, 1},
                            {Game::kModular, 5, 3},   {Game::kHlm, 2, 4},
                            {Game::kHlm, 13, 4},      {Game::kMousetrap, 4, 4}};
  for (const GameSpec& spec : specs) {
    const bool wins_expected = !(spec.game == Game::kHlm && spec.ranks == 13);
    Deck deck = FullDeck(spec);
    int wins = 0;
    for (int i = 0; i < 20000; ++i) {
      std::shuffle(deck.begin(), deck.end(), rng);
      const GameResult r = Play(spec, deck);
      WideDeck order;
      const bool won = WideRemovalOrder(spec.game, spec.ranks, Widen(deck), &order);
      REQUIRE(won == (r.outcome == Outcome::kWin));
      if (won) {
        REQUIRE(order == Widen(*r.reformed));
        ++wins;
      }
    }
    INFO(GameName(spec.game) << " m=" << spec.ranks << " s=" << spec.suits);
    CHECK((wins > 0) == wins_expected);
  }
}

TEST_CASE("rebuild: random winning decks come back from their removal order", "[rebuild]") {
  std::mt19937_64 rng(7);
  const GameSpec specs[] = {{Game::kMousetrap, 12, 1}, {Game::kMousetrap, 5, 3},
                            {Game::kModular, 13, 1},   {Game::kModular, 6, 4},
                            {Game::kHlm, 2, 4},        {Game::kHlm, 3, 3}};
  for (const GameSpec& spec : specs) {
    INFO(GameName(spec.game) << " m=" << spec.ranks << " s=" << spec.suits);
    Deck deck = FullDeck(spec);
    int found = 0;
    for (int i = 0; i < 2000000 && found < 25; ++i) {
      std::shuffle(deck.begin(), deck.end(), rng);
      const GameResult r = Play(spec, deck);
      if (r.outcome != Outcome::kWin) continue;
      ++found;
      const std::vector<WideDeck> decks = RebuildAll(spec, Widen(*r.reformed));
      REQUIRE(std::count(decks.begin(), decks.end(), Widen(deck)) == 1);
      for (const WideDeck& d : decks) {  // every deck found has that order
        WideDeck order;
        REQUIRE(WideRemovalOrder(spec.game, spec.ranks, d, &order));
        REQUIRE(order == Widen(*r.reformed));
      }
    }
    CHECK(found == 25);
  }
}

TEST_CASE("rebuild: the identity order of 1,000 cards plays back to itself", "[rebuild]") {
  for (uint32_t n : {100u, 257u, 1000u}) {
    INFO("n=" << n);
    RebuildResult r;
    REQUIRE(Rebuild(Game::kMousetrap, n, 1, Identity(n), {}, &r).ok());
    REQUIRE(r.decks.size() == 1);
    WideDeck order;
    REQUIRE(WideRemovalOrder(Game::kMousetrap, n, r.decks[0], &order));
    CHECK(order == Identity(n));
  }
  // Modular: one of the decks, then all of them are checked the same way.
  RebuildResult r;
  RebuildOptions options;
  options.max_decks = 50;
  REQUIRE(Rebuild(Game::kModular, 300, 1, Identity(300), options, &r).ok());
  REQUIRE(!r.decks.empty());
  for (const WideDeck& d : r.decks) {
    WideDeck order;
    REQUIRE(WideRemovalOrder(Game::kModular, 300, d, &order));
    CHECK(order == Identity(300));
  }
}

TEST_CASE("rebuild: max_decks stops the search, exhausted says whether it ended", "[rebuild]") {
  // Modular m = 6, order 1..6: seven decks (each replays to the order).
  const WideDeck order = Identity(6);
  RebuildResult all;
  RebuildOptions options;
  options.max_decks = 100;
  REQUIRE(Rebuild(Game::kModular, 6, 1, order, options, &all).ok());
  CHECK(all.decks.size() == 7);
  CHECK(all.exhausted);
  for (uint64_t max : {1, 3, 6}) {
    RebuildResult part;
    options.max_decks = max;
    REQUIRE(Rebuild(Game::kModular, 6, 1, order, options, &part).ok());
    CHECK(part.decks.size() == max);
    CHECK_FALSE(part.exhausted);
    CHECK(std::equal(part.decks.begin(), part.decks.end(), all.decks.begin()));
    CHECK(part.steps < all.steps);
  }
  // Mousetrap puts each card back once: n steps for n cards.
  RebuildResult cayley;
  REQUIRE(Rebuild(Game::kMousetrap, 8, 1, Identity(8), RebuildOptions{}, &cayley).ok());
  CHECK(cayley.steps == 8);
  CHECK(cayley.exhausted);
}

TEST_CASE("rebuild: bad orders are refused by name, orders without deck are empty", "[rebuild]") {
  RebuildResult r;
  CHECK(Rebuild(Game::kMousetrap, 4, 1, {1, 2, 3}, {}, &r).IsInvalidArgument());
  CHECK(Rebuild(Game::kMousetrap, 4, 1, {1, 2, 3, 5}, {}, &r).IsInvalidArgument());
  CHECK(Rebuild(Game::kMousetrap, 4, 1, {1, 2, 2, 4}, {}, &r).IsInvalidArgument());
  CHECK(Rebuild(Game::kTreize, 4, 1, {1, 2, 3, 4}, {}, &r).IsNotSupported());
  // Modular counts up to lcm(k, m): past 2^32 at 65537 ranks.
  CHECK(Rebuild(Game::kModular, 65537, 1, Identity(65537), {}, &r).IsInvalidArgument());
  // hlm wins end by burning a 2.
  REQUIRE(Rebuild(Game::kHlm, 4, 1, {2, 3, 4, 1}, {}, &r).ok());
  CHECK(r.decks.empty());
  CHECK(r.exhausted);
}

}  // namespace
}  // namespace eulerdeck
