// The expensive check of CountRemovalPrefix() (ctest label `slow`): OEIS
// A028306's rows 10 and 11 (11 and 12 cards, not published) against brute
// force over all 4 * 10^7 and 4.8 * 10^8 decks.
#include <catch2/catch.hpp>

#include "engine/removal/prefix.h"
#include "tests/support/only_card.h"

namespace eulerdeck {
namespace {

TEST_CASE("prefix: A028306 rows 10 and 11 equal brute force") {
  for (int n : {11, 12}) {
    std::vector<uint64_t> row;
    for (int k = 1; k <= n; ++k) {
      mpz_class decks;
      REQUIRE(
          CountRemovalPrefix(GameSpec{Game::kMousetrap, n, 1}, {static_cast<Card>(k)}, true, &decks)
              .ok());
      row.push_back(decks.get_ui());
    }
    INFO("n = " << n);
    CHECK(row == testing::OnlyCardRowByBruteForce(n));
  }
}

}  // namespace
}  // namespace eulerdeck
