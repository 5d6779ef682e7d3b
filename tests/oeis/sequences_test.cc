// OeisTerms() (engine/oeis/sequences.h): every sequence the engine computes,
// against the terms OEIS publishes (the data sections of A000166, A001563,
// A002467, A002468, A002469, A007709, A007710, A007711, A007712,
// A018931-A018934, A028305, A028306, A055459, A067950 and A261867, as of
// 2026), up to each sequence's default length. Steen's and Mundfrom's sequences pass 2^64
// (A002468(25) is 3.8 * 10^23): the strings are compared whole.
#include "engine/oeis/sequences.h"

#include <gmpxx.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/removal/removed.h"
#include "tests/support/only_card.h"

namespace eulerdeck {
namespace {

const std::map<std::string, std::vector<std::string>> kPublished = {
    {"A000166",
     {"1", "0", "1", "2", "9", "44", "265", "1854", "14833", "133496", "1334961", "14684570",
      "176214841"}},
    {"A002467",
     {"0", "1", "1", "4", "15", "76", "455", "3186", "25487", "229384", "2293839", "25232230",
      "302786759"}},
    {"A007709",
     {"1", "1", "2", "6", "15", "84", "330", "1812", "9978", "65503", "449719", "3674670",
      "28886593"}},
    {"A007710",
     {"1", "0", "2", "6", "31", "180", "1255", "9949", "89162", "886837", "9722814", "116236256"}},
    {"A007711",
     {"0", "1", "4", "18", "105", "636", "4710", "38508", "352902", "3563297", "39467081",
      "475326930", "6198134207"}},
    // Rows n = 0..10 (66 terms), all that the data section holds.
    {"A028305",
     {"1",      "0",       "1",      "1",      "0",      "1",      "2",      "2",     "0",
      "2",      "9",       "6",      "3",      "0",      "6",      "44",     "31",    "19",
      "11",     "0",       "15",     "265",    "180",    "105",    "54",     "32",    "0",
      "84",     "1854",    "1255",   "771",    "411",    "281",    "138",    "0",     "330",
      "14833",  "9949",    "6052",   "3583",   "2057",   "1366",   "668",    "0",     "1812",
      "133496", "89162",   "55340",  "32135",  "19026",  "12685",  "6753",   "4305",  "0",
      "9978",   "1334961", "886837", "547922", "331930", "193538", "117323", "79291", "45536",
      "25959",  "0",       "65503"}},
    // All 22 terms of the data section (n = 0..21).
    {"A001563",
     {"0",
      "1",
      "4",
      "18",
      "96",
      "600",
      "4320",
      "35280",
      "322560",
      "3265920",
      "36288000",
      "439084800",
      "5748019200",
      "80951270400",
      "1220496076800",
      "19615115520000",
      "334764638208000",
      "6046686277632000",
      "115242726703104000",
      "2311256907767808000",
      "48658040163532800000",
      "1072909785605898240000"}},
    // All 25 terms of the data section (n = 1..25).
    {"A002468",
     {"0",
      "0",
      "1",
      "3",
      "13",
      "65",
      "397",
      "2819",
      "22831",
      "207605",
      "2094121",
      "23205383",
      "280224451",
      "3662810249",
      "51523391965",
      "776082247979",
      "12463259986087",
      "212573743211549",
      "3837628837381201",
      "73108996989052175",
      "1465703611456618891",
      "30847249002794047793",
      "679998362512214208901",
      "15668677914172813691699",
      "376683592679293811722735"}},
    // All 22 terms of the data section (n = 2..23).
    {"A002469",
     {"0",
      "0",
      "1",
      "5",
      "31",
      "203",
      "1501",
      "12449",
      "114955",
      "1171799",
      "13082617",
      "158860349",
      "2085208951",
      "29427878435",
      "444413828821",
      "7151855533913",
      "122190894996451",
      "2209057440250799",
      "42133729714051825",
      "845553296311189109",
      "17810791160738752207",
      "392911423093684031099"}},
    // All 8 terms of the data section (n = 3..10).
    {"A018931", {"0", "1", "2", "12", "72", "480", "3600", "30240"}},
    // All 19 terms of the data section (n = 4..22).
    {"A018932",
     {"0", "3", "10", "60", "408", "3120", "26640", "252000", "2620800", "29756160", "366508800",
      "4869849600", "69455232000", "1058593536000", "17174123366400", "295534407168000",
      "5377157001216000", "103149354147840000", "2080771454361600000"}},
    // All 18 terms of the data section (n = 0..17: decks of 5..22 cards).
    {"A018933",
     {"2", "11", "50", "348", "2712", "23520", "225360", "2368800", "27135360", "336752640",
      "4503340800", "64585382400", "989138304000", "16115529830400", "278360283801600",
      "5081622594048000", "97772197146624000", "1977622100213760000"}},
    // All 24 terms of the data section (n = 0..23: decks of 2..25 cards).
    {"A018934",
     {"0",
      "0",
      "0",
      "2",
      "8",
      "42",
      "256",
      "1810",
      "14568",
      "131642",
      "1320128",
      "14551074",
      "174879880",
      "2276108362",
      "31894886208",
      "478775722802",
      "7664993150696",
      "130369025763930",
      "2347604596782208",
      "44619881467365442",
      "892659329531868168",
      "18750556523491299434",
      "412601744979927877760",
      "9491630163800726992722"}},
    // All 52 terms of the data section: rows 0..8 and the first 7 of row 9.
    {"A028306", {"1",      "0",      "0",      "1",     "0",     "1",     "2",    "1",    "1",
                 "2",      "9",      "5",      "5",     "3",     "9",     "44",   "31",   "25",
                 "20",     "16",     "44",     "265",   "203",   "167",   "142",  "117",  "96",
                 "265",    "1854",   "1501",   "1267",  "1075",  "932",   "791",  "675",  "1854",
                 "14833",  "12449",  "10745",  "9311",  "8241",  "7132",  "6205", "5413", "14833",
                 "133496", "114955", "101005", "88993", "78607", "70340", "62141"}},
    // n = 2..12 of the 15 terms (n = 2..16) the data section holds; n = 13, 14
    // in the slow tests.
    {"A007712", {"1", "2", "4", "14", "72", "316", "1730", "9728", "64330", "444890", "3645441"}},
    // n = 4..12 (the data start at n = 4, though the entry says offset 1).
    {"A055459", {"2", "1", "11", "14", "81", "242", "1142", "4771", "29009"}},
    // n = 6..12 of the 11 terms (n = 6..16).
    {"A067950", {"1", "0", "1", "8", "31", "56", "219"}},
    // Rows n = 1..12 (78 terms) of the 15 the data section holds.
    {"A261867",
     {"1",  "1", "2", "1", "3", "2",  "1", "2", "4",  "3", "1",  "2", "5",  "3", "4",  "1",
      "2",  "4", "3", "6", "5", "1",  "2", "3", "7",  "6", "5",  "4", "1",  "2", "3",  "5",
      "8",  "4", "6", "7", "1", "2",  "3", "4", "8",  "5", "7",  "9", "6",  "1", "2",  "3",
      "4",  "6", "9", "8", "7", "10", "5", "1", "2",  "3", "4",  "6", "7",  "5", "11", "8",
      "10", "9", "1", "2", "3", "4",  "5", "8", "10", "6", "12", "9", "11", "7"}},
};

TEST_CASE("oeis: every computed sequence equals its published terms", "[oeis]") {
  int computed = 0;
  for (const OeisSequence& seq : OeisSequences()) {
    INFO(seq.id);
    if (!seq.computed) {
      CHECK(std::string(seq.statistic).rfind("not computed", 0) == 0);
      continue;
    }
    ++computed;
    REQUIRE(kPublished.count(seq.id) == 1);
    const std::vector<std::string>& published = kPublished.at(seq.id);
    std::vector<OeisTerm> terms;
    REQUIRE(OeisTerms(seq.id, seq.default_to, 0, nullptr, &terms).ok());
    REQUIRE(terms.size() >= published.size());
    for (size_t i = 0; i < published.size(); ++i) {
      CHECK(terms[i].index == seq.offset + static_cast<int64_t>(i));
      CHECK(terms[i].value == published[i]);
    }
  }
  CHECK(computed == 18);
}

// A007710 and A000166 come from the removal-order route (the decks whose
// removal order is exactly k, summed over k; the empty order), A028305's
// columns 1 and 0 from the forward play of count --removed: two methods
// that share only the rules. Every n = 1..kRemovedTo is compared here; the
// slow tests go on to n = 13 (tests/oeis/sequences_slow_test.cc).
constexpr int kRemovedTo = 11;

std::vector<uint64_t> RemovedColumns(int n) {
  RemovedResult removed;
  REQUIRE(CountRemoved(GameSpec{Game::kMousetrap, n, 1}, RemovedOptions(), &removed).ok());
  return removed.removed;
}

TEST_CASE("oeis: A007710 and A000166 by removal orders equal the columns of count --removed",
          "[oeis]") {
  std::vector<OeisTerm> one, none;
  REQUIRE(OeisTerms("A007710", kRemovedTo, 0, nullptr, &one).ok());
  REQUIRE(OeisTerms("A000166", kRemovedTo, 0, nullptr, &none).ok());
  REQUIRE(one.size() == kRemovedTo);
  REQUIRE(none.size() == kRemovedTo + 1);
  for (int n = 1; n <= kRemovedTo; ++n) {
    INFO("n = " << n);
    const std::vector<uint64_t> row = RemovedColumns(n);
    CHECK(one[n - 1].index == n);
    CHECK(one[n - 1].value == std::to_string(row[1]));
    CHECK(none[n].index == n);
    CHECK(none[n].value == std::to_string(row[0]));
  }
}

TEST_CASE("oeis: A007710 by removal orders equals the recorded rows 12 to 15 of count --removed",
          "[oeis]") {
  // Column 1 of count --removed's rows in docs/data/removed-mousetrap-s1.csv:
  // n = 12 and 13 from scripts/removed_tables.sh, n = 14 and 15 from two
  // runs each with different --split (docs/results.md); n = 12 and 14 are
  // also A007710's published terms, n = 15 is new.
  const std::vector<std::string> removed = {"116236256", "1507191024", "21042127239",
                                            "314989194096"};
  std::vector<OeisTerm> terms;
  REQUIRE(OeisTerms("A007710", 15, 0, nullptr, &terms).ok());
  REQUIRE(terms.size() == 15);
  for (int n = 12; n <= 15; ++n) {
    INFO("n = " << n);
    CHECK(terms[n - 1].index == n);
    CHECK(terms[n - 1].value == removed[n - 12]);
  }
}

// A028306 and A007710 (the removal-order route) against a method that
// shares only the rules with it: the rook polynomial of the cells the rules
// forbid (tests/support/only_card.h), itself checked against brute force.
// Rows of up to 20 cards take a second; the slow tests check every term of
// docs/data/bfiles/b028306.txt and b007710.txt the same way.
TEST_CASE("oeis: the rook polynomial of A028306 equals brute force up to 9 cards", "[oeis]") {
  for (int n = 1; n <= 9; ++n) {
    INFO("n = " << n);
    const std::vector<uint64_t> brute = testing::OnlyCardRowByBruteForce(n);
    for (int k = 1; k <= n; ++k) CHECK(testing::OnlyCardByRookPolynomial(n, k) == brute[k - 1]);
  }
}

TEST_CASE("oeis: A028306 and A007710 equal the rook polynomial up to 20 cards", "[oeis]") {
  constexpr int kCards = 20;
  std::vector<OeisTerm> rows, sums;
  REQUIRE(OeisTerms("A028306", kCards - 1, 0, nullptr, &rows).ok());
  REQUIRE(OeisTerms("A007710", kCards, 0, nullptr, &sums).ok());
  size_t at = 0;
  for (int n = 1; n <= kCards; ++n) {
    INFO("n = " << n);
    mpz_class sum = 0;
    for (int k = 1; k <= n; ++k) {
      const mpz_class rook = testing::OnlyCardByRookPolynomial(n, k);
      CHECK(rows.at(at++).value == rook.get_str());
      sum += rook;
    }
    CHECK(sums.at(n - 1).value == sum.get_str());
  }
  CHECK(at == rows.size());
}

TEST_CASE("oeis: the list holds every sequence Bersani 2010 names, and A261867", "[oeis]") {
  const std::vector<std::string> named = {"A000166", "A001563", "A002467", "A002468", "A002469",
                                          "A007709", "A007710", "A007711", "A007712", "A018931",
                                          "A018932", "A018933", "A018934", "A028305", "A028306",
                                          "A055459", "A067950", "A261867"};
  REQUIRE(OeisSequences().size() == named.size());
  for (size_t i = 0; i < named.size(); ++i) CHECK(OeisSequences()[i].id == named[i]);
}

TEST_CASE("oeis: refuses unknown, missing and out-of-range requests", "[oeis]") {
  std::vector<OeisTerm> terms;
  CHECK(OeisTerms("A000001", 5, 0, nullptr, &terms).IsInvalidArgument());
  CHECK(OeisTerms("A007709", 0, 0, nullptr, &terms).IsInvalidArgument());
  CHECK(OeisTerms("A007709", 21, 0, nullptr, &terms).IsInvalidArgument());
  // The removal-order route stops where its permanent's table would pass
  // 2^26 entries: 27 cards, 26 of them unknown.
  CHECK(OeisTerms("A007710", 28, 0, nullptr, &terms).IsInvalidArgument());
  CHECK(OeisTerms("A028306", 27, 0, nullptr, &terms).IsInvalidArgument());
  // Below the offset there is no term: refused, not an empty b-file.
  CHECK(OeisTerms("A067950", 5, 0, nullptr, &terms).IsInvalidArgument());
  CHECK(OeisTerms("A067950", 6, 0, nullptr, &terms).ok());
}

}  // namespace
}  // namespace eulerdeck
