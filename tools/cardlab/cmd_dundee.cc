// cardlab dundee: the Problem of Thirteen and Dundee (seed 002): greedy and
// optimal adaptive play, advance bids, and all optimal advance bids.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>

#include "engine/dundee/dundee.h"
#include "engine/base/stats.h"
#include "tools/common/cli.h"
#include "tools/common/format.h"

namespace eulerdeck::tools {

namespace {

constexpr const char* kUsage =
    "usage: cardlab dundee <question> [options]   ('cardlab dundee <question> --help')\n"
    "\n"
    "A deck with s_i cards of value i is dealt for m rounds; before each card the\n"
    "player names a value and loses on a coincidence (seed 002).\n"
    "questions:\n"
    "  greedy        win probability of greedy adaptive play (the optimum), checked\n"
    "                against a dynamic programme over all strategies; the worst play\n"
    "  advance       win probability of an advance bid vector\n"
    "  optimal-bids  all optimal advance bids for a deck, or for every deck of a size\n"
    "Decks and bids: \"4^13\" (13 values with 4 cards), \"5,3,2\", or mixed \"4^12,3\".";

constexpr const char* kGreedyUsage =
    "usage: cardlab dundee greedy --deck D [--rounds M] [--exact | --float] [--mc N [--seed X]] [--json]\n"
    "g_m(s): the greedy player's win probability (name a least frequent remaining\n"
    "value), by recurrence (3), exact (default) or in double. --exact also solves\n"
    "the game over all adaptive strategies (the best and the worst bid at every\n"
    "state) to check Theorem 2 (greedy is the unique optimum for 3+ values) and\n"
    "Theorem 3 (the worst play and its closed form). --mc N plays N random deals.";

constexpr const char* kAdvanceUsage =
    "usage: cardlab dundee advance --deck D --bids B [--exact | --float] [--recursion] [--mc N [--seed X]] [--json]\n"
    "Pr(b, s): the win probability of naming value i b_i times (m = sum of b\n"
    "rounds), by inclusion-exclusion over the rook polynomial of the forbidden\n"
    "board (exact; --float only changes the printing: the alternating sum cancels\n"
    "too much for floating point). --recursion also runs the paper's appendix\n"
    "recursion (exponential in the number of values).";

constexpr const char* kOptimalUsage =
    "usage: cardlab dundee optimal-bids --deck D [--rounds M] [--max-bids N] [--csv FILE] [--json]\n"
    "       cardlab dundee optimal-bids --values V --max-cards C [--rounds-all] [--csv FILE] [--json]\n"
    "All advance bids of maximal Pr(b, s) with sum m (Problem 4), listed with b\n"
    "non-decreasing inside groups of equal counts (the paper's Table 2); 'all' counts\n"
    "every rearrangement. Past --max-bids candidates (default 200000) only bids of\n"
    "Lemma 13's shape are searched: the optimal probability stays exact, other\n"
    "optimal bids may be missed (reported). The second form runs every deck\n"
    "s_1 >= ... >= s_V >= 1 with at most C cards, for m = c (Table 2: V = 3,\n"
    "C = 11), or every m with --rounds-all.";

std::string Fraction(const mpq_class& q) { return q.get_str(); }

// A Monte Carlo check of `exact`: N deals, their Wilson interval and whether
// it contains the value, into the JSON object and the text report.
Status AddMcCheck(const std::vector<int>& s, int m, const std::vector<int>& bids, uint64_t decks, uint64_t seed,
                  double exact, nlohmann::json* j, std::string* out) {
  uint64_t wins = 0;
  Status st = DundeeMonteCarlo(s, m, bids, decks, seed, &wins);
  if (!st.ok()) return st;
  const Interval ci = Wilson95(wins, decks);
  const bool contains = ci.low <= exact && exact <= ci.high;
  (*j)["monte_carlo"] = {{"deals", decks}, {"wins", wins}, {"low95", ci.low}, {"high95", ci.high}, {"contains", contains}};
  char buf[256];
  std::snprintf(buf, sizeof(buf), "monte carlo %llu deals: %.6g, 95%% interval [%.6g, %.6g] %s the value\n",
                static_cast<unsigned long long>(decks), static_cast<double>(wins) / decks, ci.low, ci.high,
                contains ? "contains" : "does NOT contain");
  *out += buf;
  return Status::OK();
}

std::string Describe(const std::vector<int>& s) {
  return CountsString(s) + " (" + std::to_string(s.size()) + " values, " + std::to_string(TotalCards(s)) + " cards)";
}

int RunGreedy(const std::vector<std::string>& args) {
  const std::string program = "cardlab dundee greedy";
  std::string deck_text;
  int rounds = -1;
  uint64_t mc = 0, seed = 1;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help")("deck", po::value(&deck_text)->required(), "the deck, e.g. 4^13")
      ("rounds", po::value(&rounds), "rounds m (default: every card)")
      ("exact", po::bool_switch(), "GMP rationals (the default)")("float", po::bool_switch(), "double")
      ("mc", po::value(&mc)->default_value(0), "also play N random deals")
      ("seed", po::value(&seed)->default_value(1), "Monte Carlo seed")("json", po::bool_switch(), "one JSON object");
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kGreedyUsage, vm)) return kExitOk;
  std::vector<int> s;
  Status st = ParseCounts(deck_text, &s);
  const int c = st.ok() ? TotalCards(s) : 0;
  if (st.ok() && c == 0) st = Status::InvalidArgument("the deck has no cards");
  if (st.ok() && !vm.count("rounds")) rounds = c;
  if (st.ok() && rounds > c) st = Status::InvalidArgument("--rounds must be at most the " + std::to_string(c) + " cards");
  if (st.ok() && vm["exact"].as<bool>() && vm["float"].as<bool>()) st = Status::InvalidArgument("--exact and --float exclude each other");
  if (!st.ok()) return BadInput(program, st.ToString());
  const bool use_float = vm["float"].as<bool>(), json = vm["json"].as<bool>();

