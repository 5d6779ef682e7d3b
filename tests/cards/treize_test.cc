// Treize / Frustration solitaire, the fourth game (one policy entry in
// engine/cards/game.cc): deal the deck counting 1..m, 1..m, ...; a card equal
// to the value named loses, a deck dealt without a match wins. Its winning
// decks are the multiset derangements where value v may not sit at the
// positions v, v + m, v + 2m, ...:
//   s = 1: OEIS A000166 (derangements);
//   s = 2: OEIS A000459 (multiset permutations of {1,1,...,n,n} with no fixed
//          points);
//   s = 4: OEIS A059074 (derangements of 4 repeats of an n-set); n = 13 is
//          Frustration solitaire (Doyle, Grinstead & Snell, "Frustration
//          Solitaire", UMAP Journal 16 (1995): win probability 0.01623...),
//          1493804444499093354916284290188948031229880469556 decks (Ekhad,
//          Koutschan & Zeilberger, arXiv:2101.10147, 2021).
// Two independent methods: forward brute force over every deck (the rules
// module), and the rook-polynomial formula of Dundee's advance bids (Litwack, Pikhurko &
// Pongnumkul, Litwack, Pikhurko & Pongnumkul: naming each value s times in advance, as Treize's
// count does, on a deck with s cards of each value).
#include <gmpxx.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "engine/cards/brute.h"
#include "engine/cards/combinatorics.h"
#include "engine/cards/rules.h"
#include "engine/dundee/advance.h"
#include "engine/eulerian/children.h"
#include "engine/montecarlo/montecarlo.h"
#include "tests/support/rook_wins.h"

namespace eulerdeck {
namespace {

uint64_t BruteWins(int m, int s) {
  BruteResult r;
  REQUIRE(Brute(GameSpec{Game::kTreize, m, s}, BruteOptions{}, &r).ok());
  CHECK(r.total_decks == *TotalDecks64(GameSpec{Game::kTreize, m, s}));
  CHECK(r.outcomes[static_cast<int>(Outcome::kDeadEnd)] == 0);
  CHECK(r.removed[0] == r.total_decks);  // Treize never removes a card
  return r.winning_decks;
}

mpz_class RookWins(int m, int s) { return eulerdeck::RookWins(GameSpec{Game::kTreize, m, s}); }

TEST_CASE("treize: s = 1 is A000166, by brute force and by rook polynomials") {
  const uint64_t a000166[] = {1, 0, 1, 2, 9, 44, 265, 1854, 14833, 133496};
  for (int n = 1; n <= 9; ++n) {
    INFO("n = " << n);
    CHECK(BruteWins(n, 1) == a000166[n]);
    CHECK(RookWins(n, 1) == a000166[n]);
  }
}

TEST_CASE("treize: s = 2 is A000459, by brute force and by rook polynomials") {
  const uint64_t a000459[] = {1, 0, 1, 10, 297, 13756, 925705};
  for (int n = 1; n <= 6; ++n) {
    INFO("n = " << n);
    CHECK(BruteWins(n, 2) == a000459[n]);
    CHECK(RookWins(n, 2) == a000459[n]);
  }
  CHECK(RookWins(9, 2) == mpz_class("1596005408152"));
}

TEST_CASE("treize: s = 4 is A059074, Frustration solitaire at n = 13") {
  const uint64_t a059074[] = {1, 0, 1, 346, 748521};
  for (int n = 1; n <= 4; ++n) {
    INFO("n = " << n);
    CHECK(BruteWins(n, 4) == a059074[n]);
    CHECK(RookWins(n, 4) == a059074[n]);
  }
  CHECK(RookWins(5, 4) == mpz_class("3993445276"));
  CHECK(RookWins(8, 4) == mpz_class("35780355973270898382001"));
  CHECK(RookWins(13, 4) == mpz_class("1493804444499093354916284290188948031229880469556"));
}

TEST_CASE("treize: the Frustration solitaire probability by Monte Carlo") {
  // 0.016232727467... (the exact count above over 52!/(4!)^13 decks).
  const GameSpec spec{Game::kTreize, 13, 4};
  McTally tally;
  REQUIRE(MonteCarlo(spec, 0, 1 << 20, McOptions{}, &tally).ok());
  const double p = static_cast<double>(tally.wins) / static_cast<double>(tally.decks);
  // 2^20 decks: standard error 1.2e-4; 5 standard errors either side.
  CHECK(p > 0.016232727 - 6.2e-4);
  CHECK(p < 0.016232727 + 6.2e-4);
}

TEST_CASE("treize: play follows the count through the deck") {
  const GameSpec spec{Game::kTreize, 4, 1};
  // 2 1 4 3 against the counts 1 2 3 4: no match, a win with nothing removed.
  GameResult r = Play(spec, Deck{2, 1, 4, 3}, {.trace = true});
  CHECK(r.outcome == Outcome::kWin);
  CHECK(r.removed.empty());
  CHECK(r.score == 0);
  CHECK(!r.reformed);  // nothing removed: no reformed deck
  CHECK(r.trace.size() == 4);
  // 2 3 3 1 4 2 1 4 (s = 2) against 1 2 3 4 1 2 3 4: the third card matches.
  r = Play(GameSpec{Game::kTreize, 4, 2}, Deck{2, 3, 3, 1, 4, 2, 1, 4}, {.trace = true});
  CHECK(r.outcome == Outcome::kLoss);
  REQUIRE(r.trace.size() == 3);
  CHECK(r.trace.back().removed);  // the match
  CHECK(WinningScore(spec) == 0);
}

TEST_CASE("treize: the policy says it cannot be enumerated backwards") {
  const Status s = CheckEnumerable(GameSpec{Game::kTreize, 5, 1});
  CHECK(s.IsNotSupported());
  CHECK(s.ToString().find("treize") != std::string::npos);
}

}  // namespace
}  // namespace eulerdeck
