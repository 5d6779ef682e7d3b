#include "engine/enumerate.h"

#include <tbb/enumerable_thread_specific.h>

#include <array>
#include <cstring>
#include <mutex>
#include <string>

#include "engine/children.h"
#include "engine/deck.h"
#include "engine/parallel.h"
#include "engine/rules.h"

namespace eulerdeck {

namespace {

// The breadth-first start stops once a level has this many sub-decks per
// thread: enough subtrees for work stealing to even out their sizes.
constexpr size_t kSubtreesPerThread = 1024;

// out[0..out_words) |= in[0..in_words) << shift; bits past the top are lost.
inline void OrShiftedWords(uint64_t* out, const uint64_t* in, int out_words, int in_words,
                           uint32_t shift) {
  const int ws = static_cast<int>(shift >> 6);
  const int bs = static_cast<int>(shift & 63);
  for (int i = 0; i < in_words && i + ws < out_words; ++i) {
    out[i + ws] |= in[i] << bs;
    if (bs != 0 && i + ws + 1 < out_words) out[i + ws + 1] |= in[i] >> (64 - bs);
  }
}

struct Node {
  std::array<Card, kNodeBytes> cards;
};

// Walks subtrees depth first, counting sub-decks per level. One per thread.
class Walker {
 public:
  Walker(const ChildRule& rule, bool verify) : rule_(rule), verify_(verify) {
    const GameSpec& spec = rule.spec();
    n_ = spec.cards();
    suits_ = spec.suits;
    ranks_ = static_cast<uint32_t>(spec.ranks);
    level_.assign(n_ + 1, 0);
    fused_ = rule.last_levels_fused() && !verify;
    modular_ = spec.game == Game::kModular;
  }

  // Counts the descendants of `node` (k cards, already counted itself).
  void WalkFrom(const Card* node, int k) {
    Reset(node, k);
    Walk(node, k);
  }

  // Expands `node` (k < n cards) one level: appends its children to `out`.
  void Expand(const Card* node, int k, std::vector<Node>* out) {
    Reset(node, k);
    ChildCounts valid;
    rule_.ValidCounts(node, k, &valid);
    ForEachChild(valid, [&](uint32_t t, Card x) {
      out->emplace_back();
      ChildRule::MakeChild(node, k, t, x, out->back().cards.data());
    });
  }

  const std::vector<uint64_t>& level() const { return level_; }
  uint64_t leaves_verified() const { return leaves_verified_; }
  const Status& failure() const { return failure_; }

 private:
  // Calls f(t, x) for each valid count t whose value x is still available.
  template <class F>
  void ForEachChild(const ChildCounts& valid, F&& f) {
    // Counts whose value is still available: the value bitset repeated every
    // `ranks` counts (once for mousetrap and hlm, whose limit is <= ranks).
    uint64_t avail[ChildCounts::kMaxWords];
    if (valid.words == 1) {  // the common case: counts below 64
      avail[0] = avail_values_[0];
      if (modular_) {
        for (uint32_t a = ranks_; a <= valid.limit; a += ranks_) avail[0] |= avail_values_[0] << a;
      }
    } else {
      std::memset(avail, 0, sizeof(uint64_t) * valid.words);
      for (uint32_t a = 0; a <= valid.limit; a += ranks_) {
        OrShiftedWords(avail, avail_values_, valid.words, kValueWords, a);
      }
    }
    for (int j = 0; j < valid.words; ++j) {
      uint64_t w = valid.bits[j] & avail[j];
      while (w) {
        const uint32_t t = static_cast<uint32_t>(j * 64 + __builtin_ctzll(w));
        w &= w - 1;
        const Card x = modular_ ? static_cast<Card>((t - 1) % ranks_ + 1) : static_cast<Card>(t);
        f(t, x);
      }
    }
  }

  // Takes one card of value x / gives it back, keeping avail_values_ exact.
  void Take(Card x) {
    if (++copies_[x] == suits_) avail_values_[x >> 6] &= ~(uint64_t{1} << (x & 63));
  }
  void Give(Card x) {
    if (copies_[x]-- == suits_) avail_values_[x >> 6] |= uint64_t{1} << (x & 63);
  }
  void Reset(const Card* node, int k) {
    copies_.fill(0);
    avail_values_[0] = avail_values_[1] = 0;
    for (uint32_t v = 1; v <= ranks_; ++v) avail_values_[v >> 6] |= uint64_t{1} << (v & 63);
    for (int i = 0; i < k; ++i) Take(node[i]);
  }

  void Walk(const Card* node, int k) {
    ChildCounts valid;
    rule_.ValidCounts(node, k, &valid);
    if (k + 2 == n_ && fused_) {
      CountLastTwoLevels(node, k, valid);
      return;
    }
    if (k + 1 == n_ && !verify_) {
      // The last level is counted, not built: a leaf needs the one value
      // still missing, named at t = y, y + ranks, ...
      const Card y = LowestAvailable(0);
      uint64_t leaves = 0;
      for (uint32_t t = y; t <= valid.limit; t += ranks_) {
        leaves += (valid.bits[t >> 6] >> (t & 63)) & 1;
      }
      level_[n_] += leaves;
      return;
    }
    Card child[kNodeBytes];
    ForEachChild(valid, [&](uint32_t t, Card x) {
      ++level_[k + 1];
      ChildRule::MakeChild(node, k, t, x, child);
      if (k + 1 == n_) {
        Verify(child);
        return;
      }
      Take(x);
      Walk(child, k + 1);
      Give(x);
    });
  }

