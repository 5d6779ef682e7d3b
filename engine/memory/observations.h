// The Observations 1-9 of Foerster & Wattenhofer ("The Solitaire
// Memory Game", §7 and §9): for one variant, a sequence of x(n,0) is strictly
// monotone on a range of n the paper checked (up to 5000). Here: which
// Observations a variant has, and how one pass over n = 2, 3, ..., N decides
// where each holds.
//
// Two printed ranges are wrong (Observation 7 holds from n = 13, not 2;
// Observation 8 from n = 3, not 2; docs/errata.md): paper_from is the
// paper's claim, never corrected, so that a check can contradict it.
#ifndef EULERDECK_ENGINE_MEMORY_OBSERVATIONS_H_
#define EULERDECK_ENGINE_MEMORY_OBSERVATIONS_H_

#include <vector>

#include "engine/memory/solitaire.h"

namespace eulerdeck {

// x(n,0), x(n,0)/n, x(n,0) - x(n-1,0). The values index arrays of signs.
enum class SolitaireSequence { kValue = 0, kRatio = 1, kDifference = 2 };
constexpr int kSolitaireSequences = 3;

// Observation `id`: `sequence` is strictly increasing (or decreasing) for
// paper_from <= n <= 5000.
struct SolitaireObservation {
  int id;
  SolitaireSequence sequence;
  bool increasing;
  int paper_from;
};
// The variant's Observations in the paper's order: standard 1, 2; pairs10 3;
// pairs15 4, 5; pairs20 6, 7; other 8, 9; free none. For every variant with
// two, the first is the ratio (increasing) and the second the difference
// (decreasing): the pair that brackets lim x(n,0)/n (solitaire_survey.h).
std::vector<SolitaireObservation> ObservationsOf(SolitaireVariant variant);
const char* SequenceName(SolitaireSequence sequence);  // "x(n,0)/n", ...

// Where a sequence f(first), f(first+1), ... is strictly monotone up to its
// last term: Step(n, sign) gives the sign of f(n) - f(n-1) (0 when equal or,
// in floating point, when the error bounds cannot tell); From() is the
// smallest a with f(a), ..., f(last) strictly monotone in the wanted sense.
class MonotoneTail {
 public:
  MonotoneTail(int first, bool increasing) : from_(first), want_(increasing ? 1 : -1) {}
  void Step(int n, int sign) {
    if (sign != want_) from_ = n;
  }
  int From() const { return from_; }

 private:
  int from_;
  int want_;
};

// What a pass over n = 1..to found for one Observation.
struct ObservationCheck {
  SolitaireObservation observation;
  int to = 1;  // the last n compared (N)
  // The smallest a with the sequence strictly monotone on a..to as computed
  // (exactly, or as the floating point values compare).
  int holds_from = 1;
  // The same counting only the steps that are decided: every step in
  // floating point whose error bounds do not separate the two terms counts
  // against it. Exact: equal to holds_from.
  int certified_from = 1;
  // The last n whose step from n-1 is decided the wrong way (exactly: the
  // wrong way or equal, which breaks strictness); 1 if there is none. Only
  // such a step contradicts the paper: an undecided one does not.
  int wrong_way_to = 1;
  // to > paper_from: the pass entered the paper's range (else nothing was
  // checked).
  bool reached = false;
  // reached, and no step from paper_from + 1 to `to` is decided the wrong
  // way: the paper's range is confirmed as far as computed.
  bool confirms_paper = false;
};

// Steps Observations (normally ObservationsOf(variant)) along n = 2, 3, ...,
// N, in order and without gaps, then reports them. Not thread-safe.
class ObservationChecker {
 public:
  explicit ObservationChecker(const std::vector<SolitaireObservation>& observations);

  // The step from n-1 to n: the sign of each sequence's change (indexed by
  // SolitaireSequence) as computed and as decided. Exact (exact = true): the
  // two coincide and 0 means equal. Floating point: `decided` is 0 when the
  // error bounds cannot tell, which neither certifies nor refutes.
  void Step(int n, const int computed[kSolitaireSequences], const int decided[kSolitaireSequences],
            bool exact);

  // The Observations as checked up to n = to.
  std::vector<ObservationCheck> Results(int to) const;

 private:
  struct Tails {
    SolitaireObservation observation;
    MonotoneTail computed, certified, wrong_way;
  };
  std::vector<Tails> tails_;
};

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_MEMORY_OBSERVATIONS_H_
