// Adaptive play (engine/dundee/adaptive.h) against Litwack, Pikhurko & Pongnumkul: Table 1, (18)
// and the closed forms after it, Theorems 2 and 3 by the full dynamic
// programme, and greedy play against every deal (deals.h).
#include "engine/dundee/adaptive.h"

#include <catch2/catch.hpp>
#include <functional>
#include <vector>

#include "engine/dundee/counts.h"
#include "engine/dundee/deals.h"
#include "tests/dundee/test_util.h"

namespace eulerdeck {
namespace {

using dundee_test::Counts;
using dundee_test::Q;

TEST_CASE("dundee: Table 1, g(4,...,4) for 2..10 values (rounded down to 4 places)") {
  const double printed[] = {0.0142, 0.0475, 0.0821, 0.1137, 0.1416, 0.1664, 0.1884, 0.2080, 0.2258};
  for (int v = 2; v <= 10; ++v) {
    INFO("v=" << v);
    const mpq_class g = GreedyWin<mpq_class>(Counts(v, 4), 4 * v);
    mpz_class truncated;
    const mpq_class scaled = g * 10000;
    mpz_fdiv_q(truncated.get_mpz_t(), scaled.get_num_mpz_t(), scaled.get_den_mpz_t());
    CHECK(truncated.get_si() == static_cast<long>(printed[v - 2] * 10000 + 0.5));
  }
  CHECK(GreedyWin<mpq_class>(Counts(2, 4), 8) == Q(1, 70));
}

TEST_CASE("dundee: the closed forms (18) and after it") {
  auto g = [](Counts s) { return GreedyWin<mpq_class>(s, s[0] + s[1] + s[2]); };
  for (int q = 1; q <= 15; ++q) {
    for (int k = 1; k <= 15; ++k) {
      INFO("q=" << q << " k=" << k);
      CHECK(g({q, k, 1}) == Q(1, q + 1) + Q(1, k + 1) - Q(1, q + k + 1));  // (18)
    }
  }
  for (int i = 2; i <= 40; ++i) {
    INFO("i=" << i);
    CHECK(g({i, 2, 2}) ==
          Q(1, 6) + Q(8, 3 * (i + 1)) - Q(6, i + 2) + Q(6, i + 3) - Q(8, 3 * (i + 4)));
    if (i >= 3) {
      CHECK(g({i, 3, 2}) == Q(1, 10) + Q(2, i + 1) - Q(9, i + 3) + Q(12, i + 4) - Q(5, i + 5));
      CHECK(g({i, 3, 3}) == Q(1, 20) + Q(51, 10 * (i + 1)) - Q(39, 2 * (i + 2)) + Q(39, i + 3) -
                                Q(48, i + 4) + Q(33, i + 5) - Q(48, 5 * (i + 6)));
    }
    if (i >= 4) {
      CHECK(g({i, 4, 2}) == Q(1, 15) + Q(2, i + 1) - Q(2, i + 2) + Q(4, i + 3) - Q(16, i + 4) +
                                Q(20, i + 5) - Q(8, i + 6));
    }
  }
  CHECK(GreedyWin<mpq_class>({2, 2}, 4) == Q(1, 6));
  CHECK(GreedyWin<mpq_class>({3, 2}, 5) == Q(1, 10));
  CHECK(GreedyWin<mpq_class>({4, 2}, 6) == Q(1, 15));
  CHECK(GreedyWin<mpq_class>({3, 3}, 6) == Q(1, 20));
}

TEST_CASE("dundee: Theorems 2 and 3 on every deck with v <= 4 and s_i <= 3") {
  int decks = 0;
  for (int v = 2; v <= 4; ++v) {
    Counts s(v, 1);
    std::function<void(int)> rec = [&](int i) {
      if (i == v) {
        int c = 0;
        for (int x : s) c += x;
        for (int m = 1; m <= c; ++m) {
          INFO("s=" << CountsString(s) << " m=" << m);
          const AdaptiveResult a = AdaptiveDp(s, m);
          const mpq_class g = GreedyWin<mpq_class>(s, m);
          CHECK(a.best == g);                              // greedy is optimal
          if (v >= 3) CHECK(a.greedy_unique);              // ... and the only optimum
          CHECK(a.worst == WorstWinFormula(s, m));         // Theorem 3's value
          CHECK(a.anti_greedy_worst);                      // ... by anti-greedy play
          if (c <= 9) CHECK(g == GreedyWinByDeals(s, m));  // against every deal
        }
        ++decks;
        return;
      }
      for (int x = 1; x <= (i == 0 ? 3 : s[i - 1]); ++x) {  // sorted: s_1 >= ... >= s_v
        s[i] = x;
        rec(i + 1);
      }
    };
    rec(0);
  }
}

}  // namespace
}  // namespace eulerdeck
