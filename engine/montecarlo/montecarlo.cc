#include "engine/montecarlo/montecarlo.h"

#include <cmath>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "engine/base/parallel.h"
#include "engine/base/shuffle.h"
#include "engine/cards/rules_core.h"

namespace eulerdeck {

namespace {

// Decks per task: large enough to hide scheduling, small enough to balance.
constexpr uint64_t kChunk = kMcChunk;

// Counts removals and score; in best-only mode stops a game that can no
// longer beat (nor tie) the best score or removal count seen.
struct McRecorder {
  static constexpr bool kWantVisits = false;
  static constexpr bool kCanStop = true;
  uint32_t removed = 0, score = 0, left_sum = 0, left_cards = 0;
  bool best_only = false;
  int bar_score = 0, bar_removed = 0;  // the bests to reach (ties kept)
  void OnVisit(Card, Card) {}
  void OnRemove(Card card) {
    ++removed;
    score += card;
    left_sum -= card;
    --left_cards;
  }
  void OnBurn(const Card* a, uint32_t na, const Card* b, uint32_t nb) {
    for (uint32_t i = 0; i < na; ++i) left_sum -= a[i];
    for (uint32_t i = 0; i < nb; ++i) left_sum -= b[i];
    left_cards -= na + nb;
  }
  bool Stop() const {
    return best_only && static_cast<int>(score + left_sum) < bar_score &&
           static_cast<int>(removed + left_cards) < bar_removed;
  }
};

}  // namespace

void McTally::Merge(const McTally& o) {
  decks += o.decks;
  wins += o.wins;
  for (int i = 0; i < 3; ++i) outcomes[i] += o.outcomes[i];
  PlayHistogram::Merge(o);
  if (o.best_score > best_score ||
      (o.best_score == best_score && o.best_score_index < best_score_index)) {
    best_score = o.best_score;
    best_score_index = o.best_score_index;
    best_score_deck = o.best_score_deck;
  }
  if (o.best_removed > best_removed ||
      (o.best_removed == best_removed && o.best_removed_index < best_removed_index)) {
    best_removed = o.best_removed;
    best_removed_index = o.best_removed_index;
    best_removed_deck = o.best_removed_deck;
  }
}

Status MonteCarlo(const GameSpec& spec, uint64_t first, uint64_t count, const McOptions& options,
                  McTally* tally) {
  Status s = ValidateSpec(spec);
  if (!s.ok()) return s;
  const int n = spec.cards();
  const Deck sorted = SortedDeck(spec);
  const uint32_t total_sum = static_cast<uint32_t>(TotalValue(spec));
  const DeckShuffler shuffler(options.seed);
  // The bests so far, shared for best-only pruning. Reading a stale value
  // only prunes less; ties are never pruned, so the result is deterministic.
  std::atomic<int> bar_score{tally->best_score}, bar_removed{tally->best_removed};

  // Plays the decks of chunk c into t.
  auto play_chunk = [&](uint64_t c, McTally& t) {
    const uint64_t begin = first + c * kChunk;
    const uint64_t end = std::min(first + count, begin + kChunk);
    Card circle[kMaxCards];
    // The deck of index i is regenerated (shuffle.h) only when it is a new
    // best, so each game copies the sorted deck once and shuffles in place.
    auto deck_of = [&](uint64_t i) {
      Deck d(sorted);
      shuffler.Shuffle(i, d.data(), n);
      return d;
    };
    for (uint64_t i = begin; i < end; ++i) {
      std::memcpy(circle, sorted.data(), n);
      shuffler.Shuffle(i, circle, n);
      McRecorder rec;
      rec.left_sum = total_sum;
      rec.left_cards = static_cast<uint32_t>(n);
      rec.best_only = options.best_only;
      rec.bar_score = bar_score.load(std::memory_order_relaxed);
      rec.bar_removed = bar_removed.load(std::memory_order_relaxed);
      uint32_t left = 0;
      const Outcome outcome =
          internal::PlayCircle(spec, circle, static_cast<uint32_t>(n), &left, rec);
      ++t.decks;
      if (!options.best_only) {
        t.wins += outcome == Outcome::kWin;
        ++t.outcomes[static_cast<int>(outcome)];
        t.Add(rec.removed, rec.score);
      }
      // A new best (or the same best from a lower index) is recorded with its
      // deck, and raised in the shared bar that best-only pruning reads.
      auto record = [&](int value, int& best, uint64_t& index, Deck& deck, std::atomic<int>& bar) {
        if (value < best || (value == best && i >= index)) return;
        best = value;
        index = i;
        deck = deck_of(i);
        int seen = bar.load(std::memory_order_relaxed);
        while (value > seen && !bar.compare_exchange_weak(seen, value)) {
        }
      };
      record(static_cast<int>(rec.score), t.best_score, t.best_score_index, t.best_score_deck,
             bar_score);
      record(static_cast<int>(rec.removed), t.best_removed, t.best_removed_index,
             t.best_removed_deck, bar_removed);
    }
    if (options.decks_done) options.decks_done->fetch_add(end - begin, std::memory_order_relaxed);
  };

  // One worker per thread takes the chunks in index order from a shared
  // counter, looking at the stop flag before taking one; a chunk taken is
  // played to its end. So the chunks played are always 0..taken-1, whatever
  // the threads did: a stopped run is the same as a shorter one.
  const uint64_t chunks = (count + kChunk - 1) / kChunk;
  const size_t workers = static_cast<size_t>(
      std::min<uint64_t>(static_cast<uint64_t>(EffectiveThreads(options.threads)), chunks));
  std::atomic<uint64_t> next_chunk{0};
  std::vector<McTally> locals(workers);
  ParallelFor(options.threads, workers, [&](size_t w) {
    McTally& t = locals[w];
    t.Reset(spec);
    for (;;) {
      if (options.stop && options.stop->load(std::memory_order_relaxed)) return;
      const uint64_t c = next_chunk.fetch_add(1, std::memory_order_relaxed);
      if (c >= chunks) return;
      play_chunk(c, t);
    }
  });
  if (tally->removed.empty()) tally->Reset(spec);
  uint64_t played = 0;
  for (const McTally& t : locals) {
    played += t.decks;
    tally->Merge(t);
  }
  if (played < count) {
    return Status::Cancelled("interrupted after " + std::to_string(played) + " of " +
                             std::to_string(count) + " decks");
  }
  return Status::OK();
}

}  // namespace eulerdeck
