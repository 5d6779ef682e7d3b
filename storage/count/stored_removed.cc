#include "storage/count/stored_removed.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <deque>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "engine/base/parallel.h"
#include "engine/cards/combinatorics.h"
#include "storage/count/batch_driver.h"
#include "storage/store/live_status.h"
#include "storage/store/params.h"

namespace eulerdeck::storage {

namespace {

using Clock = std::chrono::steady_clock;

std::string Hex64(uint64_t x) {
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(x));
  return buf;
}

bool ParseHex64(const std::string& text, uint64_t* x) {
  if (text.size() != 16 || text.find_first_not_of("0123456789abcdef") != std::string::npos) {
    return false;
  }
  *x = std::stoull(text, nullptr, 16);
  return true;
}

std::string Describe(const GameSpec& spec) {
  return std::string(GameName(spec.game)) + " --ranks " + std::to_string(spec.ranks) + " --suits " +
         std::to_string(spec.suits);
}

}  // namespace

RemovedPlanRecord PlanRecord(const RemovedPlan& plan) {
  RemovedPlanRecord r;
  r.split_depth = plan.split_depth();
  r.tasks = plan.tasks();
  r.fingerprint = plan.fingerprint();
  r.method = plan.method();
  r.top = plan.top();
  r.top.resize(plan.spec().cards() + 1, 0);
  return r;
}

std::string EncodeRemovedPlan(const RemovedPlanRecord& plan) {
  nlohmann::json top = nlohmann::json::array();
  for (uint64_t x : plan.top) top.push_back(x);
  const nlohmann::json j = {{"split_depth", plan.split_depth},
                            {"tasks", plan.tasks},
                            {"fingerprint", Hex64(plan.fingerprint)},
                            {"method", plan.method},
                            {"top", top}};
  return j.dump();
}

Status DecodeRemovedPlan(const std::string& text, int n, RemovedPlanRecord* plan) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  const Status bad = Status::Corruption("the removed count's plan record is malformed");
  if (j.is_discarded() || !j.is_object()) return bad;
  try {
    *plan = RemovedPlanRecord();
    plan->split_depth = j.at("split_depth").get<int>();
    plan->tasks = j.at("tasks").get<uint64_t>();
    if (!ParseHex64(j.at("fingerprint").get<std::string>(), &plan->fingerprint)) return bad;
    plan->method = j.at("method").get<std::string>();
    plan->top = j.at("top").get<std::vector<uint64_t>>();
  } catch (const nlohmann::json::exception&) {
    return bad;
  }
  if (plan->split_depth < 1 || plan->top.size() != static_cast<size_t>(n + 1)) {
    return Status::Corruption("the removed count's plan record is not of a game of " +
                              std::to_string(n) + " cards");
  }
  return Status::OK();
}

Status TaskCounts::Add(const TaskCounts& other) {
  if (removed.size() < other.removed.size()) removed.resize(other.removed.size(), 0);
  for (size_t i = 0; i < other.removed.size(); ++i) {
    if (removed[i] + other.removed[i] < removed[i]) {
      return Status::OutOfRange("a sum of decks passes 2^64");
    }
    removed[i] += other.removed[i];
  }
  tasks += other.tasks;
  seconds += other.seconds;
  return Status::OK();
}

uint64_t TaskCounts::decks() const {
  uint64_t sum = 0;
  for (uint64_t x : removed) sum += x;
  return sum;
}

CountRecord EncodeRemovedRecord(const TaskBatch& batch, const TaskCounts& c) {
  nlohmann::json removed = nlohmann::json::array();
  for (uint64_t x : c.removed) removed.push_back(x);
  const nlohmann::json j = {{"tasks", c.tasks}, {"removed", removed}, {"seconds", c.seconds}};
  return CountRecord{static_cast<uint32_t>(batch.first >> 32),
                     static_cast<uint32_t>(batch.first & 0xffffffffu), j.dump()};
}

