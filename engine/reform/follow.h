// Following one deck's reform sequence without remembering it: Brent's
// cycle finding over the decks, two buffers and no allocation per deck.
// Shared by the statistics over every deck (stats.h) and the search for
// long sequences (search.h). Internal to engine/reform.
#ifndef EULERDECK_ENGINE_REFORM_FOLLOW_H_
#define EULERDECK_ENGINE_REFORM_FOLLOW_H_

#include <cstdint>
#include <utility>

#include "engine/cards/deck.h"
#include "engine/cards/game.h"
#include "engine/cards/rules.h"

namespace eulerdeck {

// Where a sequence goes, as the Mousetrap contest scores it (seed 001).
struct ReformScore {
  bool cyclic = false;     // ends on a deck met before (else on a losing deck)
  uint64_t length = 0;     // distinct decks met, the starting one included
  uint64_t preperiod = 0;  // cyclic: decks before the cycle
  uint64_t cycle = 0;      // cyclic: decks on the cycle

  // Reforms made before the sequence ends on a losing deck (not cyclic).
  uint64_t reforms() const { return length - 1; }
};

// The contest's order: a cyclic sequence beats any that is not, then the
// longer wins.
inline bool BetterReform(const ReformScore& a, const ReformScore& b) {
  if (a.cyclic != b.cyclic) return a.cyclic;
  return a.length > b.length;
}

namespace internal {

class SequenceFollower {
 public:
  explicit SequenceFollower(const GameSpec& spec)
      : spec_(spec), n_(spec.cards()), t_(n_), h_(n_), next_(n_) {}

  ReformScore Follow(const Card* deck) {
    // The usual case first: the deck loses.
    if (!Step(deck, &h_)) {
      ReformScore s;
      s.length = 1;
      return s;
    }
    return FollowWinner(deck, h_.data());
  }

  // The same for a deck known to win, whose reformed deck (its removal
  // order) is `reformed`, as the enumeration has it (eulerian/winners.h):
  // one play fewer.
  ReformScore FollowWinner(const Card* deck, const Card* reformed) {
    ReformScore s;
    if (reformed != h_.data()) h_.assign(reformed, reformed + n_);
    // The usual case: the reformed deck loses.
    if (!Step(h_.data(), &next_)) {
      s.length = 2;
      return s;
    }
    // Brent: the tortoise waits at powers of two for the hare to meet it.
    // Its first step is taken here, with the play above (x2 in next_).
    t_.assign(deck, deck + n_);
    uint64_t power = 1, lambda = 1, hare_index = 1;
    if (!Equal(t_, h_)) {
      t_ = h_;
      power = 2;
      std::swap(h_, next_);
      hare_index = 2;
    }
    while (!Equal(t_, h_)) {
      if (power == lambda) {
        t_ = h_;
        power *= 2;
        lambda = 0;
      }
      if (!Step(h_.data(), &next_)) {
        s.length = hare_index + 1;  // decks 0..hare_index, the last one losing
        return s;
      }
      std::swap(h_, next_);
      ++hare_index;
      ++lambda;
    }
    // A cycle of lambda decks; mu decks lead into it.
    t_.assign(deck, deck + n_);
    h_.assign(deck, deck + n_);
    for (uint64_t i = 0; i < lambda; ++i) Advance(&h_);
    uint64_t mu = 0;
    while (!Equal(t_, h_)) {
      Advance(&t_);
      Advance(&h_);
      ++mu;
    }
    s.cyclic = true;
    s.preperiod = mu;
    s.cycle = lambda;
    s.length = mu + lambda;
    return s;
  }

 private:
  // *out = the reformed deck of `deck`; false when `deck` does not win.
  bool Step(const Card* deck, Deck* out) {
    return PlayOrder(spec_, deck, n_, out->data()).outcome == Outcome::kWin;
  }
  // A deck of a cyclic sequence: every deck of it wins.
  void Advance(Deck* d) {
    Step(d->data(), &next_);
    std::swap(*d, next_);
  }
  // (A loop: GCC 12 warns falsely on comparing byte vectors.)
  static bool Equal(const Deck& a, const Deck& b) {
    for (size_t i = 0; i < a.size(); ++i)
      if (a[i] != b[i]) return false;
    return true;
  }

  const GameSpec spec_;
  const int n_;
  Deck t_, h_, next_;
};

}  // namespace internal
}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_REFORM_FOLLOW_H_
