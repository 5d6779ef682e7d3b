#include "storage/run/stored_run.h"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/global_control.h>
#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>
#include <unistd.h>
#include <xxhash.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>
#include <optional>
#include <string>

#include "engine/base/parallel.h"
#include "engine/eulerian/children.h"
#include "storage/run/block_expander.h"
#include "storage/store/block_codec.h"
#include "storage/store/format.h"
#include "storage/store/live_status.h"

namespace eulerdeck::storage {

namespace {

using Clock = std::chrono::steady_clock;

// Fault injection for the crash tests (LevelDB's fault_injection_test idea):
// with EULERDECK_CRASH_AT="name:n" in the environment, the n-th time the
// point `name` is reached the process kills itself with SIGKILL, as a power
// cut or `kill -9` would. Without the variable this costs one branch.
void CrashPoint(const char* name) {
  static const char* spec = std::getenv("EULERDECK_CRASH_AT");
  if (spec == nullptr) return;
  static std::atomic<long> remaining{-1};
  static std::string target;
  static std::once_flag once;
  std::call_once(once, [] {
    const std::string text(spec);
    const size_t colon = text.find(':');
    target = text.substr(0, colon);
    remaining = colon == std::string::npos ? 1 : std::atol(text.c_str() + colon + 1);
  });
  if (target == name && --remaining == 0) std::raise(SIGKILL);
}

// "level 12" or "levels 11-12": what a pass builds, for messages.
std::string PassName(const ProgressRecord& p) {
  if (p.deeper.empty()) return "level " + std::to_string(p.level);
  return "levels " + std::to_string(p.level) + "-" + std::to_string(p.last_level());
}

// One input block's journey through the pipeline.
struct Task {
  uint64_t ordinal = 0;
  std::string key;
  std::string input;
  std::vector<ExpandedBlocks> outputs;  // what it became at each level of the pass
};

// Publishes the run's live state (storage/store/live_status.h) at most every
// kLiveSeconds, with the rate over that span. Failures to write it are
// ignored: it is for display only. The file is removed only when the run
// reaches the level it was asked for (Finished()): a run that ends short of
// it, by Ctrl-C, an error or a kill, leaves it as the trace that `status`
// reports as "interrupted", even when it ended between two levels.
class LivePublisher {
 public:
  LivePublisher(const std::string& dir, int level, int last_level) : dir_(dir) {
    live_.pid = ::getpid();
    live_.level = level;
    live_.started = UnixNow();
    live_.last_level = last_level;
    Publish(0, 0, 0, 0, live_.started);
  }
  ~LivePublisher() {
    if (finished_) RemoveLiveStatus(dir_);
  }

  void Finished() { finished_ = true; }

  void Level(int level, int pass_last, uint64_t input_done, uint64_t input_total, uint64_t entries,
             uint64_t bytes) {
    live_.level = level;
    live_.pass_last = pass_last;
    live_.entries_per_second = 0;
    rate_entries_ = entries;
    rate_time_ = UnixNow();
    Publish(input_done, input_total, entries, bytes, rate_time_);
  }

  void Update(uint64_t input_done, uint64_t input_total, uint64_t entries, uint64_t bytes) {
    const double now = UnixNow();
    if (now - live_.updated < kLiveSeconds) return;
    if (now > rate_time_ && entries >= rate_entries_) {
      live_.entries_per_second = (entries - rate_entries_) / (now - rate_time_);
    }
    rate_entries_ = entries;
    rate_time_ = now;
    Publish(input_done, input_total, entries, bytes, now);
  }

 private:
  static constexpr double kLiveSeconds = 2.0;

  void Publish(uint64_t input_done, uint64_t input_total, uint64_t entries, uint64_t bytes,
               double now) {
    live_.updated = now;
    live_.input_done = input_done;
    live_.input_total = input_total;
    live_.entries = entries;
    live_.stored_bytes = bytes;
    WriteLiveStatus(dir_, live_).ok();
  }

