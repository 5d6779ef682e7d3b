#include "engine/reform/basin.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "engine/cards/deck.h"
#include "engine/cards/rules.h"
#include "engine/eulerian/rebuild.h"
#include "engine/reform/follow.h"

namespace eulerdeck {
namespace {

// The longest walk remembered deck by deck; a longer sequence is scored by
// SequenceFollower, without memory (~100 MB of path at 25 cards).
constexpr size_t kMaxPath = size_t{1} << 22;

uint64_t Mix(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

// A deck's name in the memory: exact up to 25 cards (the last card of a
// permutation follows from the others: 24 x 5 bits), a 128-bit hash beyond.
struct Key {
  uint64_t a = 0, b = 0;
  bool operator==(const Key& o) const { return a == o.a && b == o.b; }
};
struct KeyHash {
  size_t operator()(const Key& k) const { return Mix(k.a ^ Mix(k.b + 0x9e3779b97f4a7c15ULL)); }
};

Key KeyOf(const Card* d, int n) {
  Key k;
  if (n <= 25) {
    for (int i = 0; i < std::min(n - 1, 12); ++i) k.a |= uint64_t{d[i]} << (5 * i);
    for (int i = 12; i < n - 1; ++i) k.b |= uint64_t{d[i]} << (5 * (i - 12));
    return k;
  }
  k.a = 0x243f6a8885a308d3ULL;
  k.b = 0x13198a2e03707344ULL;
  for (int i = 0; i < n; ++i) {
    k.a = Mix(k.a ^ d[i]);
    k.b = Mix(k.b + d[i] * 0x9e3779b97f4a7c15ULL + i);
  }
  return k;
}

// What the memory knows of a deck: its sequence's length (distinct decks,
// itself included) and the cycle it ends on (0: a dead end).
struct Known {
  uint32_t length = 0;
  uint32_t cycle = 0;
};

ReformScore ScoreOf(Known k) {
  ReformScore s;
  s.cyclic = k.cycle > 0;
  s.length = k.length;
  if (s.cyclic) {
    s.cycle = k.cycle;
    s.preperiod = k.length - k.cycle;
  }
  return s;
}

// The contest's order as one number: cyclic first, then longer.
uint64_t Priority(Known k) { return (uint64_t{k.cycle > 0} << 40) | k.length; }

// A 4-way set-associative table of decks, growing by doubling up to its
// bound; once there, a new deck replaces the shortest of its set, or is
// dropped when shorter than all of them.
class Memory {
 public:
  explicit Memory(size_t max_bytes)
      : max_sets_(std::max<size_t>(1024, FloorPow2(max_bytes / sizeof(Set)))) {
    Resize(std::min<size_t>(1024, max_sets_));
  }

  const Known* Find(const Key& k) const {
    const Set& s = sets_[KeyHash()(k) & mask_];
    for (const Entry& e : s.e)
      if (e.known.length && e.key == k) return &e.known;
    return nullptr;
  }

  void Put(const Key& k, Known v) {
    if (count_ * 4 > sets_.size() * 4 * 3 && sets_.size() < max_sets_) Resize(sets_.size() * 2);
    Set& s = sets_[KeyHash()(k) & mask_];
    Entry* slot = nullptr;
    for (Entry& e : s.e) {
      if (e.known.length && e.key == k) {
        e.known = v;
        return;
      }
      if (!e.known.length) {
        if (!slot) slot = &e;
      }
    }
    if (!slot) {
      slot = &s.e[0];
      for (Entry& e : s.e)
        if (Priority(e.known) < Priority(slot->known)) slot = &e;
      if (Priority(slot->known) > Priority(v)) return;
      --count_;
    }
    slot->key = k;
    slot->known = v;
    ++count_;
  }

  size_t size() const { return count_; }
  size_t bytes() const { return sets_.size() * sizeof(Set); }

 private:
  struct Entry {
    Key key;
    Known known;
  };
  struct Set {
    Entry e[4];
  };
  static size_t FloorPow2(size_t x) {
    size_t p = 1;
    while (p * 2 <= x) p *= 2;
    return p;
  }
  void Resize(size_t sets) {
    std::vector<Set> old(sets);
    std::swap(old, sets_);
    mask_ = sets - 1;
    count_ = 0;
    for (const Set& s : old)
      for (const Entry& e : s.e)
        if (e.known.length) Put(e.key, e.known);
  }

  const size_t max_sets_;
  std::vector<Set> sets_;
  size_t mask_ = 0;
  size_t count_ = 0;
};

// Decks whose predecessors are still to be rebuilt, best first; at most
// `limit`, the worst dropped.
class Frontier {
 public:
  Frontier(int n, size_t limit) : n_(n), limit_(limit) {}

  void Push(const Card* deck, Known k) {
    const uint64_t p = Priority(k);
    if (size_ >= limit_) {
      auto low = levels_.begin();
      if (low == levels_.end() || p <= low->first) return;
      PopFrom(low, nullptr, nullptr);
    }
    Level& l = levels_[p];
    l.decks.insert(l.decks.end(), deck, deck + n_);
    l.cycles.push_back(k.cycle);
    ++size_;
  }

  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }

  // The best deck, taken out.
  void Pop(Deck* deck, Known* k) { PopFrom(std::prev(levels_.end()), deck, k); }

  // The best `limit` decks, best first, without taking them out.
  void Best(size_t limit, std::vector<Deck>* out) const {
    for (auto it = levels_.rbegin(); it != levels_.rend() && out->size() < limit; ++it) {
      const Level& l = it->second;
      for (size_t i = l.cycles.size(); i-- > 0 && out->size() < limit;)
        out->emplace_back(l.decks.begin() + i * n_, l.decks.begin() + (i + 1) * n_);
    }
  }

 private:
  struct Level {
    std::vector<Card> decks;
    std::vector<uint32_t> cycles;
  };
  using Levels = std::map<uint64_t, Level>;
  void PopFrom(Levels::iterator it, Deck* deck, Known* k) {
    Level& l = it->second;
    if (deck) {
      deck->assign(l.decks.end() - n_, l.decks.end());
      k->length = static_cast<uint32_t>(it->first & ((uint64_t{1} << 40) - 1));
      k->cycle = l.cycles.back();
    }
    l.decks.resize(l.decks.size() - n_);
    l.cycles.pop_back();
    --size_;
    if (l.cycles.empty()) levels_.erase(it);
  }

  const int n_;
  const size_t limit_;
  Levels levels_;
  size_t size_ = 0;
};

class BasinMove final : public ReformMove {
 public:
  BasinMove(const GameSpec& spec, uint64_t seed, const BasinOptions& options)
      : spec_(spec),
        n_(spec.cards()),
        options_(options),
        rng_(seed),
        follower_(spec),
        memory_(options.memory_bytes),
        frontier_(spec.cards(), options.max_frontier),
        deck_(n_) {
    std::iota(deck_.begin(), deck_.end(), Card{1});
    if (spec.suits != 1) deck_ = SortedDeck(spec);
  }

