// The count below given sub-decks: the unit of work of the resumable and the
// distributed count (storage/count/stored_count.h). The tree of winning sub-decks
// is cut at a level d; every sub-deck of level d roots a subtree, named by
// its path (path.h), and a batch of them is counted here, per level. The sum
// over all batches of level d, plus the levels 1..d themselves, is exactly
// what Count() (enumerate.h) returns: the batches may be counted in any
// order, by any process, and interrupted batches simply counted again.
#ifndef EULERDECK_ENGINE_EULERIAN_SUBTREES_H_
#define EULERDECK_ENGINE_EULERIAN_SUBTREES_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/base/status.h"
#include "engine/cards/deck.h"
#include "engine/cards/game.h"
#include "engine/eulerian/winners.h"

namespace eulerdeck {

// Subtree sizes are kept as a histogram of log2: bucket b holds the subtrees
// of 2^b to 2^(b+1)-1 sub-decks (the root included). Enough to see how the
// cost is spread (for the scheduling and the scaling model) at 64 numbers a
// batch.
inline constexpr int kSizeBuckets = 64;
int SizeBucket(uint64_t sub_decks);

struct SubtreeCounts {
  // level[j], j = k+1..cards: the sub-decks of j cards below the batch's
  // roots (entries up to k are 0). Sized cards+1.
  std::vector<uint64_t> level;
  std::array<uint64_t, kSizeBuckets> sizes{};  // histogram of subtree sizes
  uint64_t subtrees = 0;
  double seconds = 0;  // wall time of the batch
  // What a WinnerTally made of the batch's winning decks (Encode()); empty
  // for a plain count. Not summed by Add(): only its owner can merge it.
  std::string tally;

  // Adds `other` (the same game): level counts, sizes, subtrees, seconds.
  // OutOfRange when a level would pass 2^64.
  Status Add(const SubtreeCounts& other);
};

// What a count computes from its winning decks beside the level counts (the
// reform statistics, engine/reform/stats.h): one per batch of subtrees, fed
// every winning deck below its roots, its text kept with the batch's counts.
class WinnerTally {
 public:
  virtual ~WinnerTally() = default;
  // A winning deck and its removal order (winners.h).
  virtual void Add(const Card* winning_deck, const Card* order) = 0;
  virtual std::string Encode() const = 0;
};

// Counts the subtrees below `entries` paths of k counts each, flattened at
// `paths` (entry i at paths + i*k), each a winning sub-deck of `spec` (1 <=
// k < cards; the caller took them from a level it enumerated, so they are
// not checked again). On up to `threads` threads (0: all cores). `counted`,
// if set, is advanced (relaxed) as sub-decks are counted, for a live rate.
// Cancelled when `stop` (if set) became true first: *out is then
// meaningless and the batch must be counted again. `on_winning_deck`, if set,
// is called with every winning deck below the roots and its removal order,
// from the threads that walk them.
Status CountSubtrees(const GameSpec& spec, const uint16_t* paths, size_t entries, int k,
                     int threads, const std::atomic<bool>* stop, std::atomic<uint64_t>* counted,
                     SubtreeCounts* out, const WinnerCallback* on_winning_deck = nullptr);

// A device that counts batches of subtrees beside the threads (the GPU
// worker, engine/gpu/gpu_worker.h): the resumable count hands it batches as
// to any worker (storage/count/stored_count.h). Not thread-safe: one batch
// at a time.
class SubtreeDevice {
 public:
  virtual ~SubtreeDevice() = default;
  // How many CPU threads the device stands for, for the size of its batches.
  virtual int thread_equivalent() const = 0;
  // What CountSubtrees() does, on the device (no tally; `threads` is the
  // device's own business).
  virtual Status CountBatch(const GameSpec& spec, const uint16_t* paths, size_t entries, int k,
                            const std::atomic<bool>* stop, std::atomic<uint64_t>* counted,
                            SubtreeCounts* out) = 0;
};

// The exact counts below one sub-deck at a time, on the calling thread: the
// partial enumeration under each sampled node of the estimator
// (engine/estimate/knuth.h). Not thread-safe: one per thread.
class SubtreeCounter {
 public:
  // REQUIRES: CheckEnumerable(spec).ok(). `stop`, if set, cuts a count
  // short within milliseconds once true (its counts are then partial).
  explicit SubtreeCounter(const GameSpec& spec, const std::atomic<bool>* stop = nullptr);
  ~SubtreeCounter();
  // level[j], j = k+1..cards, the sub-decks of j cards below `node`, a
  // winning sub-deck of k cards (1 <= k < cards); level[0..k] are 0.
  // False when the stop flag cut it short.
  bool Count(const Card* node, int k, std::vector<uint64_t>* level);

 private:
  struct Rep;
  std::unique_ptr<Rep> rep_;
};

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_EULERIAN_SUBTREES_H_
