// Two-player Memory (Alfthan 2007): Terminating Memory's E(n,j) and its
// optimal moves (Table 2.1, worked cases, closed forms; the conjectures are
// in conjectures_test.cc), and Combinatorial Memory's block reduction
// against negamax.
#include <algorithm>
#include <catch2/catch.hpp>
#include <functional>
#include <string>
#include <vector>

#include "engine/memory/combinatorial.h"
#include "engine/memory/terminating.h"

namespace eulerdeck {
namespace {

mpq_class Frac(const mpz_class& a, const mpz_class& b) {
  mpq_class q(a, b);
  q.canonicalize();
  return q;
}

const TerminatingTable<mpq_class>& Exact200() {
  static const TerminatingTable<mpq_class> table = [] {
    TerminatingTable<mpq_class> t;
    REQUIRE(Terminating(200, &t).ok());
    return t;
  }();
  return table;
}

std::string MoveRow(const TerminatingTable<mpq_class>& t, int n) {
  std::string row;
  for (int j = 0; j <= n; ++j) row += static_cast<char>(t.move[n][j]);
  return row;
}

TEST_CASE("terminating: Table 2.1, the optimal move for n <= 19") {
  // Seed 003 Table 2.1 (1 risky, 0 safe, # no choice), rows n = 2..19.
  const char* table[] = {
      "#1#",
      "#10#",
      "#101#",
      "#1010#",
      "#10100#",
      "#101001#",
      "#1010010#",
      "#10100000#",
      "#101010101#",
      "#1010101010#",
      "#10101000101#",
      "#101010001010#",
      "#1010100010101#",
      "#10101000101010#",
      "#101010101010101#",
      "#1010101010101010#",
      "#10101010101010101#",
      "#101010101010101010#",
  };
  const auto& t = Exact200();
  for (int n = 2; n <= 19; ++n) {
    INFO("n=" << n);
    CHECK(MoveRow(t, n) == table[n - 2]);
  }
}

TEST_CASE("terminating: the worked cases of §2.3") {
  const auto& E = Exact200().value;
  CHECK(E[4][0] == 4);
  CHECK(E[4][1] == 2);
  CHECK(E[1][1] == 1);
  CHECK(E[2][2] == Frac(2, 3));
  CHECK(E[3][1] == Frac(5, 3));
  // safe - risky at (4,2) = 4/30 (3 + E(3,1)) = 28/45: safe.
  const auto& t = Exact200();
  CHECK(t.safe[4][2] - t.risky[4][2] == Frac(28, 45));
  for (int n = 2; n <= 200; ++n) {
    INFO("n=" << n);
    // Proposition: (n,1) is risky: risky - safe = 2/(n+1).
    CHECK(t.risky[n][1] - t.safe[n][1] == Frac(2, n + 1));
    // Proposition: (n,2) is safe for n >= 3; the printed proof's difference
    // is damaged (docs/memory.md), the true one is 28(n-2)/(3(n+1)(n+2)).
    if (n >= 3) CHECK(t.safe[n][2] - t.risky[n][2] == Frac(28 * (n - 2), 3 * (n + 1) * (n + 2)));
  }
}

TEST_CASE("terminating: closed forms for j <= 4 and the appendix's longer ones") {
  const auto& E = Exact200().value;
  for (int j = 0; j <= 4; ++j) {
    for (int n = j; n <= 200; ++n) {
      INFO("j=" << j << " n=" << n);
      CHECK(E[n][j] == TerminatingClosedForm(n, j));
    }
  }
  // E(n,3) as OCR'd, "(13n^2 + 119 - 180) / (35(n+3))", is wrong at n = 3.
  CHECK(E[3][3] != Frac(13 * 9 + 119 - 180, 35 * 6));
  // Appendix A, j = 5..8: numerator P_j(n) over c_j n (n+j) prod (n^2 - i^2),
  // i = 1..j-1, with the coefficients restored where the OCR lost or changed
  // digits (docs/memory.md lists each change), valid from n0 on.
  struct Long {
    int j, n0;
    long denominator_constant;
    std::vector<const char*> coefficients;  // highest power first
  };
  const Long forms[] = {
      {5,
       9,
       3465,
       {"1355", "22517", "-208780", "274890", "1612215", "-7158459", "6211810", "28105660",
        "-47631320", "-21244608", "40014720", "1207722700800"}},
      {6,
       8,
       45045,
       {"28785", "-40066", "640809", "-12622610", "-18740865", "403799682", "-168861693",
        "-3741258950", "3842132580", "11313085784", "-14329401216", "-94210333626240",
        "847832010163200", "-999698373273600"}},
      {7,
       15,
       45045,
       {"18179", "456901", "-9671221", "73737209", "-322893571", "-403780377", "13170694537",
        "-39346766173", "-85591846340", "500442798856", "-159474385616", "328040918687664",
        "-8570817229963968", "72611046391461120", "-215092266770304000", "13609153099071129600"}},
      {8,
       14,
       11486475,
       {"7123515", "-29253600", "1121029436", "-29510640000", "122122097090", "1146119083200",
        "-8658956028268", "-2157444432000", "150474833240875", "-310556354565600",
        "-725126934312872", "-220762956566880000", "8204274258706790320", "-113644465165672128000",
        "728041184240995816704", "-29493665704563148800000", "358333636389876958003200",
        "157474496656739598336000"}},
  };
  for (const Long& f : forms) {
    for (int n = f.n0; n <= 200; ++n) {
      INFO("j=" << f.j << " n=" << n);
      mpz_class x = n, p = 0;
      for (const char* c : f.coefficients) p = p * x + mpz_class(c);
      mpz_class d = f.denominator_constant * x * (x + f.j);
      for (int i = 1; i < f.j; ++i) d *= x * x - i * i;
      CHECK(E[n][f.j] == Frac(p, d));
    }
    // And the form does not hold just below n0 (the strategy differs there).
    const int n = f.n0 - 1;
    mpz_class x = n, p = 0;
    for (const char* c : f.coefficients) p = p * x + mpz_class(c);
    mpz_class d = f.denominator_constant * x * (x + f.j);
    for (int i = 1; i < f.j; ++i) d *= x * x - i * i;
    CHECK(E[n][f.j] != Frac(p, d));
  }
}

TEST_CASE("terminating: no ties where there is a choice, up to n = 200") {
  // Conjectures 1 and 2 themselves: conjectures_test.cc (CheckTerminating).
  const auto& t = Exact200();
  for (int n = 1; n <= 200; ++n) {
    for (int j = 1; j < n; ++j) CHECK(t.move[n][j] != TmMove::kTie);
  }
}

TEST_CASE("terminating: floating point agrees with the exact table") {
  TerminatingTable<long double> f;
  REQUIRE(Terminating(200, &f).ok());
  const auto& t = Exact200();
  for (int n = 0; n <= 200; ++n) {
    for (int j = 0; j <= n; ++j) {
      CHECK(std::abs(static_cast<double>(f.value[n][j]) - t.value[n][j].get_d()) < 1e-13 * (1 + n));
      CHECK(f.move[n][j] == t.move[n][j]);
    }
  }
}

CmOrder Order(const char* text) {
  CmOrder o;
  REQUIRE(ParseCmOrder(text, &o).ok());
  return o;
}

TEST_CASE("combinatorial: the thesis's examples (Figures 3.1 and 3.2, reconstructed)") {
  // Figure 3.1 (boards rebuilt from the narrative of §3.3): Left wins 5-3.
  const CmOrder a = Order("1a 2a 1b 3a 2b 4a 3b 4b 5a 6a 7a 8a 5b 6b 7b 8b");
  CHECK(CmNegamax(a) == 2);
  CHECK(CmBlocksString(CmBlocks(a)) == "↓0 ↑1 ↓1 ↓2 ↓0 ⇕4");
  CHECK(CmBlockValue(CmBlocks(a)) == 2);
  // Figure 3.2 (3b moved later): 7-1.
  const CmOrder b = Order("1a 2a 1b 3a 2b 4a 4b 5a 6a 3b 7a 8a 5b 6b 7b 8b");
  CHECK(CmNegamax(b) == 6);
  CHECK(CmBlocksString(CmBlocks(b)) == "↓0 ↑1 ↓1 ⇕1 ⇕1 ⇕4");
  CHECK(CmBlockValue(CmBlocks(b)) == 6);
  // The abstract third example (§3.5): the thesis gets 16; combining right to
  // left gives 14 (docs/memory.md: whoever takes the 5, the other leads the
  // last 15 pairs, so Left ends with 5 or 19 of 24 pairs).
  using T = CmBlockType;
  const std::vector<CmBlock> third = {{T::kChoice, 5},     {T::kShifting, 3},   {T::kPreserving, 1},
                                      {T::kChoice, 3},     {T::kPreserving, 4}, {T::kChoice, 1},
                                      {T::kPreserving, 3}, {T::kPreserving, 4}};
  CHECK(CmBlockValue(third) == 14);
  // Small cases by hand.
  CHECK(CmNegamax(Order("1a 1b")) == 1);
  CHECK(CmNegamax(Order("1a 2a 1b 2b")) == -2);
  CHECK(CmBlockValue(CmBlocks(Order("1a 2a 1b 2b"))) == -2);
  CHECK(CmNegamax(Order("1a 2a 2b 1b")) == -2);
}

// Every order of `pairs` pairs with pairs numbered by first appearance:
// (2P-1)!! of them.
void ForAllOrders(int pairs, const std::function<void(const CmOrder&)>& f) {
  CmOrder o;
  std::vector<int> open;  // pairs opened, b-card not yet placed
  std::function<void(int)> rec = [&](int next_pair) {
    if (static_cast<int>(o.pair.size()) == 2 * pairs) return f(o);
    if (next_pair < pairs) {
      o.pair.push_back(next_pair);
      open.push_back(next_pair);
      rec(next_pair + 1);
      open.pop_back();
      o.pair.pop_back();
    }
    for (size_t i = 0; i < open.size(); ++i) {
      const int p = open[i];
      o.pair.push_back(p);
      open.erase(open.begin() + i);
      rec(next_pair);
      open.insert(open.begin() + i, p);
      o.pair.pop_back();
    }
  };
  rec(0);
}

TEST_CASE("combinatorial: block reduction equals negamax on every order up to 7 pairs") {
  long count = 0, agree = 0;
  for (int pairs = 1; pairs <= 7; ++pairs) {
    ForAllOrders(pairs, [&](const CmOrder& o) {
      ++count;
      const bool same = CmNegamax(o) == CmBlockValue(CmBlocks(o));
      agree += same;
      if (!same) FAIL_CHECK("disagree on " << CmOrderString(o));
    });
  }
  CHECK(count == 1 + 3 + 15 + 105 + 945 + 10395 + 135135);
  CHECK(agree == count);
}

TEST_CASE("combinatorial: block reduction equals negamax on random orders of 8..40 pairs") {
  // 3000 orders, split evenly over the 33 sizes.
  uint64_t orders = 0, agree = 0;
  for (int pairs = 8; pairs <= 40; ++pairs) {
    CmRandomCheck check;
    REQUIRE(CmCheckRandomOrders(pairs, (3000 + pairs - 8) / 33, pairs, &check).ok());
    INFO("pairs=" << pairs << " first disagreement: " << check.first_disagreement);
    CHECK(check.agree == check.orders);
    CHECK(check.first_disagreement.empty());
    orders += check.orders;
    agree += check.agree;
  }
  CHECK(orders == 3000);
  CHECK(agree == orders);
}

TEST_CASE("combinatorial: CmSolve and CmCheckRandomOrders") {
  // Figure 3.1 (reconstructed): Left wins 5-3, both ways.
  const CmSolution a = CmSolve(Order("1a 2a 1b 3a 2b 4a 3b 4b 5a 6a 7a 8a 5b 6b 7b 8b"));
  CHECK(a.value == 2);
  CHECK(a.left == 5);
  CHECK(a.right == 3);
  CHECK(CmBlocksString(a.blocks) == "↓0 ↑1 ↓1 ↓2 ↓0 ⇕4");
  CHECK(a.block_value == 2);
  CHECK(a.agree());
  const CmSolution b = CmSolve(Order("1a 2a 1b 2b"));  // Right takes both
  CHECK((b.value == -2 && b.left == 0 && b.right == 2 && b.agree()));
  // cardlab's run (tests/tools/cli_test.sh): 500 orders of 20 pairs, seed 1.
  CmRandomCheck one, two;
  REQUIRE(CmCheckRandomOrders(20, 500, 1, &one).ok());
  CHECK(one.orders == 500);
  CHECK(one.agree == 500);
  CHECK(one.first_disagreement.empty());
  REQUIRE(CmCheckRandomOrders(3, 0, 7, &two).ok());
  CHECK((two.orders == 0 && two.agree == 0));
  CHECK(CmCheckRandomOrders(0, 1, 1, &two).IsInvalidArgument());
  CHECK(CmCheckRandomOrders(61, 1, 1, &two).IsInvalidArgument());
}

TEST_CASE("combinatorial: the notation is checked") {
  CmOrder o;
  CHECK(ParseCmOrder("1a, 2a, 1b, 2b", &o).ok());
  CHECK(CmOrderString(o) == "1a 2a 1b 2b");
  CHECK(ParseCmOrder("7a 3a 3b 7b", &o).ok());
  CHECK(CmOrderString(o) == "1a 2a 2b 1b");  // renumbered by first appearance
  for (const char* bad :
       {"", "1a", "1b 1a", "1a 1a 1b", "1a 1b 1b", "1c 1b", "xa xb", "1a 2", "-1a -1b"}) {
    INFO(bad);
    CHECK(ParseCmOrder(bad, &o).IsInvalidArgument());
  }
}

}  // namespace
}  // namespace eulerdeck
