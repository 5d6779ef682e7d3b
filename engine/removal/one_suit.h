// The removed-cards distribution for one suit of a game that stops when a
// count finds nothing (mousetrap, modular): the case of OEIS A028305, sized
// for n = 14..17. Internal to engine/removal (removed.cc dispatches to it).
//
// The same lazy deal as removed.cc's general solver, with what one suit
// allows: a position's possible values and the values left are bit masks of
// one machine word; nothing is allocated inside the search; and instead of
// a memo of every state (too many to keep past n = 13) the plays with
// kLeafCards cards left are answered from a table filled on first use, one
// entry per (set of values left, possible values of each position): the
// distribution of those few cards, found by playing every completion with
// the rules module. Above the leaves, states rarely repeat, so they are
// walked afresh.
#ifndef EULERDECK_ENGINE_REMOVAL_ONE_SUIT_H_
#define EULERDECK_ENGINE_REMOVAL_ONE_SUIT_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/base/status.h"
#include "engine/cards/deck.h"
#include "engine/cards/game.h"
#include "engine/removal/removed.h"

namespace eulerdeck::internal {

// REQUIRES: spec.suits == 1, no burns (policy().on_miss != kBurn),
// kLeafCards < spec.ranks <= 32, ValidateSpec(spec).ok(). With `fixed`
// (one entry per position, 0: free), only the decks holding those values
// at those positions are counted (first_win.h); the distribution then sums
// to their number, not to n!.
Status CountRemovedOneSuit(const GameSpec& spec, const RemovedOptions& options,
                           RemovedResult* result, const std::vector<Card>* fixed = nullptr);
// The same cut into tasks (removed.h's RemovedPlan), under the same
// requirements.
Status PlanRemovedOneSuit(const GameSpec& spec, const RemovedOptions& options,
                          std::unique_ptr<RemovedPlan>* plan,
                          const std::vector<Card>* fixed = nullptr);

// Counts every task of `plan` on options.threads threads (stop, progress
// counters) and adds top(): result->removed, tasks, states, memo_hits, method
// (removed.cc). Cancelled as CountRemoved().
Status RunPlan(const RemovedPlan& plan, const RemovedOptions& options, RemovedResult* result);

// OutOfRange unless tasks [first, first + count) are among `total`
// (RemovedPlan::CountTasks()).
inline Status CheckTaskRange(uint64_t first, uint64_t count, uint64_t total) {
  if (first <= total && count <= total - first) return Status::OK();
  return Status::OutOfRange("tasks " + std::to_string(first) + ".." +
                            std::to_string(first + count) + " of " + std::to_string(total));
}

// FNV-1a, 64 bits, continued from `h`: the plans' fingerprints.
inline uint64_t HashBytes(uint64_t h, const void* data, size_t size) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < size; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}
inline constexpr uint64_t kHashSeed = 0xcbf29ce484222325ull;

inline constexpr int kLeafCards = 3;
// The plays of kBigLeafCards cards are answered from a second table; those
// of kBigLeafCards..kSyncTop cards are counted level by level: gathered
// over a range of tasks as words (a key of the play in the low bits, its
// multiplicity above them), sorted by key, and each distinct key counted
// once with the sum of its multiplicities.
inline constexpr int kBigLeafCards = 4;
inline constexpr int kSyncTop = 5;

// Sorts `a` by the low `key_bits` bits of its words (1 <= key_bits <= 44):
// afterwards the keys do not decrease, so entries of equal key are adjacent,
// whatever the bits above the key hold. Not stable. `tmp` is scratch; the
// result is in `a` (the two may have been swapped).
void SortByKey(std::vector<uint64_t>& a, std::vector<uint64_t>& tmp, int key_bits);

// For a plan of PlanRemovedOneSuit() counted level by level: element r is
// how many plays of r cards (kBigLeafCards..kSyncTop) its calls have counted
// one by one (a distinct key of a gathered level, or a play whose
// multiplicity did not fit beside its key), all threads together, read
// once no call is running. Zeros for any other plan.
std::vector<uint64_t> SyncPlays(const RemovedPlan& plan);

// The ways to give r positions r distinct values, position p one of the
// values set in masks[p] (bit j: the j-th value; masks[p] < 2^r): the
// permanent of their 0/1 matrix, as the level-by-level solver counts the
// decks completing a play that stops with r cards (1 <= r <= 20: exact
// while the permanent is below 2^64, as r! is up to 20; the layered
// programme's tables take 2^r words).
uint64_t StoppedCompletions(const uint32_t* masks, int r);

}  // namespace eulerdeck::internal

#endif  // EULERDECK_ENGINE_REMOVAL_ONE_SUIT_H_
