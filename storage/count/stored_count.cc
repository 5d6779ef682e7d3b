#include "storage/count/stored_count.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "engine/base/parallel.h"
#include "engine/base/streams.h"
#include "engine/estimate/forecast.h"
#include "engine/estimate/knuth.h"
#include "engine/eulerian/children.h"
#include "engine/eulerian/path.h"
#include "storage/count/batch_driver.h"
#include "storage/run/stored_run.h"
#include "storage/store/block_codec.h"
#include "storage/store/live_status.h"

namespace eulerdeck::storage {

bool SplitReached(const GameSpec& spec, int level, uint64_t entries, uint64_t subtree_target) {
  const int n = spec.cards();
  if (n <= 1) return true;
  return level >= n - 1 || entries >= subtree_target || level >= n - kMinSubtreeDepth;
}

namespace {

using Clock = std::chrono::steady_clock;

// The split level: the one the parameters record, or else the first
// committed level at which SplitReached() held (the count stopped building
// there; stores whose parameters do not record it yet). 0 when none yet.
int SplitLevel(const GameSpec& spec, const StoreParams& params,
               const std::vector<LevelRecord>& levels) {
  if (params.split_level > 0) return params.split_level;
  for (const LevelRecord& r : levels) {
    if (SplitReached(spec, r.level, r.entries, params.subtree_target)) return r.level;
  }
  return 0;
}

// The done ranges [first, first+count) of each block, from the records.
using DoneRanges = std::map<uint32_t, std::map<uint32_t, uint32_t>>;

Status ReadRecords(FrontierStore* store, int d, int n, DoneRanges* done, CountProgress* progress,
                   bool want_tallies, std::vector<CountBatchSummary>* batches = nullptr) {
  std::vector<CountRecord> records;
  Status s = store->GetCountRecords(&records);
  if (!s.ok()) return s;
  progress->counted = SubtreeCounts();
  progress->counted.level.assign(n + 1, 0);
  for (const CountRecord& r : records) {
    SubtreeCounts c;
    s = DecodeCountRecord(r, d, n, &c);
    if (!s.ok()) return s;
    auto& ranges = (*done)[r.block];
    // Records are read in key order: within a block, by first entry.
    if (!ranges.empty()) {
      const auto& last = *ranges.rbegin();
      if (uint64_t{last.first} + last.second > r.first) {
        return Status::Corruption("count records overlap in block " + std::to_string(r.block) +
                                  " at entry " + std::to_string(r.first));
      }
    }
    if (c.subtrees > UINT32_MAX) return Status::Corruption("a count record is too large");
    ranges[r.first] = static_cast<uint32_t>(c.subtrees);
    s = progress->counted.Add(c);
    if (!s.ok()) return s;
    ++progress->batches;
    if (want_tallies) progress->tallies.push_back(std::move(c.tally));
    if (batches != nullptr) {
      CountBatchSummary b;
      b.block = r.block;
      b.first = r.first;
      b.subtrees = c.subtrees;
      for (int j = d + 1; j <= n; ++j) b.sub_decks += c.level[j];
      b.winning = c.level[n];
      b.thread_seconds = c.seconds;
      batches->push_back(b);
    }
  }
  progress->subtrees_done = progress->counted.subtrees;
  return Status::OK();
}

// The parameters of a count store of `spec` and any tally.
Status CountParams(FrontierStore* store, const GameSpec& spec, StoreParams* params) {
  bool exists = false;
  Status s = store->GetParams(params, &exists);
  if (!s.ok()) return s;
  if (!exists) return Status::InvalidArgument("'" + store->dir() + "' holds no count yet");
  return CheckCountParams(*params, spec, store->dir(), params->tally);
}

// What a count store is, for messages: "a count", "a reform-stats count".
std::string CountName(const std::string& tally) {
  return tally.empty() ? "a count" : "a " + tally + " count";
}

}  // namespace

std::string EncodeCountRecord(const SubtreeCounts& c, int d) {
  nlohmann::json levels = nlohmann::json::array();
  for (size_t j = d + 1; j < c.level.size(); ++j) levels.push_back(c.level[j]);
  nlohmann::json sizes = nlohmann::json::array();
  for (int b = 0; b < kSizeBuckets; ++b) {
    if (c.sizes[b] != 0) sizes.push_back({b, c.sizes[b]});
  }
  nlohmann::json j = {
      {"subtrees", c.subtrees}, {"levels", levels}, {"sizes", sizes}, {"seconds", c.seconds}};
  if (!c.tally.empty()) j["tally"] = c.tally;
  return j.dump();
}

Status DecodeCountRecord(const CountRecord& r, int d, int n, SubtreeCounts* c) {
  const std::string where =
      "count record (block " + std::to_string(r.block) + ", entry " + std::to_string(r.first) + ")";
  const nlohmann::json j = nlohmann::json::parse(r.value, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object() || !j.contains("levels") || !j["levels"].is_array() ||
      j["levels"].size() != static_cast<size_t>(n - d)) {
    return Status::Corruption(where + " is malformed or not of this split");
  }
  *c = SubtreeCounts();
  c->level.assign(n + 1, 0);
  try {
    for (int j2 = d + 1; j2 <= n; ++j2) c->level[j2] = j["levels"][j2 - d - 1].get<uint64_t>();
    c->subtrees = j.at("subtrees").get<uint64_t>();
    c->seconds = j.value("seconds", 0.0);
    c->tally = j.value("tally", "");
    for (const auto& pair : j.value("sizes", nlohmann::json::array())) {
      const int b = pair.at(0).get<int>();
      if (b < 0 || b >= kSizeBuckets) return Status::Corruption(where + " has a bad size bucket");
      c->sizes[b] = pair.at(1).get<uint64_t>();
    }
  } catch (const nlohmann::json::exception&) {
    return Status::Corruption(where + " is malformed");
  }
  if (c->subtrees == 0) return Status::Corruption(where + " counts no subtrees");
  return Status::OK();
}

Status CheckCountParams(const StoreParams& params, const GameSpec& spec, const std::string& dir,
                        const std::string& tally) {
  if (Status s = CheckParams(params, spec, dir); !s.ok()) return s;
  if (params.kind != StoreKind::kCount) {
    return Status::InvalidArgument(
        "store '" + dir + "' holds " +
        (params.kind == StoreKind::kRemoved ? "a count --removed" : "a stored run") + ", not " +
        CountName(tally) + " (continue it with `eulerdeck resume --store " + dir + "`)");
  }
  if (params.tally != tally) {
    return Status::InvalidArgument("store '" + dir + "' holds " + CountName(params.tally) +
                                   ", not " + CountName(tally) +
                                   " (continue it with `eulerdeck resume --store " + dir + "`)");
  }
  return Status::OK();
}

namespace {

Status ReadProgress(FrontierStore* store, const GameSpec& spec, CountProgress* progress,
                    bool want_tallies, std::vector<CountBatchSummary>* batches) {
  *progress = CountProgress();
  if (batches != nullptr) batches->clear();
  StoreParams params;
  Status s = CountParams(store, spec, &params);
  if (!s.ok()) return s;
  std::vector<LevelRecord> levels;
  s = store->GetLevels(&levels);
  if (!s.ok()) return s;
  const int d = SplitLevel(spec, params, levels);
  if (d == 0) return Status::OK();
  progress->split_level = d;
  if (d == spec.cards()) return Status::OK();  // a one-card game: no subtrees
  for (const LevelRecord& r : levels) {
    if (r.level == d) progress->subtrees_total = r.entries;
  }
  DoneRanges done;
  return ReadRecords(store, d, spec.cards(), &done, progress, want_tallies, batches);
}

}  // namespace

Status ReadCountProgress(FrontierStore* store, const GameSpec& spec, CountProgress* progress,
                         bool want_tallies) {
  return ReadProgress(store, spec, progress, want_tallies, nullptr);
}

Status ReadCountBatches(FrontierStore* store, const GameSpec& spec, CountProgress* progress,
                        std::vector<CountBatchSummary>* batches) {
  return ReadProgress(store, spec, progress, /*want_tallies=*/false, batches);
}

struct CountCoordinator::Rep {
  FrontierStore* store = nullptr;
  GameSpec spec;
  CountStoreOptions options;
  int d = 0, n = 0;
  bool complete = false;  // the levels below d were committed by an earlier session
  std::vector<LevelRecord> levels;

