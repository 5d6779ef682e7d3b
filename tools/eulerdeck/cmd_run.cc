// eulerdeck run / resume: the stored, resumable enumeration.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/estimate/forecast.h"
#include "engine/eulerian/children.h"
#include "storage/count/stored_reform_stats.h"
#include "storage/run/stored_run.h"
#include "storage/search/search_store.h"
#include "storage/store/frontier_store.h"
#include "tools/common/cli.h"
#include "tools/common/format.h"
#include "tools/common/interrupt.h"
#include "tools/common/progress.h"
#include "tools/eulerdeck/commands.h"
#include "tools/eulerdeck/count_store.h"
#include "tools/eulerdeck/forecast_text.h"

namespace eulerdeck::tools {

namespace {

constexpr const char* kRunUsage =
    "usage: eulerdeck run --game G --ranks M [--suits S] --store DIR [--threads T]\n"
    "                     [--memory-budget SIZE] [--keep all|last|none]\n"
    "                     [--until-level K] [--checkpoint-seconds SECONDS]\n"
    "                     [--pass-levels D] [--force] [--json]\n"
    "Builds every level of winning sub-decks into the store DIR (RocksDB), each\n"
    "streamed from the one below with bounded memory, checkpointing as it goes,\n"
    "then prints the store's status. DIR is created if need be; an existing DIR\n"
    "must be empty or hold a store of the same game; any other is refused.\n"
    "Run it again (or 'eulerdeck resume --store DIR') after an interruption: it\n"
    "continues from the last checkpoint. A new run first prints a forecast of its\n"
    "sub-decks, disk and time (a second of sampling the tree, docs/estimates.md)\n"
    "and refuses one forecast to take more than a day unless --force. A pass\n"
    "that neither the levels' growth so far nor the forecast of its levels says\n"
    "will fit the free disk is not started (one line, exit 1; resume once space\n"
    "is freed). --json: the status at the end as 'eulerdeck status --json'\n"
    "prints it.";
constexpr const char* kResumeUsage =
    "usage: eulerdeck resume --store DIR [--threads T] [--memory-budget SIZE]\n"
    "                        [--keep all|last|none] [--until-level K]\n"
    "                        [--checkpoint-seconds SECONDS] [--pass-levels D]\n"
    "                        [--batch-seconds SECONDS] [--json]\n"
    "Continues the enumeration held in DIR from its last checkpoint, then prints\n"
    "the store's status. A count store (made by 'eulerdeck count --store DIR')\n"
    "continues its count and prints the count's report; a reform-stats store\n"
    "(made by 'eulerdeck reform-stats --store DIR') continues and prints its report;\n"
    "a reform-search store (or a contest's directory of them) goes on searching\n"
    "to its budget. --json: the JSON of the command it continues (status, count,\n"
    "count --removed, reform-stats, reform-search) instead of its text.";

struct Common {
  std::string store_dir;
  int threads = 0;
  std::string budget_text = "512MiB";
  std::string keep_text;  // empty: the store's policy
  int until_level = 0;
  double checkpoint_seconds = 10.0;
  int pass_levels = storage::kDefaultPassLevels;
  bool json = false;

  void Add(po::options_description& desc) {
    desc.add_options()("store", po::value(&store_dir)->required(), "the store directory")(
        "threads", po::value(&threads)->default_value(0), "worker threads (0: all cores)")(
        "memory-budget", po::value(&budget_text)->default_value("512MiB"),
        "memory for the store's caches and write buffers and the stream (e.g. 512MiB, "
        "2GiB)")("keep", po::value(&keep_text),
                 "levels whose blocks stay: all | last (the newest) | none (counts only); "
                 "stored in the store (default: the store's, all for a new one)")(
        "until-level", po::value(&until_level)->default_value(0),
        "stop once this level is committed (0: the last)")(
        "checkpoint-seconds", po::value(&checkpoint_seconds)->default_value(10.0),
        "seconds between durable checkpoints")(
        "pass-levels", po::value(&pass_levels)->default_value(storage::kDefaultPassLevels),
        "levels written per pass over a stored level (1-4): a pass reads one level and "
        "writes the next D, so only every D-th level is read back; any D stores the same "
        "entries")("json", po::bool_switch(&json),
                   "print the result as one JSON object (a stored run: its status, "
                   "docs/schema/eulerdeck-status.schema.json)");
  }

