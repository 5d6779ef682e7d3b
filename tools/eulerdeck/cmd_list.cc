// eulerdeck list: every store under some directories, one row each. Reads
// only (read-only openings, as status), so it may run while runs write.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <system_error>

#include "storage/count/stored_count.h"
#include "storage/count/stored_removed.h"
#include "storage/run/stored_run.h"
#include "storage/search/search_store.h"
#include "storage/store/frontier_store.h"
#include "storage/store/live_status.h"
#include "storage/store/run_state.h"
#include "tools/common/cli.h"
#include "tools/common/format.h"
#include "tools/eulerdeck/commands.h"

namespace eulerdeck::tools {

namespace {

namespace fs = std::filesystem;

// One store as listed.
struct StoreRow {
  std::string path;
  bool readable = true;
  std::string error;  // why it could not be read
  bool has_spec = false;
  GameSpec spec;
  std::string state;
  int committed_level = 0;  // the last level committed (0: none)
  int in_progress_level = 0;
  uint64_t winning_decks = 0;  // the last level's entries, once complete
  uint64_t disk_bytes = 0;
  double checkpoint_age = -1;  // seconds since the checkpoint of the level in progress
  bool count = false;          // a count store (`count --store`), not a stored run
  // A count store past its split: subtrees of the split level counted and
  // in all (0 of 0 before the split is chosen); a count --removed store:
  // its plan's tasks.
  uint64_t subtrees_done = 0, subtrees_total = 0;
  bool removed = false;  // a count --removed store (tasks, no levels)
  // A reform-search store (storage/search): seconds searched of its budget,
  // and the best length found.
  bool search = false;
  double search_seconds = 0, search_budget = 0;
  uint64_t best_length = 0;
};

// A reform-search store's row: its state as `status` says it ("complete"
// once its budget is spent), the share of its budget searched, its best.
StoreRow ReadSearchRow(const std::string& path) {
  StoreRow row;
  row.path = path;
  row.search = true;
  storage::SearchParams params;
  ReformSearchState state;
  bool running = false;
  Status s = storage::ReadSearchStatus(path, &params, &state, &running);
  if (!s.ok()) {
    row.readable = false;
    row.error = s.ToString();
    row.state = "unreadable";
    return row;
  }
  row.has_spec = true;
  row.spec = params.spec;
  row.state = running ? "running" : state.finished ? "complete" : "interrupted";
  row.search_seconds = state.seconds;
  row.search_budget = params.seconds;
  row.best_length = state.best.score.length;
  std::error_code ec;
  const auto size = fs::file_size(fs::path(path) / storage::kSearchDocument, ec);
  row.disk_bytes = ec ? 0 : size;
  return row;
}

// The state as `eulerdeck status` tells it (cmd_store.cc, RunStatus): the
// lock says whether a writer is alive; a LIVE file without one is the trace
// of a kill.
StoreRow ReadStore(const std::string& path) {
  if (storage::IsSearchStore(path)) return ReadSearchRow(path);
  StoreRow row;
  row.path = path;
  std::unique_ptr<storage::FrontierStore> store;
  Status s =
      storage::FrontierStore::Open(path, storage::FrontierStore::Mode::kReadOnly, 8u << 20, &store);
  storage::StoreParams params;
  std::vector<storage::LevelRecord> levels;
  storage::ProgressRecord progress;
  bool in_progress = false;
  if (s.ok()) s = store->GetParams(&params, &row.has_spec);
  if (s.ok()) s = store->GetLevels(&levels);
  if (s.ok()) s = store->GetProgress(&progress, &in_progress);
  auto unreadable = [&row](const Status& failed) {
    row.readable = false;
    row.error = failed.ToString();
    row.state = "unreadable";
    return row;
  };
  if (!s.ok()) return unreadable(s);
  row.spec = params.spec;
  row.committed_level = levels.empty() ? 0 : levels.back().level;
  bool done = row.has_spec && row.committed_level == row.spec.cards();
  bool any = !levels.empty();
  if (params.kind == storage::StoreKind::kRemoved) {
    // No levels: its tasks say how far it is.
    storage::RemovedProgress removed;
    s = storage::ReadRemovedProgress(store.get(), &removed);
    if (!s.ok()) return unreadable(s);
    row.removed = true;
    row.subtrees_done = removed.tasks_done;
    row.subtrees_total = removed.plan.tasks;
    done = removed.complete();
    any = removed.tasks_done > 0;
  }
  row.state = storage::RunStateName(
      storage::ReadRunActivity(path, done, in_progress, any,
                               params.kind == storage::StoreKind::kCount || row.removed)
          .state);
  if (done && !levels.empty()) row.winning_decks = levels.back().entries;
  if (in_progress) {
    row.in_progress_level = progress.level;
    if (progress.saved > 0) row.checkpoint_age = storage::UnixNow() - progress.saved;
  }
  row.count = params.kind == storage::StoreKind::kCount;
  if (row.count && row.has_spec && !done) {
    storage::CountProgress count;
    s = storage::ReadCountProgress(store.get(), row.spec, &count);
    if (!s.ok()) return unreadable(s);
    row.subtrees_done = count.subtrees_done;
    row.subtrees_total = count.subtrees_total;
  }
  row.disk_bytes = store->DiskBytes();
  return row;
}

// "7/16", or for a count store counting the subtrees below its split level
// 7, "7/16 67%" (the share of the subtrees counted).
std::string LevelColumn(const StoreRow& r) {
  if (!r.readable) return "?";
  if (r.search && r.state == "complete") return "finished";
  if (r.search) {
    const double share =
        r.search_budget > 0 ? std::min(1.0, r.search_seconds / r.search_budget) : 0;
    return "searched " + std::to_string(static_cast<int>(100 * share)) + "%";
  }
  if (r.removed) {
    return "tasks " +
           std::to_string(r.subtrees_total ? 100 * r.subtrees_done / r.subtrees_total : 0) + "%";
  }
  std::string level = std::to_string(r.committed_level) + "/" +
                      (r.has_spec ? std::to_string(r.spec.cards()) : std::string("?"));
  if (r.subtrees_total > 0) {
    level += " " + std::to_string(100 * r.subtrees_done / r.subtrees_total) + "%";
  }
  return level;
}

// storage::StoreExists, false for a directory that cannot be examined.
bool IsStore(const fs::path& dir) {
  try {
    return storage::StoreExists(dir.string()) || storage::IsSearchStore(dir.string());
  } catch (const fs::filesystem_error&) {
    return false;
  }
}

// The stores at or under `root`, at most `depth` directories down, without
// looking inside a store (nor into the sibling a store is created in, nor
// the one an import builds: neither is a store yet).
void FindStores(const fs::path& root, int depth, std::vector<std::string>* found) {
  if (IsStore(root)) {
    found->push_back(root.string());
    return;
  }
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(
           root, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::path& p = it->path();
    const std::string name = p.filename().string();
    std::error_code dir_ec;
    if (it->is_symlink(dir_ec) || !it->is_directory(dir_ec)) continue;  // never followed
    if (name.size() > 10 && name[0] == '.' &&
        (name.ends_with(".creating") || name.ends_with(".importing"))) {
      it.disable_recursion_pending();
      continue;
    }
    if (IsStore(p)) {
      found->push_back(p.string());
      it.disable_recursion_pending();
      continue;
    }
    if (it.depth() + 1 >= depth) it.disable_recursion_pending();
  }
}

std::string GameOf(const StoreRow& r) { return r.has_spec ? GameName(r.spec.game) : ""; }

nlohmann::ordered_json RowJson(const StoreRow& r) {
  nlohmann::ordered_json j;
  j["store"] = r.path;
  if (r.has_spec) {
    j["game"] = GameOf(r);
    j["ranks"] = r.spec.ranks;
    j["suits"] = r.spec.suits;
    j["cards"] = r.spec.cards();
  }
  j["state"] = r.state;
  if (!r.readable) {
    j["error"] = r.error;
    return j;
  }
  j["kind"] = r.search ? "reform-search" : r.removed ? "removed" : r.count ? "count" : "run";
  if (r.search) {
    j["search_seconds"] = r.search_seconds;
    j["budget_seconds"] = r.search_budget;
    j["best_length"] = r.best_length;
    j["disk_bytes"] = r.disk_bytes;
    return j;
  }
  j["committed_level"] = r.committed_level;
  if (r.in_progress_level > 0) j["in_progress_level"] = r.in_progress_level;
  if (r.subtrees_total > 0) {
    j["subtrees_done"] = r.subtrees_done;
    j["subtrees_total"] = r.subtrees_total;
  }
  if (r.state == "complete" && !r.removed) j["winning_decks"] = std::to_string(r.winning_decks);
  j["disk_bytes"] = r.disk_bytes;
  if (r.checkpoint_age >= 0) j["checkpoint_age_seconds"] = r.checkpoint_age;
  return j;
}

// A CSV field: quoted when it holds a comma, a quote or a line break.
std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

void PrintTable(const std::vector<StoreRow>& rows) {
  size_t width = 5;
  for (const StoreRow& r : rows) width = std::max(width, r.path.size());
  std::printf("%-*s  %-9s  %6s  %-11s  %10s  %13s  %9s  %s\n", static_cast<int>(width), "store",
              "game", "m x s", "state", "level", "winning decks", "disk", "checkpoint");
  for (const StoreRow& r : rows) {
    const std::string size =
        r.has_spec ? std::to_string(r.spec.ranks) + "x" + std::to_string(r.spec.suits) : "?";
    const std::string level = LevelColumn(r);
    const std::string wins = r.search ? "best " + std::to_string(r.best_length)
                             : r.state == "complete" && !r.removed ? std::to_string(r.winning_decks)
                                                                   : "-";
    const std::string disk = r.readable ? HumanBytes(r.disk_bytes) : "?";
    const std::string age = r.checkpoint_age >= 0 ? HumanDuration(r.checkpoint_age) + " ago" : "-";
    std::printf("%-*s  %-9s  %6s  %-11s  %10s  %13s  %9s  %s\n", static_cast<int>(width),
                r.path.c_str(), r.has_spec ? GameOf(r).c_str() : "?", size.c_str(), r.state.c_str(),
                level.c_str(), wins.c_str(), disk.c_str(), age.c_str());
  }
}

}  // namespace

int RunList(const std::vector<std::string>& args) {
  int depth = 4;
  std::string csv_path;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help")(
      "depth", po::value(&depth)->default_value(4),
      "search this many directories down (1: DIR's own entries)")("json", po::bool_switch(),
                                                                  "print one JSON object")(
      "csv", po::value(&csv_path),
      "write the rows to FILE as CSV (- for standard output, instead of the table)");
  // The directories are the words that are neither options nor their values.
  std::vector<std::string> dirs, options;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() < 2 || a[0] != '-') {
      dirs.push_back(a);
      continue;
    }
    options.push_back(a);
    const std::string name = a.substr(a.find_first_not_of('-'));
    const po::option_description* d = desc.find_nothrow(name, false);
    if (d && a.find('=') == std::string::npos && d->semantic()->max_tokens() > 0 &&
        i + 1 < args.size()) {
      options.push_back(args[++i]);
    }
  }
  po::variables_map vm;
  if (ParseOrHelp(options, desc,
                  "usage: eulerdeck list DIR... [--depth D] [--json | --csv FILE]\n"
                  "Finds every store at or under each DIR (down to --depth directories; a\n"
                  "store is not searched inside) and prints one row per store: its game,\n"
                  "its state (running, interrupted, stopped, complete, not started, as\n"
                  "'eulerdeck status' says), the last level committed of n (a count store\n"
                  "past its split adds the share of its subtrees counted: 7/16 67%), the\n"
                  "winning decks once complete, the size on disk, and the age of the\n"
                  "checkpoint of a level in progress. Reads only: safe while runs write.\n"
                  "No store found: said on stderr, exit 0; a store that cannot be read:\n"
                  "exit 1.\n"
                  "--csv columns: game,ranks,suits,store,cards,state,committed_level,\n"
                  "in_progress_level,winning_decks,disk_bytes,checkpoint_age_seconds,kind,\n"
                  "subtrees_done,subtrees_total\n"
                  "(docs/schema/csv_columns.json).",
                  vm))
    return kExitOk;
  const bool json = vm["json"].as<bool>();
  Status s;
  if (dirs.empty()) s = Status::InvalidArgument("give at least one directory");
  if (s.ok() && depth < 1) s = Status::InvalidArgument("--depth must be at least 1");
  // One output: the JSON (standard output) or the CSV, never both.
  if (s.ok() && json && !csv_path.empty())
    s = Status::InvalidArgument("--json and --csv are two forms of one listing; give one of them");
  for (const std::string& dir : dirs) {
    std::error_code ec;
    if (s.ok() && !fs::is_directory(dir, ec)) {
      s = Status::InvalidArgument(fs::exists(dir, ec) ? "'" + dir + "' is not a directory"
                                                      : "no directory '" + dir + "'");
    }
  }
  OutputFile csv;
  if (s.ok()) s = OpenCsv(csv_path, &csv);
  if (!s.ok()) return BadInput("eulerdeck list", s.ToString());

  std::vector<std::string> paths;
  for (const std::string& dir : dirs) FindStores(dir, depth, &paths);
  std::sort(paths.begin(), paths.end());
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
  std::vector<StoreRow> rows;
  int rc = kExitOk;
  for (const std::string& path : paths) {
    rows.push_back(ReadStore(path));
    if (!rows.back().readable) {
      std::cerr << "eulerdeck list: " << path << ": " << rows.back().error << "\n";
      rc = kExitCheckFailed;
    }
  }
  if (rows.empty()) std::cerr << "eulerdeck list: no store found\n";

  if (csv.is_open()) {
    csv << "game,ranks,suits,store,cards,state,committed_level,in_progress_level,winning_decks,"
           "disk_bytes,checkpoint_age_seconds,kind,subtrees_done,subtrees_total\n";
    for (const StoreRow& r : rows) {
      const bool spec = r.has_spec;
      csv << GameOf(r) << "," << (spec ? std::to_string(r.spec.ranks) : "") << ","
          << (spec ? std::to_string(r.spec.suits) : "") << "," << CsvField(r.path) << ","
          << (spec ? std::to_string(r.spec.cards()) : "") << "," << r.state << ","
          << (r.readable ? std::to_string(r.committed_level) : "") << ","
          << (r.in_progress_level > 0 ? std::to_string(r.in_progress_level) : "") << ","
          << (r.state == "complete" && !r.removed && !r.search ? std::to_string(r.winning_decks)
                                                               : "")
          << "," << (r.readable ? std::to_string(r.disk_bytes) : "") << ",";
      if (r.checkpoint_age >= 0) {
        char buf[32];
        std::snprintf(buf, sizeof(buf), "%.1f", r.checkpoint_age);
        csv << buf;
      }
      csv << "," << (r.readable ? (r.count ? "count" : "run") : "") << ",";
      if (r.subtrees_total > 0)
        csv << r.subtrees_done << "," << r.subtrees_total;
      else
        csv << ",";
      csv << "\n";
    }
    if (!CommitOutput("eulerdeck list", &csv)) return kExitCheckFailed;
    if (csv.is_stdout()) return rc;
  }
  if (json) {
    nlohmann::ordered_json j;
    j["command"] = "eulerdeck list";
    j["directories"] = dirs;
    j["stores"] = nlohmann::ordered_json::array();
    for (const StoreRow& r : rows) j["stores"].push_back(RowJson(r));
    std::cout << j.dump() << "\n";
  } else if (!rows.empty()) {
    PrintTable(rows);
  }
  return rc;
}

}  // namespace eulerdeck::tools
