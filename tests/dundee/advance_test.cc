// Advance bids (engine/dundee/advance.h) against Litwack, Pikhurko & Pongnumkul: the rook
// polynomial = the paper's appendix recursion = brute force over every deal
// (deals.h); Proposition 1 for two values, with its optimal sets.
#include "engine/dundee/advance.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <functional>
#include <set>
#include <vector>

#include "engine/dundee/adaptive.h"
#include "engine/dundee/counts.h"
#include "engine/dundee/deals.h"
#include "tests/dundee/test_util.h"

namespace eulerdeck {
namespace {

using dundee_test::Binom;
using dundee_test::Counts;
using dundee_test::Q;

// Every bid vector with `v` entries summing to m.
void ForAllBids(int v, int m, const std::function<void(const Counts&)>& f) {
  Counts b(v, 0);
  std::function<void(int, int)> rec = [&](int i, int left) {
    if (i == v - 1) {
      b[i] = left;
      f(b);
      return;
    }
    for (int x = 0; x <= left; ++x) {
      b[i] = x;
      rec(i + 1, left - x);
    }
  };
  rec(0, m);
}

TEST_CASE("dundee: advance bids by rook polynomial = appendix recursion = every deal") {
  int checked = 0;
  const Counts decks[] = {{2, 1, 1}, {3, 2, 1},    {2, 2, 2},       {3, 3, 1},
                          {4, 2, 1}, {2, 2, 1, 1}, {1, 1, 1, 1, 1}, {3, 3}};
  for (const Counts& s : decks) {
    int c = 0;
    for (int x : s) c += x;
    for (int m = 0; m <= c; ++m) {
      ForAllBids(static_cast<int>(s.size()), m, [&](const Counts& b) {
        const mpq_class p = AdvanceWin(b, s);
        INFO("s=" << CountsString(s) << " b=" << CountsString(b));
        CHECK(p == AdvanceWinRecursion(b, s));
        CHECK(p == AdvanceWinByDeals(b, s));
        ++checked;
      });
    }
  }
  CHECK(checked == 933);                                // every bid of every m for the eight decks
  CHECK(AdvanceWin({1, 1, 0}, {2, 1, 1}) == Q(5, 12));  // m < c: (c-k)!, not (m-k)!
  CHECK(AdvanceWin(Counts(5, 1), Counts(5, 1)) == Q(44, 120));  // derangements D_5 / 5!
}

TEST_CASE("dundee: Proposition 1, two values, against every deal") {
  for (int s1 = 1; s1 <= 6; ++s1) {
    for (int s2 = 0; s2 <= s1; ++s2) {
      const int c = s1 + s2;
      for (int m = 1; m <= c; ++m) {
        mpq_class best = -1;
        std::set<Counts> optimal;
        for (int b2 = 0; b2 <= m; ++b2) {
          const Counts b = {m - b2, b2}, s = {s1, s2};
          INFO("s=" << s1 << "," << s2 << " b=" << m - b2 << "," << b2);
          const mpq_class p = AdvanceWin(b, s);
          CHECK(p ==
                Binom(c - m, s1 - b2) / Binom(c, s1));  // the OCR's duplicated binomial dropped
          CHECK(p == AdvanceWinByDeals(b, s));
          if (p > best) {
            best = p;
            optimal.clear();
          }
          if (p == best) optimal.insert(b);
        }
        // The optimal bids: only value 2 if m <= s1 - s2, else exactly those
        // with |(s1 - b2) - (s2 - b1)| <= 1.
        std::set<Counts> want;
        for (int b2 = 0; b2 <= m; ++b2) {
          const int b1 = m - b2;
          if (m <= s1 - s2 ? b2 == m : std::abs((s1 - b2) - (s2 - b1)) <= 1) want.insert({b1, b2});
        }
        INFO("s=" << s1 << "," << s2 << " m=" << m);
        CHECK(optimal == want);
        // For two values the best adaptive play is no better than the best bid.
        if (s2 > 0) CHECK(AdaptiveDp({s1, s2}, m).best == best);
      }
    }
  }
}

}  // namespace
}  // namespace eulerdeck