  Status ToOptions(storage::RunOptions* o, uint64_t* budget) const {
    Status s = ParseBytes(budget_text, budget);
    if (!s.ok()) return s;
    if (*budget < (uint64_t{16} << 20))
      return Status::InvalidArgument("--memory-budget must be at least 16MiB");
    if (s = CheckThreads(threads); !s.ok()) return s;
    if (until_level < 0) return Status::InvalidArgument("--until-level must be >= 0");
    if (s = CheckSeconds("checkpoint-seconds", checkpoint_seconds, true); !s.ok()) return s;
    if (pass_levels < 1 || pass_levels > storage::kMaxPassLevels)
      return Status::InvalidArgument("--pass-levels must be between 1 and " +
                                     std::to_string(storage::kMaxPassLevels));
    if (!keep_text.empty()) {
      storage::Keep keep;
      if (!storage::ParseKeep(keep_text, &keep))
        return Status::InvalidArgument("--keep must be all, last or none, not '" + keep_text + "'");
      o->keep = keep;
    }
    o->threads = threads;
    o->until_level = until_level;
    o->pass_levels = pass_levels;
    o->checkpoint_seconds = checkpoint_seconds;
    return Status::OK();
  }
};

// The whole run's progress for the display: the pass in progress, and the
// work done and still to do, from the sizes of the levels.
//
// Work is counted in entries expanded, plus kWriteCost per entry written:
// building level k+1 expands every entry of level k (read back from the
// store, or still in memory within a pass) and writes those of k+1.
// (Measured on mousetrap --ranks 12, one thread: about 1.1 us per entry read
// and 0.33 us per entry written; with these weights the levels 9 to 12 take
// their share of the time within 5%, where by the entries read alone the
// time per entry varies by half between growing and shrinking levels.)
//
// The levels not built yet are sized from the growth of the last ones: the
// ratio E(k)/E(k-1) falls by a nearly constant step from level to level
// (mousetrap 13: 3.12, 2.47, 1.82, 1.20, 0.59; modular 11: 4, 3, 2), so each
// next ratio continues the last step. The levels of the pass in progress
// are scaled to its own output so far once a tenth of its input is read,
// and sized from the growth before that. Late levels shrink faster than
// this, so the ETA errs high, less so as each pass is committed.
class RunEstimate {
 public:
  struct Counters {
    const std::atomic<int>* level;
    const std::atomic<int>* pass_last;
    const std::atomic<uint64_t>* input_done;
    const std::atomic<uint64_t>* input_total;
    const std::atomic<uint64_t>* entries;
    const std::atomic<uint64_t>* bytes;
  };

  // `levels`: the committed levels when the run starts; `resumed`: the
  // checkpoint the run starts the next pass from (nullptr: none);
  // `forecast`: a new run's forecast of every level's sub-decks ([k], k
  // cards; empty: none), which sizes the levels not built yet instead of
  // the extrapolation below.
  RunEstimate(int last, const std::vector<storage::LevelRecord>& levels,
              const storage::ProgressRecord* resumed, Counters counters,
              std::vector<double> forecast = {}, double forecast_seconds = 0)
      : last_(last),
        counters_(counters),
        forecast_(std::move(forecast)),
        forecast_seconds_(forecast_seconds),
        start_(std::chrono::steady_clock::now()) {
    for (const auto& r : levels) sizes_.push_back(static_cast<double>(r.entries));
    if (resumed) {
      resumed_level_ = resumed->level;
      resumed_entries_.push_back(resumed->entries);
      for (const auto& d : resumed->deeper) resumed_entries_.push_back(d.entries);
    }
  }

  // RunStore's on_commit (its thread).
  void Committed(const storage::LevelRecord& r) {
    std::lock_guard<std::mutex> lock(mu_);
    if (static_cast<int>(sizes_.size()) + 1 != r.level) return;  // (cannot happen)
    sizes_.push_back(static_cast<double>(r.entries));
    written_ += r.entries - std::min<uint64_t>(r.entries, Resumed(r.level));
  }

