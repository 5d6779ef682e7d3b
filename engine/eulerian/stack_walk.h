// The depth first walk of the tree of winning sub-decks below one sub-deck,
// counting its descendants per level, with an explicit stack: the one inner
// loop of every count. The CPU walker (walker.h) runs it on each thread; the
// GPU worker (engine/gpu/) runs the same code in each CUDA thread. Header
// only, for the host and a CUDA device (engine/base/hd.h): no std::
// container, no exception, no allocation.
//
// The walk keeps one sub-deck (the one it stands on) and, per level of the
// path, the counts of the children not yet walked (a bitset: conditions
// (1)-(3) of children.h) and where the child walked now put its removed
// card, so that going back up undoes MakeChild() (UnmakeChild(), rule_core.h).
// The children of a sub-deck are walked in increasing count, as
// ChildRule::ForEachChild() yields them. The last two or three levels are
// counted through views (hit_views.h) instead of built, when the rule
// allows (ChildRule::Viewable); the last level alone is counted
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
#include "engine/eulerian/hit_views.h"
#include "engine/eulerian/rule_core.h"

namespace eulerdeck::internal {

// How many final levels can be counted through views for `rule`: 0 (none),
// 2 or 3. The children of the sub-decks concerned must all be Viewable:
// their counts fit one word and S has at most kMaxViewSElements elements
// below their limit.
EULERDECK_HD_INLINE bool ViewableSize(const RuleCore& rule, int k) {
  return rule.size(k).words == 1 && rule.size(k).s_element_count <= kMaxViewSElements;
}
EULERDECK_HD_INLINE int FusedLevels(const RuleCore& rule, bool build_leaves) {
  const int n = rule.h->cards;
  if (build_leaves || n < 3 || !ViewableSize(rule, n - 1) || !ViewableSize(rule, n - 2)) return 0;
  return (n >= 4 && ViewableSize(rule, n - 3)) ? 3 : 2;
}

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
    ranks_ = static_cast<uint32_t>(rule.h->ranks);
    build_leaves_ = build_leaves;
    avail_ = AvailableValues(rule.h->ranks, rule.h->suits);
    cur_ = buf_a_;
    spare_ = buf_b_;
    for (int w = 0; w < kTable; ++w) positions_[w] = 0;
    fused_levels_ = FusedLevels(rule, build_leaves);
    table_first_ = 0;
    if (fused_levels_ > 0) {
      // The largest h the views ask the table for: the last level asks for
      // w <= its limit, and a view one level down asks its base for w + q,
      // q = (t-1) mod (K+1) <= t - 1 < the limit of that level. The cards
      // before table_first_ have every h above that.
      const int k = n_ - fused_levels_;
      int max_w = 1;
      for (int j = 0; j < fused_levels_; ++j) max_w += static_cast<int>(rule.size(k + j).limit) - 1;
      table_first_ = FirstWithin(k, max_w);
    }
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
    if (d + fused_levels_ == n_) {
      // The last levels are counted through views, not built.
      Card miss[3];
      avail_.Missing(fused_levels_, miss);
      FillTable(node, d);
      const TableView<kTable> table{positions_};
      if (fused_levels_ == 3) {
        CountThree(table, d, miss, level);
      } else {
        CountTwo(table, d, miss, level);
      }
      ClearTable(d);
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

  // Fills positions_ with the h values of node (k cards) that the views can
  // ask for (those of the cards from table_first_ on; the others' are too
  // large); ClearTable() undoes it, keeping positions_ all zero between
  // uses. Every h_i = node[i] + (k - i) lies in [2, ranks + k]: clearing
  // that range at once replaces the scattered stores, and clears every
  // entry FillTable() can have written.
  EULERDECK_HD void FillTable(const Card* node, int k) {
    for (int i = table_first_; i < k; ++i) positions_[node[i] + (k - i)] |= uint64_t{1} << i;
  }
  EULERDECK_HD void ClearTable(int k) {
    hd::ZeroBytes(positions_ + 2, sizeof(uint64_t) * (ranks_ + static_cast<uint32_t>(k) - 1));
  }

  // Condition (2) of children.h for the child at count t of the sub-deck
  // seen through v (K cards): some h_i = t - sigma, sigma in S.
  template <class View>
  EULERDECK_HD bool Blocked(const View& v, int K, uint32_t t) const {
    const SizeRule& p = rule_.size(K);
    for (uint32_t e = 0; e < p.s_element_count; ++e) {
      const uint32_t sigma = p.s_elements[e];
      if (sigma >= t) break;
      if (v.HasHit(static_cast<int>(t - sigma), 0, K)) return true;
    }
    return false;
  }

  // Counts the children (level K+1) and grandchildren (level K+2 = n) of the
  // sub-deck seen through `v` (K cards), which misses the two cards
  // miss[0] <= miss[1]. REQUIRES Viewable(K) and Viewable(K+1).
  template <class View>
  EULERDECK_HD void CountTwo(const View& v, int K, const Card* miss, uint64_t* level) const {
    uint64_t children = 0, leaves = 0;
    const uint32_t limit = rule_.size(K).limit, leaf_limit = rule_.size(K + 1).limit;
    for (int i = 0; i < 2; ++i) {
      if (i == 1 && miss[1] == miss[0]) break;  // the same children again
      const Card x = miss[i], y = miss[1 - i];
      for (uint32_t t = x; t <= limit; t += ranks_) {
        if (Blocked(v, K, t)) continue;
        ++children;
        const ChildView<View> child(v, K, t, x);
        for (uint32_t u = y; u <= leaf_limit; u += ranks_) leaves += !Blocked(child, K + 1, u);
      }
    }
    level[K + 1] += children;
    level[K + 2] += leaves;
  }

  // The same one level higher: the sub-deck seen through `v` (K cards) misses
  // miss[0] <= miss[1] <= miss[2]; counts levels K+1..K+3 = n.
  // REQUIRES Viewable(K), Viewable(K+1), Viewable(K+2).
  template <class View>
  EULERDECK_HD void CountThree(const View& v, int K, const Card* miss, uint64_t* level) const {
    const uint32_t limit = rule_.size(K).limit;
    for (int i = 0; i < 3; ++i) {
      if (i > 0 && miss[i] == miss[i - 1]) continue;
      const Card x = miss[i];
      Card rest[2];
      for (int j = 0, r = 0; j < 3; ++j) {
        if (j != i) rest[r++] = miss[j];
      }
      for (uint32_t t = x; t <= limit; t += ranks_) {
        if (Blocked(v, K, t)) continue;
        ++level[K + 1];
        CountTwo(ChildView<View>(v, K, t, x), K + 1, rest, level);
      }
    }
  }

  RuleCore rule_;
  int n_ = 0;
  uint32_t ranks_ = 0;
  bool build_leaves_ = false;
  bool stopped_ = false;
  int fused_levels_ = 0;  // 0 (none), 2 or 3
  int table_first_ = 0;   // FillTable() skips the cards before it
  // Condition (3) for the sub-deck stood on: kept with Take()/Give().
  AvailableValues avail_;
  Card* cur_ = nullptr;    // the sub-deck stood on (one of the buffers)
  Card* spare_ = nullptr;  // the other: MakeChild()/UnmakeChild() write there
  Card buf_a_[kNodeBytes];
  Card buf_b_[kNodeBytes];
  // positions_[w]: bit i set when h_i = w for the sub-deck in FillTable();
  // all zero otherwise.
  uint64_t positions_[kTable];
  Frame frames_[kMaxEnumCards];
};

}  // namespace eulerdeck::internal

#endif  // EULERDECK_ENGINE_EULERIAN_STACK_WALK_H_
