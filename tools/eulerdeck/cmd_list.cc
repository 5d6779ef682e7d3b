// eulerdeck list: every store under some directories, one row each. Reads
// only (read-only openings, as status), so it may run while runs write.
#include <sys/stat.h>

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
  // Once complete: the winning decks (a run or count: the entries of level
  // n; a count --removed: the decks that remove every card, known for the
  // games whose wins do, all but hlm).
  uint64_t winning_decks = 0;
  bool has_winning = false;
  uint64_t disk_bytes = 0;
  double checkpoint_age = -1;  // seconds since the checkpoint of the level in progress
  bool count = false;          // a count store (`count --store`), not a stored run
  // A count store past its split: subtrees of the split level counted and
  // in all (0 of 0 before the split is chosen).
  uint64_t subtrees_done = 0, subtrees_total = 0;
  bool removed = false;                      // a count --removed store (tasks, no levels)
  uint64_t tasks_done = 0, tasks_total = 0;  // a count --removed store's plan's tasks
  // A reform-search store (storage/search): seconds searched of its budget,
  // and the best length found.
  bool search = false;
  double search_seconds = 0, search_budget = 0;
  uint64_t best_length = 0;
};

// The seconds since `file` was last written (its modification time); -1
// when it is missing. A checkpoint's age, where the store keeps no time.
double SecondsSinceWritten(const fs::path& file) {
  struct stat st;
  if (::stat(file.c_str(), &st) != 0) return -1;
  const double written = static_cast<double>(st.st_mtim.tv_sec) + 1e-9 * st.st_mtim.tv_nsec;
  return std::max(0.0, storage::UnixNow() - written);
}

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
  // Each checkpoint replaces the search's document.
  row.checkpoint_age = SecondsSinceWritten(fs::path(path) / storage::kSearchDocument);
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
    row.tasks_done = removed.tasks_done;
    row.tasks_total = removed.plan.tasks;
    done = removed.complete();
    any = removed.tasks_done > 0;
    if (done && row.has_spec && !row.spec.policy().ends_on_burned_two) {
      // Its winning decks: those that remove every card (docs/removed.md).
      std::vector<uint64_t> distribution;
      s = storage::RemovedDistribution(row.spec, removed, &distribution);
      if (!s.ok()) return unreadable(s);
      row.winning_decks = distribution.back();
      row.has_winning = true;
    }
  }
  row.state = storage::RunStateName(
      storage::ReadRunActivity(path, done, in_progress, any,
                               params.kind == storage::StoreKind::kCount || row.removed)
          .state);
  if (done && !levels.empty()) {
    row.winning_decks = levels.back().entries;
    row.has_winning = true;
  }
  if (in_progress) {
    row.in_progress_level = progress.level;
    if (progress.saved > 0) row.checkpoint_age = storage::UnixNow() - progress.saved;
  }
  // Any other store (a count's batches, a finished run): its last commit,
  // which replaces DIR/COMMITTED (storage/store/frontier_store.cc).
  if (row.checkpoint_age < 0)
    row.checkpoint_age = SecondsSinceWritten(fs::path(path) / "COMMITTED");
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

// The kind of store, as status --json and list --json name it.
std::string KindOf(const StoreRow& r) {
  return r.search ? "reform-search" : r.removed ? "removed" : r.count ? "count" : "run";
}

