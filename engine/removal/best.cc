#include "engine/removal/best.h"

#include <tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <set>
#include <string>

#include "engine/base/parallel.h"
#include "engine/cards/combinatorics.h"
#include "engine/eulerian/enumerate.h"
#include "engine/removal/completions.h"

namespace eulerdeck {
namespace {

using internal::Completions;
using internal::ValueMask;
constexpr int kMax = 64;

// A play between two counts. Positions keep their place in the deck (id) so
// that the decks found can be written out.
struct Node {
  int r = 0;   // cards on the circle, from the pointer
  int np = 0;  // cards burned, values unknown
  uint8_t circle_id[kMax];
  ValueMask circle_mask[kMax];
  uint8_t pool_id[kMax];
  ValueMask pool_mask[kMax];
  uint8_t avail[kMax];  // copies of value v + 1 not yet placed
  int avail_sum = 0;    // their total value
  int score = 0;        // sum of the values stored
  int stored = 0;
  uint8_t value[kMax];  // value of each stored position (0: not stored)
};

// Lexicographic order of decks, written out: std::less on byte vectors
// becomes a memcmp that GCC 12 warns about (a false -Wstringop-overread).
struct DeckLess {
  bool operator()(const Deck& a, const Deck& b) const {
    for (size_t i = 0; i < a.size() && i < b.size(); ++i)
      if (a[i] != b[i]) return a[i] < b[i];
    return a.size() < b.size();
  }
};

// What one thread found: the best score it saw and its decks.
struct Found {
  int best = -1;
  uint64_t decks = 0;
  std::vector<uint64_t> stored;
  std::set<Deck, DeckLess> examples;  // the smallest `show`
  uint64_t nodes = 0;
};

class Search {
 public:
  Search(const GameSpec& spec, int show, std::atomic<int>* global_best)
      : spec_(spec), m_(spec.ranks), n_(spec.cards()), show_(show), global_best_(global_best) {}

  // Searches below `node`; with tasks, nodes `depth` events (stores and
  // burns) down are handed over instead.
  void Dfs(const Node& node, Found& found, int depth, std::vector<Node>* tasks) const {
    ++found.nodes;
    if (Bound(node) < global_best_->load(std::memory_order_relaxed)) return;
    if (tasks && depth == 0) {
      tasks->push_back(node);
      return;
    }
    if (node.r == 0) {
      Leaf(node, found);
      return;
    }
    const int r = node.r;
    const int limit = static_cast<int>(CountLimit(spec_.policy().span, m_, r));
    ValueMask masks[kMax];
    std::memcpy(masks, node.circle_mask, r * sizeof(ValueMask));
    Node child;
    int pos = 0;
    int v = 1;
    for (int t = 1; t <= limit; ++t) {
      const ValueMask bit = ValueMask{1} << (v - 1);
      if (masks[pos] & bit) {
        // Stored: the card at pos is v; counting restarts after it.
        if (Store(node, masks, pos, v, &child)) Dfs(child, found, depth - 1, tasks);
        masks[pos] &= ~bit;  // or it is not v
        if (masks[pos] == 0) return;
      }
      if (++pos == r) pos = 0;
      v = (v == m_) ? 1 : v + 1;
    }
    // Burned: the `limit` cards counted (from the pointer).
    child = node;
    for (int i = 0; i < limit; ++i) {
      child.pool_id[child.np] = node.circle_id[i];
      child.pool_mask[child.np++] = masks[i];
    }
    child.r = r - limit;
    std::memmove(child.circle_id, node.circle_id + limit, child.r);
    std::memcpy(child.circle_mask, masks + limit, child.r * sizeof(ValueMask));
    Dfs(child, found, depth - 1, tasks);
  }

  // The most a deck completing `node` can score: its score, plus every value
  // left, less the least the burned cards can be worth (each at least the
  // smallest value its set allows, and together at least the smallest
  // values left).
  int Bound(const Node& node) const {
    int by_sets = 0;
    for (int i = 0; i < node.np; ++i) by_sets += std::countr_zero(node.pool_mask[i]) + 1;
    int by_values = 0;
    for (int v = 1, need = node.np; need > 0 && v <= m_; ++v) {
      const int take = std::min<int>(need, node.avail[v - 1]);
      by_values += take * v;
      need -= take;
    }
    return node.score + node.avail_sum - std::max(by_sets, by_values);
  }

