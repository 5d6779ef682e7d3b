// eulerdeck best: the best reachable hlm score (engine/removal/best.h), for
// one size or a range, as text, JSON lines
// (docs/schema/eulerdeck-best.schema.json) or CSV.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "engine/cards/combinatorics.h"
#include "engine/cards/deck.h"
#include "engine/removal/best.h"
#include "tools/common/cli.h"
#include "tools/common/format.h"
#include "tools/common/interrupt.h"
#include "tools/common/results.h"
#include "tools/common/size_loop.h"
#include "tools/eulerdeck/commands.h"

namespace eulerdeck::tools {

namespace {

constexpr const char* kProgram = "eulerdeck best";

constexpr const char* kUsage =
    "usage: eulerdeck best --game hlm --ranks M|A..B [--suits S] [--show K]\n"
    "                      [--threads T] [--json] [--csv FILE]\n"
    "The best score He Loves Me, He Loves Me Not can reach (the sum of the\n"
    "values stored), against C_max, the score of a win; how many decks reach\n"
    "it, how many cards those decks store, and the first K of them in\n"
    "lexicographic order (--show K). Where some deck wins, the best score is\n"
    "C_max and the winning decks are counted by the backward enumeration;\n"
    "elsewhere a branch-and-bound search over lazily dealt decks finds it\n"
    "(docs/best.md; Bersani 2010, Table 3). Ctrl-C stops at once.\n"
    "--csv columns: game,ranks,suits,best_score,winning_score,stored,decks\n"
    "(docs/schema/csv_columns.json).";

struct SizeResult {
  GameSpec spec;
  BestResult best;
  double seconds = 0;
};

std::string DeckText(const Deck& deck) {
  std::string s;
  for (Card c : deck) {
    if (!s.empty()) s += ' ';
    s += std::to_string(c);
  }
  return s;
}

nlohmann::ordered_json ToJson(const SizeResult& r) {
  const BestResult& b = r.best;
  nlohmann::ordered_json j = GameResultJson(kProgram, r.spec);
  j["best_score"] = b.best_score;
  j["winning_score"] = b.winning_score;
  j["decks"] = std::to_string(b.decks);
  nlohmann::ordered_json stored = nlohmann::ordered_json::object();
  for (size_t i = 0; i < b.stored.size(); ++i) {
    if (b.stored[i]) stored[std::to_string(i)] = std::to_string(b.stored[i]);
  }
  j["stored"] = stored;
  nlohmann::ordered_json examples = nlohmann::ordered_json::array();
  for (const Deck& d : b.examples) {
    nlohmann::ordered_json deck = nlohmann::ordered_json::array();
    for (Card c : d) deck.push_back(c);
    examples.push_back(deck);
  }
  j["examples"] = examples;
  j["method"] = b.method;
  j["seconds"] = r.seconds;
  return j;
}

std::string StoredText(const BestResult& b) {
  std::string s;
  for (size_t i = 0; i < b.stored.size(); ++i) {
    if (!b.stored[i]) continue;
    if (!s.empty()) s += ", ";
    s += std::to_string(b.stored[i]);
    s += " storing ";
    s += std::to_string(i);
  }
  return s;
}

void PrintText(const SizeResult& r) {
  const BestResult& b = r.best;
  std::cout << "game           " << GameLine(r.spec) << "\n"
            << "best score     " << b.best_score << " of C_max " << b.winning_score
            << (b.best_score == b.winning_score ? " (reached: these decks win)" : "") << "\n"
            << "decks          " << b.decks << "\n"
            << "stored cards   " << StoredText(b) << "\n";
  for (const Deck& d : b.examples) std::cout << "deck           " << DeckText(d) << "\n";
  std::cout << "method         " << b.method << "\n" << std::flush;
}

void PrintRangeRow(const SizeResult& r) {
  const BestResult& b = r.best;
  std::printf("%5d %5d %6d %6d %12llu  %s\n", r.spec.ranks, r.spec.cards(), b.best_score,
              b.winning_score, static_cast<unsigned long long>(b.decks), StoredText(b).c_str());
  for (const Deck& d : b.examples) std::printf("%33s%s\n", "", DeckText(d).c_str());
  std::fflush(stdout);
}

Status CheckHlm(const GameSpec& spec) {
  if (spec.game != Game::kHlm) {
    return Status::InvalidArgument(std::string("the score is studied for hlm only, not ") +
                                   GameName(spec.game));
  }
  // With one suit no deck wins past m = 2 (Bersani 2010, Remark 2.3), so the
  // search must run, and it counts in 64 bits: refuse before any size runs.
  // (With several suits, whether a deck wins is known only after counting.)
  if (spec.suits == 1 && spec.ranks > 2 && !TotalDecks64(spec)) {
    return Status::InvalidArgument("--ranks " + std::to_string(spec.ranks) +
                                   ": more than 2^64 decks and none wins; the search counts "
                                   "in 64 bits (m <= 20)");
  }
  return Status::OK();
}

}  // namespace

int RunBest(const std::vector<std::string>& args) {
  JobOptions job;
  BestOptions options;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help");
  job.spec.takes = SpecOptions::Hlm;
  job.Add(desc,
          "print one JSON object per size, one per line "
          "(docs/schema/eulerdeck-best.schema.json)",
          "write the best decks by stored cards to FILE as CSV (- for standard output, "
          "instead of the report)");
  desc.add_options()("show", po::value<int>(&options.show)->default_value(0),
                     "list the first K best decks (lexicographic order)");
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kUsage, vm)) return kExitOk;
  if (options.show < 0 || options.show > 1000000) {
    return BadInput(kProgram, "--show must be 0..1000000");
  }
  std::vector<GameSpec> specs;
  OutputFile csv, bfile;
  Status s = job.Prepare(&specs, &csv, &bfile, CheckHlm);
  if (!s.ok()) return BadInput(kProgram, s.ToString());
  const bool range = job.spec.is_range();
  const bool text = !job.json && !job.results_to_stdout();
  if (csv.is_open()) csv << "game,ranks,suits,best_score,winning_score,stored,decks\n";
  if (text && range) {
    PrintRangeTitle(specs[0]);
    std::printf("%5s %5s %6s %6s %12s  %s\n", "ranks", "cards", "best", "C_max", "decks",
                "stored cards");
    std::fflush(stdout);
  }

  StopOnSignals signals;
  options.threads = job.threads;
  options.stop = signals.flag();
  SizeResult r;
  const int status = RunSizes(
      SizeLoop{kProgram, args, specs, range, "best", "tasks", "the search is not resumable"},
      signals,
      [&](const GameSpec& spec, std::atomic<uint64_t>* done, std::atomic<uint64_t>* total) {
        options.tasks_done = done;
        options.tasks_total = total;
        r = SizeResult{};
        r.spec = spec;
        return BestScore(spec, options, &r.best);
      },
      [&](const GameSpec& spec, double seconds) {
        r.seconds = seconds;
        if (csv.is_open()) {
          const std::string key = CsvGamePrefix(spec);
          for (size_t i = 0; i < r.best.stored.size(); ++i) {
            if (!r.best.stored[i]) continue;
            csv << key << r.best.best_score << "," << r.best.winning_score << "," << i << ","
                << r.best.stored[i] << "\n";
          }
        }
        PrintSizeResult(
            job.json, text, range, [&] { return ToJson(r); }, [&] { PrintRangeRow(r); },
            [&] { PrintText(r); }, seconds);
      });
  if (status != kExitOk) return status;
  if (!CommitOutput(kProgram, &csv)) return kExitCheckFailed;
  return kExitOk;
}

}  // namespace eulerdeck::tools
