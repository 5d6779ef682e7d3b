#include "engine/removal/removed.h"

#include <tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <bit>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>

#include "engine/base/parallel.h"
#include "engine/cards/combinatorics.h"
#include "engine/removal/completions.h"
#include "engine/removal/one_suit.h"

namespace eulerdeck {
namespace {

using internal::Completions;
using Mask = internal::ValueMask;
using Dist = std::vector<uint64_t>;

// A play between two counts: the cards on the circle from the pointer, the
// burned cards (hlm; order does not matter, kept sorted), and how many of
// each value are not yet placed. Masks only hold values still available.
struct State {
  std::vector<Mask> circle;
  std::vector<Mask> pool;
  std::vector<uint8_t> avail;  // avail[v - 1]
};

class Solver {
 public:
  Solver(const GameSpec& spec, uint64_t memo_limit) : spec_(spec), memo_limit_(memo_limit) {}

  // The distribution (index: cards removed from here on) of the decks that
  // complete `s`.
  Dist Solve(const State& s) {
    std::string key = Key(s);
    auto it = memo_.find(key);
    if (it != memo_.end()) {
      ++hits_;
      return it->second;
    }
    ++states_;
    Dist d = Walk(s, /*depth=*/-1, 0, 1, nullptr);
    if (memo_.size() < memo_limit_) memo_.emplace(std::move(key), d);
    return d;
  }

  // A task: a state reached after `shift` removals, `count` ways.
  struct Task {
    State state;
    uint32_t shift;
    uint64_t count;
  };
  // Walks `s` like Solve() but hands every child state `depth` events deep
  // (removals and burns) to `tasks` instead of solving it; what ends before
  // that depth is added to the returned distribution (indexed like the
  // final one: total removed).
  Dist Split(const State& s, int depth, std::map<std::string, Task>* tasks) {
    return Walk(s, depth, 0, 1, tasks);
  }

  uint64_t states() const { return states_; }
  uint64_t hits() const { return hits_; }
  uint64_t permanents() const { return permanents_; }

 private:
  std::string Key(const State& s) const {
    const int bytes = (spec_.ranks + 7) / 8;
    std::string k;
    k.reserve(2 + s.avail.size() + (s.circle.size() + s.pool.size()) * bytes);
    k.push_back(static_cast<char>(s.circle.size()));
    k.push_back(static_cast<char>(s.pool.size()));
    k.append(reinterpret_cast<const char*>(s.avail.data()), s.avail.size());
    for (Mask x : s.circle) k.append(reinterpret_cast<const char*>(&x), bytes);
    for (Mask x : s.pool) k.append(reinterpret_cast<const char*>(&x), bytes);
    return k;
  }

  uint64_t End(const std::vector<Mask>& circle, const State& s) {
    ++permanents_;
    std::vector<Mask> all(circle);
    all.insert(all.end(), s.pool.begin(), s.pool.end());
    return Completions(all, s.avail);
  }

  // Adds `child`'s distribution shifted by `shift`, times `count`, into d,
  // or hands it to `tasks` when depth says so.
  void Child(State&& child, int depth, uint32_t shift, uint64_t count, Dist* d,
             std::map<std::string, Task>* tasks) {
    if (tasks && depth == 0) {
      std::string key = Key(child);
      key.push_back(static_cast<char>(shift));
      auto [it, inserted] = tasks->try_emplace(std::move(key), Task{State{}, shift, 0});
      if (inserted) it->second.state = std::move(child);
      it->second.count += count;
      return;
    }
    Dist c = tasks ? Walk(child, depth, shift, count, tasks) : Solve(child);
    if (tasks) {
      for (size_t i = 0; i < c.size(); ++i) (*d)[i] += c[i];
    } else {
      for (size_t i = 0; i < c.size(); ++i) (*d)[i + shift] += c[i];
    }
  }

