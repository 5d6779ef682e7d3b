// Dundee / the Problem of Thirteen (engine/dundee/dundee.h) against seed 002:
// equations (1) and (2), Table 1, the closed forms after (18), Proposition 1,
// Theorems 2, 3 and 5, Table 2; each fast method against brute force over
// every deal and against the paper's appendix recursion.
#include <catch2/catch.hpp>

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "engine/dundee/dundee.h"
#include "engine/base/stats.h"

namespace eulerdeck {
namespace {

using Counts = std::vector<int>;

mpq_class Q(long a, long b) {
  mpq_class q(a, b);
  q.canonicalize();
  return q;
}

mpq_class Binom(long n, long k) {
  if (k < 0 || k > n) return 0;
  mpz_class b;
  mpz_bin_uiui(b.get_mpz_t(), n, k);
  return mpq_class(b);
}

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

TEST_CASE("dundee: equations (1) and (2), thirteen values of four cards") {
  const Counts s(13, 4);
  CHECK(GreedyWin<mpq_class>(s, 52) ==
        mpq_class("47058584898515020667750825872/174165229296062536531664039375"));
  CHECK(AdvanceWin(s, s) == mpq_class("4610507544750288132457667562311567997623087869/"
                                      "284025438982318025793544200005777916187500000000"));
  CHECK(std::abs(GreedyWin<double>(s, 52) - 0.27019506183) < 1e-10);
  // Monte Carlo agrees (fixed seed: the interval covers the exact values).
  uint64_t wins = 0;
  REQUIRE(DundeeMonteCarlo(s, 52, {}, 100000, 7, &wins).ok());
  Interval ci = Wilson95(wins, 100000);
  CHECK(ci.low < 0.2701950618);
  CHECK(0.2701950618 < ci.high);
  REQUIRE(DundeeMonteCarlo(s, 52, s, 100000, 7, &wins).ok());
  ci = Wilson95(wins, 100000);
  CHECK(ci.low < 0.0162327275);
  CHECK(0.0162327275 < ci.high);
}

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
    CHECK(g({i, 2, 2}) == Q(1, 6) + Q(8, 3 * (i + 1)) - Q(6, i + 2) + Q(6, i + 3) - Q(8, 3 * (i + 4)));
    if (i >= 3) {
      CHECK(g({i, 3, 2}) == Q(1, 10) + Q(2, i + 1) - Q(9, i + 3) + Q(12, i + 4) - Q(5, i + 5));
      CHECK(g({i, 3, 3}) == Q(1, 20) + Q(51, 10 * (i + 1)) - Q(39, 2 * (i + 2)) + Q(39, i + 3) - Q(48, i + 4) +
                                Q(33, i + 5) - Q(48, 5 * (i + 6)));
    }
    if (i >= 4) {
      CHECK(g({i, 4, 2}) == Q(1, 15) + Q(2, i + 1) - Q(2, i + 2) + Q(4, i + 3) - Q(16, i + 4) + Q(20, i + 5) -
                                Q(8, i + 6));
    }
  }
  CHECK(GreedyWin<mpq_class>({2, 2}, 4) == Q(1, 6));
  CHECK(GreedyWin<mpq_class>({3, 2}, 5) == Q(1, 10));
  CHECK(GreedyWin<mpq_class>({4, 2}, 6) == Q(1, 15));
  CHECK(GreedyWin<mpq_class>({3, 3}, 6) == Q(1, 20));
}

