// The worked examples of the seeds (Bersani's sections 2-5 and the Mousetrap contest's
// contest text), played by the rules module. Sources: 000 = Bersani, "An eulerian approach...";
// 001 = the Mousetrap contest text.
#include "engine/cards/rules.h"

#include <catch2/catch.hpp>

#include "engine/cards/deck.h"
#include "engine/cards/reform.h"

namespace eulerdeck {
namespace {

Deck D(const char* text) {
  Deck d;
  REQUIRE(ParseCards(text, &d).ok());
  return d;
}

// "534665431212" -> 5 3 4 6 6 5 4 3 1 2 1 2 (single-digit values).
Deck Digits(const std::string& text) {
  Deck d;
  for (char c : text) d.push_back(static_cast<Card>(c - '0'));
  return d;
}

GameSpec Spec(Game g, int m, int s = 1) { return GameSpec{g, m, s}; }

TEST_CASE("001: mousetrap 1 4 3 2 reforms to 1 4 2 3, then 1 2 3 4, then dead-end") {
  const GameSpec spec = Spec(Game::kMousetrap, 4);
  const GameResult r = Play(spec, D("1 4 3 2"));
  CHECK(r.outcome == Outcome::kWin);
  CHECK(r.removed == D("1 4 2 3"));
  REQUIRE(r.reformed);
  CHECK(*r.reformed == D("1 4 2 3"));
  CHECK(r.score == 10);

  const ReformResult seq = Reform(spec, D("1 4 3 2"), 1000);
  REQUIRE(seq.decks.size() == 3);
  CHECK(seq.decks[1] == D("1 4 2 3"));
  CHECK(seq.decks[2] == D("1 2 3 4"));
  CHECK(seq.end == ReformResult::End::kDeadEnd);
  CHECK(seq.length() == 3);  // 001: "the length of the sequence ... is 3"

  // 001: "you remove the 1, but cannot remove any other card".
  const GameResult last = Play(spec, D("1 2 3 4"));
  CHECK(last.outcome == Outcome::kLoss);
  CHECK(last.removed == D("1"));
  CHECK(last.residual == D("2 3 4"));
}

TEST_CASE("001: modular 1 3 4 2 reforms to 1 2 3 4, a cycle, length 2") {
  const GameSpec spec = Spec(Game::kModular, 4);
  const GameResult r = Play(spec, D("1 3 4 2"), {.trace = true});
  CHECK(r.outcome == Outcome::kWin);
  CHECK(r.removed == D("1 2 3 4"));
  // "remove the 1, then count 1,2,3,4,1,2, remove the 2": 7 counts so far.
  REQUIRE(r.trace.size() >= 7);
  CHECK(r.trace[6].removed);
  CHECK(r.trace[6].card == 2);
  CHECK(r.trace[6].called == 2);
  const ReformResult seq = Reform(spec, D("1 3 4 2"), 1000);
  CHECK(seq.length() == 2);
  CHECK(seq.end == ReformResult::End::kCycle);
  CHECK(seq.cycle_length() == 1);
  CHECK(*Play(spec, D("1 2 3 4")).reformed == D("1 2 3 4"));
}

TEST_CASE("001: modular 4 3 2 1 is a dead-end") {
  const GameResult r = Play(Spec(Game::kModular, 4), D("4 3 2 1"), {.trace = true});
  CHECK(r.outcome == Outcome::kDeadEnd);
  CHECK(r.removed.empty());
  CHECK_FALSE(r.reformed);
  CHECK(r.trace.size() == 4);  // lcm(4, 4) counts, none matching
}

TEST_CASE("000 §2: Cayley's decks remove 1, 2, ..., n in order") {
  const char* decks[] = {"1", "12", "132", "1423", "13254", "142563", "1527436", "16245378"};
  for (const char* d : decks) {
    const Deck deck = Digits(d);
    const int n = static_cast<int>(deck.size());
    const GameResult r = Play(Spec(Game::kMousetrap, n), deck);
    INFO("deck " << d);
    CHECK(r.outcome == Outcome::kWin);
    Deck identity;
    for (int v = 1; v <= n; ++v) identity.push_back(static_cast<Card>(v));
    CHECK(r.removed == identity);
  }
}

TEST_CASE("000 §4: hlm m=2 s=3 winning decks and their strings") {
  const GameSpec spec = Spec(Game::kHlm, 2, 3);
  const std::pair<const char*, const char*> pairs[] = {
      {"111222", "111222"}, {"112212", "112122"}, {"122112", "121122"}, {"221112", "211122"}};
  for (const auto& [deck, string] : pairs) {
    INFO("deck " << deck);
    const GameResult r = Play(spec, Digits(deck));
    CHECK(r.outcome == Outcome::kWin);
    CHECK(r.score == 7);  // C_max = 3*2*3/2 - 2
    REQUIRE(r.reformed);
    CHECK(*r.reformed == Digits(string));
    CHECK(r.burned == D("2"));
  }
}

TEST_CASE("000 Prop. 4.1: hlm s=2 sub-decks and the strings they generate") {
  // {sub-deck, string}; sub-decks of k cards are played with ranks = k (the
  // count then reaches every card, as in the paper's construction), the
  // final 12-card deck with its own m = 6.
  const std::pair<const char*, const char*> pairs[] = {
      {"12", "12"},
      {"22", "22"},
      {"21142", "42112"},
      {"21312", "31212"},
      {"12132", "13212"},
      {"312421", "431212"},
      {"2133124", "3431212"},
      {"2421531", "5431212"},
      {"33124621", "63431212"},
      {"31324215", "35431212"},
      {"53142421", "45431212"},
      {"21531624", "65431212"},
      {"462153312", "563431212"},
      {"246216331", "663431212"},
      {"215431324", "435431212"},
      {"213531424", "345431212"},
      {"242155314", "545431212"},
      {"314242185", "845431212"},
      {"243215316", "365431212"},
      {"316246215", "665431212"},
      {"531624721", "765431212"},
      {"3124462153", "4563431212"},
      {"3312546215", "5563431212"},
      {"3314246216", "4663431212"},
      {"3142462135", "6345431212"},
      {"3164243215", "4365431212"},
      {"5316524321", "5365431212"},
      {"2154316246", "4665431212"},
  };
  for (const auto& [deck, string] : pairs) {
    INFO("sub-deck " << deck);
    const Deck d = Digits(deck);
    const GameResult r = Play(Spec(Game::kHlm, static_cast<int>(d.size()), 2), d);
    CHECK(r.outcome == Outcome::kWin);
    REQUIRE(r.reformed);
    CHECK(*r.reformed == Digits(string));
  }
  const GameSpec m6 = Spec(Game::kHlm, 6, 2);
  const Deck deck = Digits("316254632154");
  REQUIRE(CheckDeck(m6, deck).ok());
  const GameResult r = Play(m6, deck);
  CHECK(r.outcome == Outcome::kWin);
  CHECK(r.score == 40);  // C_max = 2*6*7/2 - 2
  CHECK(*r.reformed == Digits("534665431212"));
}

TEST_CASE("000 Table 3: hlm s=1 best decks and their scores") {
  struct Row {
    const char* deck;
    int score;
    int cmax;
  };
  const Row rows[] = {
      {"2 1 3 4", 6, 8},
      {"2 5 1 4 3", 9, 13},
      {"6 1 4 3 5 2", 14, 19},
      {"3 7 1 5 2 6 4", 18, 26},
      {"8 1 5 2 6 4 7 3", 25, 34},
      {"4 1 2 6 9 7 3 8 5", 31, 43},
      {"10 1 6 2 7 3 8 5 9 4", 39, 53},
  };
  for (const Row& row : rows) {
    INFO("deck " << row.deck);
    const Deck deck = D(row.deck);
    const GameSpec spec = Spec(Game::kHlm, static_cast<int>(deck.size()));
    REQUIRE(CheckDeck(spec, deck).ok());
    const GameResult r = Play(spec, deck);
    CHECK(r.score == row.score);
    CHECK(WinningScore(spec) == row.cmax);
    CHECK(r.outcome == Outcome::kLoss);  // Remark 2.3: s = 1 never wins
  }
}

TEST_CASE("000 §5: the 13-card modular deck is 51 times reformable") {
  const GameSpec spec = Spec(Game::kModular, 13);
  const ReformResult seq = Reform(spec, D("6 2 5 11 1 8 13 12 7 9 10 3 4"), 1000);
  CHECK(seq.length() == 52);
  CHECK(seq.end == ReformResult::End::kDeadEnd);
  // Every deck but the last wins; the last does not.
  CHECK(Play(spec, seq.decks[50]).outcome == Outcome::kWin);
  CHECK(Play(spec, seq.decks[51]).outcome == Outcome::kDeadEnd);
}

TEST_CASE("000 §5: the 17-card modular deck gives 39554 distinct decks, then a cycle") {
  const ReformResult seq =
      Reform(Spec(Game::kModular, 17), D("1 17 10 14 7 16 12 3 9 8 4 6 13 2 15 5 11"), 1'000'000);
  CHECK(seq.length() == 39554);
  CHECK(seq.end == ReformResult::End::kCycle);
}

TEST_CASE("rules: hlm burns min(m, r) cards after a miss and goes on") {
  // m=3, s=2: deck 2 3 1 3 2 1. Counts 1,2,3 on 2,3,1: no hit, burn 2 3 1.
  // Left 3 2 1: count 1 on 3, 2 on 2: hit (store 2); 3 goes to the end: 1 3.
  // Count 1 on 1: hit; left 3: r=1 < m, count 1 on 3: burned.
  const GameResult r = Play(Spec(Game::kHlm, 3, 2), D("2 3 1 3 2 1"));
  CHECK(r.burned == D("2 3 1 3"));
  CHECK(r.removed == D("2 1"));
  CHECK(r.score == 3);
  CHECK(r.outcome == Outcome::kLoss);
}

TEST_CASE("rules: mousetrap counts round fewer cards than ranks") {
  // m=3, s=2: 2 2 3 3 1 1. Count 1 on 2, count 2 on 2: hit. Circle 2 3 3 1 1,
  // pointer on the first 3: 3/1 3/2 1/3, no hit within 3 counts: loss.
  const GameResult r = Play(Spec(Game::kMousetrap, 3, 2), D("2 2 3 3 1 1"));
  CHECK(r.removed == D("2"));
  CHECK(r.outcome == Outcome::kLoss);
  CHECK(r.residual == D("3 3 1 1 2"));
  // Sub-deck 3 1 with m = 4: 3/1 1/2 3/3, the count wraps onto the 3; the
  // last card is then always removed.
  const GameResult wrap = Play(Spec(Game::kMousetrap, 4), D("3 1"), {.trace = true});
  CHECK(wrap.removed == D("3 1"));
  CHECK(wrap.outcome == Outcome::kWin);
  CHECK(wrap.trace.size() == 4);
}

TEST_CASE("deck parsing rejects bad input with a message naming it") {
  const GameSpec spec = Spec(Game::kMousetrap, 4);
  Deck d;
  CHECK(ParseDeck("1 4 3 2", spec, &d).ok());
  CHECK(ParseDeck("1,4,3,2", spec, &d).ok());
  CHECK(ParseDeck(" 1, 4 ,3  2 ", spec, &d).ok());
  Status s = ParseDeck("1 4 x 2", spec, &d);
  CHECK(s.IsInvalidArgument());
  CHECK(s.message().find("'x'") != std::string::npos);
  CHECK(ParseDeck("", spec, &d).IsInvalidArgument());
  // A comma stands between two values (issue 42).
  CHECK(ParseDeck("1,4,3,2,", spec, &d).IsInvalidArgument());
  CHECK(ParseDeck(",1,4,3,2", spec, &d).IsInvalidArgument());
  CHECK(ParseDeck("1,,4,3,2", spec, &d).IsInvalidArgument());
  CHECK(ParseDeck("1, ,4,3,2", spec, &d).IsInvalidArgument());
  CHECK(ParseDeck("1 4 3 2 , ", spec, &d).IsInvalidArgument());
  CHECK(ParseDeck("1 4 3", spec, &d).IsInvalidArgument());
  CHECK(ParseDeck("1 4 3 5", spec, &d).IsInvalidArgument());
  CHECK(ParseDeck("1 4 3 3", spec, &d).IsInvalidArgument());
  CHECK(ParseDeck("0 1 2 3", spec, &d).IsInvalidArgument());
  CHECK(ParseDeck("1 2 3 -4", spec, &d).IsInvalidArgument());
  CHECK(ParseDeck("1 2 3 99999999999999999999", spec, &d).IsInvalidArgument());
  CHECK(ValidateSpec(Spec(Game::kMousetrap, 0)).IsInvalidArgument());
  CHECK(ValidateSpec(Spec(Game::kMousetrap, 4, 0)).IsInvalidArgument());
  CHECK(ValidateSpec(Spec(Game::kHlm, 1)).IsInvalidArgument());
  CHECK(ValidateSpec(Spec(Game::kMousetrap, 64, 4)).IsOutOfRange());
  Game g;
  CHECK(ParseGame("cayley", &g).IsInvalidArgument());
}

}  // namespace
}  // namespace eulerdeck
