// cardlab mc: Monte Carlo estimates with Wilson 95% intervals, for one size
// or a range of sizes (--ranks A..B), as text, JSON lines
// (docs/schema/cardlab-mc.schema.json) or CSV.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "engine/base/stats.h"
#include "engine/montecarlo/montecarlo.h"
#include "tools/common/cli.h"
#include "tools/common/format.h"
#include "tools/common/interrupt.h"
#include "tools/common/plot.h"
#include "tools/common/progress.h"
#include "tools/common/results.h"

namespace eulerdeck::tools {

namespace {

constexpr const char* kProgram = "cardlab mc";

// --until-ci without --decks plays at most this many decks (about half an
// hour on 2 cores for mousetrap m = 13; enough for a half-width of 1e-5 at
// p = 1/2). Named in the help text.
constexpr uint64_t kUntilCiCap = 10'000'000'000ULL;

constexpr const char* kUsage =
    "usage: cardlab mc --game G --ranks M|A..B [--suits S] (--decks N | --until-ci W)\n"
    "                  [--threads T] [--seed X] [--best-only] [--json] [--csv FILE]\n"
    "                  [--plot FILE]\n"
    "Plays N uniformly random decks (counter-based Philox random numbers, from\n"
    "Random123: the same --seed gives the same output on any number of threads) and\n"
    "estimates the win probability and the distributions of cards removed and of\n"
    "scores, each with a Wilson 95% interval; reports the best score and the most\n"
    "cards removed with a deck reaching them. --until-ci W plays rounds of 2^20\n"
    "decks until the win interval's half-width is below W, at most --decks N decks\n"
    "(default 10^10, a safety cap). --ranks A..B runs every size from A to B. The\n"
    "stop reason is printed: complete, target_reached, decks_limit or interrupted.\n"
    "Ctrl-C stops after the chunks of 16384 decks under way and prints the estimate\n"
    "so far: exactly what --decks N gives for the N decks played.\n"
    "--csv columns: game,ranks,suits,distribution,value,decks,estimate,low95,high95\n"
    "(docs/schema/csv_columns.json).";

// Decks per round of --until-ci: the interval is checked between rounds, so
// the stopping point does not depend on the threads either.
constexpr uint64_t kRound = 1 << 20;

std::string Fmt(const char* f, double x) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), f, x);
  return buf;
}

double HalfWidth(const Interval& ci) { return (ci.high - ci.low) / 2; }

// One size's result.
struct SizeResult {
  GameSpec spec;
  McTally tally;
  uint64_t limit = 0;
  const char* stop_reason = "complete";
  double seconds = 0;
};

struct Settings {
  McOptions options;
  uint64_t limit = 0;  // decks at most
  double until_ci = 0;
};

nlohmann::ordered_json DeckJson(const Deck& deck) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (Card c : deck) a.push_back(static_cast<int>(c));
  return a;
}

nlohmann::ordered_json ToJson(const SizeResult& r, const Settings& set) {
  const McTally& t = r.tally;
  const uint64_t n = t.decks;
  nlohmann::ordered_json j = GameResultJson(kProgram, r.spec);
  j["seed"] = std::to_string(set.options.seed);
  j["best_only"] = set.options.best_only;
  j["decks_played"] = std::to_string(n);
  j["decks_limit"] = std::to_string(r.limit);
  if (set.until_ci > 0) j["target_half_width"] = set.until_ci;
  j["stop_reason"] = r.stop_reason;
  if (!set.options.best_only && n > 0) {
    const Interval win = Wilson95(t.wins, n);
    j["winning_decks"] = std::to_string(t.wins);
    j["win_probability"] = {{"estimate", static_cast<double>(t.wins) / n},
                            {"low95", win.low},
                            {"high95", win.high},
                            {"half_width", HalfWidth(win)},
                            {"interval", "Wilson"}};
    AddDistributionsJson(t.outcomes, t.removed, t.score, &j);
  }
  if (n > 0) {
    j["best_score"] = {{"score", t.best_score},
                       {"of", WinningScore(r.spec)},
                       {"deck_index", std::to_string(t.best_score_index)},
                       {"deck", DeckJson(t.best_score_deck)}};
    j["best_removed"] = {{"removed", t.best_removed},
                         {"of", r.spec.cards()},
                         {"deck_index", std::to_string(t.best_removed_index)},
                         {"deck", DeckJson(t.best_removed_deck)}};
  }
  j["seconds"] = r.seconds;
  j["decks_per_second"] = r.seconds > 0 ? n / r.seconds : 0.0;
  return j;
}

