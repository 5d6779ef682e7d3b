// eulerdeck status / inspect / export / verify: reading a store (read-only,
// so they may run while another process writes it).
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <numeric>

#include "engine/base/parallel.h"
#include "engine/cards/combinatorics.h"
#include "engine/eulerian/path.h"
#include "storage/count/count_progress.h"
#include "storage/count/stored_count.h"
#include "storage/count/stored_removed.h"
#include "storage/run/stored_run.h"
#include "storage/search/search_store.h"
#include "storage/store/frontier_store.h"
#include "storage/store/inspect.h"
#include "storage/store/live_status.h"
#include "storage/store/run_state.h"
#include "tools/common/cli.h"
#include "tools/common/format.h"
#include "tools/common/interrupt.h"
#include "tools/common/plot.h"
#include "tools/common/progress.h"
#include "tools/common/results.h"
#include "tools/eulerdeck/commands.h"
#include "tools/eulerdeck/forecast_text.h"
#include "tools/eulerdeck/reform_contest.h"

namespace eulerdeck::tools {

namespace {

// A store that cannot be read because it is damaged (Corruption, IOError) is
// a failed check, exit 1, as verify reports it; anything else the user asked
// for wrongly is bad input, exit 2. One line either way.
int StoreError(const std::string& program, const Status& s) {
  if (s.IsCorruption() || s.IsIOError()) {
    std::cerr << program << ": " << s.ToString() << "\n";
    return kExitCheckFailed;
  }
  return BadInput(program, s.ToString());
}

// A read-only store small enough in memory for inspection.
constexpr uint64_t kReadBudget = 64ull << 20;

// Opens the store read-only and reads its game and, if asked, its committed
// levels.
Status OpenReadOnly(const std::string& dir, std::unique_ptr<storage::FrontierStore>* store,
                    GameSpec* spec, std::vector<storage::LevelRecord>* levels = nullptr) {
  if (Status c = CheckStoreDir(dir); !c.ok()) return c;  // a file, nothing there
  Status s = storage::FrontierStore::Open(dir, storage::FrontierStore::Mode::kReadOnly, kReadBudget,
                                          store);
  if (s.ok()) s = storage::StoreSpec(store->get(), spec);
  if (s.ok() && levels) s = (*store)->GetLevels(levels);
  return s;
}

// "2026-11-22T21:40:00Z" for a Unix time.
std::string UtcTime(double unix_seconds) {
  char buf[32];
  const std::time_t t = static_cast<std::time_t>(unix_seconds);
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

// a / b with `digits` decimals (0 when b is 0): bytes per entry, compression.
std::string Ratio(double a, double b, int digits = 3) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.*f", digits, b > 0 ? a / b : 0.0);
  return buf;
}

// "level 12" or "levels 10-12": what a pass builds.
std::string LevelsName(int first, int last) {
  if (last <= first) return "level " + std::to_string(first);
  return "levels " + std::to_string(first) + "-" + std::to_string(last);
}

// The headline of a finished store (issue 51, B5): "winning decks 1,812 of
// 40,320" (the game's decks, when they fit 64 bits).
void WinningLine(uint64_t winning, uint64_t total) {
  std::cout << "winning decks " << Thousands(winning);
  if (total > 0) std::cout << " of " << Thousands(total);
  std::cout << "\n";
}

// `status` of a count --removed store (storage/count/stored_removed.h): its
// plan, the tasks counted, the decks so far, the live state of a writer and,
// complete, the distribution.
int StatusRemoved(const std::string& dir, storage::FrontierStore* store, const GameSpec& spec,
                  bool json) {
  storage::RemovedProgress progress;
  Status s = storage::ReadRemovedProgress(store, &progress);
  std::vector<uint64_t> removed;
  const bool done = s.ok() && progress.complete();
  if (done) s = storage::RemovedDistribution(spec, progress, &removed);
  if (!s.ok()) return StoreError("eulerdeck status", s);
  const storage::RunActivity activity =
      storage::ReadRunActivity(dir, done, false, progress.tasks_done > 0, /*count_store=*/true);
  const bool running = activity.state == storage::RunState::kRunning;
  const storage::LiveStatus& live = activity.live;
  const double now = storage::UnixNow();
  const uint64_t top =
      std::accumulate(progress.plan.top.begin(), progress.plan.top.end(), uint64_t{0});
  if (json) {
    nlohmann::ordered_json j = GameResultJson("eulerdeck status", spec, dir);
    j["state"] = storage::RunStateName(activity.state);
    j["complete"] = done;
    j["keep"] = "none";
    j["kind"] = storage::StoreKindName(storage::StoreKind::kRemoved);
    // The decks that remove every card: those that win (mousetrap, modular;
    // an hlm win stores all but a final 2, which the distribution does not
    // tell).
    if (done && !spec.policy().ends_on_burned_two) {
      j["winning_decks"] = std::to_string(removed.back());
    }
    nlohmann::ordered_json top_json = nlohmann::ordered_json::array();
    for (uint64_t x : progress.plan.top) top_json.push_back(std::to_string(x));
    j["removed_count"] = {{"split_depth", progress.plan.split_depth},
                          {"tasks", progress.plan.tasks},
                          {"tasks_counted", progress.tasks_done},
                          {"batches", progress.batches},
                          {"fingerprint", Hex64(progress.plan.fingerprint)},
                          {"method", progress.plan.method},
                          {"worker_seconds", progress.counted.seconds},
                          {"decks_counted", std::to_string(progress.counted.decks() + top)},
                          {"top", top_json}};
    if (done) {
      nlohmann::ordered_json r = nlohmann::ordered_json::array();
      for (uint64_t x : removed) r.push_back(std::to_string(x));
      j["removed_count"]["removed"] = r;
    }
    if (activity.has_live && live.counting) {
      j["live"] = {{"pid", live.pid},
                   {"started", UtcTime(live.started)},
                   {"updated_seconds_ago", now - live.updated},
                   {"tasks_done", live.input_done},
                   {"tasks", live.input_total},
                   {"tasks_per_second", live.entries_per_second}};
      if (live.eta_seconds >= 0) j["live"]["eta_seconds"] = live.eta_seconds;
    }
    j["levels"] = nlohmann::ordered_json::array();
    j["disk_bytes"] = store->DiskBytes();
    std::cout << j.dump() << "\n";
    return kExitOk;
  }
  const uint64_t total = TotalDecks64(spec).value_or(0);
  std::cout << "store      " << dir << "\n"
            << "game       " << GameLine(spec) << "\n"
            << "state      " << storage::RunStateName(activity.state);
  if (running && activity.has_live && live.counting) {
    std::cout << " (pid " << live.pid << ", since " << UtcTime(live.started)
              << "): " << Thousands(std::max<uint64_t>(live.input_done, progress.tasks_done))
              << " of " << Thousands(live.input_total) << " tasks done, "
              << Significant(live.entries_per_second, 3) << " tasks/s";
    if (live.eta_seconds >= 0) {
      // (A count begun by an older build writes an ETA by tasks.)
      std::cout << ", ETA " << HumanDuration(live.eta_seconds)
                << (live.eta_by_decks ? " by decks" : " by tasks");
    }
    std::cout << " (" << HumanDuration(now - live.updated) << " ago)";
  } else if (running) {
    std::cout << " (another process holds the store)";
  } else if (!done) {
    std::cout << " with " << Thousands(progress.tasks_done) << " of "
              << Thousands(progress.plan.tasks)
              << " tasks counted; continue with `eulerdeck resume --store " << dir << "`";
  }
  std::cout << "\n";
  // The result first (issue 51, B5): the decks that remove every card win
  // (not in hlm, whose wins burn a final 2).
  if (done && !spec.policy().ends_on_burned_two) WinningLine(removed.back(), total);
  std::cout << "kind       count --removed: forward play split " << progress.plan.split_depth
            << " removals deep into " << Thousands(progress.plan.tasks) << " tasks ("
            << progress.plan.method << ", plan " << Hex64(progress.plan.fingerprint) << ")\n"
            << "tasks      " << Thousands(progress.tasks_done) << " of "
            << Thousands(progress.plan.tasks) << " counted ("
            << Significant(
                   progress.plan.tasks ? 100.0 * progress.tasks_done / progress.plan.tasks : 100.0,
                   3)
            << "%), in " << Plural(progress.batches, "batch", "batches") << ", "
            << HumanDuration(progress.counted.seconds) << " of worker time\n"
            << "decks      " << Thousands(progress.counted.decks() + top) << " of "
            << Thousands(total) << " counted (" << Thousands(top) << " end above the cut)\n";
  if (done) {
    // A table: a header over right-aligned columns as wide as their widest.
    size_t width = 5;
    for (uint64_t x : removed) width = std::max(width, Thousands(x).size());
    std::printf("cards removed  %*s\n", static_cast<int>(width), "decks");
    for (size_t i = 0; i < removed.size(); ++i) {
      std::printf("%13zu  %*s\n", i, static_cast<int>(width), Thousands(removed[i]).c_str());
    }
    std::fflush(stdout);
  }
  std::cout << "disk       " << HumanBytes(store->DiskBytes()) << "\n";
  return kExitOk;
}

}  // namespace

int RunStatus(const std::vector<std::string>& args) {
  std::string dir, plot_path;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help")("store", po::value(&dir)->required(),
                                                 "the store directory")("json", po::bool_switch(),
                                                                        "print one JSON object")(
      "plot", po::value(&plot_path),
      "plot the winning sub-decks of every committed level (log scale) with gnuplot to "
      "FILE (.svg or .png; - for an SVG on standard output, instead of the report)");
  po::variables_map vm;
  // The contest's entry is reform-search's to print (cmd_reform_search.cc).
  for (const std::string& a : args) {
    if (a == "--submission" || a.rfind("--submission=", 0) == 0) {
      return BadInput("eulerdeck status",
                      "--submission is an option of reform-search: `eulerdeck reform-search "
                      "--submission --store DIR` prints a stored contest's entry");
    }
  }
  if (ParseOrHelp(args, desc,
                  "usage: eulerdeck status --store DIR [--json] [--plot FILE]\n"
                  "Prints the store's game, its state (running, interrupted, stopped,\n"
                  "complete, not started), its committed levels (winning sub-decks, blocks,\n"
                  "bytes, bytes per entry, compression) and the level in progress with its\n"
                  "rate and ETA; for a count, the subtrees and sub-decks counted and the\n"
                  "work left (estimated by sampling: docs/estimates.md) with its ETA.\n"
                  "Reads only: safe while a run writes the store.",
                  vm))
    return kExitOk;
  Status checked = CheckResultStreams(vm["json"].as<bool>(), {{"plot", plot_path}});
  if (checked.ok() && !plot_path.empty()) checked = CheckPlotPath(plot_path);
  if (!checked.ok()) return BadInput("eulerdeck status", checked.ToString());
  if (storage::IsSearchStore(dir)) return SearchStatus(dir, vm["json"].as<bool>(), plot_path);
  if (storage::IsContestStore(dir)) return ContestStatus(dir, vm["json"].as<bool>(), plot_path);
  std::unique_ptr<storage::FrontierStore> store;
  GameSpec spec;
  std::vector<storage::LevelRecord> levels;
  Status s = OpenReadOnly(dir, &store, &spec, &levels);
  storage::ProgressRecord p;
  bool in_progress = false;
  if (s.ok()) s = store->GetProgress(&p, &in_progress);
  storage::StoreParams params;
  bool has_params = false;
  if (s.ok()) s = store->GetParams(&params, &has_params);
  if (s.ok() && has_params && params.kind == storage::StoreKind::kRemoved) {
    if (!plot_path.empty()) {
      return BadInput("eulerdeck status", "--plot: a count --removed store has no levels");
    }
    return StatusRemoved(dir, store.get(), spec, vm["json"].as<bool>());
  }
  const bool is_count = has_params && params.kind == storage::StoreKind::kCount;
  storage::CountProgress counting;
  if (s.ok() && is_count) s = storage::ReadCountProgress(store.get(), spec, &counting);
  if (!s.ok()) return StoreError("eulerdeck status", s);
  const int n = spec.cards();
  const bool done = !levels.empty() && levels.back().level == n;
  // A count that is not complete was interrupted, wherever it stands.
  if (is_count && !done && counting.split_level > 0) in_progress = false;
  const double rate = in_progress && p.seconds > 0 ? p.pass_entries() / p.seconds : 0.0;
  const double eta = in_progress && p.next_ordinal > 0
                         ? p.seconds * (static_cast<double>(p.input_blocks) / p.next_ordinal - 1)
                         : -1;
  const storage::RunActivity activity =
      storage::ReadRunActivity(dir, done, in_progress, !levels.empty(), is_count);
  const bool running = activity.state == storage::RunState::kRunning;
  const bool has_live = activity.has_live;
  const storage::LiveStatus& live = activity.live;
  const char* state = storage::RunStateName(activity.state);
  const double now = storage::UnixNow();
  const double checkpoint_age = in_progress && p.saved > 0 ? now - p.saved : -1;
  if (!plot_path.empty()) {
    PlotSpec plot;
    plot.title = "Winning sub-decks per level: " + GameLine(spec) + ", store " + dir + ", " +
                 state + " (levels 1.." + std::to_string(levels.empty() ? 0 : levels.back().level) +
                 " of " + std::to_string(n) + ")";
    plot.xlabel = "level k (cards in the sub-deck)";
    plot.ylabel = "winning sub-decks";
    plot.log_y = plot.points = true;
    PlotSeries series;
    series.title = "m = " + std::to_string(spec.ranks);
    for (const auto& r : levels) {
      if (r.entries > 0) series.points.emplace_back(r.level, static_cast<double>(r.entries));
    }
    plot.series.push_back(series);
    if (!WritePlotOrReport("eulerdeck status", plot_path, plot)) return kExitCheckFailed;
    if (plot_path == "-") return kExitOk;  // the plot is the only thing on standard output
  }
  // A count that no process is counting: the work left, estimated (a
  // second or so of sampling for a count of hours), and its time on this
  // machine's cores at the rate measured so far.
  storage::CountLeft left;
  bool has_left = false;
  const int threads = EffectiveThreads(0);
  if (is_count && !running && !done && counting.split_level > 0 && counting.split_level < n &&
      counting.subtrees_done < counting.subtrees_total) {
    has_left = storage::EstimateStoredLeft(store.get(), spec, threads, &left).ok();
  }
  // What the committed batches counted below the split level: the work
  // done, and a lower bound on the winning decks while the count is not
  // complete (at the end, the sub-decks below the split level and the
  // winning decks).
  uint64_t counted_sub_decks = 0, counted_winning = 0;
  if (is_count && counting.split_level > 0) {
    for (int j = counting.split_level + 1;
         j <= n && j < static_cast<int>(counting.counted.level.size()); ++j) {
      counted_sub_decks += counting.counted.level[j];
    }
    if (n < static_cast<int>(counting.counted.level.size()))
      counted_winning = counting.counted.level[n];
  }
  if (vm["json"].as<bool>()) {
    // docs/schema/eulerdeck-status.schema.json: counts of sub-decks as
    // strings, checksums in hex, fields that do not apply left out.
    nlohmann::ordered_json j = GameResultJson("eulerdeck status", spec, dir);
    j["state"] = state;
    j["complete"] = done;
    j["keep"] = storage::KeepName(params.keep);
    j["kind"] = storage::StoreKindName(params.kind);
    // The result, once complete: the entries of level n (issue 51, B5).
    if (done) j["winning_decks"] = std::to_string(levels.back().entries);
    if (is_count) {
      nlohmann::ordered_json sizes = nlohmann::ordered_json::array();
      for (int b = 0; b < kSizeBuckets; ++b) {
        if (counting.counted.sizes[b] > 0) sizes.push_back({b, counting.counted.sizes[b]});
      }
      if (!params.tally.empty()) j["tally"] = params.tally;
      j["count"] = {{"subtree_target", params.subtree_target},
                    {"split_level", counting.split_level},
                    {"subtrees", counting.subtrees_total},
                    {"subtrees_counted", counting.subtrees_done},
                    {"batches", counting.batches},
                    {"worker_seconds", counting.counted.seconds},
                    {"sub_decks_counted", std::to_string(counted_sub_decks)},
                    {"winning_decks_counted", std::to_string(counted_winning)},
                    {"subtree_sizes_log2", sizes}};
      if (has_left) {
        j["count"]["estimated_left"] = {{"sub_decks", left.sub_decks}, {"threads", left.threads}};
        if (left.worker_seconds >= 0) {
          j["count"]["estimated_left"]["worker_seconds"] = left.worker_seconds;
        }
        if (left.time.seconds > 0) {
          // The forecasts' model (engine/estimate/forecast.h), as `count` forecasts.
          j["count"]["estimated_left"]["seconds"] = left.time.seconds;
          j["count"]["estimated_left"]["seconds_factor"] = left.time.factor;
        }
      }
    }
    if (has_live && live.counting) {
      j["live"] = {{"pid", live.pid},
                   {"started", UtcTime(live.started)},
                   {"updated_seconds_ago", now - live.updated},
                   {"split_level", live.level},
                   {"subtrees_done", live.input_done},
                   {"subtrees", live.input_total},
                   {"sub_decks_counted", std::to_string(live.entries)},
                   {"sub_decks_per_second", live.entries_per_second}};
      if (live.eta_seconds >= 0) j["live"]["eta_seconds"] = live.eta_seconds;
      if (live.sub_decks_left >= 0) j["live"]["sub_decks_left"] = live.sub_decks_left;
    } else if (has_live) {
      j["live"] = {{"pid", live.pid},
                   {"started", UtcTime(live.started)},
                   {"updated_seconds_ago", now - live.updated},
                   {"level", live.level},
                   {"pass_last_level", std::max(live.level, live.pass_last)},
                   {"last_level", live.last_level},
                   {"input_blocks_done", live.input_done},
                   {"input_blocks", live.input_total},
                   {"winning_sub_decks", std::to_string(live.entries)},
                   {"stored_bytes", live.stored_bytes},
                   {"winning_sub_decks_per_second", live.entries_per_second}};
    }
    j["levels"] = nlohmann::ordered_json::array();
    for (const auto& r : levels) {
      j["levels"].push_back({{"level", r.level},
                             {"winning_sub_decks", std::to_string(r.entries)},
                             {"blocks", r.blocks},
                             {"raw_bytes", r.raw_bytes},
                             {"stored_bytes", r.stored_bytes},
                             {"checksum", Hex64(r.checksum)},
                             {"seconds", r.seconds},
                             {"kept", r.kept}});
    }
    if (in_progress) {
      nlohmann::ordered_json pass = nlohmann::ordered_json::array();
      pass.push_back({{"level", p.level},
                      {"winning_sub_decks", std::to_string(p.entries)},
                      {"stored_bytes", p.stored_bytes}});
      for (const auto& d : p.deeper) {
        pass.push_back({{"level", d.level},
                        {"winning_sub_decks", std::to_string(d.entries)},
                        {"stored_bytes", d.stored_bytes}});
      }
      nlohmann::ordered_json q = {{"level", p.level},
                                  {"pass_last_level", p.last_level()},
                                  {"input_blocks_done", p.next_ordinal},
                                  {"input_blocks", p.input_blocks},
                                  {"winning_sub_decks", std::to_string(p.pass_entries())},
                                  {"stored_bytes", p.pass_stored_bytes()},
                                  {"seconds", p.seconds},
                                  {"winning_sub_decks_per_second", rate},
                                  {"levels", pass}};
      if (eta >= 0) q["eta_seconds"] = eta;
      if (checkpoint_age >= 0) q["checkpoint_age_seconds"] = checkpoint_age;
      j["in_progress"] = q;
    }
    j["disk_bytes"] = store->DiskBytes();
    std::cout << j.dump() << "\n";
    return kExitOk;
  }
  std::cout << "store      " << dir << "\n"
            << "game       " << GameLine(spec) << "\n"
            << "state      " << state;
  if (running && has_live && live.counting) {
    // The live file is a few seconds old; the committed records are read
    // now and may be newer (a batch checkpointed since): the larger is
    // the one done (both are finished subtrees), and the `subtrees` line
    // below, the committed ones, never shows more than this one
    // (924094 done beside 956862 counted, issue 42 B3).
    const uint64_t live_done = std::max<uint64_t>(live.input_done, counting.subtrees_done);
    std::cout << " (pid " << live.pid << ", since " << UtcTime(live.started)
              << "): counting the subtrees below level " << live.level << ", "
              << Thousands(live_done) << " of " << Thousands(live.input_total) << " done, "
              << HumanCount(live.entries_per_second) << " sub-decks/s";
    if (live.eta_seconds >= 0) std::cout << ", ETA " << HumanDuration(live.eta_seconds);
    if (live.eta_seconds >= 0 && live.sub_decks_left >= 0) {
      std::cout << " for ~" << HumanCount(live.sub_decks_left) << " sub-decks left (estimated)";
    } else if (live.eta_seconds >= 0) {
      std::cout << " by subtrees";
    }
    std::cout << " (" << HumanDuration(now - live.updated) << " ago)";
  } else if (running && has_live) {
    std::cout << " (pid " << live.pid << ", since " << UtcTime(live.started)
              << "): " << LevelsName(live.level, live.pass_last) << " of " << live.last_level
              << ", input block " << Thousands(live.input_done) << " of "
              << Thousands(live.input_total) << ", " << HumanCount(live.entries) << " entries, "
              << HumanCount(live.entries_per_second) << " entries/s ("
              << HumanDuration(now - live.updated) << " ago)";
  } else if (running) {
    std::cout << " (another process holds the store)";
  } else if (activity.state == storage::RunState::kInterrupted && is_count &&
             counting.subtrees_total > 0 && counting.subtrees_done == counting.subtrees_total) {
    // Every subtree counted, the totals not yet written (a kill between
    // the last batch and the end): nothing left to count.
    std::cout << " with every subtree counted (" << Thousands(counting.subtrees_total)
              << "), its totals not written; `eulerdeck resume --store " << dir
              << "` writes them (it counts nothing)";
  } else if (activity.state == storage::RunState::kInterrupted && is_count) {
    std::cout << " with " << Thousands(counting.subtrees_done) << " of "
              << Thousands(counting.subtrees_total)
              << " subtrees counted; continue with `eulerdeck resume --store " << dir << "`";
  } else if (activity.state == storage::RunState::kInterrupted && !in_progress) {
    std::cout << " after level " << (levels.empty() ? 0 : levels.back().level)
              << "; continue with `eulerdeck resume --store " << dir << "`";
  } else if (in_progress) {
    std::cout << " during " << LevelsName(p.level, p.last_level());
    if (checkpoint_age >= 0)
      std::cout << ", last checkpoint " << HumanDuration(checkpoint_age) << " ago";
    std::cout << "; continue with `eulerdeck resume --store " << dir << "`";
  } else if (!done && !levels.empty()) {
    std::cout << " after level " << levels.back().level << " of " << n;
  }
  std::cout << "\n";
  // The result first (issue 51, B5): the entries of level n.
  if (done) WinningLine(levels.back().entries, TotalDecks64(spec).value_or(0));
  if (is_count) {
    std::cout << "kind       " << (params.tally.empty() ? "" : params.tally + " ")
              << "count, split at level " << counting.split_level << " (the first with "
              << Thousands(params.subtree_target) << " sub-decks or " << storage::kMinSubtreeDepth
              << " levels above the last)\n";
    if (counting.split_level > 0 && counting.split_level < n) {
      // While a process counts, these are the committed batches' (the
      // state line adds those finished since the last checkpoint).
      std::cout << "subtrees   " << Thousands(counting.subtrees_done) << " of "
                << Thousands(counting.subtrees_total) << (running ? " committed (" : " counted (")
                << Ratio(100.0 * counting.subtrees_done, counting.subtrees_total, 1) << "%), "
                << Plural(counting.batches, "batch", "batches") << ", "
                << HumanDuration(counting.counted.seconds) << " of worker time\n";
      if (!done) {
        std::cout << "counted    " << HumanCount(static_cast<double>(counted_sub_decks))
                  << " sub-decks below level " << counting.split_level << " so far, "
                  << HumanCount(static_cast<double>(counted_winning)) << " of them winning decks\n";
      }
    }
    if (has_left) {
      // The time by the forecasts' model (forecast.h), the one `count`
      // forecasts with: the rate measured now, on this machine as busy as
      // it is now. The committed batches' own rate was the past machine's
      // (4h22m where the forecast said 114 min, issue 42 B2): only beside it.
      std::cout << "left       ~" << HumanCount(left.sub_decks) << " sub-decks (estimated)";
      if (left.time.seconds > 0) {
        std::cout << ", " << ForecastTime(left.time) << " on " << Plural(left.threads, "thread")
                  << " at this machine's rate now";
      }
      if (left.worker_seconds >= 0) {
        std::cout << " (" << HumanDuration(left.worker_seconds / left.threads)
                  << " at the rate of the batches committed so far)";
      }
      std::cout << "\n";
    }
  }
  std::cout << "keep       " << storage::KeepName(params.keep) << "\n";
  // The counts with thousands separators, each column as wide as its widest
  // value (a 15-digit count is 19 characters): a header over aligned columns.
  int entries_width = 9, blocks_width = 6;
  for (const auto& r : levels) {
    entries_width = std::max(entries_width, static_cast<int>(Thousands(r.entries).size()));
    blocks_width = std::max(blocks_width, static_cast<int>(Thousands(r.blocks).size()));
  }
  std::printf("level  %*s  %*s      stored  B/entry  ratio   seconds  kept\n", entries_width,
              "sub-decks", blocks_width, "blocks");
  int counted_first = 0, counted_last = 0;  // a count's levels below its split
  for (const auto& r : levels) {
    if (is_count && r.level > counting.split_level && r.blocks == 0) {
      // Counted by the subtrees' batches, never stored: no blocks, bytes or
      // seconds of their own (not "0 blocks, 0 B", which reads as damage).
      std::printf("%5d  %*s  %*s  %10s  %7s  %5s  %8s  %s\n", r.level, entries_width,
                  Thousands(r.entries).c_str(), blocks_width, "-", "-", "-", "-", "-", "no");
      if (counted_first == 0) counted_first = r.level;
      counted_last = r.level;
      continue;
    }
    std::printf("%5d  %*s  %*s  %10s  %7s  %5s  %8.1f  %s\n", r.level, entries_width,
                Thousands(r.entries).c_str(), blocks_width, Thousands(r.blocks).c_str(),
                HumanBytes(r.stored_bytes).c_str(), Ratio(r.stored_bytes, r.entries).c_str(),
                Ratio(r.raw_bytes, r.stored_bytes, 1).c_str(), r.seconds, r.kept ? "yes" : "no");
  }
  std::fflush(stdout);
  if (counted_first > 0) {
    std::cout << "           " << LevelsName(counted_first, counted_last)
              << ": counted in the subtrees below the split, not stored (-)\n";
  }
  if (in_progress) {
    std::cout << "progress   " << LevelsName(p.level, p.last_level()) << ": input block "
              << Thousands(p.next_ordinal) << " of " << Thousands(p.input_blocks) << ", "
              << Thousands(p.pass_entries()) << (p.pass_entries() == 1 ? " entry" : " entries")
              << " so far, " << HumanCount(rate) << " entries/s, ETA " << HumanDuration(eta)
              << " (at the last checkpoint)\n";
  }
  std::cout << "disk       " << HumanBytes(store->DiskBytes()) << "\n";
  return kExitOk;
}

