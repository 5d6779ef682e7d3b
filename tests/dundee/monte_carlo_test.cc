// Equations (1) and (2) of Litwack, Pikhurko & Pongnumkul exactly (adaptive.h, advance.h), and the
// Monte Carlo (engine/dundee/monte_carlo.h) whose intervals contain them.
#include "engine/dundee/monte_carlo.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>

#include "engine/base/stats.h"
#include "engine/dundee/adaptive.h"
#include "engine/dundee/advance.h"
#include "tests/dundee/test_util.h"

namespace eulerdeck {
namespace {

using dundee_test::Counts;

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

TEST_CASE("dundee: Monte Carlo contracts and its check") {
  uint64_t wins = 0;
  CHECK(DundeeMonteCarlo(Counts({300}), 1, {}, 10, 1, &wins).IsOutOfRange());
  CHECK(DundeeMonteCarlo(Counts({2, 2}), 5, {}, 10, 1, &wins).IsInvalidArgument());
  CHECK(DundeeMonteCarlo(Counts({2, 2}), 3, {1, 1}, 10, 1, &wins).IsInvalidArgument());
  CHECK(DundeeMonteCarlo(Counts({2, 2}), 2, {2}, 10, 1, &wins).IsInvalidArgument());
  // Naming value 0 twice against (2, 0): certain loss; zero rounds: certain win.
  REQUIRE(DundeeMonteCarlo(Counts({2, 0}), 2, {2, 0}, 50, 3, &wins).ok());
  CHECK(wins == 0);
  REQUIRE(DundeeMonteCarlo(Counts({2, 2}), 0, {}, 50, 3, &wins).ok());
  CHECK(wins == 50);
  // The check reports the run it made, and the same run for the same seed.
  DundeeMonteCarloCheck mc;
  REQUIRE(CheckDundeeMonteCarlo(Counts(13, 4), 52, {}, 20000, 7, 0.2701950618, &mc).ok());
  REQUIRE(DundeeMonteCarlo(Counts(13, 4), 52, {}, 20000, 7, &wins).ok());
  CHECK(mc.deals == 20000);
  CHECK(mc.wins == wins);
  CHECK(mc.estimate == static_cast<double>(wins) / 20000);
  CHECK(mc.ci.low == Wilson95(wins, 20000).low);
  CHECK(mc.ci.high == Wilson95(wins, 20000).high);
  CHECK(mc.contains);
  CHECK(CheckDundeeMonteCarlo(Counts(13, 4), 52, {}, 0, 7, 0.27, &mc).IsInvalidArgument());
}

}  // namespace
}  // namespace eulerdeck
