// eulerdeck brute: play every distinct deck.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "engine/cards/brute.h"
#include "engine/cards/combinatorics.h"
#include "engine/cards/rules.h"
#include "tools/common/cli.h"
#include "tools/common/format.h"
#include "tools/common/progress.h"
#include "tools/eulerdeck/commands.h"

namespace eulerdeck::tools {

namespace {

constexpr const char* kUsage =
    "usage: eulerdeck brute --game G --ranks M [--suits S] [--threads T]\n"
    "                       [--max-decks N] [--json] [--csv FILE]\n"
    "Plays every distinct deck (each multiset permutation once) and reports the\n"
    "winning decks, the total N = (ms)!/(s!)^m, and the distributions of cards\n"
    "removed and of scores. The reference for every faster method.";

// The default limit: about 10 minutes on 2 cores (mousetrap m = 14, 8.7e10
// decks, took about 90 minutes there: ~16M decks/s). A longer job must be
// asked for by raising the limit.
constexpr uint64_t kDefaultMaxDecks = 10'000'000'000ULL;

}  // namespace

int RunBrute(const std::vector<std::string>& args) {
  JobOptions job;
  BruteOptions options;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help");
  job.Add(desc, "also write the distributions to FILE as CSV");
  options.max_decks = kDefaultMaxDecks;
  desc.add_options()("max-decks", po::value(&options.max_decks)->default_value(options.max_decks),
                     "refuse to start when there are more decks than this (the default "
                     "stops jobs of more than about 10 minutes on 2 cores)")(
      "json", po::bool_switch(), "print one JSON object");
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kUsage, vm)) return kExitOk;
  GameSpec spec;
  OutputFile csv;
  Status s = job.Prepare(&spec, &csv);
  if (!s.ok()) return BadInput("eulerdeck brute", s.ToString());
  options.threads = job.threads;

  std::atomic<uint64_t> done{0};
  options.decks_done = &done;
  BruteResult r;
  const auto start = std::chrono::steady_clock::now();
  {
    const std::atomic<uint64_t> total{TotalDecks64(spec).value_or(0)};
    Progress progress("brute", "decks", &done, &total);
    s = Brute(spec, options, &r);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!s.ok()) return BadInput("eulerdeck brute", s.ToString());

  if (csv.is_open()) {
    csv << "quantity,value,decks\n";
    for (size_t i = 0; i < r.removed.size(); ++i) {
      csv << "removed," << i << "," << r.removed[i] << "\n";
    }
    for (size_t v = 0; v < r.score.size(); ++v) {
      if (r.score[v]) csv << "score," << v << "," << r.score[v] << "\n";
    }
    csv << "total,," << r.total_decks << "\n"
        << "winning,," << r.winning_decks << "\n";
  }
  if (!CommitOutput("eulerdeck brute", &csv)) return kExitCheckFailed;

  if (vm["json"].as<bool>()) {
    nlohmann::json j;
    j["game"] = GameName(spec.game);
    j["ranks"] = spec.ranks;
    j["suits"] = spec.suits;
    j["cards"] = spec.cards();
    j["total_decks"] = r.total_decks;
    j["winning_decks"] = r.winning_decks;
    const Probability p = MakeProbability(Mpz(r.winning_decks), Mpz(r.total_decks));
    j["probability"] = p.exact;
    j["probability_decimal"] = std::stod(p.decimal);
    j["outcomes"] = {{"win", r.outcomes[0]}, {"loss", r.outcomes[1]}, {"dead-end", r.outcomes[2]}};
    j["removed"] = r.removed;
    nlohmann::json score = nlohmann::json::object();
    for (size_t v = 0; v < r.score.size(); ++v) {
      if (r.score[v]) score[std::to_string(v)] = r.score[v];
    }
    j["score"] = score;
    j["seconds"] = seconds;
    std::cout << j.dump() << "\n";
    return kExitOk;
  }

  const Probability p = MakeProbability(Mpz(r.winning_decks), Mpz(r.total_decks));
  std::cout << "game           " << GameLine(spec) << "\n"
            << "decks          " << r.total_decks << "\n"
            << "winning decks  " << r.winning_decks << "\n"
            << "probability    " << p.exact << " = " << p.decimal << "\n"
            << "outcomes       win " << r.outcomes[0] << ", loss " << r.outcomes[1] << ", dead-end "
            << r.outcomes[2] << "\n"
            << "cards removed  decks\n";
  for (size_t i = 0; i < r.removed.size(); ++i) {
    std::printf("  %4zu         %llu\n", i, static_cast<unsigned long long>(r.removed[i]));
  }
  std::fflush(stdout);
  if (spec.policy().score_studied) {
    std::cout << "score          decks\n";
    for (size_t v = 0; v < r.score.size(); ++v) {
      if (r.score[v]) {
        std::printf("  %4zu         %llu\n", v, static_cast<unsigned long long>(r.score[v]));
      }
    }
    std::fflush(stdout);
  }
  char rate[64];
  std::snprintf(rate, sizeof(rate), "%.3f s, %s decks/s", seconds,
                HumanCount(seconds > 0 ? r.total_decks / seconds : 0).c_str());
  std::cerr << "time           " << rate << "\n";
  return kExitOk;
}

}  // namespace eulerdeck::tools