  const char* name() const override { return "basin-descent"; }

  BasinCounters counters() const {
    BasinCounters c = counters_;
    c.memory_decks = memory_.size();
    c.memory_bytes = memory_.bytes();
    c.frontier = frontier_.size();
    return c;
  }

  uint64_t Step(uint64_t work) override {
    uint64_t done = 0;
    if (!started_) {
      // The sorted deck first: modular's identity is a fixed point up to
      // at least 17 cards, and random decks hardly ever reach a cycle at
      // n = 16 or 18, where the descent then climbs the identity's in-tree.
      started_ = true;
      done += Walk(SortedDeck(spec_));
    }
    while (done < work) {
      // Balanced on time: a rebuild costs about as much as kRebuildPlays plays.
      const uint64_t total = random_work_ + descent_work_ * kRebuildPlays;
      const bool random =
          frontier_.empty() ||
          random_work_ * 16 < total * static_cast<uint64_t>(options_.random_sixteenths);
      if (random) {
        const uint64_t w = RandomWalk();
        random_work_ += w;
        done += w;
      } else {
        const uint64_t w = ExpandNext();
        descent_work_ += w;
        done += w;
      }
    }
    since_verify_ += done;
    done += Verify(false);
    return done;
  }

  const Deck& best_deck() const override { return best_; }
  ReformScore best_score() const override { return best_score_; }

  std::vector<Deck> Keep(size_t limit) const override {
    std::vector<Deck> out;
    if (limit == 0) return out;
    // A candidate not yet replayed first when it is better (Seed() replays
    // it), then the best.
    if (pending_ && (best_.empty() || BetterReform(candidate_score_, best_score_)))
      out.push_back(candidate_);
    if (!best_.empty()) out.push_back(best_);
    frontier_.Best(limit, &out);
    if (out.size() > limit) out.resize(limit);
    return out;
  }

