// The single implementation of forward play, shared by Play() and PlayQuick()
// (and, through them, by brute force, leaf verification and Monte Carlo).
// Internal to engine/: include only from engine/*.cc.
//
// A Recorder receives the events of one game:
//   void OnVisit(Card card, Card called);   // every count, if kWantVisits
//   void OnRemove(Card card);               // a hit: removed / stored
//   void OnBurn(const Card* a, uint32_t na, const Card* b, uint32_t nb);
//                                           // hlm: burned cards, a then b
//   static constexpr bool kWantVisits;
//   bool Stop();                            // after each removal or burn,
//   static constexpr bool kCanStop;         //   if kCanStop: abandon the game
// An abandoned game returns kLoss with the cards left in circle[0..*left),
// not rotated.
#ifndef EULERDECK_ENGINE_CARDS_RULES_CORE_H_
#define EULERDECK_ENGINE_CARDS_RULES_CORE_H_

#include <algorithm>
#include <cstring>

#include "engine/cards/game.h"
#include "engine/cards/rules.h"

namespace eulerdeck::internal {

// Rotates circle[0..r) so that it starts at the pointer p; returns r.
template <class C>
uint32_t Rotate(C* circle, uint32_t r, uint32_t p) {
  if constexpr (sizeof(C) == 1) {  // every deck of a GameSpec: a buffer on the stack
    Card tmp[kMaxCards];
    for (uint32_t i = 0; i < r; ++i) tmp[i] = circle[(p + i) % r];
    std::memcpy(circle, tmp, r);
  } else {
    std::rotate(circle, circle + p, circle + r);
  }
  return r;
}

// Plays the r cards in circle[0..r) (they are consumed: on return circle[0..r')
// holds the r' cards left, starting at the pointer). Returns how play stopped
// and sets *left to r'. Every rule comes from spec.policy() (game.h). A game
// that ends_on_burned_two (hlm) is won when every card but one was stored and
// the one burned is a 2: the same as reaching WinningScore() (Proposition 2.2
// of Bersani 2010), and it also recognises winning sub-decks of any size.
//
// C is the type of a card: Card for every deck of a GameSpec (at most
// kMaxCards), a wider integer for the decks of any size that rebuild.h
// checks; then spec.ranks may pass kMaxCards and the Recorder takes C.
template <class Recorder, class C = Card>
Outcome PlayCircle(const GameSpec& spec, C* circle, uint32_t r, uint32_t* left, Recorder& rec) {
  const GamePolicy& policy = spec.policy();
  const uint32_t m = static_cast<uint32_t>(spec.ranks);
  uint32_t p = 0;  // the pointer: next card to be counted
  uint32_t burned = 0;
  C last_burned = 0;
  while (r > 0) {
    const uint32_t limit = CountLimit(policy.span, m, r);
    // Walk the counts 1..limit; pos and the named value advance together, so
    // no division is needed inside the loop.
    uint32_t pos = p;
    C called = 1;
    uint32_t t = 1;
    if (!Recorder::kWantVisits && p + limit <= r && limit <= m) {
      // Neither the pointer nor the count wraps (most counts of hlm and
      // mousetrap): count t visits circle[p + t - 1] and names t.
      const C* run = circle + p;
      while (t <= limit && run[t - 1] != t) ++t;
      pos = p + t - 1;
    } else {
      for (; t <= limit; ++t) {
        const C card = circle[pos];
        if constexpr (Recorder::kWantVisits) rec.OnVisit(card, called);
        if (card == called) break;
        if (++pos == r) pos = 0;
        called = (called == m) ? 1 : called + 1;
      }
    }
    if (t <= limit) {  // a match at pos
      if (policy.on_match == OnMatch::kLose) {
        *left = Rotate(circle, r, p);
        return Outcome::kLoss;
      }
      // Remove it; counting restarts after it.
      rec.OnRemove(circle[pos]);
      std::memmove(circle + pos, circle + pos + 1, (r - pos - 1) * sizeof(C));
      --r;
      p = (pos == r) ? 0 : pos;
      if constexpr (Recorder::kCanStop) {
        if (r > 0 && rec.Stop()) {
          *left = r;
          return Outcome::kLoss;
        }
      }
      continue;
    }
    // No match within the limit: the policy's miss rule. Every rule but a
    // burn ends the game with the cards left from the pointer.
    if (policy.on_miss != OnMiss::kBurn) {
      *left = Rotate(circle, r, p);
      return policy.on_miss == OnMiss::kWin       ? Outcome::kWin
             : policy.on_miss == OnMiss::kDeadEnd ? Outcome::kDeadEnd
                                                  : Outcome::kLoss;
    }
    // Burn (hlm): the `limit` cards just counted are burned; keep the others in
    // circle order starting after them. Both are at most two runs of the
    // array (the circle wraps once), moved without a division per card.
    const uint32_t burn_first = std::min(limit, r - p);
    rec.OnBurn(circle + p, burn_first, circle, limit - burn_first);
    burned += limit;
    last_burned = circle[(p + limit - 1) % r];
    const uint32_t keep = r - limit;
    if constexpr (sizeof(C) == 1) {
      const uint32_t start = (p + limit) % r;
      Card tmp[kMaxCards];
      const uint32_t keep_first = std::min(keep, r - start);
      std::memcpy(tmp, circle + start, keep_first);
      std::memcpy(tmp + keep_first, circle, keep - keep_first);
      std::memcpy(circle, tmp, keep);
    } else {  // any size: no buffer on the stack
      std::rotate(circle, circle + p, circle + r);
      std::memmove(circle, circle + limit, keep * sizeof(C));
    }
    r = keep;
    p = 0;
    if constexpr (Recorder::kCanStop) {
      if (r > 0 && rec.Stop()) {
        *left = r;
        return Outcome::kLoss;
      }
    }
  }
  *left = 0;
  if (policy.ends_on_burned_two && !(burned == 1 && last_burned == 2)) {
    return Outcome::kLoss;
  }
  return Outcome::kWin;
}

}  // namespace eulerdeck::internal

#endif  // EULERDECK_ENGINE_CARDS_RULES_CORE_H_