  // Counts the children (level n-1) and grandchildren (level n, the
  // winning decks) of a sub-deck of k = n-2 cards without building either.
  void CountLastTwoLevels(const Card* node, int k, const ChildCounts& valid) {
    // h_i = D[i] + (k - i): the count at which D[i] would be hit (children.h).
    // positions_[v] marks the i with h_i = v, so that "does some card of a
    // given range of D have h = v" is one AND.
    Card h[kMaxEnumCards];
    for (int i = 0; i < k; ++i) {
      h[i] = static_cast<Card>(node[i] + (k - i));
      positions_[h[i]] |= uint64_t{1} << i;
    }
    // The two cards still missing, y1 <= y2.
    Card missing[2];
    missing[0] = LowestAvailable(0);
    missing[1] = copies_[missing[0]] + 2 <= suits_ ? missing[0] : LowestAvailable(missing[0]);
    const uint32_t leaf_limit = rule_.LeafLimit();
    uint64_t children = 0, leaves = 0;
    ForEachChild(valid, [&](uint32_t t, Card x) {
      ++children;
      const Card y = (x == missing[0]) ? missing[1] : missing[0];
      // The child C = D[k-q..k-1], x, D[0..k-q-1] has k+1 cards; its own h
      // values are h_i - q for i < k-q, h_i + (k+1-q) for i >= k-q, and
      // x + (k+1-q). Its child completing the deck removes y at count u
      // (u = y, y + ranks, ... up to the leaf limit) unless one of them is u;
      // the leaf limit is below 64 and S adds nothing below it (fused_).
      const int q = ChildRule::RemovalSlot(k, t);
      const int shift = k + 1 - q;
      const uint64_t front = (uint64_t{1} << (k - q)) - 1;  // positions i < k-q
      for (uint32_t u = y; u <= leaf_limit; u += ranks_) {
        const bool hit = static_cast<int>(u) == x + shift ||
                         (positions_[u + q] & front) != 0 ||
                         (static_cast<int>(u) > shift && (positions_[u - shift] & ~front) != 0);
        leaves += !hit;
      }
    });
    for (int i = 0; i < k; ++i) positions_[h[i]] = 0;
    level_[k + 1] += children;
    level_[k + 2] += leaves;
  }

  // The smallest value above `after` with a card left.
  Card LowestAvailable(Card after) const {
    const unsigned __int128 all =
        (static_cast<unsigned __int128>(avail_values_[1]) << 64) | avail_values_[0];
    const unsigned __int128 above = all >> (after + 1);
    const uint64_t lo = static_cast<uint64_t>(above);
    const int z = lo ? __builtin_ctzll(lo)
                     : 64 + __builtin_ctzll(static_cast<uint64_t>(above >> 64));
    return static_cast<Card>(after + 1 + z);
  }

  void Verify(const Card* deck) {
    ++leaves_verified_;
    const Deck d(deck, deck + n_);
    const GameResult r = Play(rule_.spec(), d);
    if (r.outcome != Outcome::kWin && failure_.ok()) {
      failure_ = Status::Corruption("verify-leaves: enumerated deck " + DeckToString(d) +
                                    " does not win when replayed (" +
                                    OutcomeName(r.outcome) + ")");
    }
  }

  const ChildRule& rule_;
  const bool verify_;
  bool fused_;
  int n_;
  int suits_;
  uint32_t ranks_;
  bool modular_;
  std::array<int, kMaxEnumRanks + 1> copies_{};
  // Bit v set when a card of value v is still available (v = 1..ranks).
  static constexpr int kValueWords = 2;
  uint64_t avail_values_[kValueWords] = {0, 0};
  // Scratch for CountLastTwoLevels(), all zero between calls: h values are
  // below ranks + n < 127, and u + q below 64 + 64.
  uint64_t positions_[2 * kMaxEnumCards] = {};
  std::vector<uint64_t> level_;
  uint64_t leaves_verified_ = 0;
  Status failure_;
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

  // Phase 2. Breadth first until there are enough subtrees to share out.
  const size_t want = kSubtreesPerThread * EffectiveThreads(options.threads);
  Walker serial(rule, options.verify_leaves);
  while (k < n - 1 && frontier.size() < want) {
    std::vector<Node> next;
    for (const Node& node : frontier) serial.Expand(node.cards.data(), k, &next);
    frontier = std::move(next);
    ++k;
    result->level[k] = frontier.size();
  }
  if (n == 1 && options.verify_leaves) {  // a one-card deck: the roots are the leaves
    for (const Node& node : frontier) {
      const Deck d(node.cards.begin(), node.cards.begin() + 1);
      if (Play(spec, d).outcome != Outcome::kWin) {
        return Status::Corruption("verify-leaves: deck " + DeckToString(d) + " does not win");
      }
      ++result->leaves_verified;
    }
  }

  // Phase 3. Depth first from every frontier node, in parallel.
  if (options.tasks_total) options.tasks_total->store(frontier.size());
  tbb::enumerable_thread_specific<Walker> walkers(rule, options.verify_leaves);
  if (k < n) {
    ParallelFor(options.threads, frontier.size(), [&](size_t i) {
      walkers.local().WalkFrom(frontier[i].cards.data(), k);
      if (options.tasks_done) options.tasks_done->fetch_add(1, std::memory_order_relaxed);
    });
  }

  // Phase 4. Sum the per-thread counts; report the first failure.
  for (const Walker& w : walkers) {
    if (!w.failure().ok()) return w.failure();
    for (int j = k + 1; j <= n; ++j) {
      if (__builtin_add_overflow(result->level[j], w.level()[j], &result->level[j])) {
        return Status::OutOfRange("level " + std::to_string(j) +
                                  " holds more than 2^64 sub-decks");
      }
    }
    result->leaves_verified += w.leaves_verified();
  }
  for (int j = 1; j <= n; ++j) result->nodes += result->level[j];
  return Status::OK();
}

}  // namespace eulerdeck
