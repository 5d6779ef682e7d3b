// cardlab dundee: the Problem of Thirteen and Dundee (Litwack, Pikhurko &
// Pongnumkul): greedy and
// optimal adaptive play, advance bids, and all optimal advance bids.
//
// Each question parses its options, makes one call into engine/dundee/
// (questions.h) and formats the report: the numbers, checks and Monte Carlo
// intervals all come from the engine.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/dundee/counts.h"
#include "engine/dundee/questions.h"
#include "tools/common/cli.h"
#include "tools/common/format.h"
#include "tools/common/interrupt.h"
#include "tools/common/progress.h"

namespace eulerdeck::tools {

namespace {

constexpr const char* kUsage =
    "usage: cardlab dundee <question> [options]\n"
    "       ('cardlab dundee <question> --help' for each question's options)\n"
    "\n"
    "A deck with s_i cards of value i is dealt for m rounds; before each card the\n"
    "player names a value and loses on a coincidence (Litwack, Pikhurko &\n"
    "Pongnumkul).\n"
    "\n"
    "questions:\n"
    "  greedy        win probability of greedy adaptive play (the optimum), checked\n"
    "                against a dynamic programme over all strategies; the worst play\n"
    "  advance       win probability of an advance bid vector\n"
    "  optimal-bids  all optimal advance bids for a deck, or for every deck of a size\n"
    "Decks and bids: \"4^13\" (13 values with 4 cards), \"5,3,2\", or mixed \"4^12,3\".";

constexpr const char* kGreedyUsage =
    "usage: cardlab dundee greedy --deck D [--rounds M] [--exact | --float]\n"
    "                             [--mc N [--seed X]] [--json]\n"
    "g_m(s): the greedy player's win probability (name a least frequent remaining\n"
    "value), by recurrence (3) of Litwack, Pikhurko & Pongnumkul, exact (the\n"
    "default) or in floating point (double). --exact also solves the game over all\n"
    "adaptive strategies (the best and the worst bid at every state) to check\n"
    "Theorem 2 (greedy is the unique optimum for 3+ values) and Theorem 3 (the\n"
    "worst play and its closed form). --mc N plays N random deals; Ctrl-C (or\n"
    "SIGTERM) stops them and prints the results of the deals played, exactly\n"
    "what --mc for their number gives, then exits 130 (143).";

constexpr const char* kAdvanceUsage =
    "usage: cardlab dundee advance --deck D --bids B [--exact | --float]\n"
    "                              [--recursion] [--mc N [--seed X]] [--json]\n"
    "Pr(b, s): the win probability of naming value i b_i times (m = sum of b\n"
    "rounds), by inclusion-exclusion over the rook polynomial of the forbidden\n"
    "board (exact; --float only changes the printing: the alternating sum cancels\n"
    "too much for floating point). --recursion also runs the appendix recursion\n"
    "of Litwack, Pikhurko & Pongnumkul (exponential in the number of values).\n"
    "--mc N plays N random deals; Ctrl-C (or SIGTERM) stops them and prints the\n"
    "results of the deals played, exactly what --mc for their number gives,\n"
    "then exits 130 (143).";

constexpr const char* kOptimalUsage =
    "usage: cardlab dundee optimal-bids --deck D [--rounds M] [--max-bids N]\n"
    "                                   [--csv FILE] [--json]\n"
    "       cardlab dundee optimal-bids --values V --max-cards C [--rounds-all]\n"
    "                                   [--csv FILE] [--json]\n"
    "All advance bids of maximal Pr(b, s) with sum m (Problem 4 of Litwack,\n"
    "Pikhurko & Pongnumkul), listed with b non-decreasing inside groups of equal\n"
    "counts (as in their Table 2); '[K in all]' counts every rearrangement. Past\n"
    "--max-bids candidates (default 200000) only bids of Lemma 13's shape are\n"
    "searched: the optimal probability stays exact, other optimal bids may be\n"
    "missed (reported). The second form runs every deck s_1 >= ... >= s_V >= 1\n"
    "with at most C cards, for m = its number of cards (Table 2: V = 3, C = 11),\n"
    "or every m with --rounds-all. Ctrl-C (or SIGTERM) stops the table: the rows\n"
    "done are printed (and written), then one line and exit 130 (143).\n"
    "--csv columns: deck_counts,cards,rounds,probability,probability_decimal,\n"
    "optimal_bids,all_optimal,exhaustive,searched (docs/schema/csv_columns.json).";

using Json = nlohmann::ordered_json;

std::string Fraction(const mpq_class& q) { return q.get_str(); }

// An exact probability as --json gives it (docs/output.md): "probability"
// "p/q" in lowest terms and "probability_decimal" its value as a number.
Json ProbabilityJson(const mpq_class& q) {
  Json j;
  j["probability"] = Fraction(q);
  j["probability_decimal"] = q.get_d();
  return j;
}

// A Monte Carlo check into the JSON object and the text report.
void FormatMc(const DundeeMonteCarloCheck& mc, Json* j, std::string* out) {
  Json m;
  m["deals_played"] = std::to_string(mc.deals);
  m["winning_deals"] = std::to_string(mc.wins);
  m["estimate"] = mc.estimate;
  m["low95"] = mc.ci.low;
  m["high95"] = mc.ci.high;
  m["contains"] = mc.contains;
  (*j)["monte_carlo"] = m;
  char buf[256];
  std::snprintf(buf, sizeof(buf),
                "monte carlo %llu deals: %.6g, 95%% interval [%.6g, %.6g] %s the value\n",
                static_cast<unsigned long long>(mc.deals), mc.estimate, mc.ci.low, mc.ci.high,
                mc.contains ? "contains" : "does NOT contain");
  *out += buf;
}

// Runs a question's Monte Carlo under Ctrl-C/SIGTERM with a progress line:
// answer(options) runs it. Stopped, the deals played are the results, as
// --mc <their number> gives them; the line saying so comes after the report
// (Interrupted).
struct McRun {
  StopOnSignals signals;
  std::atomic<uint64_t> done{0}, total{0};

