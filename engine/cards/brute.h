// Forward brute force: play every distinct deck once. The reference that every
// faster method is checked against, so it is kept simple: multiset
// permutations in lexicographic order (std::next_permutation), each played by
// the rules module. Parallel over fixed prefixes, balanced by oneTBB.
#ifndef EULERDECK_ENGINE_CARDS_BRUTE_H_
#define EULERDECK_ENGINE_CARDS_BRUTE_H_

#include <atomic>
#include <cstdint>
#include <vector>

#include "engine/base/status.h"
#include "engine/cards/game.h"
#include "engine/cards/histogram.h"

namespace eulerdeck {

struct BruteOptions {
  int threads = 0;  // 0: all cores
  // Refuse (OutOfRange) when there are more decks than this: brute force
  // plays about 10^8 decks per second per core at best.
  uint64_t max_decks = 1'000'000'000'000ULL;
  // If set, incremented (relaxed) as decks are played, for progress display.
  std::atomic<uint64_t>* decks_done = nullptr;
  // If set, polled every 65536 decks and between tasks: once true the
  // workers stop and Brute() / BruteLevels() return Cancelled (e.g. a signal,
  // tools/common/interrupt.h).
  const std::atomic<bool>* stop = nullptr;
};

// The removed/score distributions (histogram.h; score trimmed after the
// highest score reached) and the totals.
struct BruteResult : PlayHistogram {
  uint64_t total_decks = 0;
  uint64_t winning_decks = 0;
  uint64_t outcomes[3] = {0, 0, 0};  // indexed by Outcome
};

// Plays all TotalDecks(spec) decks. InvalidArgument for a bad spec,
// OutOfRange when there are more than options.max_decks decks, Cancelled when
// options.stop was set before the end: the message says how far it got
// ("interrupted after 123456 of 1000000 decks (12.3%)") and *result is
// incomplete (a lexicographic part of the decks is no sample of them).
Status Brute(const GameSpec& spec, const BruteOptions& options, BruteResult* result);

// Winning sub-decks of every size, by brute force: level[k] (k = 1..n) is the
// number of sequences of k cards, each value 1..ranks used at most `suits`
// times, that win when played alone under spec's rules (hlm: all stored but a
// final 2). level[n] is the number of winning decks; level[0] is 0. These are
// the frontier sizes of the backward enumeration (issue 3). Same limits
// (Cancelled polled between tasks only).
Status BruteLevels(const GameSpec& spec, const BruteOptions& options, std::vector<uint64_t>* level);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_CARDS_BRUTE_H_
