// Cayley's question in full: how many decks remove exactly i cards, for every
// i = 0..n (OEIS A028305 for mousetrap with one suit; its column 0 is the
// derangements A000166, column 1 is A007710, column n is A007709).
//
// Brute force plays every deck; this plays every *history* instead. A deck
// is dealt lazily: a card's value is fixed only when the count removes it
// (the count names it), and every count that passes a card without a match
// only rules one value out for that position. So play runs on a circle of
// positions, each with the set of values it may still hold, and branches at
// each count into "this card is the value named" (removed) and "it is not".
// When the play stops (mousetrap: the count passed the ranks; modular: a
// dead-end; hlm: the circle is empty, every card stored or burned) the
// positions still unknown may be filled in any way that respects their
// sets: that number is a permanent of a 0/1 matrix with repeated columns
// (a rook-polynomial count), computed by a subset dynamic programme, and it
// is the number of decks with this history. Summing over histories, grouped
// by how many cards they removed, gives the distribution.
//
// The future of a play depends only on the sets of the cards on the circle
// (from the pointer), the sets of the burned cards (hlm) and the values not
// yet removed, so the distribution below each such state is memoised: deep
// in the play, where few cards are left, very many histories share a state
// (this is the sharing the backward tree of engine/eulerian exploits for
// the winning decks, here for every outcome at once).
#ifndef EULERDECK_ENGINE_REMOVAL_REMOVED_H_
#define EULERDECK_ENGINE_REMOVAL_REMOVED_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/base/status.h"
#include "engine/cards/game.h"

namespace eulerdeck {

struct RemovedOptions {
  int threads = 0;  // 0: all cores
  // Memo entries kept at most, all threads together (each about 150
  // bytes); past it new states are computed but not remembered.
  uint64_t memo_entries = 20'000'000;
  // How many removals deep the play is split into tasks (0: 3, fewer for
  // small decks). Another depth is another split of the same sum: a
  // second, independent run of a record.
  int split_depth = 0;
  // The one-suit solver as it was before issue 43 (every count stepped
  // through, leaves of 3 cards): the benchmark's baseline, and a second
  // path for the tests. The memo method ignores it.
  bool baseline = false;
  // The one-suit solver: plays of 5 and of 4 cards gathered per level and
  // thread before they are counted (0: 2^17; 8 bytes each). Tests make it
  // small; any value gives the same rows.
  uint64_t level_entries = 0;
  // If set, polled between tasks: once true, CountRemoved() returns
  // Cancelled.
  const std::atomic<bool>* stop = nullptr;
  // If set, incremented (relaxed) as top-level tasks finish, and set to
  // their number once the play is split (progress).
  std::atomic<uint64_t>* tasks_done = nullptr;
  std::atomic<uint64_t>* tasks_total = nullptr;
};

struct RemovedResult {
  // removed[i]: distinct decks that remove (hlm: store) exactly i cards,
  // i = 0..n. Sums to TotalDecks(spec).
  std::vector<uint64_t> removed;
  uint64_t total_decks = 0;
  // How it was computed: "leaf-table" (one suit, mousetrap and modular:
  // one_suit.h; "leaf-table-baseline" with options.baseline) or "memo" (every other case: each play
  // state's distribution remembered).
  const char* method = "";
  uint64_t tasks = 0;      // plays a few removals deep the work was split into
  uint64_t states = 0;     // memo: play states solved; leaf-table: leaf entries filled
  uint64_t memo_hits = 0;  // memo: play states answered from the memo
};

// The play cut into tasks, for a count that hands them out itself (the
// resumable count, storage/count/stored_removed.h; MPI ranks): the decks
// whose play ends above the cut, and the states at the cut, identical
// states merged, each with its multiplicity. A plan of the same spec and
// split depth always holds the same tasks in the same order (fingerprint()
// tells one plan from another, so that a store refuses to resume with
// different tasks), and its tasks' sums, added to top(), are CountRemoved().
class RemovedPlan {
 public:
  virtual ~RemovedPlan() = default;
  virtual const GameSpec& spec() const = 0;
  virtual int split_depth() const = 0;     // as used: options.split_depth or the default
  virtual const char* method() const = 0;  // as RemovedResult::method
  // removed[i] (i = 0..n) of the plays that end above the cut.
  virtual const std::vector<uint64_t>& top() const = 0;
  virtual uint64_t tasks() const = 0;
  // A hash of the cut: the spec, the depth, every task's state and
  // multiplicity, in order.
  virtual uint64_t fingerprint() const = 0;
  // Adds to (*removed)[i] (resized to n + 1 if smaller) the decks below
  // tasks [first, first + count) that remove i cards in all, each task
  // counted with its multiplicity. Callable from several threads at once
  // (each call on one thread). Cancelled when `stop` became true between
  // two tasks: *removed is then partly added to, and to be discarded.
  // OutOfRange for tasks past the last.
  virtual Status CountTasks(uint64_t first, uint64_t count, std::vector<uint64_t>* removed,
                            const std::atomic<bool>* stop = nullptr) const = 0;
  // How many tasks one call may take to share work between them (the
  // one-suit solver counts the last levels of a range of tasks together); 1
  // when a range costs the sum of its tasks. A hint: any range gives the
  // same sum.
  virtual uint64_t batch_tasks() const { return 1; }
  // The order in which a count of the whole plan (CountRemoved()) takes the
  // tasks, batch_tasks() at a time, through CountTaskList(): neighbours in
  // it share more work than neighbours by index. Empty: by index, in ranges.
  virtual const std::vector<uint64_t>& batch_order() const {
    static const std::vector<uint64_t> none;
    return none;
  }
  // As CountTasks() for the `count` tasks listed (each a valid index).
  virtual Status CountTaskList(const uint64_t* tasks, uint64_t count,
                               std::vector<uint64_t>* removed,
                               const std::atomic<bool>* stop = nullptr) const {
    for (uint64_t i = 0; i < count; ++i) {
      if (Status s = CountTasks(tasks[i], 1, removed, stop); !s.ok()) return s;
    }
    return Status::OK();
  }
  // Solver statistics so far, all calls together (RemovedResult's states
  // and memo_hits).
  virtual uint64_t states() const = 0;
  virtual uint64_t memo_hits() const = 0;
};

// Cuts spec's play into tasks (options.split_depth; options.memo_entries
// for the memo method; threads, stop and the progress counters unused).
// Errors as CountRemoved().
Status PlanRemoved(const GameSpec& spec, const RemovedOptions& options,
                   std::unique_ptr<RemovedPlan>* plan);

// The distribution of spec's decks by cards removed (hlm: stored).
// InvalidArgument for a bad spec; NotSupported for a game that removes no
// card (treize); OutOfRange when the deck count passes 2^64 or a card has
// more than 64 values; Cancelled when options.stop was set.
Status CountRemoved(const GameSpec& spec, const RemovedOptions& options, RemovedResult* result);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_REMOVAL_REMOVED_H_
