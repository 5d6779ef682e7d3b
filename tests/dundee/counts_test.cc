// Deck notation and the deck lists of the tables (engine/dundee/counts.h).
#include "engine/dundee/counts.h"

#include <catch2/catch.hpp>
#include <vector>

#include "tests/dundee/test_util.h"

namespace eulerdeck {
namespace {

using dundee_test::Counts;

TEST_CASE("dundee: deck notation") {
  Counts s;
  CHECK(ParseCounts("4^13", &s).ok());
  CHECK(s == Counts(13, 4));
  CHECK(ParseCounts("4^2, 3 ,1", &s).ok());
  CHECK(s == Counts({4, 4, 3, 1}));
  CHECK(CountsString(s) == "4,4,3,1");
  for (const char* bad : {"", "x", "4^", "^3", "4^0", "-1", "4^101", "1001", "4,,3", "4^2^2"}) {
    INFO(bad);
    CHECK(ParseCounts(bad, &s).IsInvalidArgument());
  }
}

TEST_CASE("dundee: the deck lists of the tables") {
  // Table 2's 41 decks, in its order: by total, then lexicographically down.
  const std::vector<Counts> decks = SortedDecks(3, 11);
  REQUIRE(decks.size() == 41);
  CHECK(decks.front() == Counts({1, 1, 1}));
  CHECK(decks[3] == Counts({2, 2, 1}));
  CHECK(decks.back() == Counts({4, 4, 3}));
  CHECK(SortedDecks(2, 4) == std::vector<Counts>({{1, 1}, {2, 1}, {3, 1}, {2, 2}}));
  CHECK(SortedDecks(4, 3).empty());
  CHECK(SortedDecks(0, 5).empty());
}

}  // namespace
}  // namespace eulerdeck