  const auto t0 = std::chrono::steady_clock::now();
  nlohmann::json j = {{"deck", CountsString(s)}, {"values", s.size()}, {"cards", c}, {"rounds", rounds}};
  double greedy_d = 0;
  std::string out;
  char buf[256];
  if (use_float) {
    greedy_d = GreedyWin<double>(s, rounds);
    std::snprintf(buf, sizeof(buf), "%.15g", greedy_d);
    j["greedy"] = {{"decimal", buf}};
    out += std::string("greedy     ") + buf + " (recurrence (3), double)\n";
  } else {
    const mpq_class g = GreedyWin<mpq_class>(s, rounds);
    greedy_d = g.get_d();
    const AdaptiveResult a = AdaptiveDp(s, rounds);
    const mpq_class worst_formula = WorstWinFormula(s, rounds);
    const bool all_positive = *std::min_element(s.begin(), s.end()) >= 1;
    j["greedy"] = {{"exact", Fraction(g)}, {"decimal", Decimal(g, 12)}};
    j["optimal"] = {{"exact", Fraction(a.best)}, {"equals_greedy", a.best == g}, {"greedy_unique_at_every_state", a.greedy_unique},
                    {"states", a.states}};
    j["worst"] = {{"exact", Fraction(a.worst)}, {"decimal", Decimal(a.worst, 12)}, {"theorem3_formula", Fraction(worst_formula)},
                  {"anti_greedy_at_every_undecided_state", a.anti_greedy_worst}};
    out += "greedy     " + Fraction(g) + " = " + Decimal(g, 12) + " (recurrence (3))\n";
    out += "optimal    " + std::string(a.best == g ? "equals greedy" : "DIFFERS from greedy: " + Fraction(a.best)) +
           " (all adaptive strategies, " + std::to_string(a.states) + " states); greedy's bids are " +
           (a.greedy_unique ? "the only best ones at every state" : "NOT the only best ones at some state") + "\n";
    out += "worst      " + Fraction(a.worst) + " = " + Decimal(a.worst, 12) + "; Theorem 3's product " +
           (all_positive ? (worst_formula == a.worst ? "agrees" : "DISAGREES: " + Fraction(worst_formula)) : std::string("not applicable (a count is 0)")) +
           "; the worst bids are " + (a.anti_greedy_worst ? "the most frequent values" : "NOT always the most frequent values") +
           " at every undecided state\n";
  }
  if (mc > 0) {
    st = AddMcCheck(s, rounds, {}, mc, seed, greedy_d, &j, &out);
    if (!st.ok()) return BadInput(program, st.ToString());
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (json) {
    j["seconds"] = seconds;
    std::cout << j.dump() << "\n";
  } else {
    std::cout << "deck       " << Describe(s) << ", " << rounds << " rounds\n" << out;
  }
  std::fprintf(stderr, "time       %.3f s\n", seconds);
  return kExitOk;
}

int RunAdvance(const std::vector<std::string>& args) {
  const std::string program = "cardlab dundee advance";
  std::string deck_text, bids_text;
  uint64_t mc = 0, seed = 1;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help")("deck", po::value(&deck_text)->required(), "the deck, e.g. 4^13")
      ("bids", po::value(&bids_text)->required(), "times each value is named, e.g. 4^13")
      ("exact", po::bool_switch(), "print the fraction (the default)")("float", po::bool_switch(), "print only the decimal")
      ("recursion", po::bool_switch(), "also run the appendix recursion (small decks)")
      ("mc", po::value(&mc)->default_value(0), "also play N random deals")
      ("seed", po::value(&seed)->default_value(1), "Monte Carlo seed")("json", po::bool_switch(), "one JSON object");
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kAdvanceUsage, vm)) return kExitOk;
  std::vector<int> s, b;
  Status st = ParseCounts(deck_text, &s);
  if (st.ok()) st = ParseCounts(bids_text, &b);
  if (st.ok() && TotalCards(s) == 0) st = Status::InvalidArgument("the deck has no cards");
  if (st.ok() && b.size() != s.size()) {
    st = Status::InvalidArgument("--bids has " + std::to_string(b.size()) + " values, the deck " + std::to_string(s.size()));
  }
  if (st.ok() && TotalCards(b) > TotalCards(s)) st = Status::InvalidArgument("more bids (rounds) than cards");
  if (st.ok() && vm["exact"].as<bool>() && vm["float"].as<bool>()) st = Status::InvalidArgument("--exact and --float exclude each other");
  if (st.ok() && vm["recursion"].as<bool>() && s.size() > 8) st = Status::InvalidArgument("--recursion takes at most 8 values");
  if (!st.ok()) return BadInput(program, st.ToString());
  const bool json = vm["json"].as<bool>(), only_decimal = vm["float"].as<bool>();
  const int m = TotalCards(b);
  const auto t0 = std::chrono::steady_clock::now();
  const mpq_class p = AdvanceWin(b, s);
  nlohmann::json j = {{"deck", CountsString(s)}, {"bids", CountsString(b)}, {"rounds", m}, {"decimal", Decimal(p, 12)},
                      {"almost_regular", AlmostRegular(b, m)}};
  if (!only_decimal) j["exact"] = Fraction(p);
  std::string out = "Pr(b,s)    " + (only_decimal ? Decimal(p, 12) : Fraction(p) + " = " + Decimal(p, 12)) + " (rook polynomial)\n";
  int rc = kExitOk;
  if (vm["recursion"].as<bool>()) {
    const mpq_class r = AdvanceWinRecursion(b, s);
    j["recursion_agrees"] = r == p;
    out += std::string("recursion  ") + (r == p ? "agrees" : "DISAGREES: " + Fraction(r)) + " (appendix a(b,s,f))\n";
    if (r != p) rc = kExitCheckFailed;
  }
  if (mc > 0) {
    st = AddMcCheck(s, m, b, mc, seed, p.get_d(), &j, &out);
    if (!st.ok()) return BadInput(program, st.ToString());
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (json) {
    j["seconds"] = seconds;
    std::cout << j.dump() << "\n";
  } else {
    std::cout << "deck       " << Describe(s) << "\nbids       " << CountsString(b) << " (" << m << " rounds"
              << (AlmostRegular(b, m) ? ", almost regular" : "") << ")\n"
              << out;
  }
  std::fprintf(stderr, "time       %.3f s\n", seconds);
  return rc;
}

