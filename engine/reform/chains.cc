#include "engine/reform/chains.h"

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include "engine/cards/deck.h"
#include "engine/cards/rules.h"
#include "engine/eulerian/children.h"
#include "engine/eulerian/rebuild.h"
#include "engine/reform/follow.h"

namespace eulerdeck {
namespace {

// Walks of the whole tree up to this many cards; past it, subtrees hung
// kSubtreeLevels levels above the decks (about 10^5..10^7 decks each at
// 17..25 cards), one after another.
constexpr int kWholeTreeCards = 16;
constexpr int kSubtreeLevels = 11;
// Backward steps tried from one deck (a cycle's in-tree never ends; mousetrap
// has none past 2 cards, but a cap keeps the move bounded).
constexpr int kMaxBack = 1000;
// Leaves per slice of the walk, and every how many slices the walk of the
// decks without 1 on top gets one.
constexpr uint64_t kSlice = 4096;
// The decks Keep() offers besides the best.
constexpr size_t kKept = 16;

// A depth-first walk, in random child order, of the backward tree: the
// subtree of the decks with 1 on top (one_first), or the rest of it. Each
// leaf is a winning deck P and its removal order Y.
class TreeWalk {
 public:
  TreeWalk(const ChildRule& rule, int n, bool one_first, std::mt19937_64* rng)
      : rule_(rule),
        n_(n),
        one_first_(one_first),
        rng_(rng),
        whole_(n <= kWholeTreeCards || n - kSubtreeLevels < 1),
        all_(((uint64_t{1} << n) - 1) << 1) {}

  bool exhausted() const { return exhausted_; }

  // Visits up to `leaves` leaves, calling leaf(P, Y) for each; returns the
  // number visited (fewer only when the walk has covered the whole tree).
  template <class F>
  uint64_t Walk(uint64_t leaves, F&& leaf) {
    uint64_t done = 0;
    Card child[kNodeBytes];
    while (done < leaves && !exhausted_) {
      if (depth_ == 0) {
        if (started_ && whole_) {
          exhausted_ = true;
          break;
        }
        Start();
        if (depth_ == 0) continue;
      }
      Frame& f = stack_[depth_ - 1];
      if (f.next == f.kids.size()) {
        --depth_;
        continue;
      }
      const auto [t, x] = f.kids[f.next++];
      const int k = f.k;
      y_[n_ - k - 1] = x;
      if (k == 0) {
        child[0] = x;
      } else {
        ChildRule::MakeChild(f.node, k, t, x, child);
      }
      if (k + 1 == n_) {
        leaf(static_cast<const Card*>(child), static_cast<const Card*>(y_));
        ++done;
        continue;
      }
      if (one_first_ && k + 2 == n_) {
        // Its one child: 1 put back on top at count 1 (always valid).
        y_[0] = 1;
        deck_[0] = 1;
        std::copy(child, child + k + 1, deck_ + 1);
        leaf(static_cast<const Card*>(deck_), static_cast<const Card*>(y_));
        ++done;
        continue;
      }
      Push(child, k + 1, f.avail & ~(uint64_t{1} << x));
    }
    return done;
  }

 private:
  struct Frame {
    int k = 0;           // cards in node
    uint64_t avail = 0;  // bit v: value v not in node
    Card node[kNodeBytes];
    std::vector<std::pair<uint32_t, Card>> kids;
    size_t next = 0;
  };

  // The children a sub-deck of k cards may take in this walk. Mousetrap
  // names value t at count t, so below 64 cards the children are the valid
  // counts (one word) that name a value not in the sub-deck: `avail`, bit v
  // for each such value v.
  void Kids(const Card* node, int k, uint64_t avail,
            std::vector<std::pair<uint32_t, Card>>* kids) const {
    kids->clear();
    const bool last = k + 1 == n_;
    ChildCounts valid;
    rule_.ValidCounts(node, k, &valid);
    uint64_t w = valid.bits[0] & avail;
    if (one_first_) {
      w &= last ? uint64_t{2} : ~uint64_t{2};
    } else if (last) {
      w &= ~uint64_t{2};
    }
    for (; w; w &= w - 1) {
      const uint32_t t = static_cast<uint32_t>(__builtin_ctzll(w));
      kids->emplace_back(t, static_cast<Card>(t));
    }
  }
  void Roots(std::vector<std::pair<uint32_t, Card>>* kids) const {
    kids->clear();
    for (Card r : rule_.Roots()) {
      if (one_first_ && r == 1 && n_ > 1) continue;
      kids->emplace_back(0, r);
    }
  }

