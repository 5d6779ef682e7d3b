// eulerdeck count --removed: the decks by number of cards removed, i = 0..n
// (engine/removal/removed.h), for one size or a range, as text, JSON lines
// (docs/schema/eulerdeck-count-removed.schema.json) or CSV.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "engine/cards/combinatorics.h"
#include "engine/removal/removed.h"
#include "tools/common/cli.h"
#include "tools/common/format.h"
#include "tools/common/interrupt.h"
#include "tools/common/results.h"
#include "tools/common/size_loop.h"
#include "tools/eulerdeck/commands.h"

namespace eulerdeck::tools {

namespace {

constexpr const char* kProgram = "eulerdeck count";

constexpr const char* kUsage =
    "usage: eulerdeck count --removed --game G --ranks M|A..B [--suits S]\n"
    "                       [--threads T] [--split D] [--json] [--csv FILE]\n"
    "Counts the decks that remove (hlm: store) exactly i cards, for every\n"
    "i = 0..n: Cayley's question in full (mousetrap with one suit: OEIS A028305;\n"
    "column 0 A000166, column 1 A007710, column n A007709). Plays every history\n"
    "of removals on a lazily dealt deck and counts each history's decks at once\n"
    "(docs/removed.md). The rows sum to the number of distinct decks. --ranks\n"
    "A..B does every size in turn. Ctrl-C stops at once (not resumable).\n"
    "--csv columns: game,ranks,suits,distribution,value,decks\n"
    "(docs/schema/csv_columns.json).";

struct SizeResult {
  GameSpec spec;
  RemovedResult removed;
  double seconds = 0;
};

nlohmann::ordered_json ToJson(const SizeResult& r) {
  nlohmann::ordered_json j = GameResultJson("eulerdeck count --removed", r.spec);
  j["total_decks"] = std::to_string(r.removed.total_decks);
  nlohmann::ordered_json removed = nlohmann::ordered_json::array();
  for (uint64_t x : r.removed.removed) removed.push_back(std::to_string(x));
  j["removed"] = removed;
  j["method"] = r.removed.method;
  j["tasks"] = r.removed.tasks;
  j["seconds"] = r.seconds;
  return j;
}

void PrintText(const SizeResult& r) {
  std::cout << "game           " << GameLine(r.spec) << "\n"
            << "total decks    " << r.removed.total_decks << "\n"
            << "cards removed  decks\n";
  for (size_t i = 0; i < r.removed.removed.size(); ++i) {
    std::printf("  %4zu         %llu\n", i, static_cast<unsigned long long>(r.removed.removed[i]));
  }
  std::fflush(stdout);
  std::cout << "method         " << r.removed.method << ", " << r.removed.tasks << " tasks\n";
}

// Range mode: one row per size, the distribution on one line.
void PrintRangeRow(const SizeResult& r) {
  std::printf("%5d %5d ", r.spec.ranks, r.spec.cards());
  for (uint64_t x : r.removed.removed) std::printf(" %llu", static_cast<unsigned long long>(x));
  std::printf("\n");
  std::fflush(stdout);
}

Status CheckRemoves(const GameSpec& spec) {
  if (spec.policy().on_match != OnMatch::kRemove) {
    return Status::InvalidArgument(std::string("--removed: ") + GameName(spec.game) +
                                   " removes no card");
  }
  if (!TotalDecks64(spec)) {
    return Status::InvalidArgument("--removed: more than 2^64 decks of " + GameLine(spec));
  }
  return Status::OK();
}

}  // namespace

int RunCountRemoved(const std::vector<std::string>& args) {
  JobOptions job;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help");
  desc.add_options()("removed", po::bool_switch(), "count the decks by cards removed (this mode)");
  job.Add(desc,
          "print one JSON object per size, one per line "
          "(docs/schema/eulerdeck-count-removed.schema.json)",
          "write the distribution to FILE as CSV (- for standard output, instead of the "
          "report)");
  RemovedOptions options;
  desc.add_options()("split", po::value<int>(&options.split_depth)->default_value(0),
                     "split the play into tasks this many removals deep (0: the default, 3); "
                     "another depth checks a record by another split");
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kUsage, vm)) return kExitOk;
  if (options.split_depth < 0 || options.split_depth > 8) {
    return BadInput(kProgram, "--split must be 0..8");
  }
  std::vector<GameSpec> specs;
  OutputFile csv, bfile;
  Status s = job.Prepare(&specs, &csv, &bfile, CheckRemoves);
  if (!s.ok()) return BadInput(kProgram, s.ToString());
  const bool range = job.spec.is_range();
  const bool text = !job.json && !job.results_to_stdout();
  if (csv.is_open()) csv << "game,ranks,suits,distribution,value,decks\n";
  if (text && range) {
    PrintRangeTitle(specs[0]);
    std::printf("%5s %5s  %s\n", "ranks", "cards", "decks removing 0, 1, ..., n cards");
    std::fflush(stdout);
  }

  StopOnSignals signals;
  options.threads = job.threads;
  options.stop = signals.flag();
  SizeResult r;
  const int status = RunSizes(
      SizeLoop{kProgram, args, specs, range, "removed", "tasks", "--removed is not resumable"},
      signals,
      [&](const GameSpec& spec, std::atomic<uint64_t>* done, std::atomic<uint64_t>* total) {
        options.tasks_done = done;
        options.tasks_total = total;
        r = SizeResult{};
        r.spec = spec;
        return CountRemoved(spec, options, &r.removed);
      },
      [&](const GameSpec& spec, double seconds) {
        r.seconds = seconds;
        if (csv.is_open()) {
          const std::string key = CsvGamePrefix(spec);
          for (size_t i = 0; i < r.removed.removed.size(); ++i) {
            csv << key << "removed," << i << "," << r.removed.removed[i] << "\n";
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
