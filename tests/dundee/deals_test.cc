// Deal-by-deal play (engine/dundee/deals.h): the deals enumerated, and one
// deal played by each player.
#include "engine/dundee/deals.h"

#include <catch2/catch.hpp>
#include <set>
#include <vector>

#include "tests/dundee/test_util.h"

namespace eulerdeck {
namespace {

using dundee_test::Counts;
using dundee_test::Q;

TEST_CASE("dundee: every deal once, played by each player") {
  CHECK(SortedDeal({2, 0, 1}) == DundeeDeal({0, 0, 2}));
  std::set<DundeeDeal> seen;
  const uint64_t orders = ForAllDeals({2, 1, 1}, [&](const DundeeDeal& deal) {
    CHECK(deal.size() == 4);
    seen.insert(deal);
  });
  CHECK(orders == 12);  // 4! / 2!
  CHECK(seen.size() == 12);
  // Greedy names the least frequent value left (the lowest on ties).
  CHECK(GreedySurvives({2, 1}, 3, {0, 1, 0}));   // names 1, 0 (a tie), then 1 (none left)
  CHECK(!GreedySurvives({2, 1}, 3, {0, 0, 1}));  // names 1, then 0 (a tie): lost
  CHECK(!GreedySurvives({2, 1}, 3, {1, 0, 0}));  // names 1 first: lost
  CHECK(GreedySurvives({2, 1}, 1, {0, 0, 1}));   // one round only
  CHECK(AdvanceSurvives({1, 1}, {0, 0, 1}));
  CHECK(!AdvanceSurvives({1, 1}, {0, 1, 0}));
  CHECK(AdvanceWinByDeals({0, 0}, {1, 1}) == 1);
  CHECK(GreedyWinByDeals({2, 1}, 3) == Q(1, 3));
}

}  // namespace
}  // namespace eulerdeck