int RunInspect(const std::vector<std::string>& args) {
  std::string dir, from;
  int level = 0;
  uint64_t limit = 20;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help")("store", po::value(&dir)->required(),
                                                 "the store directory")(
      "level", po::value(&level)->required(), "the level (sub-decks of K cards)")(
      "limit", po::value(&limit)->default_value(20), "entries to print (0: all)")(
      "from", po::value(&from),
      "start at the first entry whose string ends with these cards (e.g. "
      "\"4 3 1 2 1 2\", or \"431212\" with at most 9 ranks; for modular, the counts "
      "of the removals), or the next one after it")("json", po::bool_switch(),
                                                    "print one JSON object");
  po::variables_map vm;
  if (ParseOrHelp(args, desc,
                  "usage: eulerdeck inspect --store DIR --level K [--limit N]\n"
                  "                         [--from STRING] [--json]\n"
                  "Prints a level's entries in key order (by string, read from its end) as\n"
                  "sub-decks (top card first) and their strings (removal order, Bersani\n"
                  "2010's reduced strings), under a header and over a total. --from is a\n"
                  "position, not a filter: the listing starts at the first entry whose\n"
                  "string ends with the given cards, or at the next entry in key order when\n"
                  "none does (said on stderr). The cards are separated by spaces or\n"
                  "commas (\"4 3 1 2 1 2\"); with at most 9 ranks also one digit per card\n"
                  "(\"431212\", the paper's notation).",
                  vm))
    return kExitOk;
  const bool json = vm["json"].as<bool>();
  std::unique_ptr<storage::FrontierStore> store;
  GameSpec spec;
  std::vector<storage::LevelRecord> levels;
  Status s = OpenReadOnly(dir, &store, &spec, &levels);
  if (s.ok() && (level < 1 || level > static_cast<int>(levels.size()))) {
    s = Status::InvalidArgument("level " + std::to_string(level) +
                                " is not committed (the store has 1.." +
                                std::to_string(levels.size()) + ")");
  }
  if (s.ok() && !levels[level - 1].kept)
    s = Status::InvalidArgument("level " + std::to_string(level) + " was not kept");
  std::vector<uint16_t> prefix;
  if (s.ok() && !from.empty()) {
    Deck cards;
    if (spec.ranks <= 9 && from.find_first_of(" ,") == std::string::npos) {
      // The paper's notation: one digit per card, "431212".
      for (char c : from) {
        if (c < '1' || c > '9') {
          s = Status::InvalidArgument("--from '" + from + "' is not a string of cards");
          break;
        }
        cards.push_back(static_cast<Card>(c - '0'));
      }
    } else if (from.find_first_of(" ,") == std::string::npos && from.size() > 1 &&
               from.find_first_not_of("0123456789") == std::string::npos) {
      // "431212" with 10 ranks or more could be 4 3 12 1 2 as well.
      s = Status::InvalidArgument("--from '" + from + "': with " + std::to_string(spec.ranks) +
                                  " ranks a string needs spaces or commas between its cards "
                                  "(e.g. \"4 3 1 2 1 2\")");
    } else {
      s = ParseCards(from, &cards);
    }
    // A string ending longer than the level's sub-decks matches no entry:
    // say so rather than print nothing.
    if (s.ok() && cards.size() > static_cast<size_t>(level)) {
      s = Status::InvalidArgument("--from has " + std::to_string(cards.size()) +
                                  " cards, more than the " + std::to_string(level) + " of level " +
                                  std::to_string(level));
    }
    // The j-th card from the end of a string is a count of sub-decks of j
    // cards: a value beyond what such a count can be names no entry.
    for (size_t j = 0; s.ok() && j < cards.size(); ++j) {
      const Card c = cards[cards.size() - 1 - j];
      const uint32_t most = spec.game == Game::kModular
                                ? CountLimit(spec, static_cast<uint32_t>(j + 1))
                                : static_cast<uint32_t>(spec.ranks);
      if (c < 1 || c > most) {
        s = Status::InvalidArgument("--from '" + from + "': no string of this game has " +
                                    std::to_string(c) + " in position " + std::to_string(j + 1) +
                                    " from its end (at most " + std::to_string(most) + ")");
      }
    }
    for (auto it = cards.rbegin(); it != cards.rend(); ++it) prefix.push_back(*it);  // key order
  }
  if (!s.ok()) return StoreError("eulerdeck inspect", s);
  const uint64_t in_level = levels[level - 1].entries;
  PathDecoder decoder(spec);
  uint64_t printed = 0;
  bool first = true;
  nlohmann::ordered_json entries = nlohmann::ordered_json::array();
  if (!json) std::cout << "deck (top card first)  |  string (removal order)\n";
  s = storage::ForEachEntryFrom(store.get(), level, prefix, [&](const uint16_t* path, int k) {
    if (first && !prefix.empty() &&
        !std::equal(prefix.begin(), prefix.end(), path, path + prefix.size())) {
      std::cerr << "eulerdeck inspect: no entry of level " << level << " ends with '" << from
                << "'; listing from the next one\n";
    }
    first = false;
    const Card* deck = decoder.Decode(path, k);
    const Deck cards(deck, deck + k);
    const Deck string = PathString(spec, path, k);
    if (json) {
      nlohmann::ordered_json e;
      e["deck"] = cards;
      e["string"] = string;
      entries.push_back(e);
    } else {
      std::cout << DeckToString(cards) << "  |  " << DeckToString(string) << "\n";
    }
    ++printed;
    return limit == 0 || printed < limit;
  });
  if (!s.ok()) {
    std::cerr << "eulerdeck inspect: " << s.ToString() << "\n";
    return kExitCheckFailed;
  }
  if (first && !prefix.empty()) {
    std::cerr << "eulerdeck inspect: no entry of level " << level << " at or after '" << from
              << "'\n";
  }
  const uint64_t shown = printed;
  if (json) {
    nlohmann::ordered_json j = GameResultJson("eulerdeck inspect", spec, dir);
    j["level"] = level;
    j["winning_sub_decks"] = std::to_string(in_level);
    j["shown"] = std::to_string(shown);
    j["sub_decks"] = entries;
    std::cout << j.dump() << "\n";
  } else {
    std::cout << "(" << Thousands(shown) << " of " << Plural(in_level, "entry", "entries")
              << " shown"
              << (limit != 0 && shown == limit && shown < in_level ? "; --limit 0 shows all" : "")
              << ")\n";
  }
  return kExitOk;
}