// The `progress` column, the same for every kind (issue 51, B6): how far
// the store is, in the unit its kind counts its work in: "levels 7/16" (a
// run, or a count before its split), "subtrees 67%" (a count past its
// split), "tasks 67%" (a count --removed), "budget 40%" (a reform search's
// time).
std::string ProgressColumn(const StoreRow& r) {
  if (!r.readable) return "?";
  auto percent = [](double done, double total) {
    return std::to_string(static_cast<int>(total > 0 ? 100 * std::min(1.0, done / total) : 0)) +
           "%";
  };
  if (r.search) {
    return "budget " + (r.state == "complete" ? std::string("100%")
                                              : percent(r.search_seconds, r.search_budget));
  }
  if (r.removed) {
    return "tasks " +
           percent(static_cast<double>(r.tasks_done), static_cast<double>(r.tasks_total));
  }
  if (r.subtrees_total > 0) {
    return "subtrees " +
           percent(static_cast<double>(r.subtrees_done), static_cast<double>(r.subtrees_total));
  }
  return "levels " + std::to_string(r.committed_level) + "/" +
         (r.has_spec ? std::to_string(r.spec.cards()) : std::string("?"));
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
  j["kind"] = KindOf(r);
  if (r.search) {
    j["search_seconds"] = r.search_seconds;
    j["budget_seconds"] = r.search_budget;
    j["best_length"] = r.best_length;
    j["disk_bytes"] = r.disk_bytes;
    return j;
  }
  if (!r.removed) j["committed_level"] = r.committed_level;  // (a removed count has no levels)
  if (r.in_progress_level > 0) j["in_progress_level"] = r.in_progress_level;
  if (r.subtrees_total > 0) {
    j["subtrees_done"] = r.subtrees_done;
    j["subtrees_total"] = r.subtrees_total;
  }
  if (r.removed) {
    j["tasks_done"] = r.tasks_done;
    j["tasks_total"] = r.tasks_total;
  }
  if (r.state == "complete" && r.has_winning) j["winning_decks"] = std::to_string(r.winning_decks);
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

// The table: a header over columns as wide as their widest value, text
// left-aligned and numbers right-aligned, counts with thousands separators.
// Every column means the same for every kind of store (issue 51, B6):
// `progress` (ProgressColumn) in the kind's unit, `winning decks` the
// game's winning decks once complete ("-" before, and for a reform search,
// which counts none: its best length is in `status`).
void PrintTable(const std::vector<StoreRow>& rows) {
  const std::vector<std::string> header = {
      "store", "kind", "game", "m x s", "state", "progress", "winning decks", "disk", "checkpoint"};
  const std::vector<bool> right = {false, false, false, true, false, false, true, true, false};
  std::vector<std::vector<std::string>> cells = {header};
  for (const StoreRow& r : rows) {
    const std::string size =
        r.has_spec ? std::to_string(r.spec.ranks) + "x" + std::to_string(r.spec.suits) : "?";
    const std::string wins =
        r.state == "complete" && r.has_winning ? Thousands(r.winning_decks) : std::string("-");
    cells.push_back({r.path, r.readable ? KindOf(r) : "?", r.has_spec ? GameOf(r) : "?", size,
                     r.state, ProgressColumn(r), wins, r.readable ? HumanBytes(r.disk_bytes) : "?",
                     r.checkpoint_age >= 0 ? HumanDuration(r.checkpoint_age) + " ago" : "-"});
  }
  std::vector<size_t> width(header.size(), 0);
  for (const auto& row : cells) {
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  }
  for (const auto& row : cells) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) {
      const std::string pad(width[c] - row[c].size(), ' ');
      if (c > 0) line += "  ";
      line += right[c] ? pad + row[c] : c + 1 < row.size() ? row[c] + pad : row[c];
    }
    std::printf("%s\n", line.c_str());
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
                  "store is not searched inside) and prints one row per store: its kind\n"
                  "(run, count, removed, reform-search), its game, its state (running,\n"
                  "interrupted, stopped, complete, not started, as 'eulerdeck status'\n"
                  "says), its progress in its kind's unit (levels 7/16 committed; a count\n"
                  "past its split: subtrees 67% counted; a count --removed: tasks 67%; a\n"
                  "reform search: budget 40% searched), the game's winning decks once\n"
                  "complete (a count --removed: the decks that remove every card; a reform\n"
                  "search counts none), the size on disk, and the age of its last\n"
                  "checkpoint (the last state it wrote). Reads only: safe while runs write.\n"
                  "No store found: said on stderr, exit 0; a store that cannot be read:\n"
                  "exit 1.\n"
                  "--csv columns: game,ranks,suits,store,cards,state,committed_level,\n"
                  "in_progress_level,winning_decks,disk_bytes,checkpoint_age_seconds,kind,\n"
                  "subtrees_done,subtrees_total,tasks_done,tasks_total\n"
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
           "disk_bytes,checkpoint_age_seconds,kind,subtrees_done,subtrees_total,tasks_done,tasks_"
           "total\n";
    for (const StoreRow& r : rows) {
      const bool spec = r.has_spec;
      csv << GameOf(r) << "," << (spec ? std::to_string(r.spec.ranks) : "") << ","
          << (spec ? std::to_string(r.spec.suits) : "") << "," << CsvField(r.path) << ","
          << (spec ? std::to_string(r.spec.cards()) : "") << "," << r.state << ","
          << (r.readable && !r.removed && !r.search ? std::to_string(r.committed_level) : "") << ","
          << (r.in_progress_level > 0 ? std::to_string(r.in_progress_level) : "") << ","
          << (r.state == "complete" && r.has_winning ? std::to_string(r.winning_decks) : "") << ","
          << (r.readable ? std::to_string(r.disk_bytes) : "") << ",";
      if (r.checkpoint_age >= 0) {
        char buf[32];
        std::snprintf(buf, sizeof(buf), "%.1f", r.checkpoint_age);
        csv << buf;
      }
      csv << "," << (r.readable ? KindOf(r) : "") << ",";
      if (r.subtrees_total > 0)
        csv << r.subtrees_done << "," << r.subtrees_total;
      else
        csv << ",";
      csv << ",";
      if (r.removed)
        csv << r.tasks_done << "," << r.tasks_total;
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
