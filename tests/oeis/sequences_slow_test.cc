// The expensive part of the check of OeisTerms() (ctest label `slow`):
// A007710 and A000166, computed by the removal-order route
// (engine/removal/prefix.h), against count --removed's columns 1 and 0 (the
// forward play over lazily dealt decks, engine/removal/removed.h) on
// n = 12 and 13, past the default suite's n <= 11 (tests/oeis/sequences_test.cc);
// and every term of the b-files of A007710 and A028306 in docs/data/bfiles/
// against the rook polynomial (tests/support/only_card.h), the second method
// of their table in docs/oeis.md.
#include <gmpxx.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "engine/oeis/sequences.h"
#include "engine/removal/removed.h"
#include "tests/support/only_card.h"

namespace eulerdeck {
namespace {

TEST_CASE("oeis: A007710 and A000166 by removal orders equal count --removed for n = 12 and 13",
          "[oeis]") {
  constexpr int kTo = 13;
  std::vector<OeisTerm> one, none;
  REQUIRE(OeisTerms("A007710", kTo, 0, nullptr, &one).ok());
  REQUIRE(OeisTerms("A000166", kTo, 0, nullptr, &none).ok());
  for (int n = 12; n <= kTo; ++n) {
    INFO("n = " << n);
    RemovedResult removed;
    REQUIRE(CountRemoved(GameSpec{Game::kMousetrap, n, 1}, RemovedOptions(), &removed).ok());
    CHECK(one.at(n - 1).index == n);
    CHECK(one.at(n - 1).value == std::to_string(removed.removed[1]));
    CHECK(none.at(n).index == n);
    CHECK(none.at(n).value == std::to_string(removed.removed[0]));
  }
}

// The "n a(n)" lines of a b-file of docs/data/bfiles/ (comments skipped).
std::vector<std::pair<int64_t, std::string>> ReadBfile(const std::string& name) {
  std::ifstream in(std::string(EULERDECK_SOURCE_DIR) + "/docs/data/bfiles/" + name);
  REQUIRE(in);
  std::vector<std::pair<int64_t, std::string>> terms;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    int64_t index = 0;
    std::string value;
    REQUIRE(fields >> index >> value);
    terms.emplace_back(index, value);
  }
  return terms;
}

// Every row of count --removed recorded in docs/data/removed-mousetrap-s1.csv
// (scripts/removed_tables.sh to n = 13, the record runs of docs/results.md
// past it: rows 14 to 17, two runs each): its columns 1 and 0 against
// A007710 and A000166.
TEST_CASE("oeis: the recorded rows of count --removed agree with A007710 and A000166", "[oeis]") {
  std::ifstream in(std::string(EULERDECK_SOURCE_DIR) + "/docs/data/removed-mousetrap-s1.csv");
  REQUIRE(in);
  std::map<int, std::map<int, std::string>> rows;  // rows[n][i]
  std::string line;
  REQUIRE(std::getline(in, line));
  REQUIRE(line == "game,ranks,suits,distribution,value,decks");
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::istringstream fields(line);
    for (std::string cell; std::getline(fields, cell, ',');) f.push_back(cell);
    REQUIRE(f.size() == 6);
    if (f[0] == "mousetrap" && f[2] == "1" && f[3] == "removed")
      rows[std::stoi(f[1])][std::stoi(f[4])] = f[5];
  }
  REQUIRE(rows.size() >= 15);
  const int top = rows.rbegin()->first;
  std::vector<OeisTerm> one, none;
  REQUIRE(OeisTerms("A007710", top, 0, nullptr, &one).ok());
  REQUIRE(OeisTerms("A000166", top, 0, nullptr, &none).ok());
  for (const auto& [n, row] : rows) {
    INFO("n = " << n);
    CHECK(none.at(n).value == row.at(0));
    if (n >= 1) CHECK(one.at(n - 1).value == row.at(1));
  }
}

TEST_CASE("oeis: every term of the b-files of A007710 and A028306 equals the rook polynomial",
          "[oeis]") {
  const auto one = ReadBfile("b007710.txt");
  REQUIRE(one.size() >= 23);  // issue 43: A007710 to n >= 23
  for (size_t i = 0; i < one.size(); ++i) {
    const int n = static_cast<int>(i) + 1;
    INFO("A007710(" << n << ")");
    REQUIRE(one[i].first == n);
    mpz_class sum = 0;
    for (int k = 1; k <= n; ++k) sum += testing::OnlyCardByRookPolynomial(n, k);
    CHECK(one[i].second == sum.get_str());
  }
  const auto rows = ReadBfile("b028306.txt");
  size_t at = 0;
  for (int n = 1; at < rows.size(); ++n) {  // row n - 1: the decks of n cards
    for (int k = 1; k <= n; ++k, ++at) {
      INFO("A028306 row " << n - 1 << ", k = " << k - 1);
      REQUIRE(at < rows.size());  // whole rows only
      REQUIRE(rows[at].first == static_cast<int64_t>(at));
      CHECK(rows[at].second == testing::OnlyCardByRookPolynomial(n, k).get_str());
    }
  }
  CHECK(rows.size() >= 253);  // rows 0..21 at least: the decks of up to 22 cards
}

}  // namespace
}  // namespace eulerdeck
