// The chain move of the reform search (move.h) for mousetrap: a depth-first
// walk of the backward tree of winning decks (engine/eulerian/children.h),
// every winning deck P it builds met with its reformed deck Y = its removal
// order for free, and a chain grown from P only where Y wins too (about one
// leaf in a few hundred): forwards by play from Y, backwards by Rebuild()
// from P (the reform map is an injection: one predecessor at most).
//
// What the exhaustive statistics show (n = 10..16): the reform map behaves
// like a random injection as to which of its images win (a winning deck's
// reformed deck wins with about the probability of any deck of its kind),
// except that a deck with 1 on top reforms to a deck with 1 on top, and
// those win about 1.6 times as often as other decks (n = 13: 0.76% against
// 0.46%). So the longest chains (from n = 11 or so) are chains of decks
// with 1 on top, and the walk spends most of its work on the subtree of
// those: the sub-decks of the values 2..n, with 1 put back last at count 1.
// The rest of the tree (the decks without 1 on top) gets a small share, for
// the small sizes where the best chain does not start with 1 (n = 8).
//
// The walk visits each node's children in a random order (seeded). Up to
// 16 cards it walks the whole tree, so a long enough run meets every
// winning deck; past that it walks subtrees hung from random nodes a fixed
// number of levels above the decks, one after another.
//
// Internal to engine/reform.
#ifndef EULERDECK_ENGINE_REFORM_CHAINS_H_
#define EULERDECK_ENGINE_REFORM_CHAINS_H_

#include <cstdint>
#include <memory>

#include "engine/cards/game.h"
#include "engine/reform/move.h"

namespace eulerdeck {

// Mousetrap, one suit, 2..62 cards (counts in one word). Step() counts
// a unit for each winning deck built and each predecessor rebuilt.
std::unique_ptr<ReformMove> MakeChainMove(const GameSpec& spec, uint64_t seed);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_REFORM_CHAINS_H_
