// Bersani 2010 Table 3 for m = 11..16 (ctest label `slow`): the best score,
// C_max, the stored-card counts and the number of best decks.
#include <catch2/catch.hpp>

#include "engine/removal/best.h"
#include "tests/removal/table3.h"

namespace eulerdeck {
namespace {

TEST_CASE("best: Bersani 2010 Table 3, one suit, m = 11..16") {
  for (const Table3Row& row : Table3()) {
    if (row.m <= 10) continue;
    BestOptions options;
    options.show = 10;
    BestResult r;
    REQUIRE(BestScore(GameSpec{Game::kHlm, row.m, 1}, options, &r).ok());
    INFO("m=" << row.m);
    CHECK(r.best_score == row.best);
    CHECK(r.winning_score == row.c_max);
    CHECK(r.decks == row.decks);
    uint64_t listed = 0;
    for (int i : row.stored) {
      CHECK(r.stored[i] > 0);
      listed += r.stored[i];
    }
    CHECK(listed == r.decks);
  }
}

}  // namespace
}  // namespace eulerdeck