TEST_CASE("dundee: advance bids by rook polynomial = appendix recursion = every deal") {
  int checked = 0;
  const Counts decks[] = {{2, 1, 1}, {3, 2, 1}, {2, 2, 2}, {3, 3, 1}, {4, 2, 1}, {2, 2, 1, 1}, {1, 1, 1, 1, 1}, {3, 3}};
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
  CHECK(checked == 933);  // every bid of every m for the eight decks
  CHECK(AdvanceWin({1, 1, 0}, {2, 1, 1}) == Q(5, 12));      // m < c: (c-k)!, not (m-k)!
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
          CHECK(p == Binom(c - m, s1 - b2) / Binom(c, s1));  // the OCR's duplicated binomial dropped
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
          CHECK(a.best == g);                                    // greedy is optimal
          if (v >= 3) CHECK(a.greedy_unique);                    // ... and the only optimum
          CHECK(a.worst == WorstWinFormula(s, m));               // Theorem 3's value
          CHECK(a.anti_greedy_worst);                            // ... by anti-greedy play
          if (c <= 9) CHECK(g == GreedyWinByDeals(s, m));        // against every deal
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

TEST_CASE("dundee: Theorem 5, regular decks: the optimal bids are the almost regular ones") {
  struct Case {
    int v, s;
  };
  for (const Case k : {Case{3, 1}, Case{3, 2}, Case{3, 3}, Case{3, 4}, Case{4, 1}, Case{4, 2}, Case{4, 3}, Case{5, 1},
                       Case{5, 2}, Case{6, 1}}) {
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
      {{1, 1, 1}, {{0, 1, 2}, {1, 1, 1}}}, {{2, 1, 1}, {{0, 2, 2}}},
      {{3, 1, 1}, {{0, 2, 3}}},            {{2, 2, 1}, {{0, 1, 4}, {0, 2, 3}, {1, 1, 3}}},
      {{4, 1, 1}, {{0, 3, 3}}},            {{3, 2, 1}, {{0, 2, 4}}},
      {{2, 2, 2}, {{2, 2, 2}}},            {{5, 1, 1}, {{0, 3, 4}}},
      {{4, 2, 1}, {{0, 2, 5}}},            {{3, 3, 1}, {{0, 1, 6}, {0, 2, 5}, {1, 1, 5}}},
      {{3, 2, 2}, {{0, 3, 4}, {1, 3, 3}}}, {{6, 1, 1}, {{0, 4, 4}}},
      {{5, 2, 1}, {{0, 2, 6}, {0, 3, 5}}}, {{4, 3, 1}, {{0, 2, 6}}},
      {{4, 2, 2}, {{0, 4, 4}}},            {{3, 3, 2}, {{2, 2, 4}}},
      {{7, 1, 1}, {{0, 4, 5}}},            {{6, 2, 1}, {{0, 3, 6}}},
      {{5, 3, 1}, {{0, 2, 7}}},            {{5, 2, 2}, {{0, 4, 5}}},
      {{4, 4, 1}, {{0, 1, 8}, {0, 2, 7}, {1, 1, 7}}}, {{4, 3, 2}, {{0, 3, 6}, {0, 4, 5}, {1, 3, 5}}},
      {{3, 3, 3}, {{3, 3, 3}}},            {{8, 1, 1}, {{0, 5, 5}}},
      {{7, 2, 1}, {{0, 3, 7}}},            {{6, 3, 1}, {{0, 2, 8}}},
      {{6, 2, 2}, {{0, 5, 5}}},            {{5, 4, 1}, {{0, 2, 8}}},
      {{5, 3, 2}, {{0, 4, 6}}},            {{4, 4, 2}, {{2, 2, 6}}},
      {{4, 3, 3}, {{2, 4, 4}}},            {{9, 1, 1}, {{0, 5, 6}}},
      {{8, 2, 1}, {{0, 3, 8}, {0, 4, 7}}}, {{7, 3, 1}, {{0, 2, 9}, {0, 3, 8}}},
      {{7, 2, 2}, {{0, 5, 6}}},            {{6, 4, 1}, {{0, 2, 9}}},
      {{6, 3, 2}, {{0, 4, 7}}},            {{5, 5, 1}, {{0, 1, 10}, {0, 2, 9}, {1, 1, 9}}},
      {{5, 4, 2}, {{0, 3, 8}, {0, 4, 7}, {1, 3, 7}}}, {{5, 3, 3}, {{0, 5, 6}, {1, 5, 5}}},
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

}  // namespace
}  // namespace eulerdeck
