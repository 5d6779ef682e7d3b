// eulerdeck estimate: the number of winning sub-decks at every level, hence
// of winning decks and the win probability, estimated by random descents of
// the backward tree (engine/estimate/knuth.h), where neither the
// enumeration nor forward Monte Carlo reaches; as text, JSON
// (docs/schema/eulerdeck-estimate.schema.json) or CSV.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "engine/cards/combinatorics.h"
#include "engine/estimate/knuth.h"
#include "tools/common/cli.h"
#include "tools/common/format.h"
#include "tools/common/interrupt.h"
#include "tools/common/output_file.h"
#include "tools/common/progress.h"
#include "tools/common/results.h"
#include "tools/common/size_loop.h"
#include "tools/eulerdeck/commands.h"

namespace eulerdeck::tools {

namespace {

constexpr const char* kProgram = "eulerdeck estimate";

constexpr const char* kUsage =
    "usage: eulerdeck estimate --game G --ranks M [--suits S] [--samples N]\n"
    "                          [--exact-levels L] [--no-lookahead] [--seed X]\n"
    "                          [--threads T]\n"
    "                          [--json] [--csv FILE]\n"
    "Estimates the number of winning sub-decks at every level of the backward\n"
    "tree, hence the winning decks and the probability of winning, where the\n"
    "enumeration would never end: N random descents of the tree (Knuth 1975),\n"
    "each counting the last L levels below it exactly and choosing children in\n"
    "proportion to their own children (importance sampling; --no-lookahead:\n"
    "uniformly, Knuth's estimator). Each level gets a 95%\n"
    "interval (mean +- 1.96 standard errors over the i.i.d. descents), its\n"
    "effective sample size and its largest descent's share of the sum: the\n"
    "estimator is heavy-tailed, and an interval whose ESS is small or whose\n"
    "largest share is large is not to be trusted (docs/estimates.md). The same\n"
    "--seed gives the same estimate on any number of threads.\n"
    "--csv columns: game,ranks,suits,level,sub_decks_estimate,std_error,\n"
    "ci95_low,ci95_high,ess,max_share (docs/schema/csv_columns.json).";

// The report's numbers: six significant digits.
std::string Sci(double x) { return Significant(x, 6); }

nlohmann::ordered_json LevelJson(int level, const LevelEstimate& e) {
  nlohmann::ordered_json j;
  if (level > 0) j["level"] = level;
  j["estimate"] = e.mean;
  j["std_error"] = e.std_error;
  j["low"] = e.low;
  j["high"] = e.high;
  j["ess"] = e.ess;
  j["max_share"] = e.max_share;
  return j;
}

}  // namespace

int RunEstimate(const std::vector<std::string>& args) {
  SpecOptions game;
  EstimateOptions options;
  bool json = false, no_lookahead = false;
  std::string csv_path;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help");
  game.Add(desc);
  desc.add_options()("samples", po::value<uint64_t>(&options.samples)->default_value(100000),
                     "random descents of the tree")(
      "exact-levels", po::value<int>(&options.exact_levels)->default_value(6),
      "the last levels counted exactly below each descent (0: none; at most the cards "
      "less one)")(
      "no-lookahead", po::bool_switch(&no_lookahead),
      "choose children uniformly (Knuth's plain estimator) instead of in proportion to "
      "their own children")(
      "seed", po::value<uint64_t>(&options.seed)->default_value(1),
      "seed of the descents (the same seed repeats a run on any thread count)")(
      "threads", po::value<int>(&options.threads)->default_value(0), "threads (0: all cores)")(
      "json", po::bool_switch(&json),
      "print one JSON object (docs/schema/eulerdeck-estimate.schema.json)")(
      "csv", po::value(&csv_path), "write the levels to FILE as CSV (- for standard output)");
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kUsage, vm)) return kExitOk;
  GameSpec spec;
  if (Status s = game.ToSpec(&spec); !s.ok()) return BadInput(kProgram, s.ToString());
  if (options.threads < 0) return BadInput(kProgram, "--threads must be at least 0");
  options.lookahead = !no_lookahead;
  if (options.samples == 0) return BadInput(kProgram, "--samples must be at least 1");
  // The default, 6, is more than a small deck has below its first level.
  if (vm["exact-levels"].defaulted()) options.exact_levels = std::min(6, spec.cards() - 1);
  if (options.exact_levels < 0 || options.exact_levels >= spec.cards()) {
    return BadInput(kProgram, "--exact-levels must be between 0 and " +
                                  std::to_string(spec.cards() - 1) + " (the cards less one)");
  }
  if (json && csv_path == "-") {
    return BadInput(kProgram, "--json and --csv - would both write to standard output");
  }
  OutputFile csv;
  if (Status s = OpenCsv(csv_path, &csv); !s.ok()) return BadInput(kProgram, s.ToString());

  StopOnSignals signals;
  options.stop = signals.flag();
  std::atomic<uint64_t> done{0}, total{options.samples};
  options.samples_done = &done;
  EstimateResult r;
  const auto start = std::chrono::steady_clock::now();
  Status s;
  {
    Progress progress("estimate", "descents", &done, &total);
    s = Estimate(spec, options, &r);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (s.IsCancelled()) {
    std::cerr << kProgram << ": " << s.ToString() << " (an estimate is not resumable)\n";
    return signals.ExitCode();
  }
  if (!s.ok()) return BadInput(kProgram, s.ToString());

  const mpz_class total_decks = TotalDecks(spec);
  const double decks = total_decks.get_d();
  const LevelEstimate& w = r.winning();
  LevelEstimate p;  // the probability: the winning decks' estimate / the decks
  p.mean = w.mean / decks;
  p.std_error = w.std_error / decks;
  p.low = w.low / decks;
  p.high = w.high / decks;
  p.ess = w.ess;
  p.max_share = w.max_share;
  const int n = spec.cards();
  if (csv.is_open()) {
    csv << "game,ranks,suits,level,sub_decks_estimate,std_error,ci95_low,ci95_high,ess,max_share\n";
    for (int j = 1; j <= n; ++j) {
      const LevelEstimate& e = r.level[j];
      csv << CsvGamePrefix(spec) << j << "," << Sci(e.mean) << "," << Sci(e.std_error) << ","
          << Sci(e.low) << "," << Sci(e.high) << "," << Sci(e.ess) << "," << Sci(e.max_share)
          << "\n";
    }
  }
  if (json) {
    nlohmann::ordered_json j = GameResultJson(kProgram, spec);
    j["total_decks"] = total_decks.get_str();
    j["samples"] = std::to_string(r.samples);
    j["exact_levels"] = r.exact_levels;
    j["lookahead"] = options.lookahead;
    j["seed"] = std::to_string(options.seed);
    j["winning_decks"] = LevelJson(0, w);
    j["probability"] = LevelJson(0, p);
    nlohmann::ordered_json levels = nlohmann::ordered_json::array();
    for (int k = 1; k <= n; ++k) levels.push_back(LevelJson(k, r.level[k]));
    j["levels"] = levels;
    j["sub_decks_counted"] = std::to_string(r.sub_decks_counted);
    j["seconds"] = seconds;
    std::cout << j.dump() << "\n" << std::flush;
  } else if (!csv.is_open() || csv_path != "-") {
    std::cout << "game           " << GameLine(spec) << "\n"
              << "descents       " << r.samples << " (seed " << options.seed << "), the last "
              << Plural(r.exact_levels, "level") << " counted exactly, "
              << (options.lookahead ? "children chosen by their own children"
                                    : "children chosen uniformly")
              << "\n"
              << "level       estimate    std error       95% low      95% high         ESS  "
                 "max share\n";
    for (int k = 1; k <= n; ++k) {
      const LevelEstimate& e = r.level[k];
      std::printf("%5d %14.6g %12.4g %13.6g %13.6g %11.4g %10.4f\n", k, e.mean, e.std_error, e.low,
                  e.high, e.ess, e.max_share);
    }
    std::fflush(stdout);
    const double rel = w.mean > 0 ? 100 * 1.959964 * w.std_error / w.mean : 0;
    std::cout << "winning decks  " << Sci(w.mean) << " +- " << Sci(rel) << "% (95% interval "
              << Sci(w.low) << " .. " << Sci(w.high) << ", ESS " << Sci(w.ess) << ")\n"
              << "probability    " << Sci(p.mean) << " (95% interval " << Sci(p.low) << " .. "
              << Sci(p.high) << ") of " << total_decks.get_str() << " decks\n";
    PrintTime(seconds, HumanCount(static_cast<double>(r.samples) / seconds) + " descents/s");
  }
  if (!CommitOutput(kProgram, &csv)) return kExitCheckFailed;
  return kExitOk;
}

}  // namespace eulerdeck::tools