 private:
  // The child of `node` in which the card at `pos` (sets `masks`) is v and
  // is stored. False when some card can no longer hold any value.
  bool Store(const Node& node, const ValueMask* masks, int pos, int v, Node* child) const {
    const int r = node.r;
    std::memcpy(child->avail, node.avail, m_);
    const bool last = --child->avail[v - 1] == 0;
    const ValueMask keep = last ? ~(ValueMask{1} << (v - 1)) : ~ValueMask{0};
    child->r = r - 1;
    for (int i = 1; i < r; ++i) {
      const int q = pos + i < r ? pos + i : pos + i - r;
      child->circle_id[i - 1] = node.circle_id[q];
      child->circle_mask[i - 1] = masks[q] & keep;
      if (child->circle_mask[i - 1] == 0) return false;
    }
    child->np = node.np;
    std::memcpy(child->pool_id, node.pool_id, node.np);
    for (int i = 0; i < node.np; ++i) {
      child->pool_mask[i] = node.pool_mask[i] & keep;
      if (child->pool_mask[i] == 0) return false;
    }
    child->avail_sum = node.avail_sum - v;
    child->score = node.score + v;
    child->stored = node.stored + 1;
    std::memcpy(child->value, node.value, n_);
    child->value[node.circle_id[pos]] = static_cast<uint8_t>(v);
    return true;
  }

  // Play is over: the burned cards take the values left in every way their
  // sets allow.
  void Leaf(const Node& node, Found& found) const {
    if (node.score < std::max(found.best, global_best_->load(std::memory_order_relaxed))) return;
    std::vector<ValueMask> pool(node.pool_mask, node.pool_mask + node.np);
    std::vector<uint8_t> avail(node.avail, node.avail + m_);
    const uint64_t ways = Completions(pool, avail);
    if (ways == 0) return;
    if (node.score > found.best) {
      found.best = node.score;
      found.decks = 0;
      found.stored.assign(n_ + 1, 0);
      found.examples.clear();
      int seen = global_best_->load(std::memory_order_relaxed);
      while (seen < node.score && !global_best_->compare_exchange_weak(seen, node.score)) {
      }
    }
    found.decks += ways;
    found.stored[node.stored] += ways;
    if (show_ > 0) Examples(node, found);
  }

  // The smallest decks of this play: the burned cards by position, each
  // value tried in increasing order, give them in lexicographic order.
  void Examples(const Node& node, Found& found) const {
    std::vector<std::pair<uint8_t, ValueMask>> pool;
    for (int i = 0; i < node.np; ++i) pool.emplace_back(node.pool_id[i], node.pool_mask[i]);
    std::sort(pool.begin(), pool.end());
    Deck deck(node.value, node.value + n_);
    uint8_t avail[kMax];
    std::memcpy(avail, node.avail, m_);
    int made = 0;
    auto fill = [&](auto&& self, size_t k) -> void {
      if (made >= show_) return;
      if (k == pool.size()) {
        found.examples.insert(deck);
        if (static_cast<int>(found.examples.size()) > show_) {
          found.examples.erase(std::prev(found.examples.end()));
        }
        ++made;
        return;
      }
      for (ValueMask x = pool[k].second; x; x &= x - 1) {
        const int v = std::countr_zero(x) + 1;
        if (!avail[v - 1]) continue;
        --avail[v - 1];
        deck[pool[k].first] = static_cast<Card>(v);
        self(self, k + 1);
        ++avail[v - 1];
      }
    };
    fill(fill, 0);
  }