// "target reached (half-width 0.000987 < 0.001)" and the like.
std::string StopText(const SizeResult& r, const Settings& set) {
  const std::string reason = r.stop_reason;
  std::string hw;
  if (set.until_ci > 0 && r.tally.decks > 0 && !set.options.best_only) {
    hw = "half-width " + Fmt("%.3g", HalfWidth(Wilson95(r.tally.wins, r.tally.decks)));
  }
  if (reason == "target_reached") {
    return "target_reached (" + hw + " < " + Fmt("%g", set.until_ci) + ")";
  }
  if (reason == "decks_limit") {
    return "decks_limit (" + std::to_string(r.limit) + " decks played" +
           (hw.empty() ? "" : ", " + hw + " not below " + Fmt("%g", set.until_ci)) + ")";
  }
  return reason;
}

void PrintText(const SizeResult& r, const Settings& set) {
  const McTally& t = r.tally;
  const uint64_t n = t.decks;
  std::cout << "game          " << GameLine(r.spec) << "\n"
            << "decks played  " << Thousands(n) << " (seed " << set.options.seed << ")\n"
            << "stop          " << StopText(r, set) << "\n";
  if (n == 0) return;
  auto rows = [&](const std::vector<uint64_t>& v, const char* name) {
    for (size_t i = 0; i < v.size(); ++i) {
      if (v[i] == 0) continue;
      const Interval ci = Wilson95(v[i], n);
      std::printf("%-8s %5zu %15s  %-12s %-12s %s\n", name, i, Thousands(v[i]).c_str(),
                  Fmt("%.6g", static_cast<double>(v[i]) / n).c_str(), Fmt("%.6g", ci.low).c_str(),
                  Fmt("%.6g", ci.high).c_str());
    }
  };
  if (!set.options.best_only) {
    const Interval win = Wilson95(t.wins, n);
    std::cout << "win           " << PluralThousands(t.wins, "deck")
              << ", p = " << Fmt("%.6g", static_cast<double>(t.wins) / n) << ", 95% interval ["
              << Fmt("%.6g", win.low) << ", " << Fmt("%.6g", win.high) << "] (Wilson)\n";
    // Aligned columns; the interval as two, its ends (Wilson, 95%).
    std::printf("%-8s %5s %15s  %-12s %-12s %s\n", "quantity", "value", "decks", "estimate",
                "95% low", "95% high");
    rows(t.removed, "removed");
    if (r.spec.policy().score_studied) rows(t.score, "score");
    std::fflush(stdout);
  }
  // The deck's index in the seed's stream, as the interrupt message counts
  // decks ("decks 0..N-1 of seed X"), then the deck.
  std::cout << "best score    " << t.best_score << " of " << WinningScore(r.spec) << " by deck "
            << t.best_score_index << " of seed " << set.options.seed << ": "
            << DeckToString(t.best_score_deck) << "\n"
            << "most removed  " << t.best_removed << " of " << r.spec.cards() << " by deck "
            << t.best_removed_index << " of seed " << set.options.seed << ": "
            << DeckToString(t.best_removed_deck) << "\n";
}

void PrintRangeHeader(const GameSpec& first, const Settings& set) {
  std::cout << "game  " << GameName(first.game) << ", " << Plural(first.suits, "suit") << ", seed "
            << set.options.seed << "\n";
  if (set.options.best_only) {
    std::printf("%5s %5s %14s %10s  %s\n", "ranks", "cards", "decks", "best score", "stop");
  } else {
    std::printf("%5s %5s %14s %12s  %-12s %-12s %-12s %s\n", "ranks", "cards", "decks", "wins",
                "estimate", "95% low", "95% high", "stop");
  }
  std::fflush(stdout);
}