  // Progress's stage function (the display's thread).
  ProgressStage Stage() const {
    std::lock_guard<std::mutex> lock(mu_);
    const int committed = static_cast<int>(sizes_.size());
    ProgressStage st;
    if (forecast_seconds_ > 0) {
      const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start_;
      st.prior_seconds_left = std::max(0.0, forecast_seconds_ - elapsed.count());
    }
    st.count = last_;
    st.index = std::min(committed + 1, last_);
    st.rate_unit = "entries";
    // RunStore reports a commit (Committed, under our lock) before it sets
    // the counters to 0 and moves `level` on: until then they are the
    // committed levels', and count for nothing more.
    const bool building = counters_.level->load() > committed && committed < last_;
    const int pass_last =
        building ? std::clamp(counters_.pass_last->load(), committed + 1, last_) : committed;
    const uint64_t total = building ? counters_.input_total->load() : 0;
    const double read =
        total ? std::min(1.0, static_cast<double>(counters_.input_done->load()) / total) : 0;
    const uint64_t entries = building ? counters_.entries->load() : 0;
    const uint64_t bytes = building ? counters_.bytes->load() : 0;
    uint64_t resumed = 0;
    for (int l = committed + 1; building && l <= pass_last; ++l) resumed += Resumed(l);
    st.rate_count = written_ + entries - std::min(entries, resumed);
    st.figures.emplace_back(HumanBytes(bytes) + " written", HumanBytes(bytes));
    st.figures.emplace_back(HumanCount(entries) + " entries");
    if (committed == 0) return st;  // nothing to extrapolate from yet

    // Sizes of every level to the last: known, in progress, extrapolated.
    std::vector<double> size = sizes_;
    // A new run's forecast knows them within a few percent (the sampler's
    // levels, forecast.h); the extrapolation from the growth so far errs
    // high while few levels are built, and made the ETA of a new run twice
    // the time for its first 20 seconds (issue 42, B2).
    while (static_cast<int>(size.size()) < last_) {
      const size_t k = size.size() + 1;
      size.push_back(k < forecast_.size() && forecast_[k] > 0 ? forecast_[k]
                                                              : size.back() * NextRatio(size));
    }
    if (building) {
      double guess = 0;
      for (int l = committed + 1; l <= pass_last; ++l) guess += size[l - 1];
      const double trust = std::min(1.0, 10 * read);
      const double projected = read > 0 ? entries / read : guess;
      const double pass = std::max<double>(entries, trust * projected + (1 - trust) * guess);
      for (int l = committed + 1; l <= pass_last && guess > 0; ++l) size[l - 1] *= pass / guess;
    }
    for (int k = 2; k <= last_; ++k) {
      const double work = size[k - 2] + kWriteCost * size[k - 1];
      st.work_total += work;
      if (k <= committed) st.work_done += work;
    }
    for (int k = committed + 1; building && k <= pass_last; ++k) {
      st.work_done += read * size[k - 2];
    }
    if (building) st.work_done += kWriteCost * entries;
    return st;
  }

 private:
  static constexpr double kWriteCost = 0.3;

  // Entries of level l that the checkpoint resumed from already held.
  uint64_t Resumed(int l) const {
    const int i = l - resumed_level_;
    return resumed_level_ > 0 && i >= 0 && i < static_cast<int>(resumed_entries_.size())
               ? resumed_entries_[i]
               : 0;
  }

  // The ratio of the next level's size to the last one's, continuing the
  // last step of the ratios (within a factor 1/4..3/2 of the last ratio, so
  // that a noisy small game cannot send it below zero or off to infinity).
  static double NextRatio(const std::vector<double>& size) {
    auto ratio = [&](size_t k) { return size[k - 1] > 0 ? size[k] / size[k - 1] : 0.0; };
    const size_t n = size.size();
    if (n < 2) return 1.0;
    const double last = ratio(n - 1);
    if (n < 3) return last;
    return std::clamp(2 * last - ratio(n - 2), last / 4, last * 1.5);
  }