  // Frames are kept, one per depth, so that their child lists keep their
  // memory.
  Frame& NewFrame() {
    if (stack_.size() <= depth_) stack_.emplace_back();
    Frame& f = stack_[depth_++];
    f.next = 0;
    return f;
  }

  void Push(const Card* node, int k, uint64_t avail) {
    Frame& f = NewFrame();
    f.k = k;
    f.avail = avail;
    std::copy(node, node + k, f.node);
    Kids(node, k, avail, &f.kids);
    if (k + 1 < n_ && !(one_first_ && k + 2 == n_))
      std::shuffle(f.kids.begin(), f.kids.end(), *rng_);
  }

  // The whole tree: a frame of the roots. A subtree: a random descent to
  // kSubtreeLevels levels above the decks (no frame if it met a dead end).
  void Start() {
    started_ = true;
    if (whole_) {
      Frame& f = NewFrame();
      f.k = 0;
      f.avail = all_;
      Roots(&f.kids);
      std::shuffle(f.kids.begin(), f.kids.end(), *rng_);
      return;
    }
    std::vector<std::pair<uint32_t, Card>> kids;
    Card node[kNodeBytes], child[kNodeBytes];
    Roots(&kids);
    if (kids.empty()) return;
    node[0] = kids[std::uniform_int_distribution<size_t>(0, kids.size() - 1)(*rng_)].second;
    y_[n_ - 1] = node[0];
    uint64_t avail = all_ & ~(uint64_t{1} << node[0]);
    const int top = n_ - kSubtreeLevels;
    for (int k = 1; k < top; ++k) {
      Kids(node, k, avail, &kids);
      if (kids.empty()) return;
      const auto [t, x] = kids[std::uniform_int_distribution<size_t>(0, kids.size() - 1)(*rng_)];
      ChildRule::MakeChild(node, k, t, x, child);
      std::copy(child, child + k + 1, node);
      y_[n_ - k - 1] = x;
      avail &= ~(uint64_t{1} << x);
    }
    Push(node, top, avail);
  }

  const ChildRule& rule_;
  const int n_;
  const bool one_first_;
  std::mt19937_64* const rng_;
  const bool whole_;
  const uint64_t all_;  // bits 1..n
  bool started_ = false, exhausted_ = false;
  std::vector<Frame> stack_;  // stack_[0..depth_-1] the path
  size_t depth_ = 0;
  Card deck_[kNodeBytes] = {};
  Card y_[kNodeBytes] = {};  // the removal order, its last cards set along the path
};

class ChainMove final : public ReformMove {
 public:
  ChainMove(const GameSpec& spec, uint64_t seed)
      : spec_(spec),
        n_(spec.cards()),
        rule_(spec),
        rng_(seed),
        follower_(spec),
        ones_(rule_, n_, true, &rng_),
        others_(rule_, n_, false, &rng_),
        order_(n_) {
    // The decks without 1 on top: 1 slice in 8 up to 13 cards (n = 8's best
    // chain starts 5 2 1), 1 in 16 beyond (from n = 11 or so every best
    // chain starts with 1).
    others_period_ = n_ <= 13 ? 8 : 16;
  }

  const char* name() const override { return "chains"; }