Status DecodeRemovedRecord(const CountRecord& r, int n, TaskBatch* batch, TaskCounts* c) {
  batch->first = (uint64_t{r.block} << 32) | r.first;
  const std::string where = "removed count record (task " + std::to_string(batch->first) + ")";
  const nlohmann::json j = nlohmann::json::parse(r.value, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object() || !j.contains("removed") || !j["removed"].is_array() ||
      j["removed"].size() != static_cast<size_t>(n + 1)) {
    return Status::Corruption(where + " is malformed or not of this game");
  }
  *c = TaskCounts();
  try {
    c->removed = j["removed"].get<std::vector<uint64_t>>();
    c->tasks = j.at("tasks").get<uint64_t>();
    c->seconds = j.value("seconds", 0.0);
  } catch (const nlohmann::json::exception&) {
    return Status::Corruption(where + " is malformed");
  }
  if (c->tasks == 0) return Status::Corruption(where + " counts no tasks");
  batch->count = c->tasks;
  return Status::OK();
}

Status CheckRemovedParams(const StoreParams& params, const GameSpec& spec, const std::string& dir) {
  if (Status s = CheckParams(params, spec, dir); !s.ok()) return s;
  if (params.kind != StoreKind::kRemoved) {
    return Status::InvalidArgument(
        "store '" + dir + "' holds " +
        (params.kind == StoreKind::kRun ? std::string("a stored run")
                                        : std::string("a count of winning decks")) +
        ", not a count --removed (continue it with `eulerdeck resume --store " + dir + "`)");
  }
  return Status::OK();
}

Status PlanForStore(const GameSpec& spec, const StoreParams* params, const std::string& dir,
                    int split_depth, uint64_t memo_entries, std::unique_ptr<RemovedPlan>* plan) {
  RemovedPlanRecord recorded;
  if (params != nullptr) {
    if (Status s = CheckRemovedParams(*params, spec, dir); !s.ok()) return s;
    if (Status s = DecodeRemovedPlan(params->plan, spec.cards(), &recorded); !s.ok()) return s;
    if (split_depth != 0 && split_depth != recorded.split_depth) {
      return Status::InvalidArgument("store '" + dir + "' splits the play " +
                                     std::to_string(recorded.split_depth) +
                                     " removals deep, not --split " + std::to_string(split_depth) +
                                     " (a split cannot change; use a new store)");
    }
    split_depth = recorded.split_depth;
  }
  RemovedOptions options;
  options.split_depth = split_depth;
  if (memo_entries != 0) options.memo_entries = memo_entries;
  Status s = PlanRemoved(spec, options, plan);
  if (!s.ok()) return s;
  if (params != nullptr) {
    const RemovedPlanRecord made = PlanRecord(**plan);
    if (made.fingerprint != recorded.fingerprint || made.tasks != recorded.tasks ||
        made.top != recorded.top) {
      plan->reset();
      return Status::InvalidArgument(
          "store '" + dir + "' was planned as " + std::to_string(recorded.tasks) +
          " tasks with fingerprint " + Hex64(recorded.fingerprint) + ", this build plans " +
          std::to_string(made.tasks) + " tasks with fingerprint " + Hex64(made.fingerprint) +
          " (another cut of the play): its batches cannot be resumed here; count in a new store");
    }
  }
  return Status::OK();
}

