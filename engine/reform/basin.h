// The basin descent, a move of the reform search (move.h): a memory of the
// decks met with their sequence (length into a cycle or a dead end), fed by
// random decks followed forward, and a deepest-first descent of the in-trees
// of the cycles found.
//
// - Random decks (half of them with 1 on top: every long modular sequence
//   known stays among such decks) are followed forward until they lose,
//   repeat, or meet a deck of the memory: their length is then known
//   without following the rest, so a random deck costs its distance to
//   known territory. Every deck of the walk goes into the memory and, when
//   it wins, into the frontier.
// - The frontier holds decks whose predecessors (Rebuild(),
//   engine/eulerian/rebuild.h; modular decks may have several) are not yet
//   rebuilt, best first by the contest's order (cyclic, then longer). The
//   descent always expands the deepest one: its predecessors are one deck
//   longer. So it climbs a new branch as soon as it rises above the rest,
//   and otherwise combs the side branches of the known trunks from their
//   top down.
// - Scores are exact: the memory keys decks exactly up to 25 cards (5 bits
//   a card), by a 128-bit hash beyond; a deck entering a cycle is checked
//   against the cycle's decks; and the best deck is followed again
//   (SequenceFollower) before it is reported as the best, with its replayed
//   score: at the end of a Step() once the work since the last replay is 8
//   times the replay's (3 plays a deck), so that replays take at most 1/9
//   of the work while the best keeps rising (the best reported may lag the
//   memory's by that much).
//
// Memory: the deck memory is a 4-way set-associative table of 24-byte
// entries that grows by doubling up to BasinOptions::memory_bytes; once full
// a new deck replaces the shortest of its set (or is dropped when it is
// shorter than all four). The frontier keeps at most
// BasinOptions::max_frontier decks (n + 4 bytes each), dropping the
// shortest. A walk's path is bounded too (kMaxPath decks; longer sequences
// are scored by SequenceFollower without memory). At the defaults: 512 MiB
// + 2^22 decks (~120 MB at 25 cards) + the path.
//
// Internal to engine/reform.
#ifndef EULERDECK_ENGINE_REFORM_BASIN_H_
#define EULERDECK_ENGINE_REFORM_BASIN_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "engine/cards/game.h"
#include "engine/reform/move.h"

namespace eulerdeck {

struct BasinOptions {
  size_t memory_bytes = size_t{512} << 20;  // the deck memory's bound
  size_t max_frontier = size_t{1} << 22;    // decks
  uint64_t max_predecessors = 4096;         // asked of Rebuild() per deck
  // The share of the work (in 1/16) given to random decks while the
  // frontier is not empty (all of it when it is). At n = 17, 60 s: 4 gave
  // 39,085, 8 gave 39,297, 12 gave 39,404 (seed 1): the walks, stopped by
  // the memory, are what finds the high entries into the trunk.
  int random_sixteenths = 12;
};

// What a basin move has done so far (for reports and tests).
struct BasinCounters {
  uint64_t walks = 0;         // decks walked forward (random and seeded)
  uint64_t walk_plays = 0;    // plays made by the walks
  uint64_t expanded = 0;      // decks whose predecessors were rebuilt
  uint64_t predecessors = 0;  // new decks those rebuilds gave
  uint64_t verify_plays = 0;  // plays spent replaying best decks
  uint64_t mismatches = 0;    // replays that disagreed with the memory (0!)
  uint64_t memory_decks = 0;  // decks in the memory now
  uint64_t memory_bytes = 0;  // its size now
  uint64_t frontier = 0;      // decks in the frontier now
};

std::unique_ptr<ReformMove> MakeBasinMove(const GameSpec& spec, uint64_t seed);
std::unique_ptr<ReformMove> MakeBasinMove(const GameSpec& spec, uint64_t seed,
                                          const BasinOptions& options);

// The counters of a move made by MakeBasinMove(); false for another move.
bool GetBasinCounters(const ReformMove& move, BasinCounters* counters);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_REFORM_BASIN_H_
