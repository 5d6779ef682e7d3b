// Forward brute force against the published counts. Sources: OEIS A007709
// (mousetrap, s = 1) and Tables 2, 4, 5 of Bersani (2010); every entry
// with at most 10^7 decks is here.
#include "engine/cards/brute.h"

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <thread>

#include "engine/cards/combinatorics.h"
#include "engine/cards/rules.h"

namespace eulerdeck {
namespace {

BruteResult RunBrute(Game g, int m, int s, int threads = 0) {
  BruteOptions options;
  options.threads = threads;
  BruteResult r;
  REQUIRE(Brute(GameSpec{g, m, s}, options, &r).ok());
  return r;
}

struct Entry {
  Game game;
  int ranks;
  int suits;
  uint64_t winning;
};

TEST_CASE("brute: A007709, mousetrap s=1, n = 1..10") {
  const uint64_t a007709[] = {1, 1, 2, 6, 15, 84, 330, 1812, 9978, 65503};
  // A000166, derangements: the decks that remove nothing (s = 1).
  const uint64_t derangements[] = {0, 1, 2, 9, 44, 265, 1854, 14833, 133496, 1334961};
  for (int n = 1; n <= 10; ++n) {
    INFO("n = " << n);
    const BruteResult r = RunBrute(Game::kMousetrap, n, 1);
    CHECK(r.winning_decks == a007709[n - 1]);
    CHECK(r.removed[0] == derangements[n - 1]);
    CHECK(r.removed[n] == r.winning_decks);
    CHECK(r.total_decks == *TotalDecks64(GameSpec{Game::kMousetrap, n, 1}));
  }
}

TEST_CASE("brute: Tables 2, 4, 5 of Bersani 2010, every entry with <= 10^7 decks") {
  const Entry entries[] = {
      // Table 2, hlm
      {Game::kHlm, 2, 2, 3},
      {Game::kHlm, 3, 2, 0},
      {Game::kHlm, 4, 2, 0},
      {Game::kHlm, 5, 2, 0},
      {Game::kHlm, 6, 2, 1},
      {Game::kHlm, 2, 3, 4},
      {Game::kHlm, 3, 3, 4},
      {Game::kHlm, 4, 3, 9},
      {Game::kHlm, 2, 4, 15},
      {Game::kHlm, 3, 4, 5},
      // Table 4, mousetrap
      {Game::kMousetrap, 2, 2, 3},
      {Game::kMousetrap, 3, 2, 12},
      {Game::kMousetrap, 4, 2, 147},
      {Game::kMousetrap, 5, 2, 2322},
      {Game::kMousetrap, 6, 2, 71629},
      {Game::kMousetrap, 2, 3, 4},
      {Game::kMousetrap, 3, 3, 90},
      {Game::kMousetrap, 4, 3, 5232},
      {Game::kMousetrap, 2, 4, 15},
      {Game::kMousetrap, 3, 4, 675},
      // Table 5, modular
      {Game::kModular, 2, 1, 1},
      {Game::kModular, 3, 1, 4},
      {Game::kModular, 4, 1, 9},
      {Game::kModular, 5, 1, 76},
      {Game::kModular, 6, 1, 190},
      {Game::kModular, 7, 1, 3186},
      {Game::kModular, 8, 1, 11351},
      {Game::kModular, 9, 1, 132684},
      {Game::kModular, 10, 1, 884371},
      {Game::kModular, 2, 2, 5},
      {Game::kModular, 3, 2, 60},
      {Game::kModular, 4, 2, 1182},
      {Game::kModular, 5, 2, 63063},
      {Game::kModular, 6, 2, 1797350},
      {Game::kModular, 2, 3, 19},
      {Game::kModular, 3, 3, 1081},
      {Game::kModular, 4, 3, 173053},
      {Game::kModular, 2, 4, 69},
      {Game::kModular, 3, 4, 22898},
  };
  for (const Entry& e : entries) {
    INFO(GameName(e.game) << " m=" << e.ranks << " s=" << e.suits);
    const BruteResult r = RunBrute(e.game, e.ranks, e.suits);
    CHECK(r.winning_decks == e.winning);
    const auto total = TotalDecks64(GameSpec{e.game, e.ranks, e.suits});
    CHECK(r.total_decks == *total);
    // Every win has the winning score, and nothing scores more.
    const int top = WinningScore(GameSpec{e.game, e.ranks, e.suits});
    if (static_cast<size_t>(top) < r.score.size()) CHECK(r.score[top] == e.winning);
    CHECK(r.score.size() <= static_cast<size_t>(top) + 1);
  }
}

TEST_CASE("brute: modular with n prime wins exactly when the deck is no derangement") {
  // 000 §5: n! - D(n) for n = 2, 3, 5, 7.
  CHECK(RunBrute(Game::kModular, 2, 1).winning_decks == 2 - 1);
  CHECK(RunBrute(Game::kModular, 3, 1).winning_decks == 6 - 2);
  CHECK(RunBrute(Game::kModular, 5, 1).winning_decks == 120 - 44);
  CHECK(RunBrute(Game::kModular, 7, 1).winning_decks == 5040 - 1854);
}

TEST_CASE("brute: the best hlm scores of Table 3 (s = 1), m = 4..10") {
  const int best[] = {6, 9, 14, 18, 25, 31, 39};
  for (int m = 4; m <= 10; ++m) {
    INFO("m = " << m);
    const BruteResult r = RunBrute(Game::kHlm, m, 1);
    REQUIRE(!r.score.empty());
    CHECK(static_cast<int>(r.score.size()) - 1 == best[m - 4]);  // highest score seen
    CHECK(r.winning_decks == 0);                                 // Remark 2.3
  }
}

TEST_CASE("brute: the result does not depend on the number of threads") {
  for (Game g : {Game::kMousetrap, Game::kModular, Game::kHlm}) {
    const BruteResult one = RunBrute(g, 4, 2, 1);
    const BruteResult three = RunBrute(g, 4, 2, 3);
    CHECK(one.removed == three.removed);
    CHECK(one.score == three.score);
    CHECK(one.winning_decks == three.winning_decks);
  }
}

TEST_CASE("brute levels: hlm s=2 sub-deck counts of Proposition 4.1") {
  // 000 Prop. 4.1 (s = 2): winning k-strings 4 (k=4), 3 (k=5), 1 (k=6),
  // 2 (k=7), 4 (k=8); with values at most 6 (m = 6): 7 nine-strings (of the
  // nine listed, 845431212 and 765431212 hold larger values), 7 ten-strings,
  // and one twelve-string, the single winning deck.
  std::vector<uint64_t> level;
  REQUIRE(BruteLevels(GameSpec{Game::kHlm, 6, 2}, BruteOptions{}, &level).ok());
  REQUIRE(level.size() == 13);
  CHECK(level[1] == 1);  // the final 2
  CHECK(level[2] == 2);  // 12, 22
  CHECK(level[4] == 4);
  CHECK(level[5] == 3);
  CHECK(level[6] == 1);
  CHECK(level[7] == 2);
  CHECK(level[8] == 4);
  CHECK(level[9] == 7);
  CHECK(level[10] == 7);
  CHECK(level[12] == 1);
}

TEST_CASE("brute levels: the last level is the number of winning decks") {
  for (Game g : {Game::kMousetrap, Game::kModular, Game::kHlm}) {
    for (int s = 1; s <= 3; ++s) {
      for (int m = 2; m * s <= 8; ++m) {
        INFO(GameName(g) << " m=" << m << " s=" << s);
        std::vector<uint64_t> level;
        REQUIRE(BruteLevels(GameSpec{g, m, s}, BruteOptions{}, &level).ok());
        CHECK(level.back() == RunBrute(g, m, s).winning_decks);
      }
    }
  }
}

TEST_CASE("brute refuses what it cannot finish") {
  BruteResult r;
  BruteOptions options;
  CHECK(Brute(GameSpec{Game::kMousetrap, 13, 4}, options, &r).IsOutOfRange());
  options.max_decks = 1000;
  CHECK(Brute(GameSpec{Game::kMousetrap, 7, 1}, options, &r).IsOutOfRange());
  CHECK(Brute(GameSpec{Game::kMousetrap, 0, 1}, options, &r).IsInvalidArgument());
}

TEST_CASE("brute: a stop flag gives Cancelled, saying how far it got") {
  const GameSpec spec{Game::kMousetrap, 11, 1};  // 39,916,800 decks: seconds
  std::atomic<bool> stop{true};
  BruteOptions options;
  options.stop = &stop;
  BruteResult r;
  CHECK(Brute(spec, options, &r).IsCancelled());
  std::vector<uint64_t> level;
  CHECK(BruteLevels(spec, options, &level).IsCancelled());

  // Set while running, after the first report of decks played.
  stop = false;
  std::atomic<uint64_t> done{0};
  options.decks_done = &done;
  std::thread watcher([&] {
    while (done.load() == 0) std::this_thread::yield();
    stop = true;
  });
  const Status s = Brute(spec, options, &r);
  watcher.join();
  INFO(s.ToString());
  REQUIRE(s.IsCancelled());
  CHECK(s.message().find("interrupted after ") == 0);
  CHECK(s.message().find(" of 39916800 decks (") != std::string::npos);
  CHECK(done.load() < 39916800);
}

}  // namespace
}  // namespace eulerdeck
