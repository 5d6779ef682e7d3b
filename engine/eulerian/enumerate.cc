#include "engine/eulerian/enumerate.h"

#include <tbb/enumerable_thread_specific.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <string>

#include "engine/base/parallel.h"
#include "engine/base/thousands.h"
#include "engine/cards/deck.h"
#include "engine/cards/rules.h"
#include "engine/eulerian/children.h"
#include "engine/eulerian/hit_views.h"
#include "engine/eulerian/walker.h"

namespace eulerdeck {

namespace {

// The breadth-first start stops once a level has this many sub-decks per
// thread: enough subtrees for work stealing to even out their sizes.
constexpr size_t kSubtreesPerThread = 1024;

struct Node {
  std::array<Card, kNodeBytes> cards;
};

}  // namespace

Status Count(const GameSpec& spec, const CountOptions& options, CountResult* result) {
  Status s = CheckEnumerable(spec);
  if (!s.ok()) return s;
  const int n = spec.cards();
  const ChildRule rule(spec);
  *result = CountResult();
  result->level.assign(n + 1, 0);

  // Phase 1. Level 1: the roots.
  std::vector<Node> frontier;
  for (Card c : rule.Roots()) {
    frontier.emplace_back();
    frontier.back().cards[0] = c;
  }
  result->level[1] = frontier.size();
  int k = 1;

  auto stopped = [&] { return options.stop && options.stop->load(std::memory_order_relaxed); };

  // Phase 2. Breadth first until there are enough subtrees to share out.
  const size_t want = kSubtreesPerThread * EffectiveThreads(options.threads);
  while (k < n - 1 && frontier.size() < want) {
    if (stopped()) return Status::Cancelled("interrupted before the work was split into subtrees");
    std::vector<Node> next;
    for (const Node& node : frontier) {
      rule.ForEachChild(node.cards.data(), k, [&](uint32_t t, Card x) {
        next.emplace_back();
        ChildRule::MakeChild(node.cards.data(), k, t, x, next.back().cards.data());
      });
    }
    frontier = std::move(next);
    ++k;
    result->level[k] = frontier.size();
  }
  if (k == n) {  // a one-card deck: the roots are the leaves
    for (const Node& node : frontier) {
      if (options.verify_leaves) {
        const Deck d(node.cards.begin(), node.cards.begin() + n);
        if (Play(spec, d).outcome != Outcome::kWin) {
          return Status::Corruption("verify-leaves: deck " + DeckToString(d) + " does not win");
        }
        ++result->leaves_verified;
      }
      if (options.on_winning_deck) {
        Card order[kNodeBytes];
        PlayOrder(spec, node.cards.data(), n, order);
        options.on_winning_deck(node.cards.data(), order);
      }
    }
  }

  // Phase 3. Depth first from every frontier node, in parallel.
  if (options.tasks_total) options.tasks_total->store(frontier.size());
  if (options.sub_decks_counted) {
    uint64_t so_far = 0;
    for (int j = 1; j <= k; ++j) so_far += result->level[j];
    options.sub_decks_counted->store(so_far);
  }
  tbb::enumerable_thread_specific<internal::Walker> walkers(rule, options.verify_leaves,
                                                            options.stop, options.sub_decks_counted,
                                                            &options.on_winning_deck);
  std::atomic<uint64_t> walked{0};
  if (k < n) {
    ParallelFor(options.threads, frontier.size(), [&](size_t i) {
      if (stopped()) return;  // skipped: the count is abandoned
      if (!walkers.local().WalkFrom(frontier[i].cards.data(), k)) return;  // cut short
      walked.fetch_add(1, std::memory_order_relaxed);
      if (options.tasks_done) options.tasks_done->fetch_add(1, std::memory_order_relaxed);
    });
    if (walked.load() < frontier.size()) {
      char pct[32];
      std::snprintf(pct, sizeof(pct), "%.1f", 100.0 * walked.load() / frontier.size());
      return Status::Cancelled("interrupted after " + GroupThousands(walked.load()) + " of " +
                               GroupThousands(frontier.size()) + " subtrees (" + pct + "%)");
    }
  }

  // Phase 4. Sum the per-thread counts; report the first failure.
  for (const internal::Walker& w : walkers) {
    if (!w.failure().ok()) return w.failure();
    for (int j = k + 1; j <= n; ++j) {
      if (__builtin_add_overflow(result->level[j], w.level()[j], &result->level[j])) {
        return Status::OutOfRange("level " + std::to_string(j) + " holds more than 2^64 sub-decks");
      }
    }
    result->leaves_verified += w.leaves_verified();
  }
  for (int j = 1; j <= n; ++j) result->nodes += result->level[j];
  return Status::OK();
}

}  // namespace eulerdeck