  // One walk of the count from the pointer of `s`. Without tasks: returns
  // the distribution of cards removed from here on (shift and count unused).
  // With tasks: returns the final-indexed distribution of what ends above
  // `depth`, times count.
  Dist Walk(const State& s, int depth, uint32_t shift, uint64_t count,
            std::map<std::string, Task>* tasks) {
    const uint32_t r = static_cast<uint32_t>(s.circle.size());
    const bool split = tasks != nullptr;
    Dist d(split ? spec_.cards() + 1 : r + 1, 0);
    if (r == 0) {  // every card removed or burned
      d[split ? shift : 0] += count * End(s.circle, s);
      return d;
    }
    const GamePolicy& policy = spec_.policy();
    const uint32_t m = static_cast<uint32_t>(spec_.ranks);
    const uint32_t limit = CountLimit(policy.span, m, r);
    std::vector<Mask> masks(s.circle);
    uint32_t pos = 0;
    uint32_t v = 1;
    for (uint32_t t = 1; t <= limit; ++t) {
      const Mask bit = Mask{1} << (v - 1);
      if (masks[pos] & bit) {
        // The card at pos is v: it is removed, counting restarts after it.
        State child;
        child.avail = s.avail;
        const bool last = --child.avail[v - 1] == 0;
        bool dead = !internal::CircleAfterRemoval(masks, pos, bit, last, &child.circle);
        child.pool = s.pool;
        for (Mask& x : child.pool) {
          if (last) x &= ~bit;
          dead |= x == 0;
        }
        if (!dead) {
          std::sort(child.pool.begin(), child.pool.end());
          Child(std::move(child), depth - 1, shift + 1, count, &d, tasks);
        }
        // Or it is not v.
        masks[pos] &= ~bit;
        if (masks[pos] == 0) return d;
      }
      if (++pos == r) pos = 0;
      v = (v == m) ? 1 : v + 1;
    }
    // No match within the limit.
    if (policy.on_miss != OnMiss::kBurn) {
      d[split ? shift : 0] += count * End(masks, s);
      return d;
    }
    // hlm: the `limit` cards counted (from the pointer) are burned.
    State child;
    child.avail = s.avail;
    child.pool = s.pool;
    child.pool.insert(child.pool.end(), masks.begin(), masks.begin() + limit);
    std::sort(child.pool.begin(), child.pool.end());
    child.circle.assign(masks.begin() + limit, masks.end());
    Child(std::move(child), depth - 1, shift, count, &d, tasks);
    return d;
  }

  const GameSpec spec_;
  const uint64_t memo_limit_;
  std::unordered_map<std::string, Dist> memo_;
  uint64_t states_ = 0;

  uint64_t hits_ = 0;
  uint64_t permanents_ = 0;
};

// Every deck ends somewhere: a distribution that does not sum to the deck
// count is a bug, never a result.
Status CheckSum(RemovedResult& result, uint64_t total) {
  result.total_decks = total;
  uint64_t sum = 0;
  for (uint64_t x : result.removed) sum += x;
  if (sum != total) {
    return Status::Internal("removed distribution sums to " + std::to_string(sum) + ", not " +
                            std::to_string(total) + " decks");
  }
  return Status::OK();
}

// The memo method's plan: the general solver's tasks, biggest first, each
// thread with its own memo (the budget shared out among the threads).
class MemoPlan final : public RemovedPlan {
 public:
  MemoPlan(const GameSpec& spec, int depth, uint64_t memo_entries)
      : spec_(spec), depth_(depth), solvers_(spec, memo_entries) {}

  const GameSpec& spec() const override { return spec_; }
  int split_depth() const override { return depth_; }
  const char* method() const override { return "memo"; }
  const std::vector<uint64_t>& top() const override { return top_; }
  uint64_t tasks() const override { return tasks_.size(); }
  uint64_t fingerprint() const override { return fingerprint_; }
  uint64_t states() const override {
    uint64_t x = top_states_;
    for (const Solver& s : solvers_) x += s.states();
    return x;
  }
  uint64_t memo_hits() const override {
    uint64_t x = top_hits_;
    for (const Solver& s : solvers_) x += s.hits();
    return x;
  }

  Status CountTasks(uint64_t first, uint64_t count, std::vector<uint64_t>* removed,
                    const std::atomic<bool>* stop) const override {
    if (Status s = internal::CheckTaskRange(first, count, tasks_.size()); !s.ok()) return s;
    const size_t n = static_cast<size_t>(spec_.cards());
    if (removed->size() < n + 1) removed->resize(n + 1, 0);
    Solver& solver = solvers_.local();
    for (uint64_t i = first; i < first + count; ++i) {
      if (stop && stop->load(std::memory_order_relaxed)) {
        return Status::Cancelled("interrupted before every task was counted");
      }
      const Solver::Task& t = tasks_[i];
      const Dist d = solver.Solve(t.state);
      for (size_t k = 0; k < d.size(); ++k) (*removed)[k + t.shift] += t.count * d[k];
    }
    return Status::OK();
  }

  void Cut(const State& root) {
    Solver top(spec_, 0);
    std::map<std::string, Solver::Task> task_map;
    top_ = top.Split(root, depth_, &task_map);
    top_states_ = top.states();
    top_hits_ = top.hits();
    uint64_t h = internal::HashBytes(internal::kHashSeed, "memo", 4);
    const int head[4] = {static_cast<int>(spec_.game), spec_.ranks, spec_.suits, depth_};
    h = internal::HashBytes(h, head, sizeof head);
    for (auto& [key, task] : task_map) {
      h = internal::HashBytes(h, key.data(), key.size());
      h = internal::HashBytes(h, &task.count, sizeof task.count);
      tasks_.push_back(std::move(task));
    }
    for (uint64_t x : top_) h = internal::HashBytes(h, &x, sizeof x);
    fingerprint_ = h;
    // Biggest first (fewest cards removed: the widest subtrees).
    std::stable_sort(tasks_.begin(), tasks_.end(),
                     [](const Solver::Task& a, const Solver::Task& b) {
                       return a.state.circle.size() > b.state.circle.size();
                     });
  }

