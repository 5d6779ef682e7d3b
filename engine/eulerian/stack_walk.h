// The depth first walk of the tree of winning sub-decks below one sub-deck,
// counting its descendants per level, with an explicit stack: the walk the
// GPU worker (engine/gpu/) runs in each CUDA thread. The host walks the same
// rule (rule_core.h) and counts the same last levels (last_levels.h) by
// recursion instead (walker.h's RecursiveWalk, faster on a CPU). Header
// only, for the host and a CUDA device (engine/base/hd.h): no std::
// container, no exception, no allocation.
//
// The walk keeps one sub-deck (the one it stands on) and, per level of the
// path, the counts of the children not yet walked (a bitset: conditions
// (1)-(3) of children.h) and where the child walked now put its removed
// card, so that going back up undoes MakeChild() (UnmakeChild(), rule_core.h).
// The children of a sub-deck are walked in increasing count, as
// ChildRule::ForEachChild() yields them. The last two or three levels are
// counted through views (last_levels.h) instead of built, when the rule
// allows (ViewableSize); the last level alone is counted
// (CountLastChildren) otherwise, unless the leaves are asked for.
//
// Hooks, a template parameter, is what differs between the host and the
// device: EULERDECK_HD bool Poll() is called at each sub-deck the walk
// enters and stops the walk when it returns true (a stop flag, looked at
// every so many calls); void Leaf(const Card* deck, const Card* order) is
// called with each winning deck when the walk builds them (host only: the
// device never asks for leaves).
#ifndef EULERDECK_ENGINE_EULERIAN_STACK_WALK_H_
#define EULERDECK_ENGINE_EULERIAN_STACK_WALK_H_

#include <cstdint>

#include "engine/base/hd.h"
#include "engine/eulerian/last_levels.h"
#include "engine/eulerian/rule_core.h"

namespace eulerdeck::internal {

// W: words of the children's count bitsets (the spec's largest limit must be
// below 64 * W). kTable: entries of the table of h values (more than ranks +
// cards). One per thread; a plain value, large (its stack): keep it in
// static or heap memory on the host, in a thread's local memory on a device.
template <int W, int kTable>
class StackWalk {
 public:
  // REQUIRES: every limit of `rule` fits W words, ranks + cards < kTable.
  // `rule`'s image must outlive the walk.
  EULERDECK_HD void Init(const RuleCore& rule, bool build_leaves) {
    rule_ = rule;
    n_ = rule.h->cards;
    build_leaves_ = build_leaves;
    avail_ = AvailableValues(rule.h->ranks, rule.h->suits);
    cur_ = buf_a_;
    spare_ = buf_b_;
    last_.Init(rule, build_leaves);
    fused_levels_ = last_.fused_levels();
  }

  EULERDECK_HD int fused_levels() const { return fused_levels_; }

