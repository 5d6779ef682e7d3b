// eulerdeck count: exact counts by the backward (eulerian) enumeration, for
// one size or a range of sizes (--ranks A..B), as text, JSON lines
// (docs/schema/eulerdeck-count.schema.json), CSV or an OEIS b-file.
#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "engine/cards/combinatorics.h"
#include "engine/estimate/forecast.h"
#include "engine/eulerian/children.h"
#include "engine/eulerian/enumerate.h"
#include "engine/gpu/gpu_worker.h"
#include "storage/transport/count_mpi.h"
#include "tools/common/cli.h"
#include "tools/common/format.h"
#include "tools/common/interrupt.h"
#include "tools/common/plot.h"
#include "tools/common/progress.h"
#include "tools/common/results.h"
#include "tools/common/size_loop.h"
#include "tools/eulerdeck/commands.h"
#include "tools/eulerdeck/count_store.h"
#include "tools/eulerdeck/forecast_text.h"

namespace eulerdeck::tools {

namespace {

constexpr const char* kProgram = "eulerdeck count";

constexpr const char* kUsage =
    "usage: eulerdeck count --game G --ranks M|A..B [--suits S] [--threads T]\n"
    "                       [--json] [--csv FILE] [--bfile FILE] [--plot FILE]\n"
    "                       [--verify-leaves] [--store DIR [--subtrees N]] [--gpu]\n"
    "       eulerdeck count --removed ...  (decks by cards removed; --removed --help)\n"
    "Counts the winning decks exactly by walking the tree of winning sub-decks\n"
    "backwards from the last card (Bersani 2010, §4-5), and prints the number of\n"
    "winning sub-decks at every level k = 1..n (k cards), the probability, the\n"
    "sub-decks visited and the rate. --ranks A..B counts every size from A to B in\n"
    "turn: one row of text, one JSON line, the CSV rows and a b-file line per\n"
    "size. Ctrl-C stops at once with how far it got. With --store DIR the count\n"
    "is kept in a store and survives Ctrl-C, kill -9 or a power cut: 'eulerdeck\n"
    "resume --store DIR' (or the same command again) continues it. Under\n"
    "'mpirun -np P' the subtrees are shared out to every rank (docs/cluster.md).\n"
    "--gpu walks the subtrees on a CUDA GPU through the plugin libeulerdeck_gpu.so\n"
    "(next to eulerdeck, in ../lib/<multiarch>/eulerdeck, or $EULERDECK_GPU_PLUGIN);\n"
    "with --store the GPU is one worker of the resumable count, and --threads T\n"
    "adds T CPU threads beside it (default none); under mpirun every rank counts\n"
    "on a GPU of its node (rank 0's --threads beside it). docs/gpu.md: building\n"
    "the plugin, checking it.\n"
    "--csv columns: game,ranks,suits,level,winning_sub_decks\n"
    "(docs/schema/csv_columns.json).";

// A store in a fresh directory under $TMPDIR (or /tmp), removed with it.
class TempStore {
 public:
  TempStore() = default;
  ~TempStore() {
    std::error_code ec;
    if (!parent_.empty()) std::filesystem::remove_all(parent_, ec);
  }
  TempStore(const TempStore&) = delete;
  TempStore& operator=(const TempStore&) = delete;

  Status Create() {
    const char* env = std::getenv("TMPDIR");
    std::string tmpl = std::string(env && *env ? env : "/tmp") + "/eulerdeck-count-XXXXXX";
    if (mkdtemp(tmpl.data()) == nullptr) {
      return Status::IOError("cannot create a temporary directory for the count's store in '" +
                             std::string(env && *env ? env : "/tmp") + "'");
    }
    parent_ = tmpl;
    return Status::OK();
  }
  std::string dir() const { return parent_ + "/store"; }