int RunExport(const std::vector<std::string>& args) {
  std::string dir, counts_path, decks_path, batches_path, progress_path;
  int level = 0;
  bool partial = false;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help")("store", po::value(&dir)->required(),
                                                 "the store directory")(
      "counts", po::value(&counts_path),
      "write one row per committed level to FILE as CSV (- for standard output), the "
      "columns above")("partial", po::bool_switch(&partial),
                       "with --counts: write the committed levels of an unfinished store too "
                       "(a warning on stderr); without it, such a store is refused (exit 2)")(
      "level", po::value(&level), "with --decks: the level to export")(
      "decks", po::value(&decks_path),
      "write the level's sub-decks to FILE as CSV (- for standard output), the columns "
      "above")("batches", po::value(&batches_path),
               "a count store: write one row per committed batch to FILE as CSV (- for "
               "standard output), the columns above")(
      "progress", po::value(&progress_path),
      "a count store: write its progress to FILE (- for standard output) as a small JSON "
      "document, from which 'eulerdeck import' makes a new store that resumes it")(
      "json", po::bool_switch(),
      "print one JSON object on standard output saying what was written (the FILE must "
      "then not be -)");
  po::variables_map vm;
  if (ParseOrHelp(args, desc,
                  "usage: eulerdeck export --store DIR --counts FILE\n"
                  "       eulerdeck export --store DIR --level K --decks FILE\n"
                  "       eulerdeck export --store DIR --batches FILE\n"
                  "       eulerdeck export --store DIR --progress FILE\n"
                  "Writes CSV (docs/output.md: a header, then data rows only). --counts: one\n"
                  "row per committed level, with the columns\n"
                  "  game,ranks,suits,level,winning_sub_decks,blocks,stored_bytes,raw_bytes\n"
                  "(a finished count --removed: its distribution as 'count --removed --csv'\n"
                  "writes it, game,ranks,suits,distribution,value,decks, the decks removing\n"
                  "exactly value cards)\n"
                  "(winning_sub_decks: the sub-decks of K cards stored at level K; the blocks\n"
                  "holding them; their bytes as stored and before compression). A store that\n"
                  "is not finished is refused (exit 2) unless --partial, which writes the\n"
                  "levels committed so far with a warning on stderr. --decks: one\n"
                  "row per sub-deck of level K, streamed in key order, with the columns\n"
                  "  game,ranks,suits,level,deck,string\n"
                  "(deck: the sub-deck, top card first; string: its removal order, Bersani\n"
                  "2010's reduced string; both values separated by spaces). --batches (a\n"
                  "count store): one row per committed batch of subtrees, in key order, with\n"
                  "the columns\n"
                  "  game,ranks,suits,split_level,block,first,subtrees,sub_decks,winning,\n"
                  "  thread_seconds\n"
                  "(block, first: where its first subtree is in the split level; sub_decks:\n"
                  "below its roots, at every level; winning: its winning decks;\n"
                  "thread_seconds: the time that counted it x the worker's threads).\n"
                  "--progress (a count store): what it has committed so far, as a JSON\n"
                  "document of a few kilobytes with its own checksum (docs/output.md): copy\n"
                  "it off the machine, and 'eulerdeck import --progress FILE --store NEW'\n"
                  "makes a store that 'eulerdeck resume' continues, on any machine. Safe\n"
                  "while the count runs (it exports what is committed). --json: one\n"
                  "object on standard output (docs/schema/eulerdeck-export.schema.json): the\n"
                  "store, what was written to which file, its rows.",
                  vm))
    return kExitOk;
  const bool json = vm["json"].as<bool>();
  std::unique_ptr<storage::FrontierStore> store;
  GameSpec spec;
  Status s = CheckResultStreams(json, {{"counts", counts_path},
                                       {"decks", decks_path},
                                       {"batches", batches_path},
                                       {"progress", progress_path}});
  if (!s.ok()) return BadInput("eulerdeck export", s.ToString());
  // --json: what was written, once it is (docs/schema/eulerdeck-export.schema.json).
  auto report = [&](const std::string& what, const std::string& path, uint64_t rows) {
    if (!json) return;
    nlohmann::ordered_json j = GameResultJson("eulerdeck export", spec, dir);
    j["output"] = what;
    j["file"] = path;
    j["rows"] = std::to_string(rows);
    std::cout << j.dump() << "\n" << std::flush;
  };
  if (s.ok() &&
      counts_path.empty() + decks_path.empty() + batches_path.empty() + progress_path.empty() != 3)
    s = Status::InvalidArgument("give --counts, --decks, --batches or --progress (one of them)");
  if (s.ok() && !decks_path.empty() && !vm.count("level"))
    s = Status::InvalidArgument("--decks needs --level");
  if (s.ok() && decks_path.empty() && vm.count("level"))
    s = Status::InvalidArgument("--level goes with --decks only (the others cover every level)");
  if (s.ok() && partial && counts_path.empty())
    s = Status::InvalidArgument("--partial goes with --counts only");
  std::vector<storage::LevelRecord> levels;
  if (s.ok()) s = OpenReadOnly(dir, &store, &spec, &levels);
  if (s.ok() && progress_path.empty()) {
    // A count --removed store: its batches, or nothing of levels.
    storage::StoreParams params;
    bool has_params = false;
    s = store->GetParams(&params, &has_params);
    if (s.ok() && has_params && params.kind == storage::StoreKind::kRemoved) {
      if (batches_path.empty() && counts_path.empty()) {
        return BadInput("eulerdeck export",
                        "store '" + dir +
                            "' holds a count --removed, which has no levels (--counts, --batches "
                            "or --progress)");
      }
      storage::RemovedProgress removed;
      std::vector<storage::RemovedBatchSummary> batches;
      s = storage::ReadRemovedProgress(store.get(), &removed, &batches);
      if (!s.ok()) return StoreError("eulerdeck export", s);
      // --counts: its result, the distribution, once complete (issue 51,
      // B5); an unfinished count has none to write, not even in part.
      std::vector<uint64_t> distribution;
      if (!counts_path.empty() && !removed.complete()) {
        return BadInput("eulerdeck export",
                        "the count is not finished: " + Thousands(removed.tasks_done) + " of " +
                            Thousands(removed.plan.tasks) +
                            " tasks (a count --removed has its distribution only once complete)");
      }
      if (!counts_path.empty()) s = storage::RemovedDistribution(spec, removed, &distribution);
      if (!s.ok()) return StoreError("eulerdeck export", s);
      const std::string& path = counts_path.empty() ? batches_path : counts_path;
      OutputFile out;
      s = out.Open(path);
      if (!s.ok()) return StoreError("eulerdeck export", s);
      const std::string game = CsvGamePrefix(spec);
      uint64_t rows = 0;
      if (!counts_path.empty()) {
        // The columns and rows of `count --removed --csv`.
        out << "game,ranks,suits,distribution,value,decks\n";
        for (size_t i = 0; i < distribution.size(); ++i, ++rows) {
          out << game << "removed," << i << "," << distribution[i] << "\n";
        }
      } else {
        out << "game,ranks,suits,split_depth,first,tasks,decks,thread_seconds\n";
        for (const auto& b : batches) {
          char seconds[32];
          std::snprintf(seconds, sizeof(seconds), "%.6f", b.thread_seconds);
          out << game << removed.plan.split_depth << "," << b.first << "," << b.tasks << ","
              << b.decks << "," << seconds << "\n";
          ++rows;
        }
      }
      if (!CommitOutput("eulerdeck export", &out)) return kExitCheckFailed;
      report(counts_path.empty() ? "batches" : "counts", path, rows);
      return kExitOk;
    }
  }
  // --counts of a store that is not finished: its rows would read as the
  // game's counts, levels missing (issue 42, B3). Refused before FILE is
  // opened, unless --partial; then a warning says what the rows are.
  std::string unfinished;
  if (s.ok() && !counts_path.empty() && (levels.empty() || levels.back().level != spec.cards())) {
    storage::StoreParams params;
    bool has_params = false;
    s = store->GetParams(&params, &has_params);
    storage::CountProgress counting;
    if (s.ok() && has_params && params.kind == storage::StoreKind::kCount)
      s = storage::ReadCountProgress(store.get(), spec, &counting);
    if (s.ok() && counting.subtrees_total > 0) {
      unfinished = "the count is not finished: " + Thousands(counting.subtrees_done) + " of " +
                   Thousands(counting.subtrees_total) + " subtrees";
    } else if (s.ok()) {
      unfinished =
          "the run is not finished: " + std::to_string(levels.empty() ? 0 : levels.back().level) +
          " of " + std::to_string(spec.cards()) + " levels";
    }
    if (s.ok() && !partial) {
      std::cerr << "eulerdeck export: " << unfinished
                << " (--partial writes the levels committed so far)\n";
      return kExitBadInput;
    }
  }
  if (s.ok() && !decks_path.empty() &&
      (level < 1 || level > static_cast<int>(levels.size()) || !levels[level - 1].kept)) {
    s = Status::InvalidArgument("level " + std::to_string(level) + " is not in the store");
  }
  storage::CountProgress progress;
  std::vector<storage::CountBatchSummary> batches;
  // Read before the output is opened: a store that is no count is refused
  // without writing FILE.
  if (s.ok() && !batches_path.empty())
    s = storage::ReadCountBatches(store.get(), spec, &progress, &batches);
  std::string document;
  storage::ProgressSummary summary;
  if (s.ok() && !progress_path.empty())
    s = storage::ExportCountProgress(store.get(), &document, &summary);
  if (!s.ok()) return StoreError("eulerdeck export", s);
  const std::string path = !counts_path.empty()    ? counts_path
                           : !decks_path.empty()   ? decks_path
                           : !batches_path.empty() ? batches_path
                                                   : progress_path;
  OutputFile out;
  s = out.Open(path);
  if (!s.ok()) return StoreError("eulerdeck export", s);
  if (!progress_path.empty()) {
    out << document;
    if (!CommitOutput("eulerdeck export", &out)) return kExitCheckFailed;
    const bool removed = summary.kind == storage::StoreKindName(storage::StoreKind::kRemoved);
    if (json) {
      nlohmann::ordered_json j = GameResultJson("eulerdeck export", spec, dir);
      j["output"] = "progress";
      j["file"] = progress_path;
      j["kind"] = summary.kind;
      j[removed ? "tasks_done" : "subtrees_done"] = std::to_string(summary.subtrees_done);
      j[removed ? "tasks" : "subtrees"] = std::to_string(summary.subtrees_total);
      j[removed ? "decks_counted" : "winning_decks_counted"] = std::to_string(summary.winning);
      j["records"] = summary.batches;
      std::cout << j.dump() << "\n" << std::flush;
      return kExitOk;
    }
    std::cerr << "eulerdeck export: " << Thousands(summary.subtrees_done) << " of "
              << Thousands(summary.subtrees_total)
              << (removed ? " tasks counted (" : " subtrees counted (")
              << Thousands(summary.winning)
              << (removed ? " decks below them so far), in " : " winning decks so far), in ")
              << Plural(summary.batches, "record") << ", to "
              << (progress_path == "-" ? std::string("standard output") : progress_path) << "\n";
    return kExitOk;
  }
  // The columns game,ranks,suits that start every row (docs/output.md).
  const std::string game = CsvGamePrefix(spec);
  if (!batches_path.empty()) {
    out << "game,ranks,suits,split_level,block,first,subtrees,sub_decks,winning,thread_seconds\n";
    for (const auto& b : batches) {
      char seconds[32];
      std::snprintf(seconds, sizeof(seconds), "%.6f", b.thread_seconds);
      out << game << progress.split_level << "," << b.block << "," << b.first << "," << b.subtrees
          << "," << b.sub_decks << "," << b.winning << "," << seconds << "\n";
    }
    if (!CommitOutput("eulerdeck export", &out)) return kExitCheckFailed;
    report("batches", batches_path, batches.size());
    return kExitOk;
  }
  if (!counts_path.empty()) {
    if (!unfinished.empty()) {
      std::cerr << "eulerdeck export: warning: " << unfinished << "; writing levels 1.."
                << (levels.empty() ? 0 : levels.back().level) << " only\n";
    }
    out << "game,ranks,suits,level,winning_sub_decks,blocks,stored_bytes,raw_bytes\n";
    for (const auto& r : levels) {
      out << game << r.level << "," << r.entries << "," << r.blocks << "," << r.stored_bytes << ","
          << r.raw_bytes << "\n";
    }
    if (!CommitOutput("eulerdeck export", &out)) return kExitCheckFailed;
    report("counts", counts_path, levels.size());
    return kExitOk;
  }
  out << "game,ranks,suits,level,deck,string\n";
  PathDecoder decoder(spec);
  uint64_t rows = 0;
  s = storage::ForEachEntry(store.get(), level, [&](const uint16_t* p, int k) {
    const Card* deck = decoder.Decode(p, k);
    out << game << level << "," << DeckToString(Deck(deck, deck + k)) << ","
        << DeckToString(PathString(spec, p, k)) << "\n";
    ++rows;
    return true;
  });
  if (!s.ok()) {
    std::cerr << "eulerdeck export: " << s.ToString() << "\n";
    return kExitCheckFailed;
  }
  if (!CommitOutput("eulerdeck export", &out)) return kExitCheckFailed;
  report("decks", decks_path, rows);
  return kExitOk;
}

