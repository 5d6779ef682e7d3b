// eulerdeck estimate: the number of winning sub-decks at every level, hence
// of winning decks and the win probability, estimated by sampling the
// backward tree (engine/estimate/knuth.h), where neither the
// enumeration nor forward Monte Carlo reaches; as text, JSON
// (docs/schema/eulerdeck-estimate.schema.json) or CSV.
#include <algorithm>
#include <chrono>
#include <cmath>
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
    "usage: eulerdeck estimate --game G --ranks M [--suits S]\n"
    "                          [--samples N | --until-rel R] [--width W]\n"
    "                          [--exact-levels L] [--no-lookahead] [--seed X]\n"
    "                          [--threads T]\n"
    "                          [--json] [--csv FILE]\n"
    "Estimates the number of winning sub-decks at every level of the backward\n"
    "tree, hence the winning decks and the probability of winning, where the\n"
    "enumeration would never end. One sample goes down the tree (Knuth 1975)\n"
    "keeping up to W sub-decks per level, each standing for many: children are\n"
    "valued by their own children (importance sampling; --no-lookahead: all\n"
    "alike) and thinned to W by threshold sampling, and the last L levels are\n"
    "counted exactly; --width 1 is a single random descent. Each level gets a\n"
    "95% interval (mean +- t standard errors over the N independent samples, t\n"
    "Student's for N - 1 degrees of freedom: 1.96 for large N), its effective\n"
    "sample size and its largest sample's share of the sum: an interval whose\n"
    "ESS is small or whose largest share is large is not to be trusted\n"
    "(docs/estimates.md). --until-rel R aims at a half-width of\n"
    "the winning decks of R times the estimate: a pilot of 100 samples says how\n"
    "many it takes, and those are drawn afresh (--samples is then the most).\n"
    "The same --seed gives the same estimate on any number of threads.\n"
    "Ctrl-C (or SIGTERM) prints the estimate of the samples drawn so far and\n"
    "exits 130 (143); without --until-rel it is what --samples N gives.\n"
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
  double until_rel = 0;
  std::string csv_path;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help");
  game.takes = SpecOptions::Enumerable;
  game.Add(desc);
  desc.add_options()("samples", po::value<uint64_t>(&options.samples)->default_value(1000),
                     "independent samples of the tree (with --until-rel: at most this many; "
                     "unlimited if not given)")(
      "until-rel", po::value<double>(&until_rel),
      "aim at a 95% half-width of the winning decks of this fraction of the estimate "
      "(e.g. 0.01): a pilot of 100 samples says how many samples that takes")(
      "exact-levels", po::value<int>(&options.exact_levels)->default_value(6),
      "the last levels counted exactly below each descent (0: none; at most the cards "
      "less one)")(
      "no-lookahead", po::bool_switch(&no_lookahead),
      "choose children uniformly (Knuth's plain estimator) instead of in proportion to "
      "their own children")(
      "width", po::value<uint32_t>(&options.width)->default_value(1000),
      "sub-decks each sample keeps per level (1: one descent; more: a population "
      "thinned by threshold sampling, docs/estimates.md)")(
      "seed", po::value<uint64_t>(&options.seed)->default_value(1),
      "seed of the samples (the same seed repeats a run on any thread count)")(
      "threads", po::value<int>(&options.threads)->default_value(0), "threads (0: all cores)")(
      "json", po::bool_switch(&json),
      "print one JSON object (docs/schema/eulerdeck-estimate.schema.json)")(
      "csv", po::value(&csv_path), "write the levels to FILE as CSV (- for standard output)");
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kUsage, vm)) return kExitOk;
  GameSpec spec;
  if (Status s = game.ToSpec(&spec); !s.ok()) return BadInput(kProgram, s.ToString());
  if (Status t = CheckThreads(options.threads); !t.ok()) return BadInput(kProgram, t.ToString());
  options.lookahead = !no_lookahead;
  if (options.samples == 0) return BadInput(kProgram, "--samples must be at least 1");
  if (options.width == 0) return BadInput(kProgram, "--width must be at least 1");
  if (vm.count("until-rel")) {
    if (!(until_rel > 0 && until_rel < 1)) {
      return BadInput(kProgram, "--until-rel must be between 0 and 1 (a fraction), not " +
                                    Significant(until_rel, 6));
    }
    options.until_rel = until_rel;
    if (vm["samples"].defaulted()) options.samples = UINT64_MAX;
  }
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
  // --until-rel without --samples: no known total; the line shows the
  // half-width reached instead.
  std::atomic<uint64_t> done{0}, total{options.samples == UINT64_MAX ? 0 : options.samples};
  options.samples_done = &done;
  options.samples_total = &total;  // --until-rel: known after the pilot
  std::atomic<double> half_width{-1};
  options.relative_half_width = &half_width;
  EstimateResult r;
  const auto start = std::chrono::steady_clock::now();
  Status s;
  {
    Progress progress("estimate", "samples", &done, &total, 2.0, [&]() -> std::string {
      const double h = half_width.load(std::memory_order_relaxed);
      if (h < 0) return "";
      std::string line = "+-" + Significant(100 * h, 3) + "%";
      if (options.until_rel > 0) line += " (goal " + Significant(100 * options.until_rel, 3) + "%)";
      return line;
    });
    s = Estimate(spec, options, &r);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (s.IsCancelled()) {
    std::cerr << kProgram << ": " << s.ToString() << " (an estimate is not resumable)\n";
    return signals.ExitCode();
  }
  if (!s.ok()) return BadInput(kProgram, s.ToString());

  // A level every sample counts alike (all of it kept, or counted exactly)
  // has no spread, but the rounding of its samples' sums (doubles) can leave
  // a standard error of ~1e-19 of the mean, printed as "2.884e-15": it is 0.
  for (LevelEstimate& e : r.level) {
    if (e.std_error > 0 && e.std_error < 1e-12 * std::abs(e.mean)) {
      e.std_error = 0;
      e.low = e.high = e.mean;
    }
  }
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
    j["width"] = options.width;
    j["lookahead"] = options.lookahead;
    if (options.until_rel > 0) {
      j["until_rel"] = options.until_rel;
      j["pilot_samples"] = std::to_string(r.pilot_samples);
    }
    j["seed"] = std::to_string(options.seed);
    if (r.interrupted) j["interrupted"] = true;
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
              << "samples        " << Thousands(r.samples) << " of width "
              << Thousands(options.width) << " (seed " << options.seed
              << (r.pilot_samples ? ", after a pilot of " + Thousands(r.pilot_samples) : "")
              << "), the last " << Plural(r.exact_levels, "level") << " counted exactly, "
              << (options.lookahead ? "children chosen by their own children"
                                    : "children chosen uniformly")
              << "\n"
              << (r.interrupted ? "stop           interrupted: the estimate of the samples drawn\n"
                                : "")
              << "level       estimate    std error       95% low      95% high         ESS  "
                 "max share\n";
    for (int k = 1; k <= n; ++k) {
      const LevelEstimate& e = r.level[k];
      std::printf("%5d %14.6g %12.4g %13.6g %13.6g %11.4g %10.4f\n", k, e.mean, e.std_error, e.low,
                  e.high, e.ess, e.max_share);
    }
    std::fflush(stdout);
    const double rel = w.mean > 0 ? 100 * (w.high - w.mean) / w.mean : 0;
    std::cout << "winning decks  " << Sci(w.mean) << " +- " << Sci(rel) << "% (95% interval "
              << Sci(w.low) << " .. " << Sci(w.high) << ", ESS " << Sci(w.ess) << ")\n"
              << "probability    " << Sci(p.mean) << " (95% interval " << Sci(p.low) << " .. "
              << Sci(p.high) << ") of " << Thousands(total_decks) << " decks ("
              << Scientific(total_decks, 4) << ")\n";
    PrintTime(seconds, HumanCount(static_cast<double>(r.samples) / seconds) + " samples/s");
  }
  if (!CommitOutput(kProgram, &csv)) return kExitCheckFailed;
  if (r.interrupted) {
    std::cerr << kProgram << ": interrupted after " << r.samples << " samples; the results printed "
              << (r.pilot_samples ? "are those of the samples drawn after the pilot"
                                  : "are those of samples 0.." + std::to_string(r.samples - 1) +
                                        " of seed " + std::to_string(options.seed) +
                                        " (what --samples " + std::to_string(r.samples) + " gives)")
              << "; an estimate is not resumable\n";
    return signals.ExitCode();
  }
  return kExitOk;
}

}  // namespace eulerdeck::tools