  // Level d's blocks, in key order: their keys and sizes.
  std::vector<std::string> block_keys;
  std::vector<uint32_t> block_entries;
  uint64_t total = 0;
  uint64_t sub_decks_before = 0;  // below level d, committed before this session
  double seconds_before = 0;      // the worker time of those batches

  std::mutex mu;          // guards everything below
  DoneRanges done;        // committed before this session
  SubtreeCounts counted;  // sums of every finished batch (committed or not)
  uint64_t subtrees_done = 0;
  uint64_t handed_out = 0;  // subtrees handed out or done, for the end-game sizing
  double cost_seconds = 0;  // measured cost of the finished batches (for sizing)
  uint64_t cost_subtrees = 0;
  int workers = 1;
  std::vector<CountRecord> pending;   // finished, not yet committed
  std::deque<SubtreeBatch> returned;  // handed out again first
  uint64_t in_flight = 0;
  // The cursor: the block being handed out and its decoded paths.
  uint32_t cursor_block = 0, cursor_entry = 0;
  bool cursor_loaded = false;
  PathBlock current;
  Clock::time_point last_checkpoint = Clock::now();

  // Reads and decodes block b of level d into *out, checking it is the
  // block Open() saw.
  Status ReadBlock(uint32_t b, PathBlock* out) const {
    auto it = store->Blocks(d, block_keys[b], FrontierStore::BlockCheck::kNone);
    if (!it->Valid() || it->key() != block_keys[b]) {
      return it->status().ok() ? Status::Corruption("block " + std::to_string(b) + " of level " +
                                                    std::to_string(d) + " vanished")
                               : it->status();
    }
    Status s = DecodeBlock(it->value(), CountCoding{spec.ranks, spec.suits}, out);
    if (s.ok() && (out->k != d || out->entries() != block_entries[b])) {
      s = Status::Corruption("block " + std::to_string(b) + " of level " + std::to_string(d) +
                             " changed");
    }
    if (!s.ok()) {
      return Status::Corruption("level " + std::to_string(d) + " block " + std::to_string(b) +
                                ": " + s.message());
    }
    return Status::OK();
  }

