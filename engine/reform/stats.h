// Reform statistics over every deck of a size (Bersani 2010 §5; the
// Mousetrap contest, seed 001): how many decks can be reformed exactly k
// times, how many end on a cycle, the cycles by length, and the longest
// sequence, pre-period and cycle, each with an example deck.
//
// Only winning decks have a reformed deck, so every other deck is reformable
// 0 times and its sequence has one deck. The winning decks are streamed from
// the backward enumeration (engine/eulerian: CountOptions::on_winning_deck),
// not found among all n! decks, and each is followed forward: play it, play
// its reformed deck, and so on. Nearly every reformed deck loses at once, so
// the usual cost is two plays per winning deck; the rare long sequences are
// followed with Brent's cycle finding, which needs no memory of the decks met.
#ifndef EULERDECK_ENGINE_REFORM_STATS_H_
#define EULERDECK_ENGINE_REFORM_STATS_H_

#include <gmpxx.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/status.h"
#include "engine/cards/deck.h"
#include "engine/cards/game.h"
#include "engine/eulerian/subtrees.h"

namespace eulerdeck {

struct ReformStatsOptions {
  int threads = 0;  // 0: all cores
  // If set, polled by the enumeration: once true, ReformStats() returns
  // Cancelled.
  const std::atomic<bool>* stop = nullptr;
  // If set, progress: the subtrees of the enumeration, as in CountOptions.
  std::atomic<uint64_t>* tasks_done = nullptr;
  std::atomic<uint64_t>* tasks_total = nullptr;
};

// A deck and the length it stands for, the deck the smallest in
// lexicographic order among those of that length (so that the example does
// not depend on the threads).
struct ReformExample {
  uint64_t length = 0;
  Deck deck;
};

struct ReformStatsResult {
  mpz_class total_decks;
  uint64_t winning_decks = 0;
  // The decks reformable 0 times: the losing ones, total - winning (past
  // 2^64 for large decks).
  mpz_class unreformed;
  // reformable[k], k >= 1: the decks whose sequence ends on a dead-end after
  // exactly k reforms (k + 1 distinct decks); reformable[0] is 0 (see
  // unreformed).
  std::vector<uint64_t> reformable;
  // Decks whose sequence ends on a cycle (reformable for ever), and those of
  // them that lie on the cycle (pre-period 0).
  uint64_t cyclic_decks = 0;
  uint64_t decks_on_cycles = 0;
  // cyclic_sequences[L]: the cyclic decks whose sequence meets L distinct
  // decks (pre-period + cycle). Counting a cyclic deck as reformable L times
  // (the reforms before a deck repeats) is the OEIS's convention: A007712(2)
  // = 1 is the deck 1 2, which reforms to itself.
  std::map<uint64_t, uint64_t> cyclic_sequences;
  // cycles[L]: the distinct cycles of L decks.
  std::map<uint64_t, uint64_t> cycles;
  // The longest sequence (distinct decks met, the starting deck included),
  // the longest pre-period (decks before the cycle) and the longest cycle.
  ReformExample longest_sequence;
  // The longest sequence that ends on a cycle: the Mousetrap contest's best
  // entry when there is one (a cyclic entry beats any other, seed 001).
  ReformExample longest_cyclic_sequence;
  ReformExample longest_preperiod;
  ReformExample longest_cycle;

  // The decks reformable at least k times (k >= 1), cyclic decks included.
  uint64_t AtLeast(size_t k) const;
};

// The statistics of every deck of `spec` (mousetrap, modular or hlm; any
// size the enumeration takes). InvalidArgument / OutOfRange as Count();
// NotSupported for treize (nothing is reformed); Cancelled when *stop was
// set.
Status ReformStats(const GameSpec& spec, const ReformStatsOptions& options,
                   ReformStatsResult* result);

// The statistics of a part of the winning decks: what one thread or one
// batch of subtrees saw (the resumable reform-stats keeps one in each count
// record, storage/count/stored_reform_stats.h). Tallies of disjoint parts merge
// into the tally of their union, in any order.
class ReformTally final : public WinnerTally {
 public:
  explicit ReformTally(const GameSpec& spec);
  ~ReformTally() override;

  // Follows one winning deck's sequence, from its removal order (its
  // reformed deck, as the enumeration hands it: eulerian/winners.h).
  void Add(const Card* winning_deck, const Card* order) override;
  // The tally as a JSON document, for a count record.
  std::string Encode() const override;

  // Adds another tally (the same game), or one as Encode() wrote it
  // (Corruption when it cannot be read).
  void Merge(const ReformTally& other);
  Status Merge(std::string_view encoded);

  // The statistics of `spec` from the tally of all its winning decks:
  // Internal unless it followed exactly `winning_decks` (the count's).
  Status Finish(uint64_t winning_decks, ReformStatsResult* result) const;

 private:
  struct Rep;
  std::unique_ptr<Rep> rep_;
};

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_REFORM_STATS_H_
