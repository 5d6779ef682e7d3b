// eulerdeck brute: play every distinct deck, for one size or a range of sizes
// (--ranks A..B), as text, JSON lines (docs/schema/eulerdeck-brute.schema.json),
// CSV or an OEIS b-file.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "engine/cards/brute.h"
#include "engine/cards/combinatorics.h"
#include "engine/cards/rules.h"
#include "engine/montecarlo/montecarlo.h"
#include "tools/common/cli.h"
#include "tools/common/format.h"
#include "tools/common/interrupt.h"
#include "tools/common/results.h"
#include "tools/common/size_loop.h"
#include "tools/eulerdeck/commands.h"

namespace eulerdeck::tools {

namespace {

constexpr const char* kProgram = "eulerdeck brute";

constexpr const char* kUsage =
    "usage: eulerdeck brute --game G --ranks M|A..B [--suits S] [--threads T]\n"
    "                       [--max-decks N] [--json] [--csv FILE] [--bfile FILE]\n"
    "Plays every distinct deck (each multiset permutation once) and reports the\n"
    "winning decks, the total (ms)!/(s!)^m, and the distributions of cards\n"
    "removed and of scores. The reference for every faster method. --ranks A..B\n"
    "plays every size from A to B in turn: one row of text, one JSON line, the\n"
    "CSV rows and a b-file line per size. Ctrl-C stops at once with how far it\n"
    "got (brute force is not resumable).\n"
    "--csv columns: game,ranks,suits,distribution,value,decks\n"
    "(docs/schema/csv_columns.json).";

// The default limit: about 10 minutes on 2 cores (mousetrap m = 14, 8.7e10
// decks, took about 90 minutes there: ~16M decks/s). A longer job must be
// asked for by raising the limit.
constexpr uint64_t kDefaultMaxDecks = 10'000'000'000ULL;

struct SizeResult {
  GameSpec spec;
  BruteResult brute;
  Probability p;
  double seconds = 0;
};

nlohmann::ordered_json ToJson(const SizeResult& r) {
  const BruteResult& b = r.brute;
  nlohmann::ordered_json j = GameResultJson(kProgram, r.spec);
  j["winning_decks"] = std::to_string(b.winning_decks);
  j["total_decks"] = std::to_string(b.total_decks);
  j["probability"] = r.p.exact;
  j["probability_decimal"] = std::stod(r.p.decimal);
  AddDistributionsJson(b.outcomes, b.removed, b.score, &j);
  j["seconds"] = r.seconds;
  j["decks_per_second"] = r.seconds > 0 ? b.total_decks / r.seconds : 0.0;
  return j;
}

void PrintText(const SizeResult& r) {
  const BruteResult& b = r.brute;
  std::cout << "game           " << GameLine(r.spec) << "\n"
            << "winning decks  " << Thousands(b.winning_decks) << "\n"
            << "total decks    " << Thousands(b.total_decks) << "\n"
            << "probability    " << r.p.text << " = " << r.p.decimal << "\n"
            << "outcomes       win " << Thousands(b.outcomes[0]) << ", loss "
            << Thousands(b.outcomes[1]) << ", dead-end " << Thousands(b.outcomes[2]) << "\n";
  if (r.spec.policy().on_match == OnMatch::kRemove) {
    std::printf("%-13s%13s\n", "cards removed", "decks");
    for (size_t i = 0; i < b.removed.size(); ++i) {
      std::printf("  %4zu  %18s\n", i, Thousands(b.removed[i]).c_str());
    }
  } else {
    // Treize: a match loses at once, so every deck removes 0 cards; a table
    // of that would say nothing.
    std::cout << "cards removed  none in any deck (" << r.spec.policy().name
              << ": a match loses, no card is removed)\n";
  }
  std::fflush(stdout);
  if (r.spec.policy().score_studied) {
    std::printf("%-13s%13s\n", "score", "decks");
    for (size_t v = 0; v < b.score.size(); ++v) {
      if (b.score[v]) {
        std::printf("  %4zu  %18s\n", v, Thousands(b.score[v]).c_str());
      }
    }
    std::fflush(stdout);
  }
}

void PrintRangeHeader(const GameSpec& first) {
  PrintRangeTitle(first);
  std::printf("%5s %5s %20s %20s  %-17s %10s\n", "ranks", "cards", "winning decks", "total decks",
              "probability", "seconds");
  std::fflush(stdout);
}

void PrintRangeRow(const SizeResult& r) {
  std::printf("%5d %5d %20s %20s  %-17s %10.3f\n", r.spec.ranks, r.spec.cards(),
              Thousands(r.brute.winning_decks).c_str(), Thousands(r.brute.total_decks).c_str(),
              r.p.decimal.c_str(), r.seconds);
  std::fflush(stdout);
}

// How fast this machine would play the decks of `spec` by brute force: brute
// force itself is timed on the largest smaller size of the same game and
// suits with at most 2e6 decks, and its rate scaled by the cards per deck
// (the work per deck grows with them); random decks (Monte Carlo) stand in
// when there is no such size. The time a refused job would have taken is
// told from it.
double MeasuredDecksPerSecond(const GameSpec& spec, int threads) {
  GameSpec small = spec;
  while (small.ranks > 1 && TotalDecks64(small).value_or(UINT64_MAX) > 2'000'000) --small.ranks;
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  if (ValidateSpec(small).ok() && TotalDecks64(small).value_or(0) >= 100'000) {
    BruteOptions options;
    options.threads = threads;
    BruteResult r;
    if (Brute(small, options, &r).ok()) {
      return r.total_decks / std::max(elapsed(), 1e-9) * small.cards() / spec.cards();
    }
  }
  McOptions options;
  options.threads = threads;
  McTally tally;
  const uint64_t sample = uint64_t{1} << 18;
  if (!MonteCarlo(spec, 0, sample, options, &tally).ok()) return 1e7;
  return sample / std::max(elapsed(), 1e-9);
}

// "3h13m", or in years past a year ("2.4e+35 years").
std::string LongDuration(double seconds) {
  constexpr double kYear = 365.25 * 86400;
  if (seconds < kYear) return HumanDuration(seconds);
  char buf[32];
  std::snprintf(buf, sizeof(buf), seconds < 1e4 * kYear ? "%.0f years" : "%.1e years",
                seconds / kYear);
  return buf;
}

}  // namespace

int RunBrute(const std::vector<std::string>& args) {
  JobOptions job;
  BruteOptions options;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help");
  job.Add(desc,
          "print one JSON object per size, one per line "
          "(docs/schema/eulerdeck-brute.schema.json)",
          "write the distributions to FILE as CSV (- for standard output, instead of the "
          "report)",
          "write the winning decks per number of ranks to FILE as an OEIS b-file (- for "
          "standard output, instead of the report)");
  options.max_decks = kDefaultMaxDecks;
  desc.add_options()("max-decks", po::value(&options.max_decks)->default_value(options.max_decks),
                     "refuse to start when a size has more decks than this (the default "
                     "stops jobs of more than about 10 minutes on 2 cores)");
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kUsage, vm)) return kExitOk;
  std::vector<GameSpec> specs;
  OutputFile csv, bfile;
  auto check = [&](const GameSpec& spec) {
    const auto total = TotalDecks64(spec);
    if (!total || *total > options.max_decks) {
      const double rate = MeasuredDecksPerSecond(spec, job.threads);
      const double seconds = TotalDecks(spec).get_d() / rate;
      return Status::OutOfRange(
          "brute force would play " + Thousands(TotalDecks(spec)) + " decks" +
          (job.spec.is_range() ? " at --ranks " + std::to_string(spec.ranks) : std::string()) +
          ", about " + LongDuration(seconds) + " here (" + HumanCount(rate) +
          " decks/s measured), more than the limit of " + Thousands(options.max_decks) +
          " decks (use `eulerdeck count`, or raise --max-decks)");
    }
    return Status::OK();
  };
  Status s = job.Prepare(&specs, &csv, &bfile, check);
  if (!s.ok()) return BadInput(kProgram, s.ToString());
  options.threads = job.threads;
  const bool range = job.spec.is_range();
  const bool text = !job.json && !job.results_to_stdout();

  if (csv.is_open()) csv << "game,ranks,suits,distribution,value,decks\n";
  if (bfile.is_open()) {
    bfile << "# a(n) = the number of winning decks of " << specs[0].policy().title
          << " with n ranks"
          << " and " << Plural(specs[0].suits, "suit") << " (n*" << specs[0].suits
          << " cards), n = " << specs.front().ranks << ".." << specs.back().ranks
          << ", by brute force.\n";
    if (specs[0].game == Game::kMousetrap && specs[0].suits == 1) {
      bfile << "# For mousetrap with one suit this is OEIS A007709.\n";
    }
    bfile << "# Made by: " << CommandLine("eulerdeck brute", args) << "\n";
  }
  if (text && range) PrintRangeHeader(specs[0]);

  StopOnSignals signals;
  options.stop = signals.flag();
  SizeResult r;
  const int status = RunSizes(
      SizeLoop{kProgram, args, specs, range, "brute", "decks", "brute force is not resumable"},
      signals,
      [&](const GameSpec& spec, std::atomic<uint64_t>* done, std::atomic<uint64_t>* total) {
        options.decks_done = done;
        total->store(TotalDecks64(spec).value_or(0));
        r = SizeResult{};
        r.spec = spec;
        return Brute(spec, options, &r.brute);
      },
      [&](const GameSpec& spec, double seconds) {
        r.seconds = seconds;
        const BruteResult& b = r.brute;
        r.p = MakeProbability(Mpz(b.winning_decks), Mpz(b.total_decks));
        if (csv.is_open()) {
          const std::string key = CsvGamePrefix(spec);
          // The win indicator (1: the deck wins), then the removed and score
          // distributions; every row is data (docs/output.md).
          csv << key << "win,0," << b.total_decks - b.winning_decks << "\n"
              << key << "win,1," << b.winning_decks << "\n";
          for (size_t i = 0; i < b.removed.size(); ++i) {
            csv << key << "removed," << i << "," << b.removed[i] << "\n";
          }
          for (size_t v = 0; v < b.score.size(); ++v) {
            if (b.score[v]) csv << key << "score," << v << "," << b.score[v] << "\n";
          }
        }
        if (bfile.is_open()) bfile << spec.ranks << " " << b.winning_decks << "\n";
        PrintSizeResult(
            job.json, text, range, [&] { return ToJson(r); }, [&] { PrintRangeRow(r); },
            [&] { PrintText(r); }, seconds,
            HumanCount(seconds > 0 ? b.total_decks / seconds : 0) + " decks/s");
      });
  if (status != kExitOk) return status;
  if (!CommitOutput(kProgram, &csv) || !CommitOutput(kProgram, &bfile)) return kExitCheckFailed;
  return kExitOk;
}

}  // namespace eulerdeck::tools