  const std::string dir_;
  LiveStatus live_;
  bool finished_ = false;
  uint64_t rate_entries_ = 0;
  double rate_time_ = 0;
};

Status BuildLevelOne(FrontierStore* store, const ChildRule& rule) {
  PathBlock block;
  block.k = 1;
  for (Card c : rule.Roots()) block.counts.push_back(c);
  std::string encoded;
  LevelRecord r;
  r.level = 1;
  EncodeBlock(block, CountCoding{rule.spec().ranks, rule.spec().suits}, &encoded, &r.raw_bytes,
              BlockFormatFor(rule, 1));
  CrashPoint("level-one");
  Status s = store->PutBlock(1, 0, 0, encoded);
  r.entries = block.entries();
  r.blocks = 1;
  r.stored_bytes = encoded.size();
  r.checksum = ChainChecksum(0, encoded);
  if (s.ok()) s = store->CommitLevel(r);
  return s;
}

// Streams level k into levels k+1 .. p->last_level(), from the checkpoint in
// *p.
Status BuildPass(FrontierStore* store, const ChildRule& rule, int k, uint64_t input_blocks,
                 ProgressRecord* p, const RunOptions& options, LivePublisher* live) {
  const int levels = p->last_level() - k;
  const auto started = Clock::now();
  const double seconds_before = p->seconds;
  auto last_checkpoint = started;
  std::unique_ptr<FrontierStore::BlockIterator> it = store->Blocks(k, p->done_input_key);
  if (!p->done_input_key.empty()) {
    // The checkpoint names the last input block whose output is durable.
    if (!it->Valid() || it->key() != p->done_input_key) {
      return Status::Corruption("checkpoint names input block that level " + std::to_string(k) +
                                " does not hold");
    }
    it->Next();
  }
  if (options.input_total) options.input_total->store(input_blocks);
  if (options.input_done) options.input_done->store(p->next_ordinal);
  if (options.entries) options.entries->store(p->pass_entries());

  std::mutex error_mu;
  Status error;
  auto fail = [&](const Status& s) {
    std::lock_guard<std::mutex> lock(error_mu);
    if (error.ok()) error = s;
  };
  auto failed = [&] {
    std::lock_guard<std::mutex> lock(error_mu);
    return !error.ok();
  };
  auto stopping = [&] { return options.stop != nullptr && options.stop->load(); };
  uint64_t next_ordinal = p->next_ordinal;
  tbb::enumerable_thread_specific<BlockExpander> expanders(
      [&] { return BlockExpander(rule, kEntriesPerBlock); });

  const int threads = EffectiveThreads(options.threads);
  tbb::global_control allow(tbb::global_control::max_allowed_parallelism, threads);
  tbb::task_arena arena(threads);
  arena.execute([&] {
    tbb::parallel_pipeline(
        // Tokens in flight bound the memory: each holds one input block and
        // its output at every level of the pass, the block times d growth
        // ratios (a few MB in the cases of docs/performance.md §11).
        static_cast<size_t>(2 * threads),
        tbb::make_filter<void, Task*>(tbb::filter_mode::serial_in_order,
                                      [&](tbb::flow_control& fc) -> Task* {
                                        if (failed() || !it->Valid() || stopping()) {
                                          if (!it->status().ok()) fail(it->status());
                                          fc.stop();
                                          return nullptr;
                                        }
                                        auto* task = new Task;
                                        task->ordinal = next_ordinal++;
                                        task->key.assign(it->key());
                                        task->input.assign(it->value());
                                        it->Next();
                                        return task;
                                      }) &
            tbb::make_filter<Task*, Task*>(
                tbb::filter_mode::parallel,
                [&](Task* task) -> Task* {
                  task->outputs.resize(levels);
                  Status s =
                      expanders.local().ExpandLevels(task->input, k, levels, task->outputs.data());
                  if (!s.ok()) {
                    fail(Status::Corruption("level " + std::to_string(k) + " block " +
                                            std::to_string(task->ordinal) + ": " + s.message()));
                    return task;
                  }
                  task->input.clear();
                  return task;
                }) &
            tbb::make_filter<Task*, void>(tbb::filter_mode::serial_in_order, [&](Task* task) {
              std::unique_ptr<Task> owned(task);
              if (failed()) return;
              for (int i = 0; i < levels; ++i) {
                const ExpandedBlocks& out = task->outputs[i];
                uint64_t* checksum = i == 0 ? &p->checksum : &p->deeper[i - 1].checksum;
                uint64_t* bytes = i == 0 ? &p->stored_bytes : &p->deeper[i - 1].stored_bytes;
                uint64_t* blocks = i == 0 ? &p->blocks : &p->deeper[i - 1].blocks;
                for (size_t seq = 0; seq < out.blocks.size(); ++seq) {
                  const std::string& block = out.blocks[seq];
                  Status s =
                      store->PutBlock(k + 1 + i, task->ordinal, static_cast<uint32_t>(seq), block);
                  if (!s.ok()) return fail(s);
                  CrashPoint("block-written");
                  *checksum = ChainChecksum(*checksum, block);
                  *bytes += block.size();
                  ++*blocks;
                }
                if (i == 0) {
                  p->entries += out.entries;
                  p->raw_bytes += out.raw_bytes;
                } else {
                  p->deeper[i - 1].entries += out.entries;
                  p->deeper[i - 1].raw_bytes += out.raw_bytes;
                }
              }
              p->next_ordinal = task->ordinal + 1;
              p->done_input_key = task->key;
              if (options.input_done) options.input_done->store(p->next_ordinal);
              const uint64_t entries = p->pass_entries(), bytes = p->pass_stored_bytes();
              if (options.entries) options.entries->store(entries);
              if (options.bytes) options.bytes->store(bytes);
              live->Update(p->next_ordinal, input_blocks, entries, bytes);
              const auto now = Clock::now();
              if (std::chrono::duration<double>(now - last_checkpoint).count() >=
                  options.checkpoint_seconds) {
                p->seconds = seconds_before + std::chrono::duration<double>(now - started).count();
                // Room for the flushes to come: stop here, cleanly, rather
                // than in the middle of one.
                Status s = store->CheckFreeSpace(0, "level " + std::to_string(k + 1));
                if (!s.ok()) return fail(s);
                CrashPoint("before-checkpoint");
                s = store->Checkpoint(*p);
                if (!s.ok()) return fail(s);
                CrashPoint("after-checkpoint");
                last_checkpoint = now;
              }
            }));
  });
  if (!error.ok()) return error;
  p->seconds = seconds_before + std::chrono::duration<double>(Clock::now() - started).count();
  if (stopping() && it->Valid()) {
    // Asked to stop: what is finished is kept, as at any checkpoint.
    Status s = store->Checkpoint(*p);
    if (!s.ok()) return s;
    return Status::Cancelled("interrupted during " + PassName(*p) + " at input block " +
                             std::to_string(p->next_ordinal) + " of " +
                             std::to_string(input_blocks) + " (checkpoint saved)");
  }
  return Status::OK();
}

// The bytes the levels of pass p will still add, less what the checkpoint
// says is written. Each level is sized from the one below by the growth of
// the last levels, continued as the ratios fall (cmd_run.cc's RunEstimate
// does the same), but never below 1: the estimate errs high, as a refusal
// should, but not by a factor.
uint64_t RemainingBytesEstimate(const std::vector<LevelRecord>& levels, const ProgressRecord& p) {
  auto ratio = [&](size_t i) {  // entries of levels[i] over levels[i-1]
    return i >= 1 && levels[i - 1].entries > 0
               ? static_cast<double>(levels[i].entries) / levels[i - 1].entries
               : 1.0;
  };
  const size_t n = levels.size();
  double last = ratio(n - 1);
  const double step = n >= 3 ? last - ratio(n - 2) : 0.0;
  double total = 0, level = levels.back().stored_bytes;
  uint64_t written = p.stored_bytes;
  for (size_t i = 0; i <= p.deeper.size(); ++i) {
    level *= std::max(last, 1.0);
    total += level;
    last = std::clamp(last + step, last / 4, last * 1.5);
    if (i > 0) written += p.deeper[i - 1].stored_bytes;
  }
  return total > written ? static_cast<uint64_t>(total - written) : 0;
}

// Bytes per entry of a level (0 for an empty one).
double BytesPerEntry(const LevelRecord& r) {
  return r.entries > 0 ? static_cast<double>(r.stored_bytes) / r.entries : 0.0;
}

// Forgets a level's blocks: first the record says so (durably), then the
// blocks go, so a crash in between leaves only garbage that the next start
// removes (RunStore, step 2).
Status DropLevel(FrontierStore* store, int level) {
  Status s = store->MarkLevelDropped(level);
  CrashPoint("after-drop-mark");
  if (s.ok()) s = store->DeleteBlocks(level, 0);
  // The disk back now, not when RocksDB next compacts that range (which
  // may be never): docs/storage_format.md.
  if (s.ok()) s = store->CompactLevel(level);
  return s;
}

}  // namespace

bool ForecastBytesEstimate(const std::vector<LevelRecord>& levels, const ProgressRecord& p,
                           const std::vector<double>& level_high, uint64_t* bytes) {
  const size_t n = levels.size();
  if (n == 0 || static_cast<size_t>(p.last_level()) >= level_high.size()) return false;
  // The growth of the bytes per entry from level to level (1 where a level
  // below is empty or missing) and its last step.
  auto growth = [&](size_t i) {  // of levels[i] over levels[i-1]
    const double below = i >= 1 ? BytesPerEntry(levels[i - 1]) : 0.0;
    return below > 0 ? BytesPerEntry(levels[i]) / below : 1.0;
  };
  double g = growth(n - 1);
  const double step = n >= 3 ? g - growth(n - 2) : 0.0;
  double per_entry = BytesPerEntry(levels.back());
  double total = 0;
  for (int l = p.level; l <= p.last_level(); ++l) {
    g = std::clamp(g + step, 1.0, 1.5);
    per_entry *= g;
    total += level_high[l] * per_entry;
  }
  total *= 1.1;
  uint64_t written = p.stored_bytes;
  for (const LevelRecord& d : p.deeper) written += d.stored_bytes;
  *bytes = total > written ? static_cast<uint64_t>(total - written) : 0;
  return true;
}

int PassLevels(int k, int last, int most) {
  if (most <= 0) most = kDefaultPassLevels;
  return (last - k - 1) % std::min(most, kMaxPassLevels) + 1;
}

Status RunStore(FrontierStore* store, const GameSpec& spec, const RunOptions& options) {
  Status s = CheckEnumerable(spec);
  if (!s.ok()) return s;
  const int n = spec.cards();
  if (options.pass_levels < 0 || options.pass_levels > kMaxPassLevels) {
    return Status::InvalidArgument("pass levels must be between 1 and " +
                                   std::to_string(kMaxPassLevels) + " (0: the default)");
  }
  if (options.until_level < 0 || options.until_level > n) {
    return Status::InvalidArgument("--until-level must be between 1 and " + std::to_string(n));
  }
  // Step 0. A store with levels is read whole before anything is written to
  // it: damage where this run would never read (an earlier level, a table
  // file of records) is refused now, not found after days of work on it.
  if (options.verify_tables) {
    std::vector<LevelRecord> before;
    s = store->GetLevels(&before);
    if (!s.ok()) return s;
    uint64_t replaced = 0;
    if (!before.empty() && before.back().level < (options.until_level ? options.until_level : n)) {
      s = store->VerifyFiles(&replaced);
      if (!s.ok()) return s;
    }
  }
  // Step 1. Parameters: a new store takes them, an existing one must match.
  // (A store made by CreateStore() has them; one without is a store killed
  // before they were written by an older version, which holds nothing yet.)
  StoreParams params;
  bool exists = false;
  s = store->GetParams(&params, &exists);
  if (!s.ok()) return s;
  if (!exists) {
    params = NewStoreParams(spec, options.keep.value_or(Keep::kAll));
    s = store->PutParams(params);
    if (!s.ok()) return s;
  } else if (s = CheckParams(params, spec, store->dir()); !s.ok()) {
    return s;
  } else if ((options.keep && *options.keep != params.keep) ||
             params.format_version < kFormatVersion) {
    // An older store is raised to this build's format before a block of the
    // new format is written: older builds then refuse it in so many words
    // instead of stumbling on a block they cannot read.
    if (options.keep) params.keep = *options.keep;
    params.format_version = kFormatVersion;
    s = store->PutParams(params);
    if (!s.ok()) return s;
  }
  const Keep keep = params.keep;
  const ChildRule rule(spec);
  const int last = options.until_level ? options.until_level : n;

  // Step 2. Where the store stands.
  std::vector<LevelRecord> levels;
  s = store->GetLevels(&levels);
  if (!s.ok()) return s;
  for (const LevelRecord& r : levels) {
    if (!r.kept) {  // finish a drop that a crash interrupted (idempotent)
      s = store->DeleteBlocks(r.level, 0);
      if (!s.ok()) return s;
    } else if (keep != Keep::kAll && r.level < levels.back().level) {
      // A crash between the commit of the level above and this drop.
      s = DropLevel(store, r.level);
      if (!s.ok()) return s;
    }
  }
  if (!levels.empty() && keep == Keep::kNone && levels.back().level == n && levels.back().kept) {
    s = DropLevel(store, n);
    if (!s.ok()) return s;
  }
  s = store->GetLevels(&levels);  // the drops above changed `kept`
  if (!s.ok()) return s;
  // The live file exists from before the first commit: a run killed at any
  // instant short of its target leaves it, and reads as interrupted, never
  // as a run stopped where it was asked to stop.
  LivePublisher live(store->dir(), levels.empty() ? 1 : std::min(levels.back().level + 1, last),
                     last);
  if (levels.empty()) {
    if (options.level) options.level->store(1);
    s = BuildLevelOne(store, rule);
    if (!s.ok()) return s;
    s = store->GetLevels(&levels);
    if (!s.ok()) return s;
    CrashPoint("level-one-committed");
    if (options.on_commit) options.on_commit(levels.back());
  }
  // Step 3. Each further level from the one below, resuming a checkpoint.
  std::optional<std::vector<double>> forecast;  // options.level_forecast's, once asked for
  for (int k = levels.back().level; k < last;) {
    if (options.stop != nullptr && options.stop->load()) {
      return Status::Cancelled("interrupted after level " + std::to_string(k) + " was committed");
    }
    const LevelRecord& below = levels.back();
    if (!below.kept) {
      return Status::InvalidArgument("level " + std::to_string(k) +
                                     " was not kept (--keep), so level " + std::to_string(k + 1) +
                                     " cannot be built");
    }
    if (options.level) options.level->store(k + 1);
    ProgressRecord p;
    bool resuming = false;
    s = store->GetProgress(&p, &resuming);
    if (!s.ok()) return s;
    int pass = PassLevels(k, last, options.pass_levels);
    if (resuming && p.level == k + 1 && p.last_level() <= last &&
        p.last_level() - k <= kMaxPassLevels) {
      // The checkpoint's pass is continued whatever pass this run would
      // start (another --pass-levels or --until-level, an older build's
      // one-level pass): the alignment of passes changes only the speed.
      pass = p.last_level() - k;
    } else {
      p = ProgressRecord();
      p.level = k + 1;
      p.input_blocks = below.blocks;
      p.deeper.resize(pass - 1);
      for (int i = 0; i < pass - 1; ++i) p.deeper[i].level = k + 2 + i;
      if (resuming) {
        // A pass past --until-level starts over. Its new checkpoint is
        // made durable before a block is deleted: if the process dies in
        // between, no later start can continue the old one over blocks
        // that are gone.
        s = store->Checkpoint(p);
        if (!s.ok()) return s;
      }
    }
    // Blocks past the checkpoint may have been flushed before a crash, and
    // levels past the pass may hold blocks of an abandoned longer pass.
    for (int l = k + 1; l <= std::min(n, k + kMaxPassLevels); ++l) {
      s = store->DeleteBlocks(l, l <= k + pass ? p.next_ordinal : 0);
      if (!s.ok()) return s;
    }
    s = store->CheckFreeSpace(RemainingBytesEstimate(levels, p),
                              PassName(p) + " (estimated from level " + std::to_string(k) + ")");
    if (s.IsNoSpace() && options.level_forecast) {
      // The extrapolation errs high, by up to 2.4 times on the last pass
      // (docs/performance.md): the forecast decides.
      if (!forecast) forecast = options.level_forecast();
      uint64_t bytes = 0;
      if (ForecastBytesEstimate(levels, p, *forecast, &bytes)) {
        s = store->CheckFreeSpace(bytes, PassName(p) + " (by the forecast of its levels)");
      }
    }
    if (!s.ok()) return s;
    if (options.pass_last) options.pass_last->store(k + pass);
    live.Level(k + 1, k + pass, p.next_ordinal, below.blocks, p.pass_entries(),
               p.pass_stored_bytes());
    s = BuildPass(store, rule, k, below.blocks, &p, options, &live);
    if (!s.ok()) return s;
    // The pass's time is shared among its levels by the bytes they hold.
    LevelRecord first;
    first.level = k + 1;
    first.entries = p.entries;
    first.blocks = p.blocks;
    first.raw_bytes = p.raw_bytes;
    first.stored_bytes = p.stored_bytes;
    first.checksum = p.checksum;
    std::vector<LevelRecord> built = {first};
    for (const LevelRecord& d : p.deeper) built.push_back(d);
    uint64_t raw_bytes = 0;
    for (const LevelRecord& r : built) raw_bytes += r.raw_bytes;
    for (LevelRecord& r : built) {
      r.seconds = raw_bytes > 0 ? p.seconds * static_cast<double>(r.raw_bytes) / raw_bytes
                                : p.seconds / static_cast<double>(built.size());
      r.kept = true;
    }
    CrashPoint("before-commit");
    s = store->CommitPass(built);
    if (!s.ok()) return s;
    CrashPoint("after-commit");
    for (const LevelRecord& r : built) {
      levels.push_back(r);
      if (options.on_commit) options.on_commit(r);
    }
    // The counters are the next level's from now on (BuildPass sets them
    // from its checkpoint, but a display may look before).
    if (options.input_done) options.input_done->store(0);
    if (options.entries) options.entries->store(0);
    if (options.bytes) options.bytes->store(0);
    if (keep != Keep::kAll) {
      for (int l = k; l < k + pass; ++l) {
        s = DropLevel(store, l);
        if (!s.ok()) return s;
      }
    }
    k += pass;
  }
  if (keep == Keep::kNone && levels.back().level == n && levels.back().kept)
    s = DropLevel(store, n);
  if (s.ok()) live.Finished();
  return s;
}

}  // namespace eulerdeck::storage
