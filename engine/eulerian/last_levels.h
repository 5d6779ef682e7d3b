// The last two or three levels of the tree of winning sub-decks, counted
// through views (hit_views.h) instead of built: the part of the walk where
// most sub-decks are (the last three levels hold about three quarters of
// them). Both walks use it: the host's recursive walk (walker.h) and the
// explicit-stack walk the GPU runs (stack_walk.h), so the counting is
// written once. Header only, for the host and a CUDA device
// (engine/base/hd.h).
//
// Two ways to count them, the same counts:
// - by bits (the usual one, when every h value fits a word: ranks + cards <
//   64). The sub-deck D of level cards - fused_levels() is read once into
//   the bitsets of its h values over every prefix and suffix of its
//   positions (h_i = D[i] + k - i, children.h). A child C = D[k-q..k-1], x,
//   D[0..k-q-1] then has the h values (suffix << s) | bit(x + s) | (prefix
//   >> q), s = k+1-q (hit_views.h), and a grandchild the same over two
//   ranges of C, each at most two ranges of D and x; the counts each one
//   may take are a bitset (condition (2): no h at t - sigma, sigma in S),
//   ANDed with those naming a missing value (condition (3)). No table, no
//   branch per card.
// - through views (hit_views.h) of a table of h values, otherwise: each
//   count asked as "is some h_i = t - sigma", one view per level.
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
    one_suit_ = rule.h->suits == 1 && rule.h->ranks < 64;
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
    // Every h of a sub-deck is at most ranks + cards, its shifted copies
    // in Blk() are cut at the limit (< 64 here): one word holds them.
    bits_ = fused_levels_ > 0 && rule.h->ranks + n_ < 64;
    wraps_ = false;
    for (int j = 0; j < fused_levels_ && bits_; ++j) {
      const SizeRule& p = rule.size(n_ - fused_levels_ + j);
      LevelBits& l = lv_[j];
      l.limit = p.limit;
      l.counts = p.last_word_mask;  // one word: counts 1..limit
      l.s_count = p.s_element_count;
      for (uint32_t e = 0; e < p.s_element_count; ++e) l.s[e] = p.s_elements[e];
      if (p.limit > ranks_) wraps_ = true;
    }
  }

  // Counts through views even where bits would do (tests: both ways must
  // give the same counts).
  EULERDECK_HD void ForceViews() { bits_ = false; }
  // Whether Count() counts by bits.
  EULERDECK_HD bool uses_bits() const { return bits_; }

  // 0 (the walk builds every level), 2 or 3.
  EULERDECK_HD int fused_levels() const { return fused_levels_; }

  // Adds to level[d+1..cards] the sub-decks below `node` (d = cards -
  // fused_levels() cards), whose values still available are `avail`.
  EULERDECK_HD void Count(const Card* node, int d, const AvailableValues& avail, uint64_t* level) {
    Card miss[3];
    if (one_suit_) {  // the values available are the cards missing
      uint64_t b = avail.bits()[0];
      for (int i = 0; i < fused_levels_; ++i, b &= b - 1) miss[i] = static_cast<Card>(hd::Ctz64(b));
    } else {
      avail.Missing(fused_levels_, miss);
    }
    if (bits_) {
      CountBits(node, d, miss, level);
      return;
    }
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
  // What CountBits() reads of the rule for the sub-decks of k = cards -
  // fused_levels() + j cards, j = 0..2, kept at hand.
  struct LevelBits {
    uint64_t counts;  // the counts 1..limit of their children
    uint32_t limit;
    uint32_t s_count;  // the elements of S that can reach a count
    uint32_t s[kMaxViewSElements];
  };

  // The counts t <= limit that name value v (t = v, v + ranks, ...) of a
  // child of a sub-deck of level j: condition (3) for one missing value.
  EULERDECK_HD uint64_t Naming(Card v, int j) const {
    const LevelBits& l = lv_[j];
    uint64_t m = (uint64_t{1} << v) & l.counts;
    if (wraps_) {
      for (uint32_t t = v + ranks_; t <= l.limit; t += ranks_) m |= uint64_t{1} << t;
    }
    return m;
  }
  // The counts that h values `h` (bit w: some h_i = w) block for the
  // children of a sub-deck of level j: every w + sigma, sigma in S (the
  // elements that can reach a count: ViewableSize). Bits past the limit
  // are left: Naming() drops them.
  EULERDECK_HD uint64_t Blk(uint64_t h, int j) const {
    const LevelBits& l = lv_[j];
    uint64_t b = h;  // sigma = 0
    for (uint32_t e = 1; e < l.s_count; ++e) b |= h << l.s[e];
    return b;
  }

  // The last levels by bits (bits_): below `node` (K cards), which misses
  // miss[0] <= miss[1] (<= miss[2]).
  EULERDECK_HD void CountBits(const Card* node, int K, const Card* miss, uint64_t* level) const {
    // hb[i]: bit h_i (0 for the cards before table_first_, whose h, and
    // every h derived from theirs below, lies above each level's limit);
    // pre[i], suf[i]: the h values of positions [0, i) and [i, K).
    uint64_t hb[kMaxEnumCards], pre[kMaxEnumCards + 1], suf[kMaxEnumCards + 1];
    for (int i = 0; i <= table_first_; ++i) hb[i] = pre[i] = 0;
    for (int i = table_first_; i < K; ++i) {
      hb[i] = uint64_t{1} << (node[i] + (K - i));
      pre[i + 1] = pre[i] | hb[i];
    }
    suf[K] = 0;
    for (int i = K - 1; i >= 0; --i) suf[i] = suf[i + 1] | hb[i];
    const uint64_t blocked = Blk(pre[K], 0);
    uint64_t children = 0, grandchildren = 0, leaves = 0;
    const int missing = fused_levels_;
    for (int i = 0; i < missing; ++i) {
      if (i > 0 && miss[i] == miss[i - 1]) continue;  // the same children again
      const Card x = miss[i];
      Card rest[2];
      for (int j = 0, r = 0; j < missing; ++j) {
        if (j != i) rest[r++] = miss[j];
      }
      uint64_t cand = Naming(x, 0) & ~blocked;
      while (cand) {
        const uint32_t t = static_cast<uint32_t>(hd::Ctz64(cand));
        cand &= cand - 1;
        ++children;
        // The child C: D[p..K), x, D[0..p), p = K - q1.
        const int q1 = RemovalSlot(K, t), s1 = K + 1 - q1, p = K - q1;
        const uint64_t xbit = uint64_t{1} << (x + s1);
        const uint64_t hc = (suf[p] << s1) | xbit | (pre[p] >> q1);
        const uint64_t blocked_c = Blk(hc, 1);
        if (missing == 2) {  // C misses one card: its children are leaves
          grandchildren += static_cast<uint64_t>(hd::Popcount64(Naming(rest[0], 1) & ~blocked_c));
          continue;
        }
        for (int ii = 0; ii < 2; ++ii) {
          if (ii == 1 && rest[1] == rest[0]) break;
          const Card y = rest[ii], z = rest[1 - ii];
          uint64_t cand2 = Naming(y, 1) & ~blocked_c;
          while (cand2) {
            const uint32_t u = static_cast<uint32_t>(hd::Ctz64(cand2));
            cand2 &= cand2 - 1;
            ++grandchildren;
            // The grandchild G: C[c..K+1), y, C[0..c), c = K+1 - q2; the
            // h values of C's two ranges, from D's.
            const int q2 = RemovalSlot(K + 1, u), s2 = K + 2 - q2, c = K + 1 - q2;
            uint64_t lo, hi;  // C[0..c), C[c..K+1)
            if (c <= q1) {    // C[0..c) = D[p..p+c)
              uint64_t mid = 0;
              for (int m = p; m < p + c; ++m) mid |= hb[m];
              lo = mid << s1;
              hi = (suf[p + c] << s1) | xbit | (pre[p] >> q1);
            } else {  // C[c..K+1) = D[c-q1-1..p)
              uint64_t mid = 0;
              for (int m = c - q1 - 1; m < p; ++m) mid |= hb[m];
              lo = (suf[p] << s1) | xbit | (pre[c - q1 - 1] >> q1);
              hi = mid >> q1;
            }
            const uint64_t hg = (hi << s2) | (uint64_t{1} << (y + s2)) | (lo >> q2);
            leaves += static_cast<uint64_t>(hd::Popcount64(Naming(z, 2) & ~Blk(hg, 2)));
          }
        }
      }
    }
    level[K + 1] += children;
    level[K + 2] += grandchildren;
    if (missing == 3) level[K + 3] += leaves;
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
  int fused_levels_ = 0;   // 0 (none), 2 or 3
  int table_first_ = 0;    // FillTable() skips the cards before it
  bool bits_ = false;      // counted by bits (CountBits), not through views
  bool one_suit_ = false;  // one suit, ranks < 64: Count() reads the missing cards off the bits
  bool wraps_ = false;     // some level's counts pass ranks (CountBits)
  LevelBits lv_[3];        // CountBits' levels
  // positions_[w]: bit i set when h_i = w for the sub-deck in FillTable();
  // all zero otherwise.
  uint64_t positions_[kTable];
};

}  // namespace eulerdeck::internal

#endif  // EULERDECK_ENGINE_EULERIAN_LAST_LEVELS_H_