  uint64_t Step(uint64_t work) override {
    uint64_t done = 0;
    auto leaf = [this, &done](const Card* p, const Card* y) { done += Leaf(p, y); };
    while (done < work && !(ones_.exhausted() && others_.exhausted())) {
      const uint64_t slice = std::min(kSlice, work - done);
      bool other;
      if (ones_.exhausted()) {
        other = true;
      } else if (others_.exhausted()) {
        other = false;
      } else {
        other = ++slices_ % others_period_ == 0;
      }
      (other ? others_ : ones_).Walk(slice, leaf);
    }
    return done;
  }

  const Deck& best_deck() const override { return best_deck_; }
  ReformScore best_score() const override { return best_score_; }

  std::vector<Deck> Keep(size_t limit) const override {
    std::vector<Deck> out;
    if (!best_deck_.empty() && limit > 0) out.push_back(best_deck_);
    for (const auto& [score, deck] : kept_) {
      if (out.size() >= limit) break;
      if (deck != best_deck_) out.push_back(deck);
    }
    return out;
  }

  void Seed(const std::vector<Deck>& decks) override {
    for (const Deck& d : decks) {
      if (static_cast<int>(d.size()) != n_ || !CheckDeck(spec_, d).ok()) continue;
      // The deck itself, and the start of the chain through it.
      Record(d, follower_.Follow(d.data()));
      Deck start = d;
      Back(&start);
      if (start != d) Record(start, follower_.Follow(start.data()));
    }
  }

 private:
  // One winning deck P and its reformed deck Y: the units of work spent.
  uint64_t Leaf(const Card* p, const Card* y) {
    if (PlayOrder(spec_, y, n_, order_.data()).outcome != Outcome::kWin) {
      // The chain through P has P, Y and P's predecessors; those win with
      // 1 on top as well, so the walk meets them as decks whose reformed
      // deck wins. Length 2 is all that is certain here.
      if (best_deck_.empty()) Record(Deck(p, p + n_), ReformScore{false, 2, 0, 0});
      return 1;
    }
    Deck start(p, p + n_);
    const uint64_t back = Back(&start);
    Record(start, follower_.Follow(start.data()));
    return 2 + back;
  }

  // Replaces *deck by the first deck of the chain through it; the steps back.
  uint64_t Back(Deck* deck) {
    uint64_t steps = 0;
    WideDeck order(deck->begin(), deck->end());
    RebuildOptions options;
    RebuildResult r;
    for (; steps < kMaxBack; ++steps) {
      if (!Rebuild(spec_.game, static_cast<uint32_t>(spec_.ranks),
                   static_cast<uint32_t>(spec_.suits), order, options, &r)
               .ok() ||
          r.decks.empty())
        break;
      order = std::move(r.decks.front());
      r = RebuildResult();
    }
    for (int i = 0; i < n_; ++i) (*deck)[i] = static_cast<Card>(order[i]);
    return steps;
  }

  // The score is exact: the follower's (or 2 for a winning deck whose
  // reformed deck loses).
  void Record(const Deck& deck, const ReformScore& s) {
    if (best_deck_.empty() || BetterReform(s, best_score_)) {
      best_deck_ = deck;
      best_score_ = s;
    }
    if (s.length < 3 && !s.cyclic) return;
    for (const auto& kept : kept_)
      if (kept.second == deck) return;
    kept_.emplace_back(s, deck);
    std::stable_sort(kept_.begin(), kept_.end(),
                     [](const auto& a, const auto& b) { return BetterReform(a.first, b.first); });
    if (kept_.size() > kKept) kept_.pop_back();
  }

  const GameSpec spec_;
  const int n_;
  const ChildRule rule_;
  std::mt19937_64 rng_;
  internal::SequenceFollower follower_;
  TreeWalk ones_, others_;
  uint64_t others_period_ = 8, slices_ = 0;
  Deck order_;
  Deck best_deck_;
  ReformScore best_score_;
  std::vector<std::pair<ReformScore, Deck>> kept_;
};

}  // namespace

std::unique_ptr<ReformMove> MakeChainMove(const GameSpec& spec, uint64_t seed) {
  return std::make_unique<ChainMove>(spec, seed);
}

}  // namespace eulerdeck
