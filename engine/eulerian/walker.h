// The depth first walk of the tree of winning sub-decks below one sub-deck,
// counting its descendants per level: the inner loop shared by the in-memory
// count (enumerate.cc) and the count of given subtrees (subtrees.cc).
// Internal to engine/eulerian.
#ifndef EULERDECK_ENGINE_EULERIAN_WALKER_H_
#define EULERDECK_ENGINE_EULERIAN_WALKER_H_

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "engine/base/status.h"
#include "engine/cards/deck.h"
#include "engine/cards/rules.h"
#include "engine/eulerian/children.h"
#include "engine/eulerian/hit_views.h"
#include "engine/eulerian/winners.h"

namespace eulerdeck::internal {

// Walk() calls between two looks at the stop flag and two reports of the
// sub-decks counted: often enough for a prompt Ctrl-C and a live rate (a
// subtree can take minutes), rarely enough to cost nothing.
inline constexpr uint32_t kPollCalls = 1u << 14;

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
    const GameSpec& spec = rule.spec();
    n_ = spec.cards();
    ranks_ = static_cast<uint32_t>(spec.ranks);
    avail_ = AvailableValues(spec);
    level_.assign(n_ + 1, 0);
    if (on_leaf_) order_.assign(n_, 0);
    // How many final levels are counted through views (hit_views.h): the
    // children of the sub-decks concerned must all be Viewable.
    fused_levels_ = 0;
    if (!build_leaves_ && n_ >= 3 && rule.Viewable(n_ - 1) && rule.Viewable(n_ - 2)) {
      fused_levels_ = (n_ >= 4 && rule.Viewable(n_ - 3)) ? 3 : 2;
      // The largest h the views ask the table for: the last level asks for
      // w <= its limit, and a view one level down asks its base for w + q,
      // q = (t-1) mod (K+1) <= t - 1 < the limit of that level. The cards
      // before table_first_ have every h above that.
      const int k = n_ - fused_levels_;
      int max_w = 1;
      for (int j = 0; j < fused_levels_; ++j) max_w += static_cast<int>(rule.Limit(k + j)) - 1;
      table_first_ = ChildRule::FirstWithin(k, max_w);
    }
  }

  // Counts the descendants of `node` (k cards, already counted itself).
  // False when the stop flag cut the walk short: the counts are then partial
  // and the count must be abandoned. With `report`, the shared counter is
  // brought up to date at the end; without, only every kPollCalls calls and
  // at Report() (millions of small subtrees would otherwise contend for its
  // cache line).
  bool WalkFrom(const Card* node, int k, bool report = true) {
    avail_.Reset(node, k);
    // The root's own removal order ends the order of every deck below it
    // (winners.h); the cards put back fill it from the front.
    if (on_leaf_) PlayOrder(rule_.spec(), node, k, order_.data() + n_ - k);
    Walk(node, k);
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
  void Walk(const Card* node, int k) {
    if (stopped_) return;  // unwinding: the siblings up the stack return at once
    if (++calls_ == kPollCalls) {
      calls_ = 0;
      Report();
      if (stop_ != nullptr && stop_->load(std::memory_order_relaxed)) {
        stopped_ = true;
        return;
      }
    }
    if (k + fused_levels_ == n_) {
      // The last levels are counted through views, not built.
      Card miss[3];
      avail_.Missing(fused_levels_, miss);
      FillTable(node, k);
      const internal::TableView table{positions_};
      if (fused_levels_ == 3) {
        CountThree(table, k, miss);
      } else {
        CountTwo(table, k, miss);
      }
      ClearTable(k);
      return;
    }
    ChildCounts valid;
    rule_.ValidCounts(node, k, &valid);
    if (k + 1 == n_ && !build_leaves_) {
      // The last level is counted, not built.
      level_[n_] += rule_.CountLastChildren(valid, avail_);
      return;
    }
    Card child[kNodeBytes];
    rule_.ForEachChild(valid, avail_, [&](uint32_t t, Card x) {
      ++level_[k + 1];
      ChildRule::MakeChild(node, k, t, x, child);
      if (on_leaf_) order_[n_ - k - 1] = x;
      if (k + 1 == n_) {
        if (verify_) Verify(child);
        if (on_leaf_) (*on_leaf_)(child, order_.data());
        return;
      }
      avail_.Take(x);
      Walk(child, k + 1);
      avail_.Give(x);
    });
  }

  // Fills positions_ with the h values of node (k cards) that the views can
  // ask for (those of the cards from table_first_ on; the others' are too
  // large); ClearTable() undoes it, keeping positions_ all zero between
  // uses. Every h_i = node[i] + (k - i) lies in [2, ranks + k]: clearing
  // that range at once (a memset of a few hundred bytes) replaces the
  // scattered stores, and clears every entry FillTable() can have written.
  void FillTable(const Card* node, int k) {
    for (int i = table_first_; i < k; ++i) positions_[node[i] + (k - i)] |= uint64_t{1} << i;
  }
  void ClearTable(int k) {
    static_assert(2 + kMaxEnumRanks + kMaxEnumCards <= internal::kHitTableSize);
    std::memset(positions_ + 2, 0, sizeof(uint64_t) * (ranks_ + static_cast<uint32_t>(k) - 1));
  }

  // Condition (2) of children.h for the child at count t of the sub-deck
  // seen through v (K cards): some h_i = t - sigma, sigma in S.
  template <class View>
  bool Blocked(const View& v, int K, uint32_t t) const {
    for (uint32_t sigma : rule_.SElements(K)) {
      if (sigma >= t) break;
      if (v.HasHit(static_cast<int>(t - sigma), 0, K)) return true;
    }
    return false;
  }

  // Counts the children (level K+1) and grandchildren (level K+2 = n) of the
  // sub-deck seen through `v` (K cards), which misses the two cards
  // miss[0] <= miss[1]. REQUIRES rule_.Viewable(K) and Viewable(K+1).
  template <class View>
  void CountTwo(const View& v, int K, const Card* miss) {
    uint64_t children = 0, leaves = 0;
    const uint32_t limit = rule_.Limit(K), leaf_limit = rule_.Limit(K + 1);
    for (int i = 0; i < 2; ++i) {
      if (i == 1 && miss[1] == miss[0]) break;  // the same children again
      const Card x = miss[i], y = miss[1 - i];
      for (uint32_t t = x; t <= limit; t += ranks_) {
        if (Blocked(v, K, t)) continue;
        ++children;
        const internal::ChildView<View> child(v, K, t, x);
        for (uint32_t u = y; u <= leaf_limit; u += ranks_) leaves += !Blocked(child, K + 1, u);
      }
    }
    level_[K + 1] += children;
    level_[K + 2] += leaves;
  }

  // The same one level higher: the sub-deck seen through `v` (K cards) misses
  // miss[0] <= miss[1] <= miss[2]; counts levels K+1..K+3 = n.
  // REQUIRES rule_.Viewable(K), Viewable(K+1), Viewable(K+2).
  template <class View>
  void CountThree(const View& v, int K, const Card* miss) {
    const uint32_t limit = rule_.Limit(K);
    for (int i = 0; i < 3; ++i) {
      if (i > 0 && miss[i] == miss[i - 1]) continue;
      const Card x = miss[i];
      Card rest[2];
      for (int j = 0, r = 0; j < 3; ++j) {
        if (j != i) rest[r++] = miss[j];
      }
      for (uint32_t t = x; t <= limit; t += ranks_) {
        if (Blocked(v, K, t)) continue;
        ++level_[K + 1];
        CountTwo(internal::ChildView<View>(v, K, t, x), K + 1, rest);
      }
    }
  }

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
  int fused_levels_;     // 0 (none), 2 or 3
  int table_first_ = 0;  // FillTable() skips the cards before it
  int n_;
  uint32_t ranks_;
  // Condition (3) for the sub-deck being walked: kept with Take()/Give().
  AvailableValues avail_;
  // positions_[w]: bit i set when h_i = w for the sub-deck in FillTable();
  // all zero otherwise.
  uint64_t positions_[internal::kHitTableSize] = {};
  std::vector<uint64_t> level_;
  uint64_t leaves_verified_ = 0;
  Status failure_;
};

}  // namespace eulerdeck::internal

#endif  // EULERDECK_ENGINE_EULERIAN_WALKER_H_
