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
#include "tools/eulerdeck/count_store.h"

namespace eulerdeck::tools {

namespace {

constexpr const char* kUsage =
    "usage: eulerdeck count --removed --game G --ranks M|A..B [--suits S]\n"
    "                       [--threads T] [--split D] [--json] [--csv FILE]\n"
    "                       [--store DIR [--checkpoint-seconds S]\n"
    "                                    [--batch-seconds S]]\n"
    "Counts the decks that remove (hlm: store) exactly i cards, for every\n"
    "i = 0..n: Cayley's question in full (mousetrap with one suit: OEIS A028305;\n"
    "column 0 A000166, column 1 A007710, column n A007709). Plays every history\n"
    "of removals on a lazily dealt deck and counts each history's decks at once\n"
    "(docs/removed.md). The rows sum to the number of distinct decks. --ranks\n"
    "A..B does every size in turn. Ctrl-C stops at once (not resumable)\n"
    "unless --store DIR: then the count (one size) keeps its finished batches of\n"
    "tasks in the store and survives Ctrl-C, kill -9 or a power cut; 'eulerdeck\n"
    "resume --store DIR' (or the same command again) continues it, 'eulerdeck\n"
    "export --progress' / 'import' move it, and under 'mpirun -np P' every rank\n"
    "counts tasks (docs/removed.md, docs/cluster.md).\n"
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
            << "total decks    " << Thousands(r.removed.total_decks) << "\n";
  // A table: the decks right-aligned, as wide as the widest (as `status`).
  size_t width = 5;
  for (uint64_t x : r.removed.removed) width = std::max(width, Thousands(x).size());
  std::printf("cards removed  %*s\n", static_cast<int>(width), "decks");
  for (size_t i = 0; i < r.removed.removed.size(); ++i) {
    std::printf("%13zu  %*s\n", i, static_cast<int>(width),
                Thousands(r.removed.removed[i]).c_str());
  }
  std::fflush(stdout);
  std::cout << "method         " << r.removed.method << ", "
            << PluralThousands(r.removed.tasks, "task") << "\n";
}

// Range mode: one row per size, the distribution on one line.
void PrintRangeRow(const SizeResult& r) {
  std::printf("%5d %5d ", r.spec.ranks, r.spec.cards());
  for (uint64_t x : r.removed.removed) std::printf(" %s", Thousands(x).c_str());
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

int RunCountRemoved(const std::vector<std::string>& args, const std::string& program) {
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
  int split_depth_alias = 0;
  desc.add_options()("split", po::value<int>(&options.split_depth)->default_value(0),
                     "split the play into tasks this many removals deep (0: the default, 3; a "
                     "store: its own); another depth checks a record by another split")(
      "split-depth", po::value<int>(&split_depth_alias), "the same as --split");
  CountStoreFlags stored;
  desc.add_options()("store", po::value(&stored.dir),
                     "keep the count in the store DIR (created if need be), resumable with "
                     "'eulerdeck resume --store DIR' after Ctrl-C, kill or a power cut")(
      "checkpoint-seconds", po::value(&stored.checkpoint_seconds)->default_value(10.0),
      "with --store: seconds between commits of the finished batches of tasks")(
      "batch-seconds", po::value(&stored.batch_seconds)->default_value(2.0),
      "with --store: seconds of work per thread that a batch of tasks is sized for")(
      "memory-budget", po::value(&stored.budget_text)->default_value("512MiB"),
      "with --store: memory for the store's caches");
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kUsage, vm)) return kExitOk;
  if (vm.count("split-depth")) {
    if (!vm["split"].defaulted() && options.split_depth != split_depth_alias) {
      return BadInput(program, "--split and --split-depth differ");
    }
    options.split_depth = split_depth_alias;
  }
  if (options.split_depth < 0 || options.split_depth > 8) {
    return BadInput(program, "--split must be 0..8");
  }
  std::vector<GameSpec> specs;
  OutputFile csv, bfile;
  Status s = job.Prepare(&specs, &csv, &bfile, CheckRemoves);
  if (s.ok() && stored.enabled()) s = stored.Check();
  if (!s.ok()) return BadInput(program, s.ToString());
  const bool range = job.spec.is_range();
  if (stored.enabled() && range) {
    return BadInput(program, "--store takes one size, not a range of --ranks");
  }
  if (!stored.enabled() && (!vm["checkpoint-seconds"].defaulted() ||
                            !vm["batch-seconds"].defaulted() || !vm["memory-budget"].defaulted())) {
    return BadInput(program,
                    "--checkpoint-seconds, --batch-seconds and --memory-budget need --store DIR");
  }
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
      SizeLoop{program.c_str(), args, specs, range, "removed", "tasks",
               "without --store, --removed is not resumable", stored.dir},
      signals,
      [&](const GameSpec& spec, std::atomic<uint64_t>* done, std::atomic<uint64_t>* total) {
        options.tasks_done = done;
        options.tasks_total = total;
        r = SizeResult{};
        r.spec = spec;
        if (stored.enabled()) {
          CountStoreCounters counters;
          counters.threads = options.threads;
          counters.stop = options.stop;
          counters.subtrees_done = done;
          counters.subtrees_total = total;
          return RemovedInStore(stored, spec, options.split_depth, counters, &r.removed);
        }
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
  if (!CommitOutput(program, &csv)) return kExitCheckFailed;
  return kExitOk;
}

}  // namespace eulerdeck::tools