std::string BidsText(const std::vector<std::vector<int>>& bids) {
  std::string t;
  for (const auto& b : bids) t += (t.empty() ? "" : " ") + std::string("(") + CountsString(b) + ")";
  return t;
}

int RunOptimalBids(const std::vector<std::string>& args) {
  const std::string program = "cardlab dundee optimal-bids";
  std::string deck_text, csv_path;
  int rounds = -1, values = 0, max_cards = 0;
  uint64_t max_bids = 200000;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help")("deck", po::value(&deck_text), "the deck, e.g. 5,3,2")
      ("rounds", po::value(&rounds), "rounds m (default: every card)")
      ("values", po::value(&values), "every deck with this many values ...")
      ("max-cards", po::value(&max_cards), "... and at most this many cards")
      ("rounds-all", po::bool_switch(), "with --values: every m from 1 to c")
      ("max-bids", po::value(&max_bids)->default_value(200000), "exhaustive search up to this many bids")
      ("csv", po::value(&csv_path), "also write the rows to FILE")("json", po::bool_switch(), "one JSON object");
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kOptimalUsage, vm)) return kExitOk;
  Status st;
  std::vector<std::vector<int>> decks;
  if (vm.count("deck") == vm.count("values")) st = Status::InvalidArgument("give either --deck or --values with --max-cards");
  if (st.ok() && vm.count("deck")) {
    std::vector<int> s;
    st = ParseCounts(deck_text, &s);
    if (st.ok() && TotalCards(s) == 0) st = Status::InvalidArgument("the deck has no cards");
    if (st.ok() && rounds > TotalCards(s)) st = Status::InvalidArgument("--rounds must be at most the " + std::to_string(TotalCards(s)) + " cards");
    decks.push_back(s);
  }
  if (st.ok() && vm.count("values")) {
    if (values < 1 || values > 12) st = Status::InvalidArgument("--values must be in 1..12");
    else if (!vm.count("max-cards") || max_cards < values || max_cards > 60) st = Status::InvalidArgument("--max-cards must be in V..60");
    if (st.ok() && vm.count("rounds")) st = Status::InvalidArgument("--rounds goes with --deck; use --rounds-all");
    // Every s_1 >= ... >= s_V >= 1 with sum <= max_cards, by total then
    // lexicographically decreasing (the paper's order).
    for (int c = values; st.ok() && c <= max_cards; ++c) {
      std::vector<int> s(values, 0);
      std::function<void(int, int, int)> rec = [&](int i, int left, int cap) {
        if (i == values) {
          if (left == 0) decks.push_back(s);
          return;
        }
        for (int x = std::min(cap, left - (values - i - 1)); x >= 1; --x) {
          s[i] = x;
          rec(i + 1, left - x, x);
        }
      };
      rec(0, c, c);
    }
  }
  if (st.ok() && vm.count("rounds") && rounds < 0) st = Status::InvalidArgument("--rounds must be >= 0");
  std::ofstream csv;
  if (st.ok()) st = OpenCsv(csv_path, &csv);
  if (!st.ok()) return BadInput(program, st.ToString());
  const bool json = vm["json"].as<bool>(), rounds_all = vm["rounds-all"].as<bool>();
  if (csv.is_open()) csv << "deck,cards,rounds,probability,decimal,optimal_bids,all_optimal,exhaustive,searched\n";
  nlohmann::json rows = nlohmann::json::array();
  const auto t0 = std::chrono::steady_clock::now();
  if (!json) std::printf("%-14s %5s %6s  %-14s %-24s %s\n", "deck", "cards", "rounds", "Pr", "", "optimal bids (all)");
  for (const std::vector<int>& s : decks) {
    const int c = TotalCards(s);
    std::vector<int> ms;
    if (rounds_all) {
      for (int m = 1; m <= c; ++m) ms.push_back(m);
    } else {
      ms.push_back(vm.count("rounds") ? rounds : c);
    }
    for (int m : ms) {
      OptimalBids r;
      st = FindOptimalBids(s, m, max_bids, &r);
      if (!st.ok()) return BadInput(program, st.ToString());
      const std::string bids = BidsText(r.bids);
      if (csv.is_open()) {
        csv << '"' << CountsString(s) << "\"," << c << "," << m << "," << Fraction(r.probability) << ","
            << Decimal(r.probability, 12) << ",\"" << bids << "\"," << r.all_bids.get_str() << "," << (r.exhaustive ? "yes" : "lemma13-shape") << ","
            << r.searched << "\n";
      }
      if (json) {
        rows.push_back({{"deck", CountsString(s)}, {"cards", c}, {"rounds", m}, {"probability", Fraction(r.probability)},
                        {"decimal", Decimal(r.probability, 12)}, {"optimal_bids", nlohmann::json::array()},
                        {"all_optimal", r.all_bids.get_str()}, {"exhaustive", r.exhaustive}, {"searched", r.searched}});
        for (const auto& b : r.bids) rows.back()["optimal_bids"].push_back(CountsString(b));
      } else {
        std::printf("%-14s %5d %6d  %-14s %-24s %s (%s)%s\n", ("(" + CountsString(s) + ")").c_str(), c, m,
                    Fraction(r.probability).c_str(), ("= " + Decimal(r.probability, 10)).c_str(), bids.c_str(),
                    r.all_bids.get_str().c_str(), r.exhaustive ? "" : "  [Lemma 13 shape only]");
      }
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (json) std::cout << nlohmann::json({{"rows", rows}, {"seconds", seconds}}).dump() << "\n";
  std::fflush(stdout);
  std::fprintf(stderr, "time       %.3f s\n", seconds);
  return kExitOk;
}

}  // namespace

int RunDundee(const std::vector<std::string>& args) {
  if (args.empty()) return BadInput("cardlab dundee", "no question given (greedy, advance, optimal-bids)");
  const std::string& q = args[0];
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (q == "--help" || q == "-h" || q == "help") {
    std::cout << kUsage << "\n";
    return kExitOk;
  }
  try {
    if (q == "greedy") return RunGreedy(rest);
    if (q == "advance") return RunAdvance(rest);
    if (q == "optimal-bids") return RunOptimalBids(rest);
  } catch (const po::error& e) {
    return BadInput("cardlab dundee " + q, e.what());
  }
  return BadInput("cardlab dundee", "unknown question '" + q + "' (greedy, advance, optimal-bids)");
}

}  // namespace eulerdeck::tools
