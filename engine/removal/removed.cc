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

}  // namespace

Status CountRemoved(const GameSpec& spec, const RemovedOptions& options, RemovedResult* result) {
  if (Status st = ValidateSpec(spec); !st.ok()) return st;
  if (spec.policy().on_match != OnMatch::kRemove) {
    return Status::NotSupported(std::string(GameName(spec.game)) + " removes no card");
  }
  if (spec.ranks > 64) return Status::OutOfRange("--removed handles at most 64 ranks");
  const std::optional<uint64_t> total = TotalDecks64(spec);
  if (!total) return Status::OutOfRange("more than 2^64 decks: counts would overflow");
  const int n = spec.cards();
  if (spec.suits == 1 && n > internal::kLeafCards && n <= 32 &&
      spec.policy().on_miss != OnMiss::kBurn) {
    if (Status st = internal::CountRemovedOneSuit(spec, options, result); !st.ok()) return st;
    result->method = "leaf-table";
    return CheckSum(*result, *total);
  }

  State root;
  root.avail.assign(spec.ranks, static_cast<uint8_t>(spec.suits));
  const Mask full = spec.ranks == 64 ? ~Mask{0} : (Mask{1} << spec.ranks) - 1;
  root.circle.assign(n, full);

  // Split the play into tasks a few events deep (identical states merged),
  // then solve them in parallel, one memo per thread.
  Solver top(spec, 0);
  std::map<std::string, Solver::Task> task_map;
  const int depth = options.split_depth > 0 ? options.split_depth : (n <= 6 ? 1 : 3);
  Dist d = top.Split(root, depth, &task_map);
  std::vector<Solver::Task> tasks;
  tasks.reserve(task_map.size());
  for (auto& [key, task] : task_map) tasks.push_back(std::move(task));
  // Biggest first (fewest cards removed: the widest subtrees).
  std::stable_sort(tasks.begin(), tasks.end(), [](const Solver::Task& a, const Solver::Task& b) {
    return a.state.circle.size() > b.state.circle.size();
  });

  if (options.tasks_total) options.tasks_total->store(tasks.size(), std::memory_order_relaxed);
  // The memo budget is for the whole run, shared out to the threads.
  tbb::enumerable_thread_specific<Solver> solvers(
      spec, options.memo_entries / EffectiveThreads(options.threads));
  std::vector<Dist> out(tasks.size());
  std::atomic<bool> cancelled{false};
  ParallelFor(options.threads, tasks.size(), [&](size_t i) {
    if (options.stop && options.stop->load(std::memory_order_relaxed)) {
      cancelled = true;
      return;
    }
    out[i] = solvers.local().Solve(tasks[i].state);
    if (options.tasks_done) options.tasks_done->fetch_add(1, std::memory_order_relaxed);
  });
  if (cancelled) return Status::Cancelled("interrupted before every task was counted");

  result->removed.assign(n + 1, 0);
  for (int i = 0; i <= n; ++i) result->removed[i] = d[i];
  for (size_t t = 0; t < tasks.size(); ++t) {
    for (size_t i = 0; i < out[t].size(); ++i)
      result->removed[i + tasks[t].shift] += tasks[t].count * out[t][i];
  }
  result->tasks = tasks.size();
  result->states = top.states();
  result->memo_hits = top.hits();
  for (const Solver& s : solvers) {
    result->states += s.states();
    result->memo_hits += s.hits();
  }
  result->method = "memo";
  return CheckSum(*result, *total);
}

}  // namespace eulerdeck
