// eulerdeck count: exact counts by the backward (eulerian) enumeration.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "engine/cards/combinatorics.h"
#include "engine/eulerian/children.h"
#include "engine/eulerian/enumerate.h"
#include "tools/common/cli.h"
#include "tools/common/format.h"
#include "tools/common/progress.h"
#include "tools/eulerdeck/commands.h"

namespace eulerdeck::tools {

namespace {

constexpr const char* kUsage =
    "usage: eulerdeck count --game G --ranks M [--suits S] [--threads T] [--json]\n"
    "                       [--csv FILE] [--verify-leaves]\n"
    "Counts the winning decks exactly by walking the tree of winning sub-decks\n"
    "backwards from the last card (Bersani §4-5), and prints the number of\n"
    "winning sub-decks at every level k = 1..n (k cards), the probability, the\n"
    "nodes visited and the rate.";

}  // namespace

int RunCount(const std::vector<std::string>& args) {
  JobOptions job;
  CountOptions options;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help");
  job.Add(desc, "also write the level counts and totals to FILE");
  desc.add_options()("verify-leaves", po::bool_switch(&options.verify_leaves),
                     "build every winning deck and replay it forward; fail on any mismatch")(
      "json", po::bool_switch(), "print one JSON object");
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kUsage, vm)) return kExitOk;
  GameSpec spec;
  OutputFile csv;
  Status s = job.Prepare(&spec, &csv, CheckEnumerable);
  if (!s.ok()) return BadInput("eulerdeck count", s.ToString());
  options.threads = job.threads;

  std::atomic<uint64_t> done{0}, total{0};
  options.tasks_done = &done;
  options.tasks_total = &total;
  CountResult r;
  const auto start = std::chrono::steady_clock::now();
  {
    Progress progress("count", "subtrees", &done, &total);
    s = Count(spec, options, &r);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (s.IsCorruption()) {
    std::cerr << "eulerdeck count: " << s.ToString() << "\n";
    return kExitCheckFailed;
  }
  if (!s.ok()) return BadInput("eulerdeck count", s.ToString());

  const mpz_class decks = TotalDecks(spec);
  const Probability p = MakeProbability(Mpz(r.winning()), decks);
  const double rate = seconds > 0 ? r.nodes / seconds : 0.0;
  const int n = spec.cards();

  if (csv.is_open()) {
    csv << "level,sub_decks\n";
    for (int k = 1; k <= n; ++k) csv << k << "," << r.level[k] << "\n";
    csv << "winning," << r.winning() << "\n"
        << "total_decks," << decks.get_str() << "\n"
        << "nodes," << r.nodes << "\n";
  }
  if (!CommitOutput("eulerdeck count", &csv)) return kExitCheckFailed;

  if (vm["json"].as<bool>()) {
    nlohmann::json j;
    j["game"] = GameName(spec.game);
    j["ranks"] = spec.ranks;
    j["suits"] = spec.suits;
    j["cards"] = n;
    j["winning_decks"] = r.winning();
    j["total_decks"] = decks.get_str();  // a string: it may exceed 2^64
    j["probability"] = p.exact;
    j["probability_decimal"] = std::stod(p.decimal);
    j["levels"] = std::vector<uint64_t>(r.level.begin() + 1, r.level.end());
    j["nodes"] = r.nodes;
    j["leaves_verified"] = r.leaves_verified;
    j["seconds"] = seconds;
    j["nodes_per_second"] = rate;
    std::cout << j.dump() << "\n";
    return kExitOk;
  }

  std::cout << "game           " << GameLine(spec) << "\n"
            << "winning decks  " << r.winning() << "\n"
            << "decks          " << decks.get_str() << "\n"
            << "probability    " << p.exact << " = " << p.decimal << "\n"
            << "level  winning sub-decks\n";
  for (int k = 1; k <= n; ++k) {
    std::printf("  %3d  %llu\n", k, static_cast<unsigned long long>(r.level[k]));
  }
  std::fflush(stdout);
  if (options.verify_leaves) {
    std::cout << "verified       " << r.leaves_verified
              << " winning decks replayed forward: all win\n";
  }
  char line[128];
  std::snprintf(line, sizeof(line), "%.3f s, %s nodes/s", seconds, HumanCount(rate).c_str());
  std::cout << "nodes          " << r.nodes << "\n"
            << "time           " << line << "\n";
  return kExitOk;
}

}  // namespace eulerdeck::tools