namespace {

// The committed batches, checked (in task order, none overlapping, none past
// the plan's tasks), as done ranges first -> count.
Status ReadRecords(FrontierStore* store, int n, uint64_t total, std::map<uint64_t, uint64_t>* done,
                   TaskCounts* counted, uint64_t* batches_read,
                   std::vector<RemovedBatchSummary>* batches) {
  std::vector<CountRecord> records;
  Status s = store->GetCountRecords(&records);
  if (!s.ok()) return s;
  *counted = TaskCounts();
  counted->removed.assign(n + 1, 0);
  uint64_t end = 0;
  for (const CountRecord& r : records) {
    TaskBatch b;
    TaskCounts c;
    s = DecodeRemovedRecord(r, n, &b, &c);
    if (!s.ok()) return s;
    if (!done->empty() && b.first < end) {
      return Status::Corruption("removed count records overlap at task " + std::to_string(b.first));
    }
    if (b.first > total || b.count > total - b.first) {
      return Status::Corruption("a removed count record names tasks past the plan's " +
                                std::to_string(total) + " (task " + std::to_string(b.first) + ")");
    }
    end = b.first + b.count;
    (*done)[b.first] = b.count;
    s = counted->Add(c);
    if (!s.ok()) return s;
    ++*batches_read;
    if (batches != nullptr) batches->push_back({b.first, b.count, c.decks(), c.seconds});
  }
  return Status::OK();
}

}  // namespace

Status ReadRemovedProgress(FrontierStore* store, RemovedProgress* progress,
                           std::vector<RemovedBatchSummary>* batches) {
  *progress = RemovedProgress();
  if (batches != nullptr) batches->clear();
  StoreParams params;
  bool exists = false;
  Status s = store->GetParams(&params, &exists);
  if (!s.ok()) return s;
  if (!exists) return Status::InvalidArgument("'" + store->dir() + "' holds no count yet");
  s = CheckRemovedParams(params, params.spec, store->dir());
  if (!s.ok()) return s;
  const int n = params.spec.cards();
  s = DecodeRemovedPlan(params.plan, n, &progress->plan);
  if (!s.ok()) return s;
  std::map<uint64_t, uint64_t> done;
  s = ReadRecords(store, n, progress->plan.tasks, &done, &progress->counted, &progress->batches,
                  batches);
  if (!s.ok()) return s;
  progress->tasks_done = progress->counted.tasks;
  return Status::OK();
}

Status RemovedDistribution(const GameSpec& spec, const RemovedProgress& progress,
                           std::vector<uint64_t>* removed) {
  TaskCounts sum;
  sum.removed = progress.plan.top;
  Status s = sum.Add(progress.counted);
  if (!s.ok()) return s;
  const uint64_t total = TotalDecks64(spec).value_or(0);
  if (sum.decks() != total) {
    return Status::Corruption("the removed count sums to " + std::to_string(sum.decks()) +
                              " decks, not the " + std::to_string(total) + " decks of " +
                              Describe(spec));
  }
  *removed = std::move(sum.removed);
  return Status::OK();
}

struct RemovedCoordinator::Rep {
  FrontierStore* store = nullptr;
  const RemovedPlan* plan = nullptr;
  RemovedStoreOptions options;
  int n = 0;
  uint64_t total = 0;
  uint64_t before = 0;  // tasks committed by earlier sessions
  RemovedPlanRecord record;

  mutable std::mutex mu;              // guards everything below
  std::map<uint64_t, uint64_t> done;  // committed before this session: first -> count
  TaskCounts counted;                 // every finished batch (committed or not)
  uint64_t handed_out = 0;            // tasks handed out or done (end-game sizing)
  double cost_seconds = 0;            // measured cost of the finished batches
  uint64_t cost_tasks = 0;
  int workers = 1;
  std::vector<CountRecord> pending;  // finished, not yet committed
  std::deque<TaskBatch> returned;    // handed out again first
  uint64_t in_flight = 0;
  uint64_t cursor = 0;
  Clock::time_point last_checkpoint = Clock::now();

  // As the count store's: batch_seconds of work per thread at the cost
  // measured so far, at most a quarter of what is left per thread. Before
  // any cost is known, one task per thread (the first tasks are the largest).
  uint64_t BatchSize(int threads) const {
    if (options.batch_tasks > 0) return options.batch_tasks;
    double size = threads;
    if (cost_tasks > 0 && cost_seconds > 0) {
      size = options.batch_seconds * threads * static_cast<double>(cost_tasks) / cost_seconds;
    }
    const double left = static_cast<double>(total - std::min(total, handed_out));
    size = std::min(size, left / (4.0 * std::max(workers, 1)) * threads);
    return static_cast<uint64_t>(std::clamp(size, 1.0, 1048576.0));
  }
};