 private:
  std::string parent_;
};

// One size's result, everything the outputs need.
struct SizeResult {
  GameSpec spec;
  CountResult count;
  mpz_class total;
  Probability p;
  double seconds = 0;
  // Sub-decks counted by this process: all of them, except for a store's
  // count that earlier sessions had begun (its rate is this session's).
  double session_nodes = 0;
  bool forecast_made = false;
  CountForecast forecast;
};

nlohmann::ordered_json ToJson(const SizeResult& r, bool verify) {
  nlohmann::ordered_json j = GameResultJson(kProgram, r.spec);
  j["winning_decks"] = std::to_string(r.count.winning());
  j["total_decks"] = r.total.get_str();
  j["probability"] = r.p.exact;
  j["probability_decimal"] = std::stod(r.p.decimal);
  nlohmann::ordered_json levels = nlohmann::ordered_json::array();
  for (size_t k = 1; k < r.count.level.size(); ++k) {
    levels.push_back(std::to_string(r.count.level[k]));
  }
  j["levels"] = levels;
  j["nodes"] = std::to_string(r.count.nodes);
  if (verify) j["leaves_verified"] = std::to_string(r.count.leaves_verified);
  j["seconds"] = r.seconds;
  j["nodes_per_second"] = r.seconds > 0 ? r.session_nodes / r.seconds : 0.0;
  if (r.forecast_made) {
    const CountForecast& f = r.forecast;
    nlohmann::ordered_json fj;
    fj["nodes"] = f.nodes.mean;
    fj["nodes_low"] = std::max(0.0, f.nodes.low);
    fj["nodes_high"] = f.nodes.high;
    fj["winning_decks"] = f.winning.mean;
    fj["seconds"] = f.seconds;
    fj["seconds_factor"] = f.factor;
    fj["threads"] = f.threads;
    fj["sub_decks_per_second"] = f.rate;
    fj["core_share"] = f.share;
    fj["samples"] = std::to_string(f.samples);
    fj["width"] = f.width;
    j["forecast"] = fj;
  }
  return j;
}

void PrintText(const SizeResult& r, bool verify) {
  const int n = r.spec.cards();
  std::cout << "game           " << GameLine(r.spec) << "\n"
            << "winning decks  " << Thousands(r.count.winning()) << "\n"
            << "total decks    " << Thousands(r.total) << "\n"
            << "probability    " << r.p.text << " = " << r.p.decimal << "\n"
            << "level  winning sub-decks\n";
  for (int k = 1; k <= n; ++k) {
    std::printf("  %3d  %s\n", k, Thousands(r.count.level[k]).c_str());
  }
  std::fflush(stdout);
  if (verify) {
    std::cout << "verified       " << Thousands(r.count.leaves_verified)
              << " winning decks replayed forward: all win\n";
  }
  std::cout << "sub-decks      " << Thousands(r.count.nodes) << " visited\n";
}

// Range mode: one row per size under one header.
void PrintRangeHeader(const GameSpec& first) {
  PrintRangeTitle(first);
  std::printf("%5s %5s %20s  %-17s %20s %10s\n", "ranks", "cards", "winning decks", "probability",
              "sub-decks visited", "seconds");
  std::fflush(stdout);
}

void PrintRangeRow(const SizeResult& r) {
  std::printf("%5d %5d %20s  %-17s %20s %10.3f\n", r.spec.ranks, r.spec.cards(),
              Thousands(r.count.winning()).c_str(), r.p.decimal.c_str(),
              Thousands(r.count.nodes).c_str(), r.seconds);
  std::fflush(stdout);
}

// The curve of one size: the nonzero levels (a log scale has no zero).
PlotSeries LevelSeries(const SizeResult& r) {
  PlotSeries series;
  series.title = "m = " + std::to_string(r.spec.ranks);
  // A level with no winning sub-deck has no place on the log scale: a gap.
  for (int k = 1; k <= r.spec.cards(); ++k) {
    series.points.emplace_back(
        k, r.count.level[k] > 0 ? static_cast<double>(r.count.level[k]) : std::nan(""));
  }
  return series;
}

}  // namespace

int RunCount(const std::vector<std::string>& args, const std::string& program) {
  // --removed is its own job (cmd_count_removed.cc): another engine, other
  // outputs.
  if (std::find(args.begin(), args.end(), "--removed") != args.end()) {
    return RunCountRemoved(args, program);
  }
  JobOptions job;
  CountOptions options;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help");
  job.spec.takes = SpecOptions::Enumerable;  // --help, the completion: no treize
  job.Add(desc,
          "print one JSON object per size, one per line "
          "(docs/schema/eulerdeck-count.schema.json)",
          "write the winning sub-decks per level to FILE as CSV (- for standard output, "
          "instead of the report)",
          "write the winning decks per number of ranks to FILE as an OEIS b-file (- for "
          "standard output, instead of the report)");
  job.AddPlot(desc,
              "plot the winning sub-decks per level (log scale) with gnuplot, one curve per "
              "size, to FILE (.svg or .png; - for an SVG on standard output, instead of the "
              "report)");
  bool force = false, use_gpu = false;
  desc.add_options()("gpu", po::bool_switch(&use_gpu),
                     "walk the subtrees on a CUDA GPU (the plugin libeulerdeck_gpu.so)");
  desc.add_options()("verify-leaves", po::bool_switch(&options.verify_leaves),
                     "build every winning deck and replay it forward; fail on any mismatch")(
      "force", po::bool_switch(&force),
      "start even when the forecast says more than a day (one size, without mpirun)");
  CountStoreFlags stored;
  stored.Add(desc);
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kUsage, vm)) return kExitOk;
  std::vector<GameSpec> specs;
  OutputFile csv, bfile;
  Status s = job.Prepare(&specs, &csv, &bfile, CheckEnumerable);
  if (s.ok() && stored.enabled()) s = stored.Check();
  PlotOutput plot_out;
  if (s.ok()) s = plot_out.Open(job.plot_path);
  if (s.IsOutOfRange()) return BadInput(program, BeyondTheCount(s));  // --ranks 99
  if (!s.ok()) return BadInput(program, s.ToString());
  options.threads = job.threads;
  const bool range = job.spec.is_range();
  if (stored.enabled() && range) {
    return BadInput(program, "--store takes one size, not a range of --ranks");
  }
  if ((stored.enabled() || storage::MpiWorldSize() > 1) && options.verify_leaves) {
    return BadInput(program, "--verify-leaves is not available with --store or under mpirun");
  }
  if (!stored.enabled() && (vm.count("subtrees") || !vm["checkpoint-seconds"].defaulted() ||
                            !vm["batch-seconds"].defaulted() || !vm["memory-budget"].defaulted())) {
    return BadInput(program,
                    "--subtrees, --checkpoint-seconds, --batch-seconds and "
                    "--memory-budget need --store DIR");
  }
  // The GPU, opened before anything is written: without a plugin or a
  // device, one line and exit 2. Under mpirun every rank opens the GPU of
  // its local rank (modulo the devices it sees) and the ranks agree first:
  // one that cannot refuses the job, in one line from rank 0.
  std::unique_ptr<gpu::GpuWorker> device;
  if (use_gpu) {
    if (options.verify_leaves) {
      return BadInput(program,
                      "--gpu counts the winning decks without building them: "
                      "no --verify-leaves");
    }
    s = gpu::GpuWorker::Open(storage::MpiLocalRank(), &device);
    std::vector<std::string> gpu_lines;
    s = storage::MpiOpenDevices(s, s.ok() ? device->description() : "", &gpu_lines);
    if (!s.ok()) {
      return BadInput(program,
                      s.message() + "; without --gpu the count runs on the CPU (see docs/gpu.md)");
    }
    for (const std::string& line : gpu_lines) {
      if (!Quiet()) std::cerr << "gpu            " << line << "\n";
    }
  }
  const bool text = !job.json && !job.results_to_stdout();

  if (csv.is_open()) csv << "game,ranks,suits,level,winning_sub_decks\n";
  if (bfile.is_open()) {
    bfile << "# a(n) = the number of winning decks of " << specs[0].policy().title
          << " with n ranks"
          << " and " << Plural(specs[0].suits, "suit") << " (n*" << specs[0].suits
          << " cards), n = " << specs.front().ranks << ".." << specs.back().ranks << ".\n";
    if (specs[0].game == Game::kMousetrap && specs[0].suits == 1) {
      bfile << "# For mousetrap with one suit this is OEIS A007709.\n";
    }
    bfile << "# Made by: " << CommandLine("eulerdeck count", args) << "\n";
  }
  if (text && range) PrintRangeHeader(specs[0]);

  PlotSpec plot;
  plot.title = std::string("Winning sub-decks per level: ") + specs[0].policy().title + ", " +
               Plural(specs[0].suits, "suit");
  plot.xlabel = "level k (cards in the sub-deck)";
  plot.ylabel = "winning sub-decks";
  plot.log_y = plot.points = true;
  plot.x_from = 1;  // every level, 1 to the largest deck's cards
  plot.x_to = specs.back().cards();

  StopOnSignals signals;
  options.stop = signals.flag();
  for (const GameSpec& spec : specs) {
    std::atomic<uint64_t> done{0}, total{0}, counted{0}, before{0};
    std::atomic<int> building{0};
    std::atomic<double> left{-1};
    const CountStoreCounters counters{options.threads, options.stop, &done, &total,      &counted,
                                      &building,       &before,      &left, device.get()};
    options.tasks_done = &done;
    options.tasks_total = &total;
    options.sub_decks_counted = &counted;
    SizeResult r;
    r.spec = spec;
    // One size, new work: first what it will cost (a second of sampling),
    // and a job of more than a day only with --force.
    // A directory that holds something other than a store is refused
    // before the forecast, as CreateStore() would refuse it after.
    if (stored.enabled() && !storage::StoreExists(stored.dir) &&
        std::filesystem::exists(stored.dir) && !std::filesystem::is_empty(stored.dir)) {
      const Status m = storage::MissingStore(stored.dir);
      if (m.IsInvalidArgument()) return BadInput(program, m.ToString());
      std::cerr << program << ": " << m.ToString() << "\n";
      return kExitCheckFailed;
    }
    if (!range && storage::MpiWorldSize() <= 1 && !device &&
        !(stored.enabled() && storage::StoreExists(stored.dir))) {
      s = ForecastCount(spec, options.threads, 1.0, &r.forecast);
      if (!s.ok()) return BadInput(program, s.ToString());
      r.forecast_made = true;
      if (r.forecast.seconds > kForceSeconds && !force) {
        // Bad input: one line, the forecast in it.
        return BadInput(
            program, ForceRefusal(r.forecast.seconds, r.forecast.threads, r.forecast.nodes.mean));
      }
      if (!Quiet()) std::cerr << ForecastLine(r.forecast) << "\n";
    }
    const auto start = std::chrono::steady_clock::now();
    {
      // The bar and the ETA follow the subtrees, or in a store, once the
      // work left is estimated, the sub-decks (subtrees differ in size by
      // orders of magnitude); the rate is of sub-decks, which moves even
      // while the first subtrees (minutes each for the largest sizes) are
      // being walked.
      ProgressOptions shown;
      shown.label = range ? "count m=" + std::to_string(spec.ranks) : "count";
      shown.unit = "subtrees";
      shown.done = &done;
      shown.total = &total;
      shown.stage = [&counted, &building, &before, &left] {
        ProgressStage stage;
        if (const int level = building.load(); level > 0) {
          // A store's levels down to the split, built first.
          stage.figures.emplace_back("building split level " + std::to_string(level),
                                     "level " + std::to_string(level));
          return stage;
        }
        stage.rate_count = counted.load(std::memory_order_relaxed);
        stage.rate_unit = "sub-decks";
        if (const double l = left.load(std::memory_order_relaxed); l >= 0) {
          stage.work_done = static_cast<double>(before.load() + stage.rate_count);
          stage.work_total = stage.work_done + l;
        }
        // The whole count's sub-decks, those of the sessions before a
        // resume too (issue 51, B5); the rate is this session's.
        const double whole = static_cast<double>(before.load() + stage.rate_count);
        stage.figures.emplace_back(HumanCount(whole) + " sub-decks counted", HumanCount(whole));
        return stage;
      };
      Progress progress(std::move(shown));
      if (stored.enabled()) {
        s = CountInStore(stored, spec, counters, &r.count);
      } else if (storage::MpiWorldSize() > 1) {
        // Under mpirun without --store: rank 0 keeps the split level and
        // the batches in a store of its own, removed afterwards (the count
        // is not resumable, as without MPI).
        TempStore temp;
        s = temp.Create();
        CountStoreFlags flags = stored;
        flags.dir = temp.dir();
        if (s.ok()) {
          s = CountInStore(flags, spec, counters, &r.count);
        }
      } else if (device) {
        s = gpu::CountOnDevice(device.get(), spec, options, &r.count);
      } else {
        s = Count(spec, options, &r.count);
      }
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (s.IsCancelled() && stored.enabled()) {
      std::cout.flush();
      std::cerr << program << ": " << s.ToString() << "; continue with `eulerdeck resume --store "
                << stored.dir << "`\n";
      return signals.ExitCode();
    }
    if (s.IsCancelled()) {
      // Sizes already done were printed (and are in a '-' output); files are
      // not committed: they appear only when complete.
      std::cout.flush();
      std::cerr << InterruptedLine(program, args, specs, spec, range, s,
                                   "without --store a count is not resumable")
                << "\n";
      return signals.ExitCode();
    }
    if (!s.ok() && !s.IsInvalidArgument() && !s.IsOutOfRange() && !s.IsNotSupported()) {
      // A failed check, a damaged store, a full or failing device (a full
      // one with its cure, as run's).
      std::cerr << program << ": " << s.ToString();
      if (s.IsNoSpace() && stored.enabled()) {
        std::cerr << "; free space and run `eulerdeck resume --store " << stored.dir << "`";
      }
      std::cerr << "\n";
      return kExitCheckFailed;
    }
    if (!s.ok()) return BadInput(program, s.ToString());
    r.session_nodes = static_cast<double>(r.count.nodes);
    if (stored.enabled()) r.session_nodes = static_cast<double>(counted.load());
    r.total = TotalDecks(spec);
    r.p = MakeProbability(Mpz(r.count.winning()), r.total);

    const std::string key = CsvGamePrefix(spec);
    for (int k = 1; csv.is_open() && k <= spec.cards(); ++k) {
      csv << key << k << "," << r.count.level[k] << "\n";
    }
    if (bfile.is_open()) bfile << spec.ranks << " " << r.count.winning() << "\n";
    if (!job.plot_path.empty()) plot.series.push_back(LevelSeries(r));
    if (job.json) {
      std::cout << ToJson(r, options.verify_leaves).dump() << "\n" << std::flush;
    } else if (text && range) {
      PrintRangeRow(r);
    } else if (text) {
      PrintText(r, options.verify_leaves);
    }
    // The timing on stderr, as brute and cardlab mc print it.
    const double rate = r.seconds > 0 ? r.session_nodes / r.seconds : 0.0;
    char line[128];
    std::snprintf(line, sizeof(line), "%.3f s, %s sub-decks/s", r.seconds,
                  HumanCount(rate).c_str());
    if (stored.enabled() && r.session_nodes == 0) {
      // A store whose subtrees were all counted before (an import of a
      // finished count, a kill before the end): no rate to show.
      std::snprintf(line, sizeof(line),
                    "%.3f s, nothing left to count (every subtree was counted "
                    "before)",
                    r.seconds);
    }
    if (!range && !Quiet()) {
      std::cout.flush();
      std::cerr << "time           " << line << "\n";
    }
  }
  if (!CommitOutput(program, &csv) || !CommitOutput(program, &bfile)) return kExitCheckFailed;
  if (!WritePlotOrReport(program, &plot_out, plot)) return kExitCheckFailed;
  return kExitOk;
}

}  // namespace eulerdeck::tools