  const int last_;
  const Counters counters_;
  mutable std::mutex mu_;
  std::vector<double> sizes_;  // entries of the committed levels, level 1 first
  int resumed_level_ = 0;
  std::vector<uint64_t> resumed_entries_;  // of levels resumed_level_, resumed_level_ + 1, ...
  const std::vector<double> forecast_;     // [k]: the forecast sub-decks of level k (or empty)
  const double forecast_seconds_;          // the forecast's time (0: none)
  const std::chrono::steady_clock::time_point start_;
  uint64_t written_ = 0;  // entries this process wrote to the levels it committed
};

// `force`: start a new run even when its forecast says more than a day.
int Execute(const std::string& name, const Common& c, const GameSpec* given, bool force = false) {
  storage::RunOptions options;
  uint64_t budget = 0;
  Status s = c.ToOptions(&options, &budget);
  if (s.ok() && given) s = CheckEnumerable(*given);
  if (s.ok() && given && c.until_level > given->cards()) {
    s = Status::InvalidArgument("--until-level must be at most " + std::to_string(given->cards()));
  }
  if (s.IsOutOfRange()) return BadInput("eulerdeck " + name, BeyondTheCount(s));  // --ranks 99
  if (!s.ok()) return BadInput("eulerdeck " + name, s.ToString());
  const std::string program = "eulerdeck " + name;
  // What the user asked wrongly is bad input (exit 2); a damaged store, a
  // full device or a failing one is a failed run (exit 1), one line either
  // way, the full device's with the cure.
  auto store_error = [&](const Status& e) {
    if (e.IsInvalidArgument() || e.IsOutOfRange() || e.IsNotSupported())
      return BadInput(program, e.ToString());
    std::cerr << program << ": " << e.ToString();
    if (e.IsNoSpace())
      std::cerr << "; free space and run `eulerdeck resume --store " << c.store_dir << "`";
    std::cerr << "\n";
    return kExitCheckFailed;
  };
  GameSpec spec;
  RunForecast forecast;  // a new run's (count.level empty: none made)
  if (!storage::StoreExists(c.store_dir)) {
    if (!given) return store_error(storage::MissingStore(c.store_dir));
    // A new run says first what it will cost, and refuses more than a day
    // unless forced, before it writes anything. (A directory that is not
    // empty is no store to create: CreateStore refuses it below.)
    std::error_code ec;
    const bool fresh =
        !std::filesystem::exists(c.store_dir, ec) || std::filesystem::is_empty(c.store_dir, ec);
    if (fresh) {
      s = ForecastRun(*given, c.threads, c.until_level, 1.0, &forecast);
      if (!s.ok()) return BadInput(program, s.ToString());
      if (forecast.seconds > kForceSeconds && !force) {
        return BadInput(program,
                        ForceRefusal(forecast.seconds, forecast.count.threads, forecast.sub_decks));
      }
      if (!Quiet()) std::cerr << RunForecastLine(forecast) << "\n";
    }
    storage::StoreParams created =
        storage::NewStoreParams(*given, options.keep.value_or(storage::Keep::kAll));
    created.checkpoint_seconds = options.checkpoint_seconds;  // what a resume keeps
    s = storage::CreateStore(c.store_dir, created);
    if (!s.ok()) return store_error(s);
  } else {
    // Read first, write after: a refused run must leave the store as it
    // was, without even a new MANIFEST.
    std::unique_ptr<storage::FrontierStore> reader;
    storage::StoreParams params;
    bool has_params = false;
    s = storage::FrontierStore::Open(c.store_dir, storage::FrontierStore::Mode::kReadOnly,
                                     16u << 20, &reader);
    if (s.ok()) s = reader->GetParams(&params, &has_params);
    if (!s.ok()) return store_error(s);
    if (!has_params && !given)
      return BadInput(program, storage::StoreSpec(reader.get(), &spec).ToString());
    if (has_params && given) s = storage::CheckParams(params, *given, c.store_dir);
    if (!s.ok()) return BadInput(program, s.ToString());
    if (has_params && params.kind != storage::StoreKind::kRun) {
      return BadInput(
          program,
          "store '" + c.store_dir + "' holds " +
              (params.kind == storage::StoreKind::kRemoved ? "a count --removed" : "a count") +
              ", not a stored run (continue it with "
              "`eulerdeck resume --store " +
              c.store_dir + "`)");
    }
    if (has_params && options.keep && *options.keep != params.keep) {
      std::cerr << program << ": the store's --keep policy changes from "
                << storage::KeepName(params.keep) << " to " << storage::KeepName(*options.keep)
                << "\n";
    }
  }
  std::unique_ptr<storage::FrontierStore> store;
  s = storage::FrontierStore::Open(c.store_dir, storage::FrontierStore::Mode::kReadWrite, budget,
                                   &store);
  if (!s.ok()) return store_error(s);
  if (given) {
    spec = *given;
  } else {
    s = storage::StoreSpec(store.get(), &spec);
    if (!s.ok()) return store_error(s);
  }
  // Where the store stands, for the display: the committed levels and the
  // checkpoint the run will continue from (as RunStore will find them).
  std::vector<storage::LevelRecord> levels;
  storage::ProgressRecord checkpoint;
  bool resuming = false;
  s = store->GetLevels(&levels);
  if (s.ok()) s = store->GetProgress(&checkpoint, &resuming);
  if (!s.ok()) return store_error(s);
  // As RunStore decides: a checkpoint of the next pass is continued unless
  // it passes the level the run stops at.
  const int last = options.until_level ? options.until_level : spec.cards();
  resuming = resuming && !levels.empty() && checkpoint.level == levels.back().level + 1 &&
             checkpoint.last_level() <= last &&
             checkpoint.last_level() - levels.back().level <= storage::kMaxPassLevels;
  std::atomic<int> level{0}, pass_last{0};
  std::atomic<uint64_t> done{0}, total{0}, entries{0}, bytes{0};
  if (resuming) {
    // Set now, or the first redraw would see the checkpoint's entries
    // appear at once, as a burst of speed.
    level = checkpoint.level;
    pass_last = checkpoint.last_level();
    done = checkpoint.next_ordinal;
    total = checkpoint.input_blocks;
    entries = checkpoint.pass_entries();
    bytes = checkpoint.pass_stored_bytes();
  }
  options.level = &level;
  options.pass_last = &pass_last;
  options.input_done = &done;
  options.input_total = &total;
  options.entries = &entries;
  options.bytes = &bytes;
  // Asked for only when the extrapolation from the stored levels says a pass
  // will not fit the disk (RunOptions::level_forecast): a new run's forecast,
  // or a second of sampling for a resumed one.
  options.level_forecast = [&]() -> std::vector<double> {
    if (!forecast.count.level_high.empty()) return forecast.count.level_high;
    CountForecast f;
    return ForecastCount(spec, c.threads, 1.0, &f).ok() ? f.level_high : std::vector<double>();
  };
  {
    RunEstimate estimate(last, levels, resuming ? &checkpoint : nullptr,
                         {&level, &pass_last, &done, &total, &entries, &bytes},
                         forecast.count.level, forecast.seconds);
    options.on_commit = [&](const storage::LevelRecord& r) { estimate.Committed(r); };
    ProgressOptions display;
    display.label = name;
    display.unit = "input blocks";
    display.done = &done;
    display.total = &total;
    display.stage = [&] { return estimate.Stage(); };
    Progress progress(std::move(display));
    StopOnSignals signals;
    options.stop = signals.flag();
    s = storage::RunStore(store.get(), spec, options);
    if (s.IsCancelled()) {
      progress.Stop();
      store.reset();  // closed, lock released: the hint's command works at once
      std::cerr << program << ": " << s.ToString() << "; continue with `eulerdeck resume --store "
                << c.store_dir << "`\n";
      return signals.ExitCode();
    }
  }
  if (!s.ok()) {
    store.reset();  // closed (and its lock released) before the message
    return store_error(s);
  }
  store.reset();  // release the lock before status opens the store read-only
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::cerr << "peak RSS " << usage.ru_maxrss / 1024 << " MiB (memory budget " << (budget >> 20)
            << " MiB)\n";
  if (c.json) return RunStatus({"--store", c.store_dir, "--json"});
  return RunStatus({"--store", c.store_dir});
}

}  // namespace

int RunRun(const std::vector<std::string>& args) {
  SpecOptions spec_options;
  Common common;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help");
  spec_options.takes = SpecOptions::Enumerable;
  spec_options.Add(desc);
  common.Add(desc);
  bool force = false;
  desc.add_options()("force", po::bool_switch(&force),
                     "start a new run even when the forecast says more than a day");
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kRunUsage, vm)) return kExitOk;
  GameSpec spec;
  Status s = spec_options.ToSpec(&spec);
  if (!s.ok()) return BadInput("eulerdeck run", s.ToString());
  return Execute("run", common, &spec, force);
}