 private:
  const GameSpec spec_;
  const int depth_;
  Dist top_;
  std::vector<Solver::Task> tasks_;
  uint64_t fingerprint_ = 0;
  uint64_t top_states_ = 0, top_hits_ = 0;
  mutable tbb::enumerable_thread_specific<Solver> solvers_;
};

Status CheckRemovable(const GameSpec& spec) {
  if (Status st = ValidateSpec(spec); !st.ok()) return st;
  if (spec.policy().on_match != OnMatch::kRemove) {
    return Status::NotSupported(std::string(GameName(spec.game)) + " removes no card");
  }
  if (spec.ranks > 64) return Status::OutOfRange("--removed handles at most 64 ranks");
  if (!TotalDecks64(spec)) return Status::OutOfRange("more than 2^64 decks: counts would overflow");
  return Status::OK();
}

}  // namespace

Status internal::RunPlan(const RemovedPlan& plan, const RemovedOptions& options,
                         RemovedResult* result) {
  const uint64_t tasks = plan.tasks();
  if (options.tasks_total) options.tasks_total->store(tasks, std::memory_order_relaxed);
  const size_t n = static_cast<size_t>(plan.spec().cards());
  tbb::enumerable_thread_specific<Dist> outs(n + 1, 0);
  std::atomic<bool> cancelled{false};
  // Batches of tasks (ranges, or runs of batch_order()), as long as the
  // plan shares work within one, and at least 16 for each thread to
  // balance them.
  const uint64_t per_thread = 16 * static_cast<uint64_t>(EffectiveThreads(options.threads));
  const uint64_t batch = std::max<uint64_t>(1, std::min(plan.batch_tasks(), tasks / per_thread));
  const uint64_t batches = (tasks + batch - 1) / batch;
  const std::vector<uint64_t>& order = plan.batch_order();
  ParallelFor(options.threads, batches, [&](size_t b) {
    if (cancelled.load(std::memory_order_relaxed)) return;
    const uint64_t first = b * batch;
    const uint64_t count = std::min(batch, tasks - first);
    const Status s = order.empty()
                         ? plan.CountTasks(first, count, &outs.local(), options.stop)
                         : plan.CountTaskList(&order[first], count, &outs.local(), options.stop);
    if (!s.ok()) {
      cancelled = true;
      return;
    }
    if (options.tasks_done) options.tasks_done->fetch_add(count, std::memory_order_relaxed);
  });
  if (cancelled) return Status::Cancelled("interrupted before every task was counted");
  result->removed = plan.top();
  result->removed.resize(n + 1, 0);
  for (const Dist& out : outs)
    for (size_t k = 0; k <= n; ++k) result->removed[k] += out[k];
  result->tasks = tasks;
  result->states = plan.states();
  result->memo_hits = plan.memo_hits();
  result->method = plan.method();
  return Status::OK();
}

Status PlanRemoved(const GameSpec& spec, const RemovedOptions& options,
                   std::unique_ptr<RemovedPlan>* plan) {
  if (Status st = CheckRemovable(spec); !st.ok()) return st;
  const int n = spec.cards();
  if (spec.suits == 1 && n > internal::kLeafCards && n <= 32 &&
      spec.policy().on_miss != OnMiss::kBurn) {
    return internal::PlanRemovedOneSuit(spec, options, plan);
  }
  State root;
  root.avail.assign(spec.ranks, static_cast<uint8_t>(spec.suits));
  const Mask full = spec.ranks == 64 ? ~Mask{0} : (Mask{1} << spec.ranks) - 1;
  root.circle.assign(n, full);
  // Split the play into tasks a few events deep (identical states merged).
  // The memo budget is for the whole run, shared out to the threads.
  const int depth = options.split_depth > 0 ? options.split_depth : (n <= 6 ? 1 : 3);
  auto p = std::make_unique<MemoPlan>(spec, depth,
                                      options.memo_entries / EffectiveThreads(options.threads));
  p->Cut(root);
  *plan = std::move(p);
  return Status::OK();
}

Status CountRemoved(const GameSpec& spec, const RemovedOptions& options, RemovedResult* result) {
  std::unique_ptr<RemovedPlan> plan;
  if (Status st = PlanRemoved(spec, options, &plan); !st.ok()) return st;
  if (Status st = internal::RunPlan(*plan, options, result); !st.ok()) return st;
  return CheckSum(*result, *TotalDecks64(spec));
}

}  // namespace eulerdeck
