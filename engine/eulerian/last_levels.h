// The last two or three levels of the tree of winning sub-decks, counted
// through views (hit_views.h) instead of built: the part of the walk where
// most sub-decks are (the last three levels hold about three quarters of
// them). Both walks use it: the host's recursive walk (walker.h) and the
// explicit-stack walk the GPU runs (stack_walk.h), so the counting is
// written once. Header only, for the host and a CUDA device
// (engine/base/hd.h).
#ifndef EULERDECK_ENGINE_EULERIAN_LAST_LEVELS_H_
#define EULERDECK_ENGINE_EULERIAN_LAST_LEVELS_H_

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

// Counts the sub-decks below one of level cards - fused_levels(), whole.
// kTable: entries of the table of h values (more than ranks + cards). One
// per walk; a plain value of about 8 kTable bytes.
template <int kTable>
class LastLevels {
 public:
  // `rule`'s image must outlive this.
  EULERDECK_HD void Init(const RuleCore& rule, bool build_leaves) {
    rule_ = rule;
    n_ = rule.h->cards;
    ranks_ = static_cast<uint32_t>(rule.h->ranks);
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

  // 0 (the walk builds every level), 2 or 3.
  EULERDECK_HD int fused_levels() const { return fused_levels_; }

  // Adds to level[d+1..cards] the sub-decks below `node` (d = cards -
  // fused_levels() cards), whose values still available are `avail`.
  EULERDECK_HD void Count(const Card* node, int d, const AvailableValues& avail, uint64_t* level) {
    Card miss[3];
    avail.Missing(fused_levels_, miss);
    FillTable(node, d);
    const TableView<kTable> table{positions_};
    if (fused_levels_ == 3) {
      CountThree(table, d, miss, level);
    } else {
      CountTwo(table, d, miss, level);
    }
    ClearTable(d);
  }

 private:
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
  int fused_levels_ = 0;  // 0 (none), 2 or 3
  int table_first_ = 0;   // FillTable() skips the cards before it
  // positions_[w]: bit i set when h_i = w for the sub-deck in FillTable();
  // all zero otherwise.
  uint64_t positions_[kTable];
};

}  // namespace eulerdeck::internal

#endif  // EULERDECK_ENGINE_EULERIAN_LAST_LEVELS_H_