void PrintRangeRow(const SizeResult& r, const Settings& set) {
  const McTally& t = r.tally;
  if (set.options.best_only || t.decks == 0) {
    std::printf(
        "%5d %5d %14s %10s  %s\n", r.spec.ranks, r.spec.cards(), Thousands(t.decks).c_str(),
        t.decks
            ? (std::to_string(t.best_score) + "/" + std::to_string(WinningScore(r.spec))).c_str()
            : "-",
        r.stop_reason);
  } else {
    const Interval ci = Wilson95(t.wins, t.decks);
    std::printf("%5d %5d %14s %12s  %-12s %-12s %-12s %s\n", r.spec.ranks, r.spec.cards(),
                Thousands(t.decks).c_str(), Thousands(t.wins).c_str(),
                Fmt("%.6g", static_cast<double>(t.wins) / t.decks).c_str(),
                Fmt("%.6g", ci.low).c_str(), Fmt("%.6g", ci.high).c_str(), r.stop_reason);
  }
  std::fflush(stdout);
}

void WriteCsvRows(OutputFile& csv, const SizeResult& r) {
  const McTally& t = r.tally;
  const uint64_t n = t.decks;
  if (n == 0) return;
  const std::string key = CsvGamePrefix(r.spec);
  auto row = [&](const char* dist, size_t value, uint64_t c) {
    const Interval ci = Wilson95(c, n);
    csv << key << dist << "," << value << "," << c << "," << static_cast<double>(c) / n << ","
        << ci.low << "," << ci.high << "\n";
  };
  // The win indicator (1: the deck wins), then the distributions; rows with
  // no deck are left out.
  if (n - t.wins) row("win", 0, n - t.wins);
  if (t.wins) row("win", 1, t.wins);
  for (size_t i = 0; i < t.removed.size(); ++i) {
    if (t.removed[i]) row("removed", i, t.removed[i]);
  }
  for (size_t v = 0; v < t.score.size(); ++v) {
    if (t.score[v]) row("score", v, t.score[v]);
  }
}

// Plays one size: rounds of kRound decks with --until-ci (checked between
// rounds), one call otherwise. Cancelled when stopped by a signal; r holds
// the decks played (a prefix of the seed's stream) either way.
Status RunSize(const GameSpec& spec, const Settings& set, bool range, SizeResult* r) {
  r->spec = spec;
  r->limit = set.limit;
  McOptions options = set.options;
  std::atomic<uint64_t> done{0};
  options.decks_done = &done;
  McTally& tally = r->tally;
  // The estimate after each round, for the progress line (its own thread).
  std::atomic<uint64_t> shown_decks{0}, shown_wins{0};
  // With --until-ci the progress is towards the target: the fraction played
  // of the decks it needs (the half-width shrinks as 1/sqrt(n), so about
  // n (half-width / W)^2 in all, or the limit if fewer), in thousandths, so
  // the rate and ETA hold.
  std::atomic<uint64_t> permille{0};
  const std::atomic<uint64_t> thousand{1000}, limit{set.limit};
  const bool towards_ci = set.until_ci > 0;
  Status s;
  const auto start = std::chrono::steady_clock::now();
  {
    const std::string label = range ? "mc m=" + std::to_string(spec.ranks) : "mc";
    Progress progress(label, towards_ci ? "permille" : "decks", towards_ci ? &permille : &done,
                      towards_ci ? &thousand : &limit, 2.0, [&] {
                        const uint64_t n = shown_decks.load(), k = shown_wins.load();
                        if (n == 0 || options.best_only) return std::string();
                        const Interval ci = Wilson95(k, n);
                        std::string text = "p = " + Fmt("%.6g", static_cast<double>(k) / n) + " [" +
                                           Fmt("%.6g", ci.low) + ", " + Fmt("%.6g", ci.high) + "]";
                        if (towards_ci) {
                          text += " half-width " + Fmt("%.3g", HalfWidth(ci)) + " -> " +
                                  Fmt("%g", set.until_ci) + ", " + HumanCount(done.load()) +
                                  " decks";
                        }
                        return text;
                      });
    const uint64_t step = towards_ci ? kRound : set.limit;
    r->stop_reason = towards_ci ? "decks_limit" : "complete";
    for (uint64_t first = 0; first < set.limit; first += step) {
      McTally round;
      round.best_score = tally.best_score;  // lets best-only prune from the start
      round.best_removed = tally.best_removed;
      s = MonteCarlo(spec, first, std::min(step, set.limit - first), options, &round);
      if (!s.ok() && !s.IsCancelled()) break;
      round.best_score = round.best_score_deck.empty() ? -1 : round.best_score;
      round.best_removed = round.best_removed_deck.empty() ? -1 : round.best_removed;
      tally.Merge(round);
      if (tally.removed.empty()) tally.Reset(spec);
      shown_wins.store(tally.wins);
      shown_decks.store(tally.decks);
      if (s.IsCancelled()) {
        r->stop_reason = "interrupted";
        break;
      }
      if (towards_ci && tally.decks > 0) {
        // The decks the target needs, n (hw / W)^2, or the limit if fewer.
        const double hw = HalfWidth(Wilson95(tally.wins, tally.decks));
        const double needed =
            std::min(static_cast<double>(set.limit), tally.decks * std::pow(hw / set.until_ci, 2));
        const double f = needed > 0 ? std::min(1.0, tally.decks / needed) : 1.0;
        permille.store(static_cast<uint64_t>(1000 * f));
        if (hw < set.until_ci) {
          r->stop_reason = "target_reached";
          break;
        }
      }
    }
  }
  r->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return s;
}