  // Adds to level[j], j = k+1..cards, the sub-decks of j cards below `root`
  // (k cards, 1 <= k < cards, a winning sub-deck; itself not counted).
  // `order`, if set, holds the root's removal order in order[cards-k ..
  // cards) and receives each child's removed value in front of it (the
  // order of the leaves passed to hooks.Leaf()). False when hooks.Poll()
  // stopped the walk: level then holds a part of the counts.
  template <class Hooks>
  EULERDECK_HD bool WalkFrom(const Card* root, int k, uint64_t* level, Card* order, Hooks& hooks) {
    for (int i = 0; i < k; ++i) cur_[i] = root[i];
    avail_.Reset(cur_, k);
    stopped_ = false;
    // One place enters a sub-deck (Enter() is large: the views are inlined
    // in it), reached with `entering` set after each step down.
    int d = k;
    bool entering = true;
    for (;;) {
      if (entering) {
        entering = false;
        if (!Enter(cur_, d, level, hooks)) {
          if (stopped_) return false;
          if (d == k) return true;  // the root itself was counted whole
          --d;
          Up(d);
        }
        continue;
      }
      Frame& f = frames_[d];
      while (f.cur < f.words && f.mask[f.cur] == 0) ++f.cur;
      if (f.cur == f.words) {  // every child walked: back to the parent
        if (d == k) return true;
        --d;
        Up(d);
        continue;
      }
      const uint32_t t = static_cast<uint32_t>(f.cur * 64 + hd::Ctz64(f.mask[f.cur]));
      f.mask[f.cur] &= f.mask[f.cur] - 1;
      const Card x = f.wraps ? rule_.value_of(t) : static_cast<Card>(t);
      ++level[d + 1];
      MakeChild(cur_, d, t, x, spare_);
      if (order != nullptr) order[n_ - d - 1] = x;
      if (d + 1 == n_) {  // a leaf, built (only when the leaves are asked for)
        hooks.Leaf(spare_, order);
        continue;
      }
      if (d + 1 + fused_levels_ == n_ || (d + 2 == n_ && !build_leaves_)) {
        // A child counted whole (views, or its one last level): counted
        // where it was built, the parent kept, nothing to undo. The most
        // frequent step.
        avail_.Take(x);
        Enter(spare_, d + 1, level, hooks);
        avail_.Give(x);
        if (stopped_) return false;
        continue;
      }
      f.q = static_cast<int8_t>(RemovalSlot(d, t));
      Swap();
      avail_.Take(x);
      ++d;
      entering = true;
    }
  }

 private:
  // Per level of the path: the children of the sub-deck there not yet
  // walked, and the slot of the one being walked.
  struct Frame {
    uint64_t mask[W];  // counts of the children left
    int8_t words;      // words of mask in use
    int8_t cur;        // mask[0..cur) is empty
    int8_t q;          // RemovalSlot of the child being walked
    bool wraps;        // counts past ranks name rule_.value_of(t)
  };

  EULERDECK_HD void Swap() {
    Card* t = cur_;
    cur_ = spare_;
    spare_ = t;
  }

  // From the child being walked (d+1 cards) back to its parent (d cards).
  EULERDECK_HD void Up(int d) {
    const int q = frames_[d].q;
    const Card x = cur_[q];
    UnmakeChild(cur_, d, q, spare_);
    Swap();
    avail_.Give(x);
  }

  // Counts what lies below `node` (d cards: cur_, or a child built in
  // spare_ that is counted whole) when it is counted without being walked
  // (the last levels), or pushes its frame: true when its children are to
  // be walked (only for cur_).
  template <class Hooks>
  EULERDECK_HD bool Enter(const Card* node, int d, uint64_t* level, Hooks& hooks) {
    if (hooks.Poll()) {
      stopped_ = true;
      return false;
    }
    if (d + fused_levels_ == n_) {  // the last levels, counted through views
      last_.Count(node, d, avail_, level);
      return false;
    }
    ChildCountsN<W> valid;
    ValidCounts(rule_, node, d, &valid);
    if (d + 1 == n_ && !build_leaves_) {
      // The last level is counted, not built.
      level[n_] += CountLastChildren(valid, avail_);
      return false;
    }
    Frame& f = frames_[d];
    f.wraps = AvailableCounts(rule_, valid, avail_.bits(), f.mask);
    for (int j = 0; j < valid.words; ++j) f.mask[j] &= valid.bits[j];
    f.words = static_cast<int8_t>(valid.words);
    f.cur = 0;
    return true;
  }

  RuleCore rule_;
  int n_ = 0;
  bool build_leaves_ = false;
  bool stopped_ = false;
  int fused_levels_ = 0;  // last_.fused_levels()
  // Condition (3) for the sub-deck stood on: kept with Take()/Give().
  AvailableValues avail_;
  Card* cur_ = nullptr;    // the sub-deck stood on (one of the buffers)
  Card* spare_ = nullptr;  // the other: MakeChild()/UnmakeChild() write there
  Card buf_a_[kNodeBytes];
  Card buf_b_[kNodeBytes];
  LastLevels<kTable> last_;  // the last levels, counted through views
  Frame frames_[kMaxEnumCards];
};

}  // namespace eulerdeck::internal

#endif  // EULERDECK_ENGINE_EULERIAN_STACK_WALK_H_
