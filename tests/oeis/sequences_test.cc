// OeisTerms() (engine/oeis/sequences.h): every sequence the engine computes,
// against the terms OEIS publishes (the data sections of A000166, A002467,
// A007709, A007710, A007711, A028305 and A261867, as of 2026), up to each
// sequence's default length.
#include "engine/oeis/sequences.h"

#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

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
  CHECK(computed == 7);
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
  CHECK(OeisTerms("A007712", 5, 0, nullptr, &terms).IsNotSupported());
  CHECK(OeisTerms("A007709", 0, 0, nullptr, &terms).IsInvalidArgument());
  CHECK(OeisTerms("A007709", 21, 0, nullptr, &terms).IsInvalidArgument());
}

}  // namespace
}  // namespace eulerdeck
