// Seed 003's (Alfthan) claims about Terminating Memory as CheckTerminating
// (engine/memory/conjectures.h) finds them: Conjecture 1's exceptions,
// Conjecture 2's one literal failure, the closed forms for j <= 4, exactly up
// to n = 200 and in long double up to n = 2000 (docs/memory.md).
#include "engine/memory/conjectures.h"

#include <catch2/catch.hpp>
#include <utility>
#include <vector>

namespace eulerdeck {
namespace {

using Pairs = std::vector<std::pair<int, int>>;

// Table 2.1's exceptions to "risky iff j odd": all of them, (n, j).
const Pairs kExceptions = {{6, 5}, {7, 5}, {7, 6},  {8, 5},  {8, 6},  {8, 7},
                           {9, 5}, {9, 7}, {12, 7}, {13, 7}, {14, 7}, {15, 7}};

TEST_CASE(
    "terminating conjectures: Conjectures 1 and 2 and the closed forms, exactly up to n = 200") {
  TerminatingTable<mpq_class> t;
  TerminatingChecks c;
  REQUIRE(SurveyTerminating(200, &t, &c).ok());
  CHECK(t.n_max == 200);
  CHECK(c.n_max == 200);
  // Conjecture 1: twelve exceptions, none from n = 16 on; no ties.
  CHECK(c.exceptions == kExceptions);
  CHECK(c.pattern_holds_from == 16);
  CHECK(c.conjecture1_confirmed);
  CHECK(c.min_safe_risky_margin > 0);
  // Conjecture 2 read literally (every n >= j) fails once: E(n,21)/n rises
  // from n = 21 to 22.
  CHECK(c.conjecture2_failures == Pairs{{21, 21}});
  CHECK(t.value[22][21] / 22 > t.value[21][21] / 21);
  // Below j = 18, which the conjecture excludes: j = 9 is not monotone at
  // n = 9, 10 and 23-27 (docs/memory.md). j = 1 and 2 are, by their closed
  // forms (n+2)/(3n) and (11n-12)/(15n).
  CHECK(c.small_j_failures.at(9) == std::vector<int>{9, 10, 23, 24, 25, 26, 27});
  CHECK(c.small_j_failures.count(1) == 0);
  CHECK(c.small_j_failures.count(2) == 0);
  for (const auto& [j, ns] : c.small_j_failures) CHECK(j < kConjecture2FromJ);
  // The closed forms for j <= 4: n - j + 1 values each.
  CHECK(c.closed_forms_checked == 201 + 200 + 199 + 198 + 197);
  CHECK(c.closed_forms_failed == 0);
}

TEST_CASE("terminating conjectures: in long double up to n = 2000") {
  TerminatingTable<long double> t;
  TerminatingChecks c;
  REQUIRE(SurveyTerminating(2000, &t, &c).ok());
  CHECK(c.exceptions == kExceptions);
  CHECK(c.pattern_holds_from == 16);
  CHECK(c.conjecture1_confirmed);
  // From n = j + 1 on, Conjecture 2 holds for every j >= 18 up to 2000.
  CHECK(c.conjecture2_failures == Pairs{{21, 21}});
  CHECK(c.closed_forms_checked == 9995);
  CHECK(c.closed_forms_failed == 0);
  // Far above rounding: the moves in long double are the exact ones.
  CHECK(c.min_safe_risky_margin == Approx(1.25e-4).margin(0.005e-4));
}

TEST_CASE("terminating conjectures: small tables, and a contradicted Conjecture 1 is reported") {
  TerminatingTable<mpq_class> t;
  TerminatingChecks c;
  REQUIRE(SurveyTerminating(1, &t, &c).ok());
  CHECK(c.exceptions.empty());
  CHECK(c.pattern_holds_from == 1);
  CHECK(c.min_safe_risky_margin == 1e300);  // no (n, j) with 1 <= j < n
  CHECK(c.closed_forms_checked == 3);       // (0,0), (1,0), (1,1)
  REQUIRE(SurveyTerminating(15, &t, &c).ok());
  CHECK(c.pattern_holds_from == 16);
  // A table whose move at (20, 3) is flipped: Conjecture 1 fails.
  REQUIRE(Terminating(20, &t).ok());
  t.move[20][3] = TmMove::kSafe;
  c = CheckTerminating(t);
  CHECK(c.exceptions.back() == std::pair<int, int>(20, 3));
  CHECK(c.pattern_holds_from == 21);
  CHECK(!c.conjecture1_confirmed);
  // A wrong value fails its closed form.
  t.value[10][2] += 1;
  CHECK(CheckTerminating(t).closed_forms_failed == 1);
  CHECK(SurveyTerminating(-1, &t, &c).IsInvalidArgument());
}

}  // namespace
}  // namespace eulerdeck