int RunVerify(const std::vector<std::string>& args) {
  std::string dir;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help")("store", po::value(&dir)->required(),
                                                 "the store directory")(
      "json", po::bool_switch(),
      "print one JSON object once no fault is found (a fault: exit 1, one line on stderr, "
      "nothing on standard output)");
  po::variables_map vm;
  if (ParseOrHelp(args, desc,
                  "usage: eulerdeck verify --store DIR [--json]\n"
                  "Re-reads every block of every kept level: checksums, counts, order, and\n"
                  "that each entry is a valid child of an entry of the level below; checks\n"
                  "the database files' own checksums first. Shows its progress (bytes read)\n"
                  "on a terminal, log lines otherwise; Ctrl-C stops it with one line and\n"
                  "exit 130 (it writes nothing).",
                  vm))
    return kExitOk;
  std::unique_ptr<storage::FrontierStore> store;
  GameSpec spec;
  Status s = OpenReadOnly(dir, &store, &spec);
  if (!s.ok() && !s.IsCorruption() && !s.IsIOError())
    return BadInput("eulerdeck verify", s.ToString());
  storage::VerifyReport report;
  if (s.ok()) {
    // Minutes on a large store: progress by bytes read, and Ctrl-C stops it
    // with one line (verify writes nothing, so nothing is lost).
    StopOnSignals signals;
    std::atomic<uint64_t> done{0}, total{0};
    storage::VerifyOptions options;
    options.stop = signals.flag();
    options.bytes_done = &done;
    options.bytes_total = &total;
    {
      Progress progress("verify", "bytes", &done, &total);
      s = storage::VerifyStore(store.get(), &report, options);
    }
    if (s.IsCancelled()) {
      const uint64_t d = done.load(), t = total.load();
      std::cerr << "eulerdeck verify: interrupted after reading " << HumanBytes(d) << " of "
                << HumanBytes(t) << " (" << Significant(t > 0 ? 100.0 * d / t : 0, 3)
                << "%), no fault found so far; verify writes nothing: run it again to check the "
                   "whole store\n";
      return signals.ExitCode();
    }
  }
  if (!s.ok()) {
    std::cerr << "eulerdeck verify: " << dir << ": " << s.ToString() << "\n";
    return kExitCheckFailed;
  }
  // A count --removed store: its records too (each parses, none overlaps or
  // passes the plan's tasks) and, complete, its sum (the game's decks).
  std::string removed_line;
  nlohmann::ordered_json removed_json;
  {
    storage::StoreParams params;
    bool has_params = false;
    s = store->GetParams(&params, &has_params);
    if (s.ok() && has_params && params.kind == storage::StoreKind::kRemoved) {
      storage::RemovedProgress progress;
      s = storage::ReadRemovedProgress(store.get(), &progress);
      std::vector<uint64_t> removed;
      if (s.ok() && progress.complete()) s = storage::RemovedDistribution(spec, progress, &removed);
      if (s.ok()) {
        removed_line = "; " + Plural(progress.batches, "batch", "batches") + " of " +
                       Thousands(progress.tasks_done) + " of " + Thousands(progress.plan.tasks) +
                       " tasks" + (progress.complete() ? ", summing to the game's decks" : "");
        removed_json = {{"batches", progress.batches},
                        {"tasks_counted", progress.tasks_done},
                        {"tasks", progress.plan.tasks},
                        {"sum_checked", progress.complete()}};
      }
    }
    if (!s.ok()) {
      std::cerr << "eulerdeck verify: " << dir << ": " << s.ToString() << "\n";
      return kExitCheckFailed;
    }
  }
  if (vm["json"].as<bool>()) {
    // docs/schema/eulerdeck-verify.schema.json.
    nlohmann::ordered_json j = GameResultJson("eulerdeck verify", spec, dir);
    j["levels_checked"] = report.levels_checked;
    j["in_progress_checked"] = report.in_progress_checked;
    j["blocks"] = std::to_string(report.blocks);
    j["entries"] = std::to_string(report.entries);
    j["parents_checked"] = std::to_string(report.parents_checked);
    j["files_replaced"] = report.files_replaced;
    if (!removed_json.is_null()) j["removed_count"] = removed_json;
    std::cout << j.dump() << "\n" << std::flush;
  } else {
    std::cout << "verified   the database files' checksums; "
              << Plural(report.levels_checked, "level")
              << (report.in_progress_checked ? " and the pass in progress to its checkpoint" : "")
              << ", " << Plural(report.blocks, "block") << ", "
              << Plural(report.entries, "entry", "entries") << " ("
              << Thousands(report.parents_checked) << " checked against their parents)"
              << removed_line << ": no fault\n";
  }
  if (report.files_replaced > 0) {
    std::cerr << "eulerdeck verify: " << Thousands(report.files_replaced)
              << " database files were replaced by the run writing the store while verify read "
                 "them; their contents were checked through the levels\n";
  }
  return kExitOk;
}

}  // namespace eulerdeck::tools