int RunResume(const std::vector<std::string>& args) {
  Common common;
  double batch_seconds = 2.0;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help")(
      "batch-seconds", po::value(&batch_seconds)->default_value(2.0),
      "a count store: seconds of work per thread that a batch of subtrees is sized for");
  common.Add(desc);
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kResumeUsage, vm)) return kExitOk;
  if (Status c = CheckStoreDir(common.store_dir); !c.ok()) {
    return BadInput("eulerdeck resume", c.ToString());
  }
  GameSpec spec;
  std::string tally;
  // The commit settings the store was created with, kept unless the command
  // line says otherwise (issue 58, A3).
  std::optional<double> kept_checkpoint, kept_batch;
  if (!storage::IsSearchStore(common.store_dir)) {
    StoreCommitSettings(common.store_dir, &kept_checkpoint, &kept_batch);
  }
  const auto exact = [](double x) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.17g", x);
    return std::string(text);
  };
  // The options given on the command line that the resumed job takes: a
  // search only its checkpoints' interval, a count all three.
  auto forwarded = [&](std::vector<std::string> to, bool count) {
    if (common.json) to.push_back("--json");
    if (count && !vm["memory-budget"].defaulted()) {
      to.insert(to.end(), {"--memory-budget", common.budget_text});
    }
    if (!vm["checkpoint-seconds"].defaulted()) {
      to.insert(to.end(), {"--checkpoint-seconds", exact(common.checkpoint_seconds)});
    } else if (kept_checkpoint) {
      to.insert(to.end(), {"--checkpoint-seconds", exact(*kept_checkpoint)});
    }
    if (count && !vm["batch-seconds"].defaulted()) {
      to.insert(to.end(), {"--batch-seconds", exact(batch_seconds)});
    } else if (count && kept_batch) {
      to.insert(to.end(), {"--batch-seconds", exact(*kept_batch)});
    }
    return to;
  };
  if (!storage::IsSearchStore(common.store_dir) && storage::IsContestStore(common.store_dir)) {
    // A contest's stores: the contest goes on where it stands.
    std::vector<std::string> contest = {"--contest", "--store", common.store_dir, "--threads",
                                        std::to_string(common.threads)};
    if (common.json) contest.push_back("--json");
    return RunReformSearch(contest);
  }
  if (storage::IsSearchStore(common.store_dir)) {
    // A reform-search store: the search goes on to its budget.
    storage::SearchParams params;
    if (Status s = storage::ReadSearchParams(common.store_dir, &params); !s.ok()) {
      if (!s.IsCorruption() && !s.IsIOError()) return BadInput("eulerdeck resume", s.ToString());
      std::cerr << "eulerdeck resume: " << s.ToString() << "\n";  // damage: exit 1
      return kExitCheckFailed;
    }
    return RunReformSearch(forwarded(
        {"--game", GameName(params.spec.game), "--ranks", std::to_string(params.spec.ranks),
         "--store", common.store_dir, "--threads", std::to_string(common.threads)},
        /*count=*/false));
  }
  // A count --removed store (its split and plan come from the store) or a
  // count store: the count goes on, with the options that apply to it.
  const bool removed = IsRemovedStore(common.store_dir, &spec);
  if (removed || IsCountStore(common.store_dir, &spec, &tally)) {
    if (!common.keep_text.empty() || common.until_level != 0 || !vm["pass-levels"].defaulted()) {
      return BadInput("eulerdeck resume",
                      "--keep, --until-level and --pass-levels do not apply to a count store");
    }
    std::vector<std::string> count_args =
        forwarded({"--game", GameName(spec.game), "--ranks", std::to_string(spec.ranks), "--suits",
                   std::to_string(spec.suits), "--store", common.store_dir, "--threads",
                   std::to_string(common.threads)},
                  /*count=*/true);
    if (removed) {
      count_args.insert(count_args.begin(), "--removed");
      return RunCountRemoved(count_args, "eulerdeck resume");
    }
    // A reform-stats store goes on as reform-stats, and prints its report.
    if (tally == storage::kReformStatsTally) return RunReformStats(count_args, "eulerdeck resume");
    return RunCount(count_args, "eulerdeck resume");
  }
  if (!vm["batch-seconds"].defaulted() && storage::StoreExists(common.store_dir)) {
    return BadInput("eulerdeck resume", "--batch-seconds applies to a count store, and '" +
                                            common.store_dir + "' holds a stored run");
  }
  if (vm["checkpoint-seconds"].defaulted() && kept_checkpoint) {
    common.checkpoint_seconds = *kept_checkpoint;
  }
  return Execute("resume", common, nullptr);
}

}  // namespace eulerdeck::tools