  void Seed(const std::vector<Deck>& decks) override {
    for (const Deck& d : decks) {
      if (static_cast<int>(d.size()) != n_ || !CheckDeck(spec_, d).ok()) continue;
      Walk(d);
    }
    Verify(true);
  }

 private:
  static constexpr uint64_t kRebuildPlays = 8;
  static constexpr uint64_t kVerifyRatio = 8;

  // *out = deck's reformed deck; false when it does not win.
  bool Reformed(const Card* deck, Card* out) const {
    return PlayOrder(spec_, deck, n_, out).outcome == Outcome::kWin;
  }

  // A deck better than the candidate becomes the candidate; Verify() makes
  // it the best once replayed.
  void Consider(const Card* deck, Known k) {
    const ReformScore s = ScoreOf(k);
    if (!candidate_.empty() && !BetterReform(s, candidate_score_)) return;
    candidate_.assign(deck, deck + n_);
    candidate_score_ = s;
    pending_ = true;
  }

  // The candidate followed again from itself (SequenceFollower) and made the
  // best with its replayed score; at the end of a Step() whose work since
  // the last replay is kVerifyRatio times the replay's (so replays take at
  // most 1/9 of the work while the best keeps rising), or when `force`d.
  uint64_t Verify(bool force) {
    if (!pending_) return 0;
    const uint64_t cost = 3 * candidate_score_.length;
    if (!force && since_verify_ < kVerifyRatio * cost && !best_.empty()) return 0;
    pending_ = false;
    since_verify_ = 0;
    const ReformScore s = follower_.Follow(candidate_.data());
    const uint64_t plays = s.cyclic ? 2 * s.length + s.preperiod : s.length;
    counters_.verify_plays += plays;
    if (s.cyclic != candidate_score_.cyclic || s.length != candidate_score_.length)
      ++counters_.mismatches;
    candidate_score_ = s;
    if (best_.empty() || BetterReform(s, best_score_)) {
      best_ = candidate_;
      best_score_ = s;
    }
    return plays;
  }

  // A random deck (every other one with 1 on top), walked.
  uint64_t RandomWalk() {
    const bool one_top = (walks_++ & 1) && spec_.suits == 1;
    if (one_top) {
      std::swap(deck_[0], *std::find(deck_.begin(), deck_.end(), Card{1}));
      std::shuffle(deck_.begin() + 1, deck_.end(), rng_);
    } else {
      std::shuffle(deck_.begin(), deck_.end(), rng_);
    }
    return Walk(deck_);
  }

  // Follows `start` forward until it loses, repeats, or meets a deck the
  // memory knows; remembers every deck of the walk with its sequence, and
  // puts the winning ones in the frontier. Returns the plays made.
  uint64_t Walk(const Deck& start) {
    path_.clear();
    keys_.clear();
    index_.clear();
    uint64_t plays = 0;
    std::vector<Card> cur(start.begin(), start.end()), nxt(n_);
    Known end{};          // the known deck the walk met (length 0: none)
    size_t loop_at = 0;   // the walk repeated: the deck at loop_at again
    bool looped = false;  // (else it ended on a losing deck)
    for (;;) {
      const Key k = KeyOf(cur.data(), n_);
      if (const Known* e = memory_.Find(k)) {
        end = *e;
        break;
      }
      if (auto it = index_.find(k); it != index_.end()) {
        loop_at = it->second;
        looped = true;
        break;
      }
      if (keys_.size() >= kMaxPath) {
        // Too long to remember: scored without memory.
        const ReformScore s = follower_.Follow(start.data());
        ++plays;
        Known kn{static_cast<uint32_t>(s.length), static_cast<uint32_t>(s.cycle)};
        Consider(start.data(), kn);
        return plays + 3 * s.length;
      }
      index_.emplace(k, keys_.size());
      keys_.push_back(k);
      path_.insert(path_.end(), cur.begin(), cur.end());
      ++plays;
      if (!Reformed(cur.data(), nxt.data())) break;
      std::swap(cur, nxt);
    }
    const size_t m = keys_.size();
    if (m == 0) {
      // The start itself is known.
      Consider(start.data(), end);
      return plays + 1;
    }
    known_.assign(m, Known{});
    if (looped) {
      const uint32_t c = static_cast<uint32_t>(m - loop_at);
      for (size_t j = m; j-- > 0;)
        known_[j] = j >= loop_at ? Known{c, c} : Known{static_cast<uint32_t>(loop_at - j + c), c};
    } else if (end.length == 0) {
      for (size_t j = m; j-- > 0;) known_[j] = Known{static_cast<uint32_t>(m - j), 0};
    } else if (end.cycle > 0 && end.length == end.cycle) {
      // Met a deck of a cycle: the walk's last decks may be on it too.
      std::unordered_set<Key, KeyHash> on_cycle;
      std::vector<Card> x = cur, y(n_);
      for (uint32_t i = 1; i < end.cycle; ++i) {
        Reformed(x.data(), y.data());
        ++plays;
        std::swap(x, y);
        on_cycle.insert(KeyOf(x.data(), n_));
      }
      Known next = end;
      for (size_t j = m; j-- > 0;) {
        known_[j] = (next.length == end.cycle && on_cycle.count(keys_[j]))
                        ? end
                        : Known{next.length + 1, end.cycle};
        next = known_[j];
      }
    } else {
      for (size_t j = m; j-- > 0;)
        known_[j] = Known{end.length + static_cast<uint32_t>(m - j), end.cycle};
    }
    for (size_t j = 0; j < m; ++j) {
      memory_.Put(keys_[j], known_[j]);
      if (known_[j].length >= 2 || known_[j].cycle > 0)
        frontier_.Push(path_.data() + j * n_, known_[j]);
    }
    Consider(path_.data(), known_[0]);
    ++counters_.walks;
    counters_.walk_plays += plays;
    return plays;
  }

