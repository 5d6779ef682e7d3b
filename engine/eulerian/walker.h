// The depth first walk of the tree of winning sub-decks below one sub-deck,
// counting its descendants per level: the inner loop shared by the in-memory
// count (enumerate.cc) and the count of given subtrees (subtrees.cc).
// Internal to engine/eulerian.
//
// Two walks share one rule (rule_core.h) and one count of the last levels
// (last_levels.h): the GPU's explicit stack (stack_walk.h: no recursion on
// a device, each step down undone on the way up), and the host's, below:
// recursive, each sub-deck built in its own frame, nothing undone. On a CPU
// the recursive walk is the faster (docs/performance.md §23), so the host
// keeps its own walk policy over the same rule; tests check the two walks
// against each other and against brute force. A Walker adds what only the
// host does: the stop flag and the live count, verifying the leaves,
// streaming them to a callback.
#ifndef EULERDECK_ENGINE_EULERIAN_WALKER_H_
#define EULERDECK_ENGINE_EULERIAN_WALKER_H_

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include "engine/base/status.h"
#include "engine/cards/deck.h"
#include "engine/cards/rules.h"
#include "engine/eulerian/children.h"
#include "engine/eulerian/hit_views.h"
#include "engine/eulerian/last_levels.h"
#include "engine/eulerian/rule_core.h"
#include "engine/eulerian/winners.h"

namespace eulerdeck::internal {

// Walk() calls between two looks at the stop flag and two reports of the
// sub-decks counted: often enough for a prompt Ctrl-C and a live rate (a
// subtree can take minutes), rarely enough to cost nothing.
inline constexpr uint32_t kPollCalls = 1u << 14;

// The host's walk: depth first by recursion, each child built into its own
// frame (no undo), children in increasing count as ChildRule::ForEachChild()
// yields them; the last levels counted through LastLevels. W: words of the
// children's count bitsets (the spec's largest limit below 64 W). Hooks as
// stack_walk.h's: Poll() at each sub-deck entered, Leaf(deck, order) at each
// leaf built.
template <int W>
class RecursiveWalk {
 public:
  // REQUIRES: every limit of `rule` fits W words. `rule`'s image must
  // outlive the walk.
  void Init(const RuleCore& rule, bool build_leaves) {
    rule_ = rule;
    n_ = rule.h->cards;
    build_leaves_ = build_leaves;
    avail_ = AvailableValues(rule.h->ranks, rule.h->suits);
    last_.Init(rule, build_leaves);
    fused_levels_ = last_.fused_levels();
  }

  // As StackWalk::WalkFrom().
  template <class Hooks>
  bool WalkFrom(const Card* root, int k, uint64_t* level, Card* order, Hooks& hooks) {
    avail_.Reset(root, k);
    stopped_ = false;
    level_ = level;
    order_ = order;
    Walk(root, k, hooks);
    return !stopped_;
  }

 private:
  template <class Hooks>
  void Walk(const Card* node, int d, Hooks& hooks) {
    if (hooks.Poll()) {
      stopped_ = true;
      return;
    }
    if (d + fused_levels_ == n_) {  // the last levels, counted through views
      last_.Count(node, d, avail_, level_);
      return;
    }
    ChildCountsN<W> valid;
    ValidCounts(rule_, node, d, &valid);
    if (d + 1 == n_ && !build_leaves_) {  // the last level, counted
      level_[n_] += CountLastChildren(valid, avail_);
      return;
    }
    uint64_t counts[W];
    const bool wraps = AvailableCounts(rule_, valid, avail_.bits(), counts);
    Card child[kNodeBytes];
    for (int j = 0; j < valid.words; ++j) {
      uint64_t w = valid.bits[j] & counts[j];
      while (w) {
        const uint32_t t = static_cast<uint32_t>(j * 64 + hd::Ctz64(w));
        w &= w - 1;
        const Card x = wraps ? rule_.value_of(t) : static_cast<Card>(t);
        ++level_[d + 1];
        MakeChild(node, d, t, x, child);
        if (order_ != nullptr) order_[n_ - d - 1] = x;
        if (d + 1 == n_) {  // a leaf, built (only when the leaves are asked for)
          hooks.Leaf(child, order_);
          continue;
        }
        avail_.Take(x);
        Walk(child, d + 1, hooks);
        avail_.Give(x);
        if (stopped_) return;
      }
    }
  }

