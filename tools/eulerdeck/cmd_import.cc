// eulerdeck import: a new count store from a progress document (export
// --progress), so that a count continues on another machine, or after the
// loss of its own.
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>

#include "storage/count/count_progress.h"
#include "tools/common/cli.h"
#include "tools/common/format.h"
#include "tools/common/interrupt.h"
#include "tools/common/results.h"
#include "tools/eulerdeck/commands.h"

namespace eulerdeck::tools {

int RunImport(const std::vector<std::string>& args) {
  std::string path, dir, budget_text;
  int threads = 0;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help")(
      "progress", po::value(&path)->required(),
      "the progress document (from 'eulerdeck export --progress'; - for standard input)")(
      "store", po::value(&dir)->required(),
      "the new store directory (absent, or an empty directory)")(
      "threads", po::value(&threads)->default_value(0),
      "threads that build the levels down to the split (0: all cores)")(
      "memory-budget", po::value(&budget_text)->default_value("512MiB"),
      "memory for the store's caches and the build of the split level")(
      "json", po::bool_switch(),
      "print one JSON object saying what was imported "
      "(docs/schema/eulerdeck-import.schema.json)");
  po::variables_map vm;
  if (ParseOrHelp(args, desc,
                  "usage: eulerdeck import --progress FILE --store DIR [--json]\n"
                  "Makes a new count store from a progress document written by 'eulerdeck\n"
                  "export --progress' (a count --removed's: makes its plan again, which must\n"
                  "have the document's fingerprint, and commits its batches). Otherwise:\n"
                  "builds the levels down to the count's split (seconds to a minute),\n"
                  "checks that they are the ones exported (the same blocks,\n"
                  "the same sub-decks by their XXH64) and commits the document's batches.\n"
                  "'eulerdeck resume --store DIR' then continues the count where the export\n"
                  "left it, on this machine or any other. DIR's missing parent directories\n"
                  "are made, as 'count --store' makes them. The store is built beside DIR\n"
                  "(.NAME.importing) and renamed to DIR when complete: a kill leaves no\n"
                  "store or the whole import. A damaged document (its checksum, exit 2), a\n"
                  "foreign one (exit 2) or an existing store (exit 2) is refused with nothing\n"
                  "written; a split level that this build makes otherwise than the exported\n"
                  "one (exit 1) or any later failure removes what was built.",
                  vm))
    return kExitOk;
  const std::string program = "eulerdeck import";
  uint64_t budget = 0;
  Status s = ParseBytes(budget_text, &budget);
  if (!s.ok()) return BadInput(program, s.ToString());
  if (budget < (uint64_t{16} << 20))
    return BadInput(program, "--memory-budget must be at least 16MiB");
  if (Status t = CheckThreads(threads); !t.ok()) return BadInput(program, t.ToString());
  std::string document;
  if (path == "-") {
    document.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::ifstream in(path, std::ios::binary);
    if (!in) return BadInput(program, "cannot read the progress document '" + path + "'");
    std::ostringstream text;
    text << in.rdbuf();
    document = text.str();
  }
  StopOnSignals signals;
  storage::ProgressSummary summary;
  s = storage::ImportCountProgress(document, dir, budget, threads, signals.flag(), &summary);
  if (s.IsCancelled()) {
    std::cerr << program << ": interrupted before the store was complete; nothing was kept\n";
    return signals.ExitCode();
  }
  if (!s.ok()) {
    std::cerr << program << ": " << s.ToString() << "\n";
    return s.IsInvalidArgument() ? kExitBadInput : kExitCheckFailed;
  }
  const double percent =
      summary.subtrees_total ? 100.0 * summary.subtrees_done / summary.subtrees_total : 100.0;
  char pct[32];
  std::snprintf(pct, sizeof(pct), "%.1f%%", percent);
  const bool removed = summary.kind == "removed";
  if (vm["json"].as<bool>()) {
    // The names of `export --progress --json` (docs/schema/eulerdeck-import.schema.json).
    nlohmann::ordered_json j = GameResultJson(program, summary.spec, dir);
    j["kind"] = summary.kind;
    j[removed ? "split_depth" : "split_level"] = summary.split_level;
    j[removed ? "tasks_done" : "subtrees_done"] = std::to_string(summary.subtrees_done);
    j[removed ? "tasks" : "subtrees"] = std::to_string(summary.subtrees_total);
    j[removed ? "decks_counted" : "winning_decks_counted"] = std::to_string(summary.winning);
    j["records"] = summary.batches;
    j["resume"] = "eulerdeck resume --store " + dir;
    std::cout << j.dump() << "\n" << std::flush;
    return kExitOk;
  }
  std::cout << "imported   " << GameName(summary.spec.game) << " ("
            << Plural(summary.spec.ranks, "rank") << " x " << Plural(summary.spec.suits, "suit")
            << ") into " << dir << ": " << Thousands(summary.subtrees_done) << " of "
            << Thousands(summary.subtrees_total)
            << (removed ? " tasks of a count --removed split " +
                              std::to_string(summary.split_level) + " removals deep"
                        : " subtrees below level " + std::to_string(summary.split_level))
            << " counted (" << pct << "), " << Thousands(summary.winning)
            << (removed ? " decks below them so far, " : " winning decks so far, ")
            << Plural(summary.batches, "batch", "batches") << "\n"
            << "continue   eulerdeck resume --store " << dir << "\n";
  return kExitOk;
}

}  // namespace eulerdeck::tools