  // Rebuilds the predecessors of the frontier's best deck; each is one deck
  // longer. Returns the work done (1, plus the plays of a cycle check).
  uint64_t ExpandNext() {
    Deck x;
    Known k;
    frontier_.Pop(&x, &k);
    ++counters_.expanded;
    uint64_t work = 1;
    const WideDeck order(x.begin(), x.end());
    RebuildOptions ro;
    ro.max_decks = options_.max_predecessors;
    RebuildResult r;
    if (!Rebuild(spec_.game, static_cast<uint32_t>(spec_.ranks), static_cast<uint32_t>(spec_.suits),
                 order, ro, &r)
             .ok())
      return work;
    const bool on_cycle = k.cycle > 0 && k.length == k.cycle;
    Deck p(n_), y(n_), z(n_);
    for (const WideDeck& w : r.decks) {
      for (int i = 0; i < n_; ++i) p[i] = static_cast<Card>(w[i]);
      const Key key = KeyOf(p.data(), n_);
      if (memory_.Find(key)) continue;
      if (on_cycle) {
        // p is on the cycle when x, k.cycle - 1 reforms on, is p.
        y = x;
        for (uint32_t i = 1; i < k.cycle; ++i) {
          Reformed(y.data(), z.data());
          std::swap(y, z);
        }
        work += k.cycle - 1;
        if (y == p) {
          memory_.Put(key, k);
          continue;
        }
      }
      const Known pk{k.length + 1, k.cycle};
      memory_.Put(key, pk);
      frontier_.Push(p.data(), pk);
      Consider(p.data(), pk);
      ++counters_.predecessors;
    }
    return work;
  }

  const GameSpec spec_;
  const int n_;
  const BasinOptions options_;
  std::mt19937_64 rng_;
  internal::SequenceFollower follower_;
  Memory memory_;
  Frontier frontier_;
  Deck best_;
  ReformScore best_score_;
  Deck candidate_;
  ReformScore candidate_score_;
  bool pending_ = false;
  bool started_ = false;
  uint64_t since_verify_ = 0;
  uint64_t walks_ = 0, random_work_ = 0, descent_work_ = 0;
  BasinCounters counters_;
  // A walk's decks, their keys and what they lead to.
  std::vector<Card> path_;
  std::vector<Key> keys_;
  std::vector<Known> known_;
  std::unordered_map<Key, size_t, KeyHash> index_;
  Deck deck_;
};

}  // namespace

bool GetBasinCounters(const ReformMove& move, BasinCounters* counters) {
  const auto* basin = dynamic_cast<const BasinMove*>(&move);
  if (!basin) return false;
  *counters = basin->counters();
  return true;
}

std::unique_ptr<ReformMove> MakeBasinMove(const GameSpec& spec, uint64_t seed) {
  return MakeBasinMove(spec, seed, BasinOptions{});
}

std::unique_ptr<ReformMove> MakeBasinMove(const GameSpec& spec, uint64_t seed,
                                          const BasinOptions& options) {
  return std::make_unique<BasinMove>(spec, seed, options);
}

}  // namespace eulerdeck