  RuleCore rule_;
  int n_ = 0;
  bool build_leaves_ = false;
  bool stopped_ = false;
  int fused_levels_ = 0;  // last_.fused_levels()
  uint64_t* level_ = nullptr;
  Card* order_ = nullptr;
  // Condition (3) for the sub-deck being walked: kept with Take()/Give().
  AvailableValues avail_;
  LastLevels<kHitTableSize> last_;
};

// Walks subtrees depth first, counting sub-decks per level. One per thread.
class Walker {
 public:
  // on_leaf, if set, is called with every winning deck the walk builds and
  // its removal order (winners.h; a statistic streamed over them:
  // engine/reform/stats.h). With it, as with verify, the last levels are
  // built, not counted through views.
  Walker(const ChildRule& rule, bool verify, const std::atomic<bool>* stop,
         std::atomic<uint64_t>* counted, const WinnerCallback* on_leaf = nullptr)
      : rule_(rule),
        verify_(verify),
        on_leaf_(on_leaf != nullptr && *on_leaf ? on_leaf : nullptr),
        build_leaves_(verify || on_leaf_ != nullptr),
        stop_(stop),
        counted_(counted) {
    n_ = rule.spec().cards();
    level_.assign(n_ + 1, 0);
    if (on_leaf_) order_.assign(n_, 0);
    // The walk for the widest limit of the spec: one word for mousetrap and
    // hlm (a frame of 16 bytes per level instead of 528), kMaxTableWords for
    // most modular games.
    int words = 1;
    for (int k = 1; k < n_; ++k)
      words = std::max(words, static_cast<int>(rule.core().size(k).words));
    if (words == 1) {
      walk1_ = std::make_unique<RecursiveWalk<1>>();
      walk1_->Init(rule.core(), build_leaves_);
    } else if (words <= kMaxTableWords) {
      walk4_ = std::make_unique<RecursiveWalk<kMaxTableWords>>();
      walk4_->Init(rule.core(), build_leaves_);
    } else {
      walk_ = std::make_unique<RecursiveWalk<kMaxCountWords>>();
      walk_->Init(rule.core(), build_leaves_);
    }
  }
  Walker(Walker&&) = default;

  // Counts the descendants of `node` (k cards, already counted itself).
  // False when the stop flag cut the walk short: the counts are then partial
  // and the count must be abandoned. With `report`, the shared counter is
  // brought up to date at the end; without, only every kPollCalls calls and
  // at Report() (millions of small subtrees would otherwise contend for its
  // cache line).
  bool WalkFrom(const Card* node, int k, bool report = true) {
    if (stopped_) return false;  // a stopped walker stays stopped
    // The root's own removal order ends the order of every deck below it
    // (winners.h); the cards put back fill it from the front.
    if (on_leaf_) PlayOrder(rule_.spec(), node, k, order_.data() + n_ - k);
    Hooks hooks{this};
    Card* order = on_leaf_ ? order_.data() : nullptr;
    const bool whole = walk1_   ? walk1_->WalkFrom(node, k, level_.data(), order, hooks)
                       : walk4_ ? walk4_->WalkFrom(node, k, level_.data(), order, hooks)
                                : walk_->WalkFrom(node, k, level_.data(), order, hooks);
    if (!whole) stopped_ = true;
    if (report) Report();
    return !stopped_;
  }

  // Adds the sub-decks counted since the last report to the shared counter.
  void Report() {
    if (counted_ == nullptr) return;
    uint64_t total = 0;
    for (uint64_t c : level_) total += c;
    counted_->fetch_add(total - reported_, std::memory_order_relaxed);
    reported_ = total;
  }

  const std::vector<uint64_t>& level() const { return level_; }
  // The sub-decks counted since construction or the last ClearCounts().
  uint64_t counted() const {
    uint64_t total = 0;
    for (uint64_t c : level_) total += c;
    return total;
  }
  // Starts the per-level counts again from zero (after they were read).
  void ClearCounts() {
    Report();
    level_.assign(n_ + 1, 0);
    reported_ = 0;
  }
  uint64_t leaves_verified() const { return leaves_verified_; }
  const Status& failure() const { return failure_; }

 private:
  // What the walk asks of the host (stack_walk.h).
  struct Hooks {
    Walker* w;
    // Every kPollCalls sub-decks: the live count and the stop flag.
    bool Poll() {
      if (++w->calls_ != kPollCalls) return false;
      w->calls_ = 0;
      w->Report();
      return w->stop_ != nullptr && w->stop_->load(std::memory_order_relaxed);
    }
    void Leaf(const Card* deck, const Card* order) {
      if (w->verify_) w->Verify(deck);
      if (w->on_leaf_) (*w->on_leaf_)(deck, order);
    }
  };

  void Verify(const Card* deck) {
    ++leaves_verified_;
    const Deck d(deck, deck + n_);
    const GameResult r = Play(rule_.spec(), d);
    if (r.outcome != Outcome::kWin && failure_.ok()) {
      failure_ = Status::Corruption("verify-leaves: enumerated deck " + DeckToString(d) +
                                    " does not win when replayed (" + OutcomeName(r.outcome) + ")");
    }
  }

  const ChildRule& rule_;
  const bool verify_;
  const WinnerCallback* const on_leaf_;
  // With on_leaf_: the removal order of the sub-deck being walked, in its
  // last k places; the leaf's, whole, when on_leaf_ is called.
  std::vector<Card> order_;
  const bool build_leaves_;
  const std::atomic<bool>* const stop_;
  std::atomic<uint64_t>* const counted_;
  uint32_t calls_ = 0;
  uint64_t reported_ = 0;  // the sum of level_ at the last Report()
  bool stopped_ = false;
  int n_;
  // The walk (its stack, on the heap), one of three by the words of the
  // spec's count bitsets.
  std::unique_ptr<RecursiveWalk<1>> walk1_;
  std::unique_ptr<RecursiveWalk<kMaxTableWords>> walk4_;
  std::unique_ptr<RecursiveWalk<kMaxCountWords>> walk_;
  std::vector<uint64_t> level_;
  uint64_t leaves_verified_ = 0;
  Status failure_;
};

}  // namespace eulerdeck::internal

#endif  // EULERDECK_ENGINE_EULERIAN_WALKER_H_
