#include "engine/cards/brute.h"

#include <tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "engine/base/parallel.h"
#include "engine/cards/combinatorics.h"
#include "engine/cards/deck.h"
#include "engine/cards/rules.h"

namespace eulerdeck {

namespace {

// Work is cut into tasks by fixing the first few cards; this many tasks per
// thread keeps both cores busy to the end without measurable overhead.
constexpr size_t kTasksPerThread = 64;

// Appends to `out` every distinct sequence of `length` cards drawn from
// `copies` (copies[v] = how many of value v are still available), in
// lexicographic order, each starting with `current`.
void Prefixes(std::vector<int>& copies, int length, Deck& current, std::vector<Deck>* out) {
  if (static_cast<int>(current.size()) == length) {
    out->push_back(current);
    return;
  }
  for (size_t v = 1; v < copies.size(); ++v) {
    if (copies[v] == 0) continue;
    --copies[v];
    current.push_back(static_cast<Card>(v));
    Prefixes(copies, length, current, out);
    current.pop_back();
    ++copies[v];
  }
}

// The shortest prefixes that give at least `want` tasks (or whole decks).
std::vector<Deck> SplitWork(const GameSpec& spec, size_t want) {
  std::vector<Deck> prefixes;
  for (int length = 0; length <= spec.cards(); ++length) {
    std::vector<int> copies(spec.ranks + 1, spec.suits);
    copies[0] = 0;
    Deck current;
    prefixes.clear();
    Prefixes(copies, length, current, &prefixes);
    if (prefixes.size() >= want) break;
  }
  return prefixes;
}

Status CheckSize(const GameSpec& spec, const BruteOptions& options) {
  Status s = ValidateSpec(spec);
  if (!s.ok()) return s;
  const auto total = TotalDecks64(spec);
  if (!total || *total > options.max_decks) {
    return Status::OutOfRange("brute force would play " + TotalDecks(spec).get_str() +
                              " decks, more than the limit of " +
                              std::to_string(options.max_decks) +
                              " (use the eulerian enumeration, or raise --max-decks)");
  }
  return Status::OK();
}

struct Tally : PlayHistogram {
  uint64_t outcomes[3] = {0, 0, 0};
};

// Decks played between two looks at the stop flag.
constexpr uint64_t kStopPollDecks = 1 << 16;

bool Stopped(const BruteOptions& options) {
  return options.stop && options.stop->load(std::memory_order_relaxed);
}

Status Interrupted(uint64_t done, uint64_t total, const char* unit) {
  char pct[32];
  std::snprintf(pct, sizeof(pct), "%.1f", total ? 100.0 * done / total : 0.0);
  return Status::Cancelled("interrupted after " + std::to_string(done) + " of " +
                           std::to_string(total) + " " + unit + " (" + pct + "%)");
}

}  // namespace

Status Brute(const GameSpec& spec, const BruteOptions& options, BruteResult* result) {
  Status s = CheckSize(spec, options);
  if (!s.ok()) return s;
  const int n = spec.cards();
  const std::vector<Deck> prefixes =
      SplitWork(spec, kTasksPerThread * EffectiveThreads(options.threads));

  tbb::enumerable_thread_specific<Tally> tallies([&] {
    Tally t;
    t.Reset(spec);
    return t;
  });
  std::atomic<uint64_t> played_all{0};
  std::atomic<bool> cancelled{false};
  ParallelFor(options.threads, prefixes.size(), [&](size_t task) {
    if (Stopped(options)) {
      cancelled.store(true);
      return;
    }
    Tally& tally = tallies.local();
    const Deck& prefix = prefixes[task];
    // The deck is prefix + every ordering of the cards the prefix leaves.
    std::vector<int> copies(spec.ranks + 1, spec.suits);
    for (Card c : prefix) --copies[c];
    Deck deck = prefix;
    for (int v = 1; v <= spec.ranks; ++v) deck.insert(deck.end(), copies[v], v);
    const auto rest = deck.begin() + static_cast<long>(prefix.size());
    uint64_t played = 0, reported = 0;
    do {
      const QuickResult r = PlayQuick(spec, deck.data(), n);
      ++tally.outcomes[static_cast<int>(r.outcome)];
      tally.Add(r.removed, r.score);
      if (++played % kStopPollDecks == 0) {
        if (options.decks_done) {
          options.decks_done->fetch_add(played - reported, std::memory_order_relaxed);
        }
        reported = played;
        if (Stopped(options)) {
          cancelled.store(true);
          break;
        }
      }
    } while (std::next_permutation(rest, deck.end()));
    if (options.decks_done) {
      options.decks_done->fetch_add(played - reported, std::memory_order_relaxed);
    }
    played_all.fetch_add(played, std::memory_order_relaxed);
  });
  if (cancelled.load()) return Interrupted(played_all.load(), *TotalDecks64(spec), "decks");

  *result = BruteResult();
  result->Reset(spec);
  for (const Tally& t : tallies) {
    for (int i = 0; i < 3; ++i) result->outcomes[i] += t.outcomes[i];
    result->Merge(t);
  }
  // Trim the scores no deck reaches (e.g. above hlm's perfect score).
  while (result->score.size() > 1 && result->score.back() == 0) result->score.pop_back();
  for (uint64_t c : result->outcomes) result->total_decks += c;
  result->winning_decks = result->outcomes[static_cast<int>(Outcome::kWin)];
  return Status::OK();
}

namespace {

// Depth-first over all sequences that extend `seq` (values used at most
// `suits` times), counting the winning ones by length into level[].
void CountSubDecks(const GameSpec& spec, std::vector<int>& copies, Deck& seq,
                   std::vector<uint64_t>& level) {
  if (!seq.empty()) {
    const int k = static_cast<int>(seq.size());
    if (PlayQuick(spec, seq.data(), k).outcome == Outcome::kWin) ++level[k];
  }
  if (static_cast<int>(seq.size()) == spec.cards()) return;
  for (int v = 1; v <= spec.ranks; ++v) {
    if (copies[v] == 0) continue;
    --copies[v];
    seq.push_back(static_cast<Card>(v));
    CountSubDecks(spec, copies, seq, level);
    seq.pop_back();
    ++copies[v];
  }
}

}  // namespace

Status BruteLevels(const GameSpec& spec, const BruteOptions& options,
                   std::vector<uint64_t>* level) {
  Status s = CheckSize(spec, options);
  if (!s.ok()) return s;
  const int n = spec.cards();
  const std::vector<Deck> prefixes =
      SplitWork(spec, kTasksPerThread * EffectiveThreads(options.threads));
  const int split = prefixes.empty() ? 0 : static_cast<int>(prefixes[0].size());

  tbb::enumerable_thread_specific<std::vector<uint64_t>> counts(std::vector<uint64_t>(n + 1, 0));
  std::atomic<uint64_t> tasks_done{0};
  ParallelFor(options.threads, prefixes.size(), [&](size_t task) {
    if (Stopped(options)) return;
    std::vector<uint64_t>& local = counts.local();
    std::vector<int> copies(spec.ranks + 1, spec.suits);
    for (Card c : prefixes[task]) --copies[c];
    Deck seq = prefixes[task];
    CountSubDecks(spec, copies, seq, local);
    tasks_done.fetch_add(1, std::memory_order_relaxed);
  });
  if (tasks_done.load() < prefixes.size()) {
    return Interrupted(tasks_done.load(), prefixes.size(), "tasks");
  }
  level->assign(n + 1, 0);
  for (const auto& local : counts) {
    for (int k = 0; k <= n; ++k) (*level)[k] += local[k];
  }
  // Sequences shorter than the split were not visited by any task.
  for (int k = 1; k < split; ++k) {
    std::vector<Deck> shorter;
    std::vector<int> copies(spec.ranks + 1, spec.suits);
    copies[0] = 0;
    Deck current;
    Prefixes(copies, k, current, &shorter);
    for (const Deck& d : shorter) {
      if (PlayQuick(spec, d.data(), k).outcome == Outcome::kWin) ++(*level)[k];
    }
  }
  return Status::OK();
}

}  // namespace eulerdeck
