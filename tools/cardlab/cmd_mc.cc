// cardlab mc: Monte Carlo estimates with Wilson 95% intervals.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "engine/base/stats.h"
#include "engine/montecarlo/montecarlo.h"
#include "tools/common/cli.h"
#include "tools/common/format.h"
#include "tools/common/progress.h"

namespace eulerdeck::tools {

namespace {

constexpr const char* kUsage =
    "usage: cardlab mc --game G --ranks M [--suits S] --decks N [--threads T]\n"
    "                  [--seed X] [--until-ci W] [--best-only] [--json] [--csv FILE]\n"
    "Plays N uniformly random decks (Random123 Philox streams: the same --seed\n"
    "gives the same output on any number of threads) and estimates the win\n"
    "probability and the distributions of cards removed and of scores, each\n"
    "with a Wilson 95% interval; reports the best score and the most cards\n"
    "removed with a deck reaching them. --until-ci W stops once the win\n"
    "interval's half-width is below W (N is then the maximum).";

// Decks per round of --until-ci: the interval is checked between rounds, so
// the stopping point does not depend on the threads either.
constexpr uint64_t kRound = 1 << 20;

std::string Fmt(const char* f, double x) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), f, x);
  return buf;
}

}  // namespace

int RunMc(const std::vector<std::string>& args) {
  SpecOptions spec_options;
  McOptions options;
  uint64_t decks = 0;
  double until_ci = 0;
  std::string csv_path;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help");
  spec_options.Add(desc);
  desc.add_options()("decks", po::value(&decks)->required(),
                     "decks to play (the maximum with --until-ci)")(
      "threads", po::value(&options.threads)->default_value(0), "worker threads (0: all cores)")(
      "seed", po::value(&options.seed)->default_value(1), "random seed")(
      "until-ci", po::value(&until_ci)->default_value(0),
      "stop when the win interval's half-width < W")(
      "best-only", po::bool_switch(&options.best_only),
      "only hunt for the best score (abandon hopeless decks)")(
      "json", po::bool_switch(), "print one JSON object")("csv", po::value(&csv_path),
                                                          "also write the distributions to FILE");
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kUsage, vm)) return kExitOk;
  GameSpec spec;
  Status s = spec_options.ToSpec(&spec);
  if (s.ok() && decks == 0) s = Status::InvalidArgument("--decks must be positive");
  if (s.ok() && options.threads < 0) s = Status::InvalidArgument("--threads must be >= 0");
  if (s.ok() && !(until_ci >= 0 && until_ci < 1))
    s = Status::InvalidArgument("--until-ci must be in [0, 1)");
  if (!s.ok()) return BadInput("cardlab mc", s.ToString());
  OutputFile csv;
  s = OpenCsv(csv_path, &csv);
  if (!s.ok()) return BadInput("cardlab mc", s.ToString());

  std::atomic<uint64_t> done{0}, total{decks};
  options.decks_done = &done;
  McTally tally;
  const auto start = std::chrono::steady_clock::now();
  {
    // The estimate so far, published after each round for the progress line
    // (which runs on its own thread).
    std::atomic<uint64_t> shown_decks{0}, shown_wins{0};
    Progress progress("mc", "decks", &done, &total, 2.0, [&] {
      const uint64_t n = shown_decks.load(), k = shown_wins.load();
      if (n == 0 || options.best_only) return std::string();
      const Interval ci = Wilson95(k, n);
      return "p = " + Fmt("%.6g", static_cast<double>(k) / n) + " [" + Fmt("%.6g", ci.low) + ", " +
             Fmt("%.6g", ci.high) + "]";
    });
    const uint64_t step = until_ci > 0 ? kRound : decks;
    for (uint64_t first = 0; first < decks && s.ok(); first += step) {
      McTally round;
      round.best_score = tally.best_score;  // lets best-only prune from the start
      round.best_removed = tally.best_removed;
      s = MonteCarlo(spec, first, std::min(step, decks - first), options, &round);
      round.best_score = round.best_score_deck.empty() ? -1 : round.best_score;
      round.best_removed = round.best_removed_deck.empty() ? -1 : round.best_removed;
      tally.Merge(round);
      shown_wins.store(tally.wins);
      shown_decks.store(tally.decks);
      if (until_ci > 0 && !options.best_only) {
        const Interval ci = Wilson95(tally.wins, tally.decks);
        if ((ci.high - ci.low) / 2 < until_ci) break;
      }
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!s.ok()) return BadInput("cardlab mc", s.ToString());

  const uint64_t n = tally.decks;
  const Interval win = Wilson95(tally.wins, n);
  auto rows = [&](const std::vector<uint64_t>& v, const char* name, auto&& emit) {
    for (size_t i = 0; i < v.size(); ++i) {
      if (v[i] == 0) continue;
      const Interval ci = Wilson95(v[i], n);
      emit(name, i, v[i], static_cast<double>(v[i]) / n, ci);
    }
  };
  if (csv.is_open()) {
    csv << "quantity,value,decks,estimate,low95,high95\n";
    csv << "win,," << tally.wins << "," << static_cast<double>(tally.wins) / n << "," << win.low
        << "," << win.high << "\n";
    auto emit = [&](const char* q, size_t v, uint64_t c, double p, Interval ci) {
      csv << q << "," << v << "," << c << "," << p << "," << ci.low << "," << ci.high << "\n";
    };
    if (!options.best_only) {
      rows(tally.removed, "removed", emit);
      rows(tally.score, "score", emit);
    }
  }
  if (!CommitOutput("cardlab mc", &csv)) return kExitCheckFailed;
  if (vm["json"].as<bool>()) {
    nlohmann::json j;
    j["game"] = GameName(spec.game);
    j["ranks"] = spec.ranks;
    j["suits"] = spec.suits;
    j["seed"] = options.seed;
    j["decks"] = n;
    j["best_only"] = options.best_only;
    if (!options.best_only) {
      j["wins"] = tally.wins;
      j["win_probability"] = {{"estimate", static_cast<double>(tally.wins) / n},
                              {"low95", win.low},
                              {"high95", win.high},
                              {"interval", "Wilson"}};
      j["removed"] = tally.removed;
      nlohmann::json score = nlohmann::json::object();
      for (size_t v = 0; v < tally.score.size(); ++v) {
        if (tally.score[v]) score[std::to_string(v)] = tally.score[v];
      }
      j["score"] = score;
    }
    j["best_score"] = {{"score", tally.best_score},
                       {"of", WinningScore(spec)},
                       {"deck_index", tally.best_score_index}};
    j["best_score"]["deck"] = nlohmann::json::array();
    for (Card c : tally.best_score_deck) j["best_score"]["deck"].push_back(static_cast<int>(c));
    j["best_removed"] = {{"removed", tally.best_removed}, {"deck_index", tally.best_removed_index}};
    j["best_removed"]["deck"] = nlohmann::json::array();
    for (Card c : tally.best_removed_deck) j["best_removed"]["deck"].push_back(static_cast<int>(c));
    j["seconds"] = seconds;
    j["decks_per_second"] = seconds > 0 ? n / seconds : 0.0;
    std::cout << j.dump() << "\n";
    return kExitOk;
  }
  std::cout << "game          " << GameLine(spec) << "\n"
            << "decks         " << n << " (seed " << options.seed << ")\n";
  if (!options.best_only) {
    std::cout << "win           " << tally.wins
              << " decks, p = " << Fmt("%.6g", static_cast<double>(tally.wins) / n)
              << ", 95% interval [" << Fmt("%.6g", win.low) << ", " << Fmt("%.6g", win.high)
              << "] (Wilson)\n";
    auto emit = [&](const char* q, size_t v, uint64_t c, double p, Interval ci) {
      std::printf("%-8s %5zu  %12llu  %.6g  [%.6g, %.6g]\n", q, v,
                  static_cast<unsigned long long>(c), p, ci.low, ci.high);
    };
    std::printf("quantity value         decks  estimate  95%% interval\n");
    rows(tally.removed, "removed", emit);
    if (spec.policy().score_studied) rows(tally.score, "score", emit);
    std::fflush(stdout);
  }
  std::cout << "best score    " << tally.best_score << " of " << WinningScore(spec) << ", deck "
            << DeckToString(tally.best_score_deck) << " (#" << tally.best_score_index << ")\n"
            << "most removed  " << tally.best_removed << " of " << spec.cards() << ", deck "
            << DeckToString(tally.best_removed_deck) << " (#" << tally.best_removed_index << ")\n";
  std::cerr << "time          " << Fmt("%.3f", seconds) << " s, "
            << HumanCount(seconds > 0 ? n / seconds : 0) << " decks/s\n";
  return kExitOk;
}

}  // namespace eulerdeck::tools