  template <class F>
  Status Run(const char* label, uint64_t deals, DundeeMonteCarloOptions* options, F&& answer) {
    total = deals;
    options->deals_done = &done;
    options->stop = signals.flag();
    Progress progress(label, "deals", &done, &total);
    return answer();
  }
  // The line of a stopped run, last on stderr; the exit status.
  int Interrupted(const std::string& program, uint64_t played, uint64_t asked) const {
    std::cout.flush();
    std::cerr << program << ": interrupted after " << played << " of " << asked
              << " deals; the results are those of the deals played (what --mc " << played
              << " gives)\n";
    return signals.ExitCode();
  }
};

std::string Describe(const std::vector<int>& s) {
  return CountsString(s) + " (" + Plural(s.size(), "value") + ", " + Plural(TotalCards(s), "card") +
         ")";
}

int RunGreedy(const std::vector<std::string>& args) {
  const std::string program = "cardlab dundee greedy";
  std::string deck_text;
  int rounds = -1;
  uint64_t mc = 0, seed = 1;
  po::options_description desc("options");
  po::options_description_easy_init add = desc.add_options();
  add("help,h", "show this help");
  add("deck", po::value(&deck_text)->required(), "the deck, e.g. 4^13");
  add("rounds", po::value(&rounds), "rounds m (default: every card)");
  add("exact", po::bool_switch(), "exact fractions, GMP rationals (the default)");
  add("float", po::bool_switch(), "floating point (double)");
  add("mc", po::value(&mc)->default_value(0), "also play N random deals (0: none)");
  add("seed", po::value(&seed)->default_value(1), "random seed of --mc");
  add("json", po::bool_switch(), "print one JSON object");
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kGreedyUsage, vm)) return kExitOk;
  std::vector<int> s;
  Status st = ParseCounts(deck_text, &s);
  const int c = st.ok() ? TotalCards(s) : 0;
  if (st.ok() && c == 0) st = Status::InvalidArgument("the deck has no cards");
  if (st.ok() && !vm.count("rounds")) rounds = c;
  if (st.ok() && rounds > c) {
    st = Status::InvalidArgument("--rounds must be at most the " + std::to_string(c) + " cards");
  }
  if (st.ok() && vm["exact"].as<bool>() && vm["float"].as<bool>()) {
    st = Status::InvalidArgument("--exact and --float exclude each other");
  }
  if (!st.ok()) return BadInput(program, st.ToString());
  const bool json = vm["json"].as<bool>();
  DundeeGreedyQuery query;
  query.deck = s;
  query.rounds = rounds;
  query.exact = !vm["float"].as<bool>();
  query.mc_deals = mc;
  query.mc_seed = seed;

