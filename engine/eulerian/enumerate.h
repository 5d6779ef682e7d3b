// Exact counts of winning decks by the backward ("eulerian") enumeration of
// Bersani 2010 §4-5, generalised to the three games and any number of suits: the
// tree of winning sub-decks of children.h, walked depth first on all cores.
#ifndef EULERDECK_ENGINE_EULERIAN_ENUMERATE_H_
#define EULERDECK_ENGINE_EULERIAN_ENUMERATE_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "engine/base/status.h"
#include "engine/cards/deck.h"
#include "engine/cards/game.h"
#include "engine/eulerian/winners.h"

namespace eulerdeck {

struct CountOptions {
  int threads = 0;  // 0: all cores
  // Build every winning deck and replay it forward with the rules module;
  // any deck that does not win makes Count() fail with Corruption.
  bool verify_leaves = false;
  // If set, called with every winning deck (its n cards) and its removal
  // order (winners.h), from the worker threads at once (the callee keeps
  // per-thread state): a statistic of the winning decks streamed from the
  // enumeration (engine/reform/). Like verify_leaves it builds the last
  // level instead of counting it, which costs far more than the count alone.
  WinnerCallback on_winning_deck;
  // If set, Count() stores the number of subtrees it split the work into in
  // *tasks_total before it starts them, and advances *tasks_done as each
  // finishes (relaxed), for progress display.
  std::atomic<uint64_t>* tasks_total = nullptr;
  std::atomic<uint64_t>* tasks_done = nullptr;
  // If set, Count() keeps *sub_decks_counted at the number of sub-decks
  // counted so far (relaxed, updated every few milliseconds per thread): a
  // live rate even when single subtrees take minutes.
  std::atomic<uint64_t>* sub_decks_counted = nullptr;
  // If set, polled between the levels of the breadth first start, between
  // subtrees and every few milliseconds inside them: once true, the walks
  // stop and Count() returns Cancelled (e.g. a signal,
  // tools/common/interrupt.h), within milliseconds.
  const std::atomic<bool>* stop = nullptr;
};

struct CountResult {
  // level[k], k = 1..n: winning sub-decks of k cards (level[0] = 0). level[n]
  // is the number of winning decks.
  std::vector<uint64_t> level;
  uint64_t nodes = 0;            // sub-decks visited: the sum of all levels
  uint64_t leaves_verified = 0;  // decks replayed by verify_leaves

  uint64_t winning() const { return level.empty() ? 0 : level.back(); }
};

// Counts the winning decks of `spec`. InvalidArgument / OutOfRange for specs
// the enumerator cannot take (CheckEnumerable), Corruption when a verified
// leaf does not win, Cancelled when options.stop was set before the end: the
// message says how far it got ("interrupted after 1234 of 5000 subtrees
// (24.7%)") and *result is incomplete (a count cannot be resumed).
Status Count(const GameSpec& spec, const CountOptions& options, CountResult* result);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_EULERIAN_ENUMERATE_H_