// The curve of one size: the fraction of decks removing exactly i cards, for
// the i some deck reached (a log scale has no zero).
// The cards-removed distribution of one size: every value 0..cards with its
// Wilson 95% interval as an error bar; a value no deck reached is a gap in
// the line (it has no place on the log scale), never joined across.
PlotSeries RemovedSeries(const SizeResult& r) {
  PlotSeries series;
  series.title = "m = " + std::to_string(r.spec.ranks);
  const auto& t = r.tally;
  const double n = static_cast<double>(t.decks);
  for (size_t i = 0; i < t.removed.size() && t.decks > 0; ++i) {
    const double x = static_cast<double>(i);
    if (t.removed[i] == 0) {
      series.points.emplace_back(x, std::nan(""));
      series.y_errors.emplace_back(std::nan(""), std::nan(""));
      continue;
    }
    const Interval ci = Wilson95(t.removed[i], t.decks);
    series.points.emplace_back(x, static_cast<double>(t.removed[i]) / n);
    series.y_errors.emplace_back(ci.low, ci.high);
  }
  return series;
}

}  // namespace

int RunMc(const std::vector<std::string>& args) {
  SpecOptions spec_options;
  Settings set;
  McOptions& options = set.options;
  uint64_t decks = 0;
  bool json = false;
  std::string csv_path, plot_path;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help");
  spec_options.Add(desc, /*allow_range=*/true);
  desc.add_options()("decks", po::value(&decks),
                     "decks to play (with --until-ci the most to play; default 10^10)")(
      "threads", po::value(&options.threads)->default_value(0), "worker threads (0: all cores)")(
      "seed", po::value(&options.seed)->default_value(1), "random seed")(
      "until-ci", po::value(&set.until_ci)->default_value(0),
      "play until the win interval's half-width < W (checked every 2^20 decks; 0: "
      "off)")("best-only", po::bool_switch(&options.best_only),
              "only hunt for the best score (abandon hopeless decks)")(
      "json", po::bool_switch(&json),
      "print one JSON object per size, one per line (docs/schema/cardlab-mc.schema.json)")(
      "csv", po::value(&csv_path),
      "write the distributions to FILE as CSV (- for standard output, instead of the "
      "report)")("plot", po::value(&plot_path),
                 "plot the distribution of cards removed (fraction of decks, log scale) with "
                 "gnuplot, one curve per size, to FILE (.svg or .png; - for an SVG on standard "
                 "output, instead of the report)");
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kUsage, vm)) return kExitOk;
  std::vector<GameSpec> specs;
  Status s = spec_options.ToSpecs(&specs);
  const bool decks_given = vm.count("decks") > 0;
  if (s.ok() && decks_given && decks == 0) s = Status::InvalidArgument("--decks must be positive");
  if (s.ok()) s = CheckThreads(options.threads);
  if (s.ok() && !(set.until_ci >= 0 && set.until_ci < 1))
    s = Status::InvalidArgument("--until-ci must be in [0, 1)");
  if (s.ok() && !decks_given && set.until_ci == 0)
    s = Status::InvalidArgument("give --decks N, or --until-ci W (with at most --decks N)");
  if (s.ok() && set.until_ci > 0 && options.best_only)
    s = Status::InvalidArgument("--until-ci needs the win counts, which --best-only does not keep");
  if (s.ok() && !plot_path.empty() && options.best_only)
    s = Status::InvalidArgument("--plot needs the distributions, which --best-only does not keep");
  if (s.ok()) s = CheckResultStreams(json, {{"csv", csv_path}, {"plot", plot_path}});
  if (!s.ok()) return BadInput(kProgram, s.ToString());
  set.limit = decks_given ? decks : kUntilCiCap;
  OutputFile csv;
  s = OpenCsv(csv_path, &csv);
  PlotOutput plot_out;
  if (s.ok()) s = plot_out.Open(plot_path);
  if (!s.ok()) return BadInput(kProgram, s.ToString());
  const bool range = spec_options.is_range();
  const bool text = !json && !csv.is_stdout() && plot_path != "-";
  PlotSpec plot;
  plot.title = std::string("Cards removed (Monte Carlo): ") + specs[0].policy().title + ", " +
               Plural(specs[0].suits, "suit");
  plot.xlabel = "cards removed";
  plot.ylabel = "fraction of decks (95% Wilson intervals)";
  plot.log_y = plot.points = true;
  // Every value a deck can take, 0 to the largest deck's cards, in every game.
  plot.x_from = 0;
  plot.x_to = specs.back().cards();

  if (csv.is_open()) csv << "game,ranks,suits,distribution,value,decks,estimate,low95,high95\n";
  if (text && range) PrintRangeHeader(specs[0], set);
  StopOnSignals signals;
  options.stop = signals.flag();
  for (size_t i = 0; i < specs.size(); ++i) {
    const GameSpec& spec = specs[i];
    SizeResult r;
    s = RunSize(spec, set, range, &r);
    if (!s.ok() && !s.IsCancelled()) return BadInput(kProgram, s.ToString());
    // An interrupted size is reported like the others: its decks are a
    // prefix of the stream, as if --decks had said so.
    if (csv.is_open()) WriteCsvRows(csv, r);
    if (!plot_path.empty()) plot.series.push_back(RemovedSeries(r));
    if (json) {
      std::cout << ToJson(r, set).dump() << "\n" << std::flush;
    } else if (text && range) {
      PrintRangeRow(r, set);
    } else if (text) {
      PrintText(r, set);
      std::cout.flush();
    }
    const uint64_t n = r.tally.decks;
    if (!range && !Quiet()) {
      std::cerr << "time          " << Fmt("%.3f", r.seconds) << " s, "
                << HumanCount(r.seconds > 0 ? n / r.seconds : 0) << " decks/s\n";
    }
    if (s.IsCancelled()) {
      if (!CommitOutput(kProgram, &csv)) return kExitCheckFailed;
      if (!WritePlotOrReport(kProgram, &plot_out, plot)) return kExitCheckFailed;
      std::cerr << kProgram << ": "
                << (range ? "--ranks " + std::to_string(spec.ranks) + ": " : std::string());
      if (n == 0) {
        std::cerr << "interrupted before a deck was played";
      } else {
        std::cerr << "interrupted after " << n
                  << " decks; the results printed are those of decks 0.." << n - 1 << " of seed "
                  << options.seed << " (what --decks " << n << " gives)";
      }
      if (i + 1 < specs.size()) {
        const std::string rest =
            std::to_string(specs[i + 1].ranks) + ".." + std::to_string(specs.back().ranks);
        std::cerr << "; sizes " << rest << " were not started: `"
                  << CommandLine("cardlab mc", args, rest) << "`";
      }
      std::cerr << "\n";
      return signals.ExitCode();
    }
  }
  if (!CommitOutput(kProgram, &csv)) return kExitCheckFailed;
  if (!WritePlotOrReport(kProgram, &plot_out, plot)) return kExitCheckFailed;
  return kExitOk;
}

}  // namespace eulerdeck::tools