  const auto t0 = std::chrono::steady_clock::now();
  DundeeGreedyReport r;
  McRun mc_run;
  st = mc_run.Run("greedy", mc, &query.mc_options, [&] { return AnswerDundeeGreedy(query, &r); });
  const bool stopped = st.IsCancelled();
  if (!st.ok() && !stopped) return BadInput(program, st.ToString());
  // docs/schema/cardlab-dundee-greedy.schema.json.
  Json j;
  j["command"] = "cardlab dundee greedy";
  j["deck_counts"] = CountsString(s);
  j["values"] = s.size();
  j["cards"] = c;
  j["rounds"] = rounds;
  std::string out;
  if (!query.exact) {
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.15g", r.greedy_double);
    j["greedy"] = {{"probability_decimal", r.greedy_double}};
    out += std::string("greedy     ") + buf + " (recurrence (3), double)\n";
  } else {
    const AdaptiveResult& a = r.adaptive;
    j["greedy"] = ProbabilityJson(r.greedy);
    Json best = ProbabilityJson(a.best);
    best["equals_greedy"] = r.optimal_equals_greedy;
    best["greedy_unique_at_every_state"] = a.greedy_unique;
    best["states"] = a.states;
    j["optimal"] = best;
    Json worst = ProbabilityJson(a.worst);
    worst["theorem3_applies"] = r.theorem3_applies;
    if (r.theorem3_applies) {
      worst["theorem3_probability"] = Fraction(r.worst_formula);
      worst["theorem3_agrees"] = r.worst_formula_agrees;
    }
    worst["anti_greedy_at_every_undecided_state"] = a.anti_greedy_worst;
    j["worst"] = worst;
    const std::string optimal =
        r.optimal_equals_greedy ? "equals greedy" : "DIFFERS from greedy: " + Fraction(a.best);
    const std::string unique = a.greedy_unique ? "the only best ones at every state"
                                               : "NOT the only best ones at some state";
    std::string theorem3 = "not applicable (a count is 0)";
    if (r.theorem3_applies) {
      theorem3 = r.worst_formula_agrees ? "agrees" : "DISAGREES: " + Fraction(r.worst_formula);
    }
    const std::string anti_greedy =
        a.anti_greedy_worst ? "the most frequent values" : "NOT always the most frequent values";
    out +=
        "greedy     " + Fraction(r.greedy) + " = " + Decimal(r.greedy, 12) + " (recurrence (3))\n";
    out += "optimal    " + optimal + " (all adaptive strategies, " + std::to_string(a.states) +
           " states); greedy's bids are " + unique + "\n";
    out += "worst      " + Fraction(a.worst) + " = " + Decimal(a.worst, 12) +
           "; Theorem 3's product " + theorem3 + "; the worst bids are " + anti_greedy +
           " at every undecided state\n";
  }
  if (r.monte_carlo) FormatMc(*r.monte_carlo, &j, &out);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (json) {
    j["seconds"] = seconds;
    std::cout << j.dump() << "\n";
  } else {
    std::cout << "deck       " << Describe(s) << ", " << Plural(rounds, "round") << "\n" << out;
  }
  if (!Quiet()) std::fprintf(stderr, "time       %.3f s\n", seconds);
  if (stopped) return mc_run.Interrupted(program, r.monte_carlo ? r.monte_carlo->deals : 0, mc);
  return kExitOk;
}

