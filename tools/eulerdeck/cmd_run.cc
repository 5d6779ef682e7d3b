// eulerdeck run / resume: the stored, resumable enumeration.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <iostream>

#include "engine/eulerian/children.h"
#include "storage/frontier_store.h"
#include "storage/stored_run.h"
#include "tools/common/cli.h"
#include "tools/common/format.h"
#include "tools/common/interrupt.h"
#include "tools/common/progress.h"
#include "tools/eulerdeck/commands.h"

namespace eulerdeck::tools {

namespace {

constexpr const char* kRunUsage =
    "usage: eulerdeck run --game G --ranks M [--suits S] --store DIR [--threads T]\n"
    "                     [--memory-budget 512MiB] [--keep all|last|none]\n"
    "                     [--until-level K] [--checkpoint-seconds S]\n"
    "Builds every level of winning sub-decks into the store DIR (RocksDB), each\n"
    "streamed from the one below with bounded memory, checkpointing as it goes.\n"
    "Run it again (or 'eulerdeck resume --store DIR') after an interruption: it\n"
    "continues from the last checkpoint.";
constexpr const char* kResumeUsage =
    "usage: eulerdeck resume --store DIR [--threads T] [--memory-budget 512MiB]\n"
    "                        [--keep all|last|none] [--until-level K]\n"
    "Continues the enumeration held in DIR from its last checkpoint.";

struct Common {
  std::string store_dir;
  int threads = 0;
  std::string budget_text = "512MiB";
  std::string keep_text;  // empty: the store's policy
  int until_level = 0;
  double checkpoint_seconds = 10.0;

  void Add(po::options_description& desc) {
    desc.add_options()("store", po::value(&store_dir)->required(), "the store directory")(
        "threads", po::value(&threads)->default_value(0), "worker threads (0: all cores)")(
        "memory-budget", po::value(&budget_text)->default_value("512MiB"),
        "memory for RocksDB caches and buffers and the stream")(
        "keep", po::value(&keep_text),
        "levels whose blocks stay: all | last (the newest) | none (counts only); "
        "stored in the store (default: the store's, all for a new one)")(
        "until-level", po::value(&until_level)->default_value(0),
        "stop once this level is committed (0: the last)")(
        "checkpoint-seconds", po::value(&checkpoint_seconds)->default_value(10.0),
        "seconds between durable checkpoints");
  }

  Status ToOptions(storage::RunOptions* o, uint64_t* budget) const {
    Status s = ParseBytes(budget_text, budget);
    if (!s.ok()) return s;
    if (*budget < (uint64_t{16} << 20))
      return Status::InvalidArgument("--memory-budget must be at least 16MiB");
    if (threads < 0) return Status::InvalidArgument("--threads must be >= 0");
    if (until_level < 0) return Status::InvalidArgument("--until-level must be >= 0");
    if (!(checkpoint_seconds >= 0))
      return Status::InvalidArgument("--checkpoint-seconds must be >= 0");
    if (!keep_text.empty()) {
      storage::Keep keep;
      if (!storage::ParseKeep(keep_text, &keep))
        return Status::InvalidArgument("--keep must be all, last or none, not '" + keep_text + "'");
      o->keep = keep;
    }
    o->threads = threads;
    o->until_level = until_level;
    o->checkpoint_seconds = checkpoint_seconds;
    return Status::OK();
  }
};

int Execute(const std::string& name, const Common& c, const GameSpec* given) {
  storage::RunOptions options;
  uint64_t budget = 0;
  Status s = c.ToOptions(&options, &budget);
  if (s.ok() && given) s = CheckEnumerable(*given);
  if (s.ok() && given && c.until_level > given->cards()) {
    s = Status::InvalidArgument("--until-level must be at most " + std::to_string(given->cards()));
  }
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
  if (!storage::StoreExists(c.store_dir)) {
    if (!given) return store_error(storage::MissingStore(c.store_dir));
    s = storage::CreateStore(
        c.store_dir, storage::NewStoreParams(*given, options.keep.value_or(storage::Keep::kAll)));
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
  std::atomic<int> level{0};
  std::atomic<uint64_t> done{0}, total{0}, entries{0}, bytes{0};
  options.level = &level;
  options.input_done = &done;
  options.input_total = &total;
  options.entries = &entries;
  options.bytes = &bytes;
  {
    // Entries per second of the level being built, measured from the first
    // redraw that sees it.
    int rate_level = -1;
    uint64_t rate_entries = 0;
    auto rate_start = std::chrono::steady_clock::now();
    Progress progress("run", "input blocks", &done, &total, 2.0, [&] {
      const auto now = std::chrono::steady_clock::now();
      const uint64_t e = entries.load();
      if (level.load() != rate_level || e < rate_entries) {
        rate_level = level.load();
        rate_entries = e;
        rate_start = now;
      }
      const double span = std::chrono::duration<double>(now - rate_start).count();
      return "level " + std::to_string(rate_level) + ", " + HumanCount(e) + " entries (" +
             HumanCount(span > 0 ? (e - rate_entries) / span : 0) + "/s), " +
             HumanBytes(bytes.load()) + " written";
    });
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
  return RunStatus({"--store", c.store_dir});
}

}  // namespace

int RunRun(const std::vector<std::string>& args) {
  SpecOptions spec_options;
  Common common;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help");
  spec_options.Add(desc);
  common.Add(desc);
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kRunUsage, vm)) return kExitOk;
  GameSpec spec;
  Status s = spec_options.ToSpec(&spec);
  if (!s.ok()) return BadInput("eulerdeck run", s.ToString());
  return Execute("run", common, &spec);
}

int RunResume(const std::vector<std::string>& args) {
  Common common;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help");
  common.Add(desc);
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kResumeUsage, vm)) return kExitOk;
  return Execute("resume", common, nullptr);
}

}  // namespace eulerdeck::tools