  const GameSpec spec_;
  const int m_;
  const int n_;
  const int show_;
  std::atomic<int>* global_best_;
};

// One search, pruning below `at_least` from the start (-1: nothing known).
Status Run(const GameSpec& spec, const BestOptions& options, const Node& root, int at_least,
           BestResult* result) {
  const int n = spec.cards();
  if (options.tasks_done) options.tasks_done->store(0, std::memory_order_relaxed);
  std::atomic<int> global_best{at_least};
  Search search(spec, options.show, &global_best);
  Found top;
  std::vector<Node> tasks;
  search.Dfs(root, top, std::min(4, n - 1), &tasks);
  // The most promising first: good scores early prune the rest.
  std::stable_sort(tasks.begin(), tasks.end(),
                   [&](const Node& a, const Node& b) { return search.Bound(a) > search.Bound(b); });
  if (options.tasks_total) options.tasks_total->store(tasks.size(), std::memory_order_relaxed);

  tbb::enumerable_thread_specific<Found> founds;
  std::atomic<bool> cancelled{false};
  ParallelFor(options.threads, tasks.size(), [&](size_t i) {
    if (options.stop && options.stop->load(std::memory_order_relaxed)) {
      cancelled = true;
      return;
    }
    search.Dfs(tasks[i], founds.local(), -1, nullptr);
    if (options.tasks_done) options.tasks_done->fetch_add(1, std::memory_order_relaxed);
  });
  if (cancelled) return Status::Cancelled("interrupted before every task was searched");

  // Merge: only the threads that saw the overall best score count.
  const int best = global_best.load();
  *result = BestResult{};
  result->best_score = best;
  result->winning_score = WinningScore(spec);
  result->stored.assign(n + 1, 0);
  result->tasks = tasks.size();
  std::set<Deck, DeckLess> examples;
  auto merge = [&](const Found& f) {
    result->nodes += f.nodes;
    if (f.best != best) return;
    result->decks += f.decks;
    for (int i = 0; i <= n; ++i) result->stored[i] += f.stored[i];
    examples.insert(f.examples.begin(), f.examples.end());
  };
  merge(top);
  for (const Found& f : founds) merge(f);
  result->best_score = result->decks > 0 ? best : -1;
  if (at_least < 0 && result->decks == 0)
    return Status::Internal("the search found no deck at all");
  for (const Deck& d : examples) {
    if (static_cast<int>(result->examples.size()) == options.show) break;
    result->examples.push_back(d);
  }
  return Status::OK();
}

}  // namespace

Status BestScore(const GameSpec& spec, const BestOptions& options, BestResult* result) {
  if (Status st = ValidateSpec(spec); !st.ok()) return st;
  if (!spec.policy().score_studied || spec.policy().on_miss != OnMiss::kBurn) {
    return Status::NotSupported(std::string("the best score is studied for hlm only, not ") +
                                GameName(spec.game));
  }
  const int n = spec.cards();
  if (n > kMax) return Status::OutOfRange("the best-score search handles at most 64 cards");
  if (options.show < 0) return Status::InvalidArgument("--show must be at least 0");

  Node root;
  root.r = n;
  const ValueMask full = spec.ranks == 64 ? ~ValueMask{0} : (ValueMask{1} << spec.ranks) - 1;
  for (int i = 0; i < n; ++i) {
    root.circle_id[i] = static_cast<uint8_t>(i);
    root.circle_mask[i] = full;
    root.value[i] = 0;
  }
  for (int v = 1; v <= spec.ranks; ++v) root.avail[v - 1] = static_cast<uint8_t>(spec.suits);
  root.avail_sum = TotalValue(spec);

  // A win scores C_max, and only a win does (Bersani 2010, Proposition
  // 2.2): when some deck wins, the backward enumeration, far faster than
  // this search, counts the best decks.
  CountOptions count_options;
  count_options.threads = options.threads;
  count_options.stop = options.stop;
  count_options.tasks_done = options.tasks_done;
  count_options.tasks_total = options.tasks_total;
  CountResult count;
  if (Status st = Count(spec, count_options, &count); !st.ok()) return st;
  if (count.winning() == 0) {
    // The search counts decks in 64 bits (a winning play leaves one burned
    // card: its decks are few, whatever the size).
    if (!TotalDecks64(spec)) {
      return Status::OutOfRange(
          "no deck wins and there are more than 2^64 decks: the search's "
          "counts would overflow");
    }
    if (Status st = Run(spec, options, root, -1, result); !st.ok()) return st;
    result->method = "search";
    return Status::OK();
  }
  if (options.show == 0) {
    *result = BestResult{};
    result->best_score = result->winning_score = WinningScore(spec);
    result->decks = count.winning();
    result->stored.assign(n + 1, 0);
    result->stored[n - 1] = count.winning();
  } else {
    // The decks to show: the search, pruning below C_max from the start.
    // It finds every winning deck, so it must agree with the count.
    if (Status st = Run(spec, options, root, WinningScore(spec), result); !st.ok()) return st;
    if (result->decks != count.winning() || result->best_score != WinningScore(spec)) {
      return Status::Internal("the search found " + std::to_string(result->decks) +
                              " winning decks, the backward count " +
                              std::to_string(count.winning()));
    }
  }
  result->method = "count";
  return Status::OK();
}

}  // namespace eulerdeck