int RunAdvance(const std::vector<std::string>& args) {
  const std::string program = "cardlab dundee advance";
  std::string deck_text, bids_text;
  uint64_t mc = 0, seed = 1;
  po::options_description desc("options");
  po::options_description_easy_init add = desc.add_options();
  add("help,h", "show this help");
  add("deck", po::value(&deck_text)->required(), "the deck, e.g. 4^13");
  add("bids", po::value(&bids_text)->required(), "times each value is named, e.g. 4^13");
  add("exact", po::bool_switch(), "print the fraction (the default)");
  add("float", po::bool_switch(), "print only the decimal");
  add("recursion", po::bool_switch(), "also run the appendix recursion (small decks)");
  add("mc", po::value(&mc)->default_value(0), "also play N random deals (0: none)");
  add("seed", po::value(&seed)->default_value(1), "random seed of --mc");
  add("json", po::bool_switch(), "print one JSON object");
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kAdvanceUsage, vm)) return kExitOk;
  std::vector<int> s, b;
  Status st = ParseCounts(deck_text, &s);
  if (st.ok()) st = ParseCounts(bids_text, &b);
  if (st.ok() && TotalCards(s) == 0) st = Status::InvalidArgument("the deck has no cards");
  if (st.ok() && b.size() != s.size()) {
    st = Status::InvalidArgument("--bids has " + std::to_string(b.size()) + " values, the deck " +
                                 std::to_string(s.size()));
  }
  if (st.ok() && TotalCards(b) > TotalCards(s)) {
    st = Status::InvalidArgument("more bids (rounds) than cards");
  }
  if (st.ok() && vm["exact"].as<bool>() && vm["float"].as<bool>()) {
    st = Status::InvalidArgument("--exact and --float exclude each other");
  }
  if (st.ok() && vm["recursion"].as<bool>() && s.size() > 8) {
    st = Status::InvalidArgument("--recursion takes at most 8 values");
  }
  if (!st.ok()) return BadInput(program, st.ToString());
  const bool json = vm["json"].as<bool>(), only_decimal = vm["float"].as<bool>();
  DundeeAdvanceQuery query;
  query.deck = s;
  query.bids = b;
  query.recursion = vm["recursion"].as<bool>();
  query.mc_deals = mc;
  query.mc_seed = seed;

  const auto t0 = std::chrono::steady_clock::now();
  DundeeAdvanceReport r;
  McRun mc_run;
  st = mc_run.Run("advance", mc, &query.mc_options, [&] { return AnswerDundeeAdvance(query, &r); });
  const bool stopped = st.IsCancelled();
  if (!st.ok() && !stopped) return BadInput(program, st.ToString());
  const int m = r.rounds;
  const mpq_class& p = r.probability;
  // docs/schema/cardlab-dundee-advance.schema.json.
  Json j;
  j["command"] = "cardlab dundee advance";
  j["deck_counts"] = CountsString(s);
  j["values"] = s.size();
  j["cards"] = TotalCards(s);
  j["bids"] = CountsString(b);
  j["rounds"] = m;
  j["almost_regular"] = r.almost_regular;
  if (!only_decimal) j["probability"] = Fraction(p);
  j["probability_decimal"] = p.get_d();
  std::string out = "Pr(b,s)    " +
                    (only_decimal ? Decimal(p, 12) : Fraction(p) + " = " + Decimal(p, 12)) +
                    " (rook polynomial)\n";
  if (query.recursion) {
    j["recursion_agrees"] = r.recursion_agrees;
    out += std::string("recursion  ") +
           (r.recursion_agrees ? "agrees" : "DISAGREES: " + Fraction(r.recursion)) +
           " (appendix a(b,s,f))\n";
  }
  if (r.monte_carlo) FormatMc(*r.monte_carlo, &j, &out);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (json) {
    j["seconds"] = seconds;
    std::cout << j.dump() << "\n";
  } else {
    std::cout << "deck       " << Describe(s) << "\nbids       " << CountsString(b) << " ("
              << Plural(m, "round") << (r.almost_regular ? ", almost regular" : "") << ")\n"
              << out;
  }
  if (!Quiet()) std::fprintf(stderr, "time       %.3f s\n", seconds);
  if (stopped) return mc_run.Interrupted(program, r.monte_carlo ? r.monte_carlo->deals : 0, mc);
  return r.recursion_agrees ? kExitOk : kExitCheckFailed;
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
  uint64_t max_bids = kDefaultMaxBids;
  po::options_description desc("options");
  po::options_description_easy_init add = desc.add_options();
  add("help,h", "show this help");
  add("deck", po::value(&deck_text), "the deck, e.g. 5,3,2");
  add("rounds", po::value(&rounds), "rounds m (default: every card)");
  add("values", po::value(&values), "every deck with this many values ...");
  add("max-cards", po::value(&max_cards), "... and at most this many cards");
  add("rounds-all", po::bool_switch(), "with --values: every m from 1 to the deck's cards");
  add("max-bids", po::value(&max_bids)->default_value(kDefaultMaxBids),
      "exhaustive search up to this many bids");
  add("csv", po::value(&csv_path),
      "write the rows to FILE as CSV (- for standard output, instead of the table)");
  add("json", po::bool_switch(), "print one JSON object");
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kOptimalUsage, vm)) return kExitOk;
  Status st;
  DundeeOptimalBidsQuery query;
  if (vm.count("deck") == vm.count("values")) {
    st = Status::InvalidArgument("give either --deck or --values with --max-cards");
  }
  if (st.ok() && vm.count("deck")) {
    std::vector<int> s;
    st = ParseCounts(deck_text, &s);
    if (st.ok() && TotalCards(s) == 0) st = Status::InvalidArgument("the deck has no cards");
    if (st.ok() && rounds > TotalCards(s)) {
      st = Status::InvalidArgument("--rounds must be at most the " + std::to_string(TotalCards(s)) +
                                   " cards");
    }
    query.decks.push_back(s);
  }
  if (st.ok() && vm.count("values")) {
    if (values < 1 || values > 12) {
      st = Status::InvalidArgument("--values must be in 1..12");
    } else if (!vm.count("max-cards") || max_cards < values || max_cards > 60) {
      st = Status::InvalidArgument("--max-cards must be in V..60");
    }
    if (st.ok() && vm.count("rounds")) {
      st = Status::InvalidArgument("--rounds goes with --deck; use --rounds-all");
    }
    if (st.ok()) query.decks = SortedDecks(values, max_cards);
  }
  if (st.ok() && vm.count("rounds") && rounds < 0) {
    st = Status::InvalidArgument("--rounds must be >= 0");
  }
  const bool json = vm["json"].as<bool>();
  if (st.ok()) st = CheckResultStreams(json, {{"csv", csv_path}});
  OutputFile csv;
  if (st.ok()) st = OpenCsv(csv_path, &csv);
  if (!st.ok()) return BadInput(program, st.ToString());
  // With --csv - the CSV is the only thing on standard output.
  const bool text = !json && !csv.is_stdout();
  query.rounds_all = vm["rounds-all"].as<bool>();
  query.rounds = vm.count("rounds") ? rounds : -1;
  query.max_bids = max_bids;
  if (csv.is_open()) {
    csv << "deck_counts,cards,rounds,probability,probability_decimal,optimal_bids,all_optimal,"
           "exhaustive,searched\n";
  }
  Json rows = Json::array();
  // Progress in rows; Ctrl-C stops the table, the rows done kept.
  std::atomic<uint64_t> done{0}, total{0};
  for (const auto& d : query.decks) total += query.rounds_all ? TotalCards(d) : 1;
  StopOnSignals signals;
  query.rows_done = &done;
  query.stop = signals.flag();
  std::vector<int> last_deck;  // the deck and m of the last row done
  int last_rounds = 0;
  const auto t0 = std::chrono::steady_clock::now();
  if (text) {
    std::printf("%-14s %5s %6s  %-14s %-24s %s\n", "deck", "cards", "rounds", "Pr", "",
                "optimal bids  [how many in all]");
  }
  Progress progress("optimal-bids", "rows", &done, &total);
  st = TabulateOptimalBids(query, [&](const DundeeOptimalBidsRow& row) {
    last_deck = row.deck;
    last_rounds = row.rounds;
    const OptimalBids& r = row.optimal;
    const std::string deck = CountsString(row.deck), bids = BidsText(r.bids);
    if (csv.is_open()) {
      csv << '"' << deck << "\"," << row.cards << "," << row.rounds << ","
          << Fraction(r.probability) << "," << Decimal(r.probability, 12) << ",\"" << bids << "\","
          << r.all_bids.get_str() << "," << (r.exhaustive ? "true" : "false") << "," << r.searched
          << "\n";
    }
    if (json) {
      Json o;
      o["deck_counts"] = deck;
      o["values"] = row.deck.size();
      o["cards"] = row.cards;
      o["rounds"] = row.rounds;
      o["probability"] = Fraction(r.probability);
      o["probability_decimal"] = r.probability.get_d();
      o["optimal_bids"] = Json::array();
      for (const auto& b : r.bids) o["optimal_bids"].push_back(CountsString(b));
      o["all_optimal"] = r.all_bids.get_str();
      o["exhaustive"] = r.exhaustive;
      o["searched"] = std::to_string(r.searched);
      rows.push_back(o);
    } else if (text) {
      std::printf("%-14s %5d %6d  %-14s %-24s %s  [%s in all]%s\n", ("(" + deck + ")").c_str(),
                  row.cards, row.rounds, Fraction(r.probability).c_str(),
                  ("= " + Decimal(r.probability, 10)).c_str(), bids.c_str(),
                  r.all_bids.get_str().c_str(), r.exhaustive ? "" : "  [Lemma 13 shape only]");
    }
  });
  progress.Stop();
  const bool stopped = st.IsCancelled();
  if (!st.ok() && !stopped) return BadInput(program, st.ToString());
  if (!CommitOutput(program, &csv)) return kExitCheckFailed;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (json) {
    // docs/schema/cardlab-dundee-optimal-bids.schema.json.
    Json j;
    j["command"] = "cardlab dundee optimal-bids";
    j["rows"] = rows;
    j["seconds"] = seconds;
    std::cout << j.dump() << "\n";
  }
  std::fflush(stdout);
  if (!Quiet()) std::fprintf(stderr, "time       %.3f s\n", seconds);
  if (stopped) {
    // The rows are the table's first ones; with --values, those of the
    // decks of fewer cards than the one under way are --max-cards' table.
    const uint64_t n = done.load();
    std::cerr << program << ": interrupted after " << Plural(n, "row") << " of "
              << Thousands(total.load());
    if (n > 0) {
      std::cerr << " (the last: deck " << CountsString(last_deck) << ", m = " << last_rounds
                << "); the rows printed are the table's first " << n << ", each complete";
    }
    // The deck under way: the first whose rows are not all done.
    uint64_t rows_before = 0;
    size_t i = 0;
    for (; i < query.decks.size(); ++i) {
      const uint64_t rows_of = query.rounds_all ? TotalCards(query.decks[i]) : 1;
      if (rows_before + rows_of > n) break;
      rows_before += rows_of;
    }
    const int smaller = i < query.decks.size() ? TotalCards(query.decks[i]) - 1 : 0;
    if (vm.count("values") && n > 0 && smaller >= values) {
      std::cerr << " (those of the decks of at most " << smaller << " cards are what --max-cards "
                << smaller << " gives)";
    }
    std::cerr << "\n";
    return signals.ExitCode();
  }
  return kExitOk;
}

}  // namespace

int RunDundee(const std::vector<std::string>& args) {
  if (args.empty()) {
    return BadInput("cardlab dundee", "no question given (greedy, advance, optimal-bids)");
  }
  const std::string& q = args[0];
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (q == "--help" || q == "-h" || (q == "help" && rest.empty())) {
    std::cout << kUsage << "\n";
    return kExitOk;
  }
  // `cardlab dundee help QUESTION`: the question's own help.
  if (q == "help") return RunDundee({rest[0], "--help"});
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
