// The optimal-bid search (engine/dundee/optimal_bids.h) against Litwack, Pikhurko & Pongnumkul:
// Theorem 5 on regular decks and Table 2 entirely, with a Lemma 13 search
// finding the same optimum.
#include "engine/dundee/optimal_bids.h"

#include <catch2/catch.hpp>
#include <set>
#include <utility>
#include <vector>

#include "engine/dundee/advance.h"
#include "engine/dundee/counts.h"
#include "tests/dundee/test_util.h"

namespace eulerdeck {
namespace {

using dundee_test::Binom;
using dundee_test::Counts;
using dundee_test::Q;

TEST_CASE("dundee: Theorem 5, regular decks: the optimal bids are the almost regular ones") {
  struct Case {
    int v, s;
  };
  for (const Case k : {Case{3, 1}, Case{3, 2}, Case{3, 3}, Case{3, 4}, Case{4, 1}, Case{4, 2},
                       Case{4, 3}, Case{5, 1}, Case{5, 2}, Case{6, 1}}) {
    const Counts s(k.v, k.s);
    for (int m = 1; m <= k.v * k.s; ++m) {
      INFO("v=" << k.v << " s=" << k.s << " m=" << m);
      OptimalBids r;
      REQUIRE(FindOptimalBids(s, m, 1000000, &r).ok());
      CHECK(r.exhaustive);
      if (k.v == 3 && k.s == 1 && m == 3) {
        // The exception: (1,1,1) and the six orders of (2,1,0).
        CHECK(r.all_bids == 7);
        CHECK(r.probability == Q(1, 3));
        continue;
      }
      for (const Counts& b : r.bids) CHECK(AlmostRegular(b, m));
      // ... and all of them: C(v, m mod v) almost regular vectors.
      CHECK(r.all_bids == Binom(k.v, m % k.v).get_num());
    }
  }
}

TEST_CASE("dundee: Table 2, optimal advance bids for three values and up to 11 cards") {
  // Seed 002 Table 2 (its OCR layout is scrambled; the 41 decks and 59 bids
  // reassembled): optimal b with sum b = sum s, b non-decreasing over equal s.
  const std::vector<std::pair<Counts, std::vector<Counts>>> table = {
      {{1, 1, 1}, {{0, 1, 2}, {1, 1, 1}}},
      {{2, 1, 1}, {{0, 2, 2}}},
      {{3, 1, 1}, {{0, 2, 3}}},
      {{2, 2, 1}, {{0, 1, 4}, {0, 2, 3}, {1, 1, 3}}},
      {{4, 1, 1}, {{0, 3, 3}}},
      {{3, 2, 1}, {{0, 2, 4}}},
      {{2, 2, 2}, {{2, 2, 2}}},
      {{5, 1, 1}, {{0, 3, 4}}},
      {{4, 2, 1}, {{0, 2, 5}}},
      {{3, 3, 1}, {{0, 1, 6}, {0, 2, 5}, {1, 1, 5}}},
      {{3, 2, 2}, {{0, 3, 4}, {1, 3, 3}}},
      {{6, 1, 1}, {{0, 4, 4}}},
      {{5, 2, 1}, {{0, 2, 6}, {0, 3, 5}}},
      {{4, 3, 1}, {{0, 2, 6}}},
      {{4, 2, 2}, {{0, 4, 4}}},
      {{3, 3, 2}, {{2, 2, 4}}},
      {{7, 1, 1}, {{0, 4, 5}}},
      {{6, 2, 1}, {{0, 3, 6}}},
      {{5, 3, 1}, {{0, 2, 7}}},
      {{5, 2, 2}, {{0, 4, 5}}},
      {{4, 4, 1}, {{0, 1, 8}, {0, 2, 7}, {1, 1, 7}}},
      {{4, 3, 2}, {{0, 3, 6}, {0, 4, 5}, {1, 3, 5}}},
      {{3, 3, 3}, {{3, 3, 3}}},
      {{8, 1, 1}, {{0, 5, 5}}},
      {{7, 2, 1}, {{0, 3, 7}}},
      {{6, 3, 1}, {{0, 2, 8}}},
      {{6, 2, 2}, {{0, 5, 5}}},
      {{5, 4, 1}, {{0, 2, 8}}},
      {{5, 3, 2}, {{0, 4, 6}}},
      {{4, 4, 2}, {{2, 2, 6}}},
      {{4, 3, 3}, {{2, 4, 4}}},
      {{9, 1, 1}, {{0, 5, 6}}},
      {{8, 2, 1}, {{0, 3, 8}, {0, 4, 7}}},
      {{7, 3, 1}, {{0, 2, 9}, {0, 3, 8}}},
      {{7, 2, 2}, {{0, 5, 6}}},
      {{6, 4, 1}, {{0, 2, 9}}},
      {{6, 3, 2}, {{0, 4, 7}}},
      {{5, 5, 1}, {{0, 1, 10}, {0, 2, 9}, {1, 1, 9}}},
      {{5, 4, 2}, {{0, 3, 8}, {0, 4, 7}, {1, 3, 7}}},
      {{5, 3, 3}, {{0, 5, 6}, {1, 5, 5}}},
      {{4, 4, 3}, {{3, 3, 5}}},
  };
  int bids = 0;
  for (const auto& [s, want] : table) {
    INFO("s=" << CountsString(s));
    OptimalBids r;
    REQUIRE(FindOptimalBids(s, s[0] + s[1] + s[2], 1000000, &r).ok());
    CHECK(r.bids == want);
    bids += static_cast<int>(want.size());
    // Lemma 13: a search over its shape alone finds the same optimum.
    OptimalBids shaped;
    REQUIRE(FindOptimalBids(s, s[0] + s[1] + s[2], 0, &shaped).ok());
    CHECK(!shaped.exhaustive);
    CHECK(shaped.probability == r.probability);
  }
  // The table covers exactly the decks s1 >= s2 >= s3 >= 1 with at most 11
  // cards, and lists 59 bids (the count of the paper's bid cells).
  std::set<Counts> decks, listed;
  for (int a = 1; a <= 9; ++a) {
    for (int b = 1; b <= a; ++b) {
      for (int c = 1; c <= b && a + b + c <= 11; ++c) decks.insert({a, b, c});
    }
  }
  for (const auto& [s, want] : table) listed.insert(s);
  CHECK(listed == decks);
  CHECK(bids == 59);
}

}  // namespace
}  // namespace eulerdeck