  Status LoadBlock(uint32_t b) {
    Status s = ReadBlock(b, &current);
    cursor_loaded = s.ok();
    return s;
  }

  // Subtrees per batch for a worker of `threads` threads: batch_seconds of
  // work per thread at the cost measured so far, but no more than a quarter
  // of what is left per thread, so that the end is shared evenly.
  uint32_t BatchSize(int threads) const {
    double size = 16.0 * threads;
    if (cost_subtrees > 0 && cost_seconds > 0) {
      size = options.batch_seconds * threads * cost_subtrees / cost_seconds;
    }
    const double left = static_cast<double>(total - std::min(total, handed_out));
    size = std::min(size, left / (4.0 * std::max(workers, 1)) * threads);
    return static_cast<uint32_t>(std::clamp(size, 1.0, double{kEntriesPerBlockMax}));
  }
  static constexpr uint32_t kEntriesPerBlockMax = 1u << 16;
};

CountCoordinator::CountCoordinator(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
CountCoordinator::~CountCoordinator() = default;

Status CountCoordinator::Open(FrontierStore* store, const GameSpec& spec,
                              const CountStoreOptions& options,
                              std::unique_ptr<CountCoordinator>* coordinator) {
  if (Status s = CheckEnumerable(spec); !s.ok()) return s;
  return OpenChecked(store, spec, options, /*read_only=*/false, coordinator);
}

Status CountCoordinator::OpenToRead(FrontierStore* store, const GameSpec& spec,
                                    std::unique_ptr<CountCoordinator>* coordinator) {
  if (Status s = CheckEnumerable(spec); !s.ok()) return s;
  return OpenChecked(store, spec, CountStoreOptions(), /*read_only=*/true, coordinator);
}

Status CountCoordinator::OpenChecked(FrontierStore* store, const GameSpec& spec,
                                     const CountStoreOptions& options, bool read_only,
                                     std::unique_ptr<CountCoordinator>* coordinator) {
  auto rep = std::make_unique<Rep>();
  rep->store = store;
  rep->spec = spec;
  rep->options = options;
  rep->n = spec.cards();

  // Step 1. Parameters: a new store becomes a count, an existing one must be
  // one (checked once: a new one is made of `spec`).
  StoreParams params;
  bool exists = false;
  Status s = store->GetParams(&params, &exists);
  if (!s.ok()) return s;
  if (!exists && read_only) {
    return Status::InvalidArgument("'" + store->dir() + "' holds no count yet");
  }
  if (!exists) {
    params = NewStoreParams(spec, Keep::kLast);
    params.kind = StoreKind::kCount;
    params.subtree_target = options.subtree_target ? options.subtree_target : kDefaultSubtrees;
    params.tally = options.tally;
    s = store->PutParams(params);
  } else {
    s = CheckCountParams(params, spec, store->dir(), read_only ? params.tally : options.tally);
  }
  if (!s.ok()) return s;
  // A count resumed is read whole first (its table files: the levels to the
  // split and the count records), as a stored run is: damage is refused
  // before more work is committed beside it.
  if (exists && !read_only) {
    uint64_t replaced = 0;
    s = store->VerifyFiles(&replaced);
    if (!s.ok()) return s;
  }

  // Step 2. The levels down to the split, by the stored run.
  for (;;) {
    s = store->GetLevels(&rep->levels);
    if (!s.ok()) return s;
    rep->d = SplitLevel(spec, params, rep->levels);
    if (rep->d != 0) break;
    if (read_only) return Status::InvalidArgument("the count has not reached its split level yet");
    RunOptions run;
    run.threads = options.threads;
    run.checkpoint_seconds = options.checkpoint_seconds;
    run.keep = Keep::kLast;
    run.until_level = rep->levels.empty() ? 1 : rep->levels.back().level + 1;
    run.verify_tables = false;  // read whole above
    run.stop = options.stop;
    run.level = options.building_level;
    s = RunStore(store, spec, run);
    if (!s.ok()) return s;
  }
  if (options.building_level) options.building_level->store(0);
  const int d = rep->d;
  // RunStore() may have raised the store's format (storage/store/format.h):
  // the split is written into the parameters as they now stand.
  if (!read_only) {
    s = store->GetParams(&params, &exists);
    if (!s.ok()) return s;
  }
  if (params.split_level != d && !read_only) {
    params.split_level = d;
    s = store->PutParams(params);
    if (!s.ok()) return s;
  }
  bool split_kept = false;
  for (const LevelRecord& r : rep->levels) {
    if (r.level == d) split_kept = r.kept;
    // A crash between the split level's commit and the drop of the level
    // below it leaves that level's blocks (the stored run would drop them
    // on its next start, which never comes): drop them now (idempotent).
    if (r.level < d && !read_only) {
      if (r.kept) s = store->MarkLevelDropped(r.level);
      if (s.ok()) s = store->DeleteBlocks(r.level, 0);
      if (!s.ok()) return s;
    }
  }
  if (!split_kept && d < rep->n) {
    return Status::Corruption("the split level " + std::to_string(d) +
                              " of the count has no blocks: its subtrees cannot be read");
  }
  for (const LevelRecord& r : rep->levels) {
    if (r.level == d) rep->total = r.entries;
  }
  rep->complete = rep->levels.back().level == rep->n;
  if (d == rep->n) rep->total = 0;  // a one-card game: no subtrees

  // Step 3. What is counted already, and where level d's blocks are.
  CountProgress progress;
  if (rep->total > 0) {
    s = ReadRecords(store, d, rep->n, &rep->done, &progress, /*want_tallies=*/false);
    if (!s.ok()) return s;
    auto it = store->Blocks(d);
    uint64_t entries = 0;
    for (; it->Valid(); it->Next()) {
      uint32_t count = 0;
      int k = 0;
      s = PeekBlock(it->value(), &count, &k);
      if (!s.ok()) return Status::Corruption("level " + std::to_string(d) + ": " + s.message());
      rep->block_keys.emplace_back(it->key());
      rep->block_entries.push_back(count);
      entries += count;
    }
    if (!it->status().ok()) return it->status();
    if (entries != rep->total) {
      return Status::Corruption("level " + std::to_string(d) + " holds " + std::to_string(entries) +
                                " sub-decks in its blocks, its record says " +
                                std::to_string(rep->total));
    }
    for (const auto& [block, ranges] : rep->done) {
      const auto& last = *ranges.rbegin();
      if (block >= rep->block_keys.size() ||
          uint64_t{last.first} + last.second > rep->block_entries[block]) {
        return Status::Corruption("a count record names subtrees that level " + std::to_string(d) +
                                  " does not hold (block " + std::to_string(block) + ")");
      }
    }
  }
  rep->counted = progress.counted;
  rep->counted.level.resize(rep->n + 1, 0);
  for (int j = d + 1; j <= rep->n; ++j) rep->sub_decks_before += rep->counted.level[j];
  rep->seconds_before = progress.counted.seconds;
  rep->subtrees_done = rep->handed_out = progress.subtrees_done;
  rep->cost_seconds = progress.counted.seconds;
  rep->cost_subtrees = progress.counted.subtrees;
  if (rep->complete && rep->subtrees_done != rep->total) {
    return Status::Corruption("the count is committed as complete, but its records cover " +
                              std::to_string(rep->subtrees_done) + " of " +
                              std::to_string(rep->total) + " subtrees");
  }
  rep->workers = EffectiveThreads(options.threads);
  coordinator->reset(new CountCoordinator(std::move(rep)));
  return Status::OK();
}

int CountCoordinator::split_level() const { return rep_->d; }
uint64_t CountCoordinator::subtrees_total() const { return rep_->total; }
uint64_t CountCoordinator::subtrees_done() const {
  std::lock_guard<std::mutex> lock(rep_->mu);
  return rep_->subtrees_done;
}
uint64_t CountCoordinator::sub_decks_before() const { return rep_->sub_decks_before; }
double CountCoordinator::seconds_before() const { return rep_->seconds_before; }
void CountCoordinator::SetWorkers(int threads) {
  std::lock_guard<std::mutex> lock(rep_->mu);
  rep_->workers = std::max(threads, 1);
}

bool CountCoordinator::Next(int threads, SubtreeBatch* batch, Status* status) {
  Rep& r = *rep_;
  std::lock_guard<std::mutex> lock(r.mu);
  if (!r.returned.empty()) {
    *batch = std::move(r.returned.front());
    r.returned.pop_front();
    ++r.in_flight;
    return true;
  }
  while (r.cursor_block < r.block_keys.size()) {
    const uint32_t b = r.cursor_block;
    // Skip what earlier sessions committed.
    uint32_t end = r.block_entries[b];
    auto ranges = r.done.find(b);
    if (ranges != r.done.end()) {
      auto next = ranges->second.upper_bound(r.cursor_entry);
      if (next != ranges->second.begin()) {
        auto prev = std::prev(next);
        if (prev->first + prev->second > r.cursor_entry) {
          r.cursor_entry = prev->first + prev->second;
          continue;
        }
      }
      if (next != ranges->second.end()) end = next->first;
    }
    if (r.cursor_entry >= r.block_entries[b]) {
      ++r.cursor_block;
      r.cursor_entry = 0;
      r.cursor_loaded = false;
      continue;
    }
    if (!r.cursor_loaded) {
      *status = r.LoadBlock(b);
      if (!status->ok()) return false;
    }
    const uint32_t count = std::min(r.BatchSize(threads), end - r.cursor_entry);
    batch->block = b;
    batch->first = r.cursor_entry;
    batch->count = count;
    batch->k = r.d;
    const uint16_t* from = r.current.path(r.cursor_entry);
    batch->paths.assign(from, from + static_cast<size_t>(count) * r.d);
    r.cursor_entry += count;
    r.handed_out += count;
    ++r.in_flight;
    return true;
  }
  return false;
}

bool CountCoordinator::Outstanding() const {
  std::lock_guard<std::mutex> lock(rep_->mu);
  return rep_->in_flight > 0 || !rep_->returned.empty();
}

Status CountCoordinator::Finished(const SubtreeBatch& batch, const SubtreeCounts& counts) {
  Rep& r = *rep_;
  if (counts.subtrees != batch.count) {
    return Status::InvalidArgument("a batch of " + std::to_string(batch.count) +
                                   " subtrees came back with " + std::to_string(counts.subtrees));
  }
  std::lock_guard<std::mutex> lock(r.mu);
  Status s = r.counted.Add(counts);
  if (!s.ok()) return s;
  r.subtrees_done += counts.subtrees;
  r.cost_seconds += counts.seconds;
  r.cost_subtrees += counts.subtrees;
  --r.in_flight;
  r.pending.push_back(CountRecord{batch.block, batch.first, EncodeCountRecord(counts, r.d)});
  return Status::OK();
}

Status CountCoordinator::Returned(const SubtreeBatch& batch) {
  Rep& r = *rep_;
  std::lock_guard<std::mutex> lock(r.mu);
  --r.in_flight;
  SubtreeBatch back = batch;
  if (back.paths.empty() && back.count > 0) {
    // Given back by another process, by its place only: read its paths.
    if (back.block >= r.block_keys.size() ||
        uint64_t{back.first} + back.count > r.block_entries[back.block]) {
      return Status::Corruption("a batch given back names subtrees level " + std::to_string(r.d) +
                                " does not hold");
    }
    PathBlock block;
    Status s = r.ReadBlock(back.block, &block);
    if (!s.ok()) return s;
    back.k = r.d;
    const uint16_t* from = block.path(back.first);
    back.paths.assign(from, from + static_cast<size_t>(back.count) * r.d);
  }
  r.returned.push_back(std::move(back));
  return Status::OK();
}

Status CountCoordinator::SampleLeft(uint64_t max_roots, uint64_t seed, std::vector<Card>* roots,
                                    uint64_t* left, double* scale) const {
  const Rep& r = *rep_;
  roots->clear();
  *left = 0;
  *scale = 1;
  // The ranges not handed out: from the cursor on, less what earlier
  // sessions committed (the cursor skips it when it gets there).
  struct Range {
    uint32_t block, begin, end;
  };
  std::vector<Range> free;
  {
    std::lock_guard<std::mutex> lock(rep_->mu);
    for (uint32_t b = r.cursor_block; b < r.block_keys.size(); ++b) {
      uint32_t from = b == r.cursor_block ? r.cursor_entry : 0;
      auto ranges = r.done.find(b);
      if (ranges != r.done.end()) {
        for (const auto& [first, count] : ranges->second) {
          if (first + count <= from) continue;
          if (first > from) free.push_back({b, from, first});
          from = std::max(from, first + count);
        }
      }
      if (from < r.block_entries[b]) free.push_back({b, from, r.block_entries[b]});
    }
  }
  for (const Range& f : free) *left += f.end - f.begin;
  if (*left == 0 || max_roots == 0) return Status::OK();
  // The places drawn, in increasing order: all of them, or a sample.
  std::vector<uint64_t> places;
  if (*left <= max_roots) {
    places.resize(*left);
    for (uint64_t i = 0; i < *left; ++i) places[i] = i;
  } else {
    pcg32 rng = RandomStream(seed, 0);
    for (uint64_t i = 0; i < max_roots; ++i) {
      // Two statements: the order of two calls in one expression is unspecified.
      const uint64_t high = rng();
      places.push_back(((high << 32) | rng()) % *left);
    }
    std::sort(places.begin(), places.end());
    *scale = static_cast<double>(*left) / static_cast<double>(max_roots);
  }
  // Walk the ranges and the places together, reading each block once.
  PathDecoder decoder(r.spec);
  PathBlock block;
  uint32_t loaded = UINT32_MAX;
  uint64_t before = 0;  // free subtrees in the ranges before f
  size_t p = 0;
  roots->reserve(places.size() * r.d);
  for (const Range& f : free) {
    const uint64_t size = f.end - f.begin;
    for (; p < places.size() && places[p] < before + size; ++p) {
      if (loaded != f.block) {
        if (Status s = r.ReadBlock(f.block, &block); !s.ok()) return s;
        loaded = f.block;
      }
      const uint16_t* path = block.path(f.begin + (places[p] - before));
      const Card* node = decoder.Decode(path, r.d);
      roots->insert(roots->end(), node, node + r.d);
    }
    before += size;
  }
  return Status::OK();
}

Status EstimateLeft(const CountCoordinator& coordinator, const GameSpec& spec, uint64_t seed,
                    const std::atomic<bool>* stop, double* sub_decks_left, LeftDetail* detail) {
  *sub_decks_left = 0;
  if (detail != nullptr) *detail = LeftDetail();
  // Subtree sizes vary by orders of magnitude, so the sample of them is
  // large; populations of 64 then sample below them (256 populations draw
  // 16384 roots from it). On modular m=15, split at level 6 (1.46M
  // subtrees), four seeds gave the work left within ±3% of each other in
  // 0.7 s of one thread (docs/estimates.md): refreshed every ten minutes,
  // about 0.1% of a thread.
  constexpr uint64_t kLeftRoots = 16384;
  constexpr uint64_t kLeftSamples = 256;
  constexpr uint32_t kLeftWidth = 64;
  std::vector<Card> roots;
  uint64_t left = 0;
  double scale = 1;
  Status s = coordinator.SampleLeft(kLeftRoots, seed, &roots, &left, &scale);
  if (!s.ok() || left == 0) return s;
  EstimateOptions options;
  options.samples = kLeftSamples;
  options.width = kLeftWidth;
  options.seed = seed;
  options.threads = 1;
  options.stop = stop;
  EstimateResult result;
  s = EstimateBelow(spec, coordinator.split_level(), roots, options, &result);
  if (!s.ok()) return s;
  if (result.interrupted) return Status::Cancelled("the estimate of the work left was stopped");
  // The roots themselves are not work left: they were counted with the split level.
  *sub_decks_left =
      std::max(0.0,
               result.nodes.mean - static_cast<double>(roots.size() / coordinator.split_level())) *
      scale;
  if (detail != nullptr) {
    if (result.nodes.mean > 0) {
      detail->relative_error =
          std::max(0.0, result.nodes.high - result.nodes.mean) / result.nodes.mean;
    }
    if (result.counting_seconds > 1e-3 && result.sub_decks_counted > 0) {
      detail->cpu_rate = result.sub_decks_counted / result.counting_seconds;
    }
  }
  return Status::OK();
}

Status EstimateStoredLeft(FrontierStore* store, const GameSpec& spec, int threads,
                          CountLeft* left) {
  *left = CountLeft();
  std::unique_ptr<CountCoordinator> c;
  Status s = CountCoordinator::OpenToRead(store, spec, &c);
  LeftDetail detail;
  LoadMeter load;  // the machine's load while the estimate runs
  if (s.ok()) s = EstimateLeft(*c, spec, 1, nullptr, &left->sub_decks, &detail);
  if (!s.ok()) return s;
  left->threads = EffectiveThreads(threads);
  left->share = load.Share(threads);
  left->time = SecondsForWork(left->sub_decks, detail.relative_error, detail.cpu_rate, left->share,
                              left->threads);
  if (c->seconds_before() > 0 && c->sub_decks_before() > 0) {
    left->worker_seconds =
        left->sub_decks * c->seconds_before() / static_cast<double>(c->sub_decks_before());
  }
  return Status::OK();
}

Status CountCoordinator::Checkpoint(bool force) {
  Rep& r = *rep_;
  std::vector<CountRecord> records;
  {
    std::lock_guard<std::mutex> lock(r.mu);
    const double since = std::chrono::duration<double>(Clock::now() - r.last_checkpoint).count();
    if (r.pending.empty() || (!force && since < r.options.checkpoint_seconds)) return Status::OK();
    records.swap(r.pending);
    r.last_checkpoint = Clock::now();
  }
  return r.store->PutCountRecords(records);
}

bool CountCoordinator::AllDone() const {
  std::lock_guard<std::mutex> lock(rep_->mu);
  return rep_->subtrees_done == rep_->total && rep_->pending.empty() && rep_->in_flight == 0;
}

Status CountCoordinator::Complete(CountResult* result) {
  Rep& r = *rep_;
  if (!AllDone()) return Status::InvalidArgument("the count is not finished");
  *result = CountResult();
  result->level.assign(r.n + 1, 0);
  for (const LevelRecord& l : r.levels) {
    if (l.level <= r.d) result->level[l.level] = l.entries;
  }
  for (int j = r.d + 1; j <= r.n; ++j) result->level[j] = r.counted.level[j];
  for (int j = 1; j <= r.n; ++j) result->nodes += result->level[j];
  if (!r.complete && r.d < r.n) {
    std::vector<LevelRecord> below;
    for (int j = r.d + 1; j <= r.n; ++j) {
      LevelRecord l;
      l.level = j;
      l.entries = r.counted.level[j];
      l.kept = false;  // counted, never stored
      below.push_back(l);
    }
    // The worker time of every batch, on the last level's record.
    below.back().seconds = r.counted.seconds;
    Status s = r.store->CommitLevels(below);
    if (!s.ok()) return s;
    r.complete = true;
  }
  return Status::OK();
}

namespace {

// The work left, for the ETA: estimated on a thread of its own (a second
// or so beside the workers) when the count starts, every
// kLeftRefreshSeconds, and sooner once most of the last estimate is
// counted, so that the end of a count is estimated afresh.
class LeftEstimator {
 public:
  LeftEstimator(const CountCoordinator& c, const GameSpec& spec,
                const std::atomic<uint64_t>* counted)
      : c_(c), spec_(spec), counted_(counted) {}
  ~LeftEstimator() { Join(); }  // on every return

  void Start() {
    thread_ = std::thread([this] { Run(); });
  }
  void Join() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }
  // The sub-decks left now that `counted` are counted (by the last
  // estimate, less those counted since); -1 without one.
  double Left(uint64_t counted) const {
    std::lock_guard<std::mutex> lock(mu_);
    if (estimate_.left < 0) return -1;
    return estimate_.left - static_cast<double>(counted - estimate_.counted_at);
  }

 private:
  static constexpr double kLeftRefreshSeconds = 600, kLeftSoonestSeconds = 30;
  struct Estimate {
    double left = -1;         // sub-decks left when it was made (-1: none yet)
    uint64_t counted_at = 0;  // *counted_ then
    double at = 0;            // Unix time then
  };

  void Run() {
    for (uint64_t round = 1; !stop_.load(); ++round) {
      const uint64_t at = counted_->load();
      double left = 0;
      // Informative only: a failed estimate leaves the ETA by subtrees.
      if (!EstimateLeft(c_, spec_, round, &stop_, &left).ok()) return;
      std::unique_lock<std::mutex> lock(mu_);
      estimate_ = Estimate{left, at, UnixNow()};
      if (left == 0) return;  // everything handed out
      for (;;) {
        if (cv_.wait_for(lock, std::chrono::seconds(1), [&] { return stop_.load(); })) return;
        const double age = UnixNow() - estimate_.at;
        const double used = static_cast<double>(counted_->load() - estimate_.counted_at);
        if (age >= kLeftRefreshSeconds ||
            (age >= kLeftSoonestSeconds && used > 0.75 * estimate_.left)) {
          break;
        }
      }
    }
  }

  const CountCoordinator& c_;
  const GameSpec& spec_;
  const std::atomic<uint64_t>* const counted_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  Estimate estimate_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// A count store as DriveBatches() runs it: its coordinator, this process's
// threads and device, the other ranks, the ETA and the live state.
class CountRun : public BatchCount {
 public:
  CountRun(FrontierStore* store, const GameSpec& spec, const CountStoreOptions& options,
           CountCoordinator* c, RemoteWorkers* remote)
      : store_(store),
        spec_(spec),
        options_(options),
        c_(*c),
        remote_(remote),
        total_(c->subtrees_total()),
        threads_(options.device ? std::max(options.threads, 0) : EffectiveThreads(options.threads)),
        device_threads_(options.device ? options.device->thread_equivalent() : 0),
        left_(*c, spec, options.sub_decks_counted) {
    if (options.subtrees_total) options.subtrees_total->store(total_);
    if (options.subtrees_done) options.subtrees_done->store(c->subtrees_done());
    c->SetWorkers(threads_ + device_threads_ + (remote ? remote->threads() : 0));
  }

  // After the other ranks are started: the estimates of the work left, and
  // the live state's start.
  void Start() {
    if (options_.sub_decks_before) options_.sub_decks_before->store(c_.sub_decks_before());
    if (options_.sub_decks_counted != nullptr && total_ > 0) left_.Start();
    live_.pid = ::getpid();
    live_.started = live_.updated = UnixNow();
    live_.level = c_.split_level();
    live_.last_level = spec_.cards();
    live_.input_total = total_;
    live_.counting = true;
    done_at_start_ = c_.subtrees_done();
    rate_samples_ = {{UnixNow(), Counted()}};
  }

  const char* unit() const override { return "subtrees"; }
  uint64_t total() const override { return total_; }
  uint64_t done() const override { return c_.subtrees_done(); }
  bool Outstanding() const override { return c_.Outstanding(); }
  Status Checkpoint(bool force) override { return c_.Checkpoint(force); }
  bool AllDone() const override { return c_.AllDone(); }

  // Workers 0..threads-1 are threads; the last, with a device, drives it.
  int workers() const override { return threads_ + (options_.device ? 1 : 0); }
  std::unique_ptr<BatchWorker> NewWorker(int index) override;

  bool has_remote() const override { return remote_ != nullptr; }
  bool Poll(bool stopping, Status* error) override { return remote_->Poll(&c_, stopping, error); }
  bool Released() const override { return remote_->Released(); }
  void Abandon() override { remote_->Abandon(); }

  void Progress() override {
    if (options_.subtrees_done) options_.subtrees_done->store(c_.subtrees_done());
  }
  void Publish(bool force) override;
  // Before the last commits: the estimate reads level d's blocks.
  void WorkersStopped() override { left_.Join(); }

 private:
  class Worker;

  uint64_t Counted() const {
    return options_.sub_decks_counted ? options_.sub_decks_counted->load() : 0;
  }

  FrontierStore* const store_;
  const GameSpec& spec_;
  const CountStoreOptions& options_;
  CountCoordinator& c_;
  RemoteWorkers* const remote_;
  const uint64_t total_;
  const int threads_, device_threads_;
  LeftEstimator left_;
  LiveStatus live_;
  uint64_t done_at_start_ = 0;
  std::deque<std::pair<double, uint64_t>> rate_samples_;
};

class CountRun::Worker : public BatchWorker {
 public:
  Worker(const CountRun& run, SubtreeDevice* device) : run_(run), device_(device) {}

  bool Next(Status* status) override {
    return run_.c_.Next(device_ ? run_.device_threads_ : 1, &batch_, status);
  }
  Status Count(const std::atomic<bool>* stop) override {
    const CountStoreOptions& options = run_.options_;
    counts_ = SubtreeCounts();
    std::unique_ptr<WinnerTally> tally;
    WinnerCallback on_winner;
    if (options.new_tally) {
      tally = options.new_tally();
      on_winner = [&tally](const Card* deck, const Card* order) { tally->Add(deck, order); };
    }
    Status s = device_ ? device_->CountBatch(run_.spec_, batch_.paths.data(), batch_.count,
                                             batch_.k, stop, options.sub_decks_counted, &counts_)
                       : CountSubtrees(run_.spec_, batch_.paths.data(), batch_.count, batch_.k, 1,
                                       stop, options.sub_decks_counted, &counts_, &on_winner);
    if (s.ok() && tally) counts_.tally = tally->Encode();
    return s;
  }
  Status Finished() override {
    Status s = run_.c_.Finished(batch_, counts_);
    if (s.ok() && run_.options_.subtrees_done) {
      run_.options_.subtrees_done->store(run_.c_.subtrees_done());
    }
    return s;
  }
  Status Returned() override { return run_.c_.Returned(batch_); }

 private:
  const CountRun& run_;
  SubtreeDevice* const device_;
  SubtreeBatch batch_;
  SubtreeCounts counts_;
};

std::unique_ptr<BatchWorker> CountRun::NewWorker(int index) {
  return std::make_unique<Worker>(*this, index == threads_ ? options_.device : nullptr);
}

void CountRun::Publish(bool force) {
  // The rate `status` shows: over the last kRateWindow seconds. Other ranks'
  // sub-decks arrive a batch (seconds of work) at a time, so a rate over
  // the 2 s between two publications jumped between half and one and a half
  // times the true one under mpirun (2026-11-24).
  constexpr double kRateWindow = 60;
  // The ETA's rate: over the last kEtaWindow seconds, long enough to smooth
  // the batches' arrival, short enough to follow the machine's load. The
  // session's average rate it replaces kept the slowdown of a test run
  // beside a record run in the ETA long after (17% high an hour later,
  // 2026-11-24).
  constexpr double kEtaWindow = 600;
  const double now = UnixNow();
  if (!force && now - live_.updated < 2.0) return;
  const uint64_t counted = Counted();
  while (rate_samples_.size() > 1 && now - rate_samples_[1].first >= kEtaWindow) {
    rate_samples_.pop_front();
  }
  // Each window starts at its newest sample at least that old (or the
  // oldest kept), so that it spans the whole window once it can.
  auto window_from = [&](double seconds) {
    size_t i = rate_samples_.size() - 1;
    while (i > 0 && now - rate_samples_[i].first < seconds) --i;
    return rate_samples_[i];
  };
  const auto [from_time, from_counted] = window_from(kRateWindow);
  if (now > from_time) live_.entries_per_second = (counted - from_counted) / (now - from_time);
  const auto [eta_time, eta_counted] = rate_samples_.front();
  rate_samples_.emplace_back(now, counted);
  live_.updated = now;
  live_.input_done = c_.subtrees_done();
  live_.entries = counted;
  // The ETA by work: the sub-decks left at the rate of the last
  // kEtaWindow seconds. Until the first estimate (or when the last one ran
  // out), by subtrees at this session's pace: rough, since subtree sizes
  // vary by orders of magnitude in no particular order.
  double left = left_.Left(counted);
  if (left < 0 || live_.input_done == total_) left = -1;
  if (options_.sub_decks_left) options_.sub_decks_left->store(left);
  live_.sub_decks_left = left;
  live_.eta_seconds = -1;
  if (left >= 0 && counted > eta_counted && now > eta_time) {
    live_.eta_seconds = left * (now - eta_time) / static_cast<double>(counted - eta_counted);
  } else if (live_.input_done > done_at_start_ && now > live_.started) {
    live_.eta_seconds = (now - live_.started) * (total_ - live_.input_done) /
                        static_cast<double>(live_.input_done - done_at_start_);
  }
  WriteLiveStatus(store_->dir(), live_).ok();  // informative only
}

// What CountStore() refuses before it opens the store: options that do not
// go together, and a game the enumerator cannot take. The spec is checked
// here only: below, the coordinator takes it as checked.
Status CheckCountRequest(const GameSpec& spec, const CountStoreOptions& options,
                         const RemoteWorkers* remote) {
  if (!options.tally.empty() && !options.new_tally) {
    return Status::InvalidArgument("a " + options.tally + " count needs its tallies");
  }
  if (remote != nullptr && !options.tally.empty()) {
    return Status::NotSupported("a " + options.tally +
                                " count runs on one process's threads, not under mpirun");
  }
  if (options.device != nullptr && !options.tally.empty()) {
    return Status::NotSupported("a " + options.tally + " count runs on the CPU, not --gpu");
  }
  return CheckEnumerable(spec);
}

}  // namespace

Status CountStore(FrontierStore* store, const GameSpec& spec, const CountStoreOptions& options,
                  CountResult* result, RemoteWorkers* remote) {
  // Step 1. The door: the request and the spec, checked once.
  Status s = CheckCountRequest(spec, options, remote);
  if (!s.ok()) return s;
  // Step 2. The store: its parameters checked (or made), the levels down to
  // the split built, the batches already committed read.
  std::unique_ptr<CountCoordinator> coordinator;
  s = CountCoordinator::OpenChecked(store, spec, options, /*read_only=*/false, &coordinator);
  if (!s.ok()) return s;
  // Step 3. The subtrees counted, here and on the other ranks.
  CountRun run(store, spec, options, coordinator.get(), remote);
  const bool work = run.total() > 0;
  if (remote != nullptr && work) {
    s = remote->Start(spec);
    if (!s.ok()) return s;
  }
  run.Start();
  s = DriveBatches(&run, work, options.stop);
  if (!s.ok()) return s;
  // Step 4. The levels below the split committed: the store reads like a
  // complete run.
  s = coordinator->Complete(result);
  if (s.ok()) RemoveLiveStatus(store->dir());
  return s;
}

}  // namespace eulerdeck::storage