RemovedCoordinator::RemovedCoordinator(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
RemovedCoordinator::~RemovedCoordinator() = default;

Status RemovedCoordinator::Open(FrontierStore* store, const RemovedPlan& plan,
                                const RemovedStoreOptions& options,
                                std::unique_ptr<RemovedCoordinator>* coordinator) {
  const GameSpec& spec = plan.spec();
  auto rep = std::make_unique<Rep>();
  rep->store = store;
  rep->plan = &plan;
  rep->options = options;
  rep->n = spec.cards();
  rep->total = plan.tasks();
  StoreParams params;
  bool exists = false;
  Status s = store->GetParams(&params, &exists);
  if (!s.ok()) return s;
  if (!exists) {
    // A store made by the storage layer alone (tests; the tools create it
    // with its parameters, CreateStore).
    params = NewStoreParams(spec, Keep::kNone);
    params.kind = StoreKind::kRemoved;
    params.plan = EncodeRemovedPlan(PlanRecord(plan));
    s = store->PutParams(params);
    if (!s.ok()) return s;
  } else {
    if (s = CheckRemovedParams(params, spec, store->dir()); !s.ok()) return s;
    RemovedPlanRecord recorded;
    if (s = DecodeRemovedPlan(params.plan, rep->n, &recorded); !s.ok()) return s;
    const RemovedPlanRecord made = PlanRecord(plan);
    if (made.fingerprint != recorded.fingerprint || made.tasks != recorded.tasks ||
        made.top != recorded.top || made.split_depth != recorded.split_depth) {
      return Status::InvalidArgument(
          "store '" + store->dir() + "' holds another plan of the play (its fingerprint " +
          Hex64(recorded.fingerprint) + ", this one " + Hex64(made.fingerprint) + ")");
    }
    // Read whole first, as a count store resumed: damage is refused before
    // more work is committed beside it.
    uint64_t replaced = 0;
    s = store->VerifyFiles(&replaced);
    if (!s.ok()) return s;
  }
  rep->record = PlanRecord(plan);
  uint64_t batches = 0;
  s = ReadRecords(store, rep->n, rep->total, &rep->done, &rep->counted, &batches, nullptr);
  if (!s.ok()) return s;
  rep->before = rep->handed_out = rep->counted.tasks;
  rep->cost_seconds = rep->counted.seconds;
  rep->cost_tasks = rep->counted.tasks;
  rep->workers = EffectiveThreads(options.threads);
  coordinator->reset(new RemovedCoordinator(std::move(rep)));
  return Status::OK();
}

uint64_t RemovedCoordinator::tasks_total() const { return rep_->total; }
uint64_t RemovedCoordinator::tasks_done() const {
  std::lock_guard<std::mutex> lock(rep_->mu);
  return rep_->counted.tasks;
}
uint64_t RemovedCoordinator::tasks_before() const { return rep_->before; }
uint64_t RemovedCoordinator::decks_done() const {
  std::lock_guard<std::mutex> lock(rep_->mu);
  return rep_->counted.decks();
}
void RemovedCoordinator::SetWorkers(int threads) {
  std::lock_guard<std::mutex> lock(rep_->mu);
  rep_->workers = std::max(threads, 1);
}

bool RemovedCoordinator::Next(int threads, TaskBatch* batch) {
  Rep& r = *rep_;
  std::lock_guard<std::mutex> lock(r.mu);
  if (!r.returned.empty()) {
    *batch = r.returned.front();
    r.returned.pop_front();
    ++r.in_flight;
    return true;
  }
  while (r.cursor < r.total) {
    // Skip what earlier sessions committed.
    uint64_t end = r.total;
    auto next = r.done.upper_bound(r.cursor);
    if (next != r.done.begin()) {
      auto prev = std::prev(next);
      if (prev->first + prev->second > r.cursor) {
        r.cursor = prev->first + prev->second;
        continue;
      }
    }
    if (next != r.done.end()) end = next->first;
    const uint64_t count = std::min(r.BatchSize(threads), end - r.cursor);
    batch->first = r.cursor;
    batch->count = count;
    r.cursor += count;
    r.handed_out += count;
    ++r.in_flight;
    return true;
  }
  return false;
}

bool RemovedCoordinator::Outstanding() const {
  std::lock_guard<std::mutex> lock(rep_->mu);
  return rep_->in_flight > 0 || !rep_->returned.empty();
}

Status RemovedCoordinator::Finished(const TaskBatch& batch, const TaskCounts& counts) {
  Rep& r = *rep_;
  if (counts.tasks != batch.count || counts.removed.size() != static_cast<size_t>(r.n + 1)) {
    return Status::InvalidArgument("a batch of " + std::to_string(batch.count) +
                                   " tasks came back with " + std::to_string(counts.tasks) +
                                   " tasks or a distribution of another size");
  }
  std::lock_guard<std::mutex> lock(r.mu);
  Status s = r.counted.Add(counts);
  if (!s.ok()) return s;
  r.cost_seconds += counts.seconds;
  r.cost_tasks += counts.tasks;
  --r.in_flight;
  r.pending.push_back(EncodeRemovedRecord(batch, counts));
  return Status::OK();
}

Status RemovedCoordinator::Returned(const TaskBatch& batch) {
  Rep& r = *rep_;
  std::lock_guard<std::mutex> lock(r.mu);
  if (batch.first > r.total || batch.count > r.total - batch.first) {
    return Status::Corruption("a batch given back names tasks past the plan's " +
                              std::to_string(r.total));
  }
  --r.in_flight;
  r.returned.push_back(batch);
  return Status::OK();
}

Status RemovedCoordinator::Checkpoint(bool force) {
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

bool RemovedCoordinator::AllDone() const {
  std::lock_guard<std::mutex> lock(rep_->mu);
  return rep_->counted.tasks == rep_->total && rep_->pending.empty() && rep_->in_flight == 0;
}

Status RemovedCoordinator::Complete(RemovedResult* result) {
  Rep& r = *rep_;
  if (!AllDone()) return Status::InvalidArgument("the count is not finished");
  RemovedProgress progress;
  progress.plan = r.record;
  {
    std::lock_guard<std::mutex> lock(r.mu);
    progress.counted = r.counted;
    progress.tasks_done = r.counted.tasks;
  }
  *result = RemovedResult();
  Status s = RemovedDistribution(r.plan->spec(), progress, &result->removed);
  if (!s.ok()) return s;
  result->total_decks = TotalDecks64(r.plan->spec()).value_or(0);
  result->method = r.plan->method();
  result->tasks = r.total;
  result->states = r.plan->states();
  result->memo_hits = r.plan->memo_hits();
  return Status::OK();
}

Status CountTaskBatch(const RemovedPlan& plan, const TaskBatch& batch, int threads,
                      const std::atomic<bool>* stop, std::atomic<uint64_t>* done,
                      TaskCounts* counts) {
  const int n = plan.spec().cards();
  const auto start = Clock::now();
  threads =
      std::max(1, std::min<int>(threads, static_cast<int>(std::min<uint64_t>(batch.count, 1024))));
  std::atomic<uint64_t> next{0};
  std::vector<std::vector<uint64_t>> sums(threads, std::vector<uint64_t>(n + 1, 0));
  std::vector<Status> errors(threads);
  auto work = [&](int t) {
    for (;;) {
      const uint64_t i = next.fetch_add(1);
      if (i >= batch.count) return;
      if (stop != nullptr && stop->load(std::memory_order_relaxed)) {
        errors[t] = Status::Cancelled("stopped");
        return;
      }
      Status s = plan.CountTasks(batch.first + i, 1, &sums[t], stop);
      if (!s.ok()) {
        errors[t] = s;
        next = batch.count;  // the others stop too
        return;
      }
      if (done != nullptr) done->fetch_add(1, std::memory_order_relaxed);
    }
  };
  if (threads == 1) {
    work(0);
  } else {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) pool.emplace_back(work, t);
    for (std::thread& th : pool) th.join();
  }
  for (const Status& e : errors) {
    if (!e.ok() && !e.IsCancelled()) return e;
  }
  for (const Status& e : errors) {
    if (e.IsCancelled()) return e;
  }
  counts->removed.assign(n + 1, 0);
  for (const auto& s : sums) {
    for (int i = 0; i <= n; ++i) counts->removed[i] += s[i];
  }
  counts->tasks = batch.count;
  counts->seconds = std::chrono::duration<double>(Clock::now() - start).count() * threads;
  return Status::OK();
}

namespace {

// A removed store as DriveBatches() runs it: its coordinator, this
// process's threads, the other ranks and the live state.
class RemovedRun : public BatchCount {
 public:
  RemovedRun(FrontierStore* store, const RemovedPlan& plan, const RemovedStoreOptions& options,
             RemovedCoordinator* c, RemovedRemoteWorkers* remote)
      : store_(store),
        plan_(plan),
        options_(options),
        c_(*c),
        remote_(remote),
        total_(c->tasks_total()),
        threads_(EffectiveThreads(options.threads)),
        in_batch_(threads_) {
    if (options.tasks_total) options.tasks_total->store(total_);
    if (options.tasks_done) options.tasks_done->store(c->tasks_done());
    c->SetWorkers(threads_ + (remote ? remote->threads() : 0));
    // The live state for `status`. The ETA is by decks: the decks below the
    // cut not yet counted, at the rate of the last kEtaWindow seconds. Tasks
    // differ in decks by orders of magnitude and come in the plan's key
    // order, not by size, so a rate of tasks misleads (at A028305 row 17 by
    // three times); the time a deck takes varies far less (docs/removed.md).
    live_.pid = ::getpid();
    live_.started = live_.updated = UnixNow();
    live_.level = plan.split_depth();
    live_.last_level = plan.spec().cards();
    live_.input_total = total_;
    live_.counting = true;
    live_.eta_by_decks = true;
    done_at_start_ = c->tasks_done();
    // The decks below the cut: the game's, less those the plan's top decides.
    decks_total_ = TotalDecks64(plan.spec()).value_or(0);
    for (uint64_t x : plan.top()) decks_total_ -= std::min(decks_total_, x);
    samples_ = {{UnixNow(), done_at_start_, c->decks_done()}};
  }

  const char* unit() const override { return "tasks"; }
  uint64_t total() const override { return total_; }
  uint64_t done() const override { return c_.tasks_done(); }
  bool Outstanding() const override { return c_.Outstanding(); }
  Status Checkpoint(bool force) override { return c_.Checkpoint(force); }
  bool AllDone() const override { return c_.AllDone(); }

  int workers() const override { return threads_; }
  std::unique_ptr<BatchWorker> NewWorker(int index) override;

  bool has_remote() const override { return remote_ != nullptr; }
  bool Poll(bool stopping, Status* error) override { return remote_->Poll(&c_, stopping, error); }
  bool Released() const override { return remote_->Released(); }
  void Abandon() override { remote_->Abandon(); }

  void Progress() override {
    if (options_.tasks_done) options_.tasks_done->store(DoneNow());
  }
  void Publish(bool force) override {
    constexpr double kEtaWindow = 600;
    const double now = UnixNow();
    if (!force && now - live_.updated < 2.0) return;
    const uint64_t done = DoneNow();
    const uint64_t decks = c_.decks_done();
    // (The window keeps a sample with fewer decks than now, so that a task
    // longer than the window leaves the rate of the last ones, not none.)
    while (samples_.size() > 1 && now - samples_[1].time >= kEtaWindow &&
           samples_[1].decks < decks) {
      samples_.pop_front();
    }
    const auto [from_time, from_done, from_decks] = samples_.front();
    samples_.push_back({now, done, decks});
    live_.updated = now;
    live_.input_done = done;
    live_.entries = done - std::min(done, done_at_start_);
    live_.entries_per_second = now > from_time ? (done - from_done) / (now - from_time) : 0;
    live_.eta_seconds = -1;
    if (decks > from_decks && now > from_time) {
      live_.eta_seconds = static_cast<double>(decks_total_ - std::min(decks_total_, decks)) *
                          (now - from_time) / static_cast<double>(decks - from_decks);
    }
    WriteLiveStatus(store_->dir(), live_).ok();  // informative only
  }

 private:
  class Worker;

  // The tasks done, with those finished in the batches this process's
  // threads hold: the display counts them (the first tasks take minutes
  // each at the record sizes), the batch's result replaces them.
  uint64_t DoneNow() const {
    uint64_t done = c_.tasks_done();
    for (const auto& x : in_batch_) done += x.load(std::memory_order_relaxed);
    return std::min(done, total_);
  }

  FrontierStore* const store_;
  const RemovedPlan& plan_;
  const RemovedStoreOptions& options_;
  RemovedCoordinator& c_;
  RemovedRemoteWorkers* const remote_;
  const uint64_t total_;
  const int threads_;
  std::vector<std::atomic<uint64_t>> in_batch_;  // each thread's tasks finished in its batch
  LiveStatus live_;
  uint64_t done_at_start_ = 0;
  uint64_t decks_total_ = 0;  // below the cut
  struct Sample {
    double time;
    uint64_t tasks, decks;
  };
  std::deque<Sample> samples_;
};

class RemovedRun::Worker : public BatchWorker {
 public:
  Worker(RemovedRun& run, int index) : run_(run), in_batch_(run.in_batch_[index]) {}

  bool Next(Status*) override { return run_.c_.Next(1, &batch_); }
  Status Count(const std::atomic<bool>* stop) override {
    counts_ = TaskCounts();
    Status s = CountTaskBatch(run_.plan_, batch_, 1, stop, &in_batch_, &counts_);
    in_batch_ = 0;
    return s;
  }
  Status Finished() override {
    Status s = run_.c_.Finished(batch_, counts_);
    // checkpoint_seconds 0: each batch is committed as it finishes (by
    // whichever of this thread and the driver's poll comes first), so the
    // commits do not depend on the poll's timing.
    if (s.ok() && run_.options_.checkpoint_seconds <= 0) s = run_.c_.Checkpoint(false);
    return s;
  }
  Status Returned() override { return run_.c_.Returned(batch_); }

 private:
  RemovedRun& run_;
  std::atomic<uint64_t>& in_batch_;
  TaskBatch batch_;
  TaskCounts counts_;
};

std::unique_ptr<BatchWorker> RemovedRun::NewWorker(int index) {
  return std::make_unique<Worker>(*this, index);
}

}  // namespace

Status RemovedStore(FrontierStore* store, const RemovedPlan& plan,
                    const RemovedStoreOptions& options, RemovedResult* result,
                    RemovedRemoteWorkers* remote, uint64_t memo_entries) {
  std::unique_ptr<RemovedCoordinator> coordinator;
  Status s = RemovedCoordinator::Open(store, plan, options, &coordinator);
  if (!s.ok()) return s;
  RemovedRun run(store, plan, options, coordinator.get(), remote);
  const bool work = coordinator->tasks_done() < run.total();
  if (remote != nullptr && work) {
    s = remote->Start(plan, memo_entries);
    if (!s.ok()) return s;
  }
  s = DriveBatches(&run, work, options.stop);
  if (!s.ok()) return s;
  s = coordinator->Complete(result);
  if (s.ok()) RemoveLiveStatus(store->dir());
  return s;
}

}  // namespace eulerdeck::storage
