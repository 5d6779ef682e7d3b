// Combinatorial Memory (Alfthan 2007 §3): Terminating Memory where the
// order in which the unseen cards will be opened is known to both players,
// so there is no chance left. Left moves first; the value of a position is
// (pairs Left collects) - (pairs Right collects) under optimal play.
//
// A move, as in Terminating Memory: a fully known pair on the board (left by
// the opponent's unlucky second card) is collected first (+1, go on). Then
// the next unseen card c is opened. If c's partner is known it is turned and
// collected (+1, go on). Otherwise the player turns either a known card
// (safe; only if one exists besides c) or the next unseen card d (risky): d
// matching c is collected (+1, go on); d matching an older known card leaves
// that pair fully known for the opponent; either way the turn then passes.
//
// Two methods: a direct negamax over this game tree, and the thesis's block
// reduction (§3.4-3.5): the order splits into heaps of first cards (a-cards)
// each followed by a run of p second cards (b-cards); a heap is a
// subtraction game (take 1 or 2) whose size mod 3 decides who collects the p
// pairs and leads the next heap: lead preserving (up p), lead shifting
// (down p) or choice of lead. Values combine right to left.
#ifndef EULERDECK_ENGINE_MEMORY_COMBINATORIAL_H_
#define EULERDECK_ENGINE_MEMORY_COMBINATORIAL_H_

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/base/status.h"

namespace eulerdeck {

// The opening order as pair numbers 0..P-1, each twice: the first occurrence
// is the a-card. Pairs are renumbered by first appearance.
struct CmOrder {
  std::vector<int> pair;
  int pairs() const { return static_cast<int>(pair.size() / 2); }
};

// Parses the thesis's notation "1a 2a 1b 3a 2b 3b" (pair number and a/b;
// each pair's a-card before its b-card, each card exactly once). Spaces or
// commas separate cards. InvalidArgument naming the first problem.
Status ParseCmOrder(const std::string& text, CmOrder* order);
std::string CmOrderString(const CmOrder& order);  // back to "1a 2a 1b ..."

// Value for the player to move first (Left - Right), by negamax over the
// game tree with the full state (next card, known single cards, pending
// known pair), memoised. Pairs <= 60.
int CmNegamax(const CmOrder& order);

enum class CmBlockType : char {
  kPreserving = 'P',  // the leader collects p and keeps the lead
  kShifting = 'S',    // the other player collects p and takes the lead
  kChoice = 'C',      // the leader chooses which of the two happens
};
struct CmBlock {
  CmBlockType type;
  int p;
  bool operator==(const CmBlock&) const = default;
};

// The thesis's decomposition into blocks. Two cases the thesis does not
// spell out are decided as follows (each confirmed by CmNegamax on random
// orders, tests/memory/two_player_test.cc): when no known card is on the
// board as a heap starts, its first two cards are a forced move, a block
// "down 0" of their own (a heap of one card there is followed by its own
// b-card: "up 1"); a heap of m >= 1 cards whose last card's partner opens
// the b-run counts as choice / shifting / preserving for m mod 3 = 1 / 2 / 0
// (the thesis gives m = 1: choice).
std::vector<CmBlock> CmBlocks(const CmOrder& order);

// The value of a block sequence for the player leading the first block:
// right to left from 0, up p: v = p + v; down p: v = -(p + v); choice:
// v = |p + v|.
int CmBlockValue(const std::vector<CmBlock>& blocks);

// "↓0 ↑1 ⇕4" (arrows as in the thesis; ⇕ for choice).
std::string CmBlocksString(const std::vector<CmBlock>& blocks);

// A position solved both ways. The two values must agree: the thesis's
// reduction is checked, not trusted.
struct CmSolution {
  int value = 0;                // CmNegamax: Left's pairs - Right's
  int left = 0, right = 0;      // the pairs each collects under optimal play
  std::vector<CmBlock> blocks;  // CmBlocks
  int block_value = 0;          // CmBlockValue(blocks)
  bool agree() const { return value == block_value; }
};
CmSolution CmSolve(const CmOrder& order);

// Solves `count` uniformly random orders of `pairs` pairs both ways. A PCG32
// generator seeded with `seed` shuffles the 2P cards (std::shuffle: the
// orders are reproducible for one standard library) for each order in turn,
// which is then renumbered by first appearance. InvalidArgument unless
// 1 <= pairs <= 60. Cancelled when options.stop was set: *check then holds
// the orders done, orders 0..check->orders-1 of the seed's stream, exactly
// what count = check->orders gives.
struct CmRandomCheck {
  uint64_t orders = 0;
  uint64_t agree = 0;              // orders on which the two values agree
  std::string first_disagreement;  // CmOrderString of the first other one; "" if none
};
struct CmRandomOptions {
  // If set, advanced (relaxed) by one for each order solved, for progress.
  std::atomic<uint64_t>* orders_done = nullptr;
  // If set, polled after each order: once true, the check stops there
  // (tools/common/interrupt.h sets it on Ctrl-C).
  const std::atomic<bool>* stop = nullptr;
};
Status CmCheckRandomOrders(int pairs, uint64_t count, uint64_t seed, CmRandomCheck* check,
                           const CmRandomOptions& options = {});

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_MEMORY_COMBINATORIAL_H_
