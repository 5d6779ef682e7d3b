// One pass over a column of a solitaire Memory recurrence (Foerster & Wattenhofer,
// Foerster & Wattenhofer, "The Solitaire Memory Game"): x(n,k) for
// n = 1..N with its ratio x(n,k)/n and difference x(n,k) - x(n-1,k), exact
// or in floating point with error bounds; for k = 0 also the variant's
// Observations (observations.h) and the interval for lim x(n,0)/n.
//
// The interval (Conjectures 1-3 for the standard variant, 4-6 for pairs15,
// pairs20, other): if x(n,0)/n increases and x(n,0) - x(n-1,0) decreases from
// some n on, both converge to the same C, and at every such n the ratio is a
// lower and the difference an upper bound for C. The paper's interval, at
// n = 5000, is 1.613603 < C < 1.613706 (Conjecture 3).
#ifndef EULERDECK_ENGINE_MEMORY_SOLITAIRE_SURVEY_H_
#define EULERDECK_ENGINE_MEMORY_SOLITAIRE_SURVEY_H_

#include <gmpxx.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "engine/base/status.h"
#include "engine/memory/observations.h"
#include "engine/memory/solitaire.h"

namespace eulerdeck {

enum class SolitaireArithmetic {
  kExact,       // GMP rationals (SolitaireExact)
  kDouble,      // SolitaireFloat<double>
  kLongDouble,  // SolitaireFloat<long double>
};

// Column k at one n >= 1. The difference uses x(n-1,k) = 0 when k > n-1 (as
// the recurrence defines x outside 0 <= k <= n): meaningless at n = k.
struct SolitaireExactPoint {
  int n;
  mpq_class value, ratio, difference;
};
// Computed in the survey's precision and widened (exactly) to long double.
// |x(n,k) - value| <= bound (SolitaireFloat's rigorous first-order bound).
struct SolitaireFloatPoint {
  int n;
  long double value, bound, ratio, difference;
};

struct SolitaireSurveyOptions {
  SolitaireVariant variant = SolitaireVariant::kMoves;
  int n_max = 1;  // N: 1..2^24
  int k = 0;      // the column, 0..N; the Observations and the limit need k = 0
  SolitaireArithmetic arithmetic = SolitaireArithmetic::kExact;
  int threads = 0;  // kExact: as SolitaireExact (0: all cores; at most 2 used)
  // Called for every n = 1..N in order, from the calling thread; the one
  // matching the arithmetic, if set.
  std::function<void(const SolitaireExactPoint&)> on_exact_point;
  std::function<void(const SolitaireFloatPoint&)> on_float_point;
  // If set, advanced (relaxed) by the table entries computed, n + 1 for
  // each row n = 0..N, for progress display.
  std::atomic<uint64_t>* entries_done = nullptr;
  // If set, polled after each row: once true, the survey stops after the
  // row it has finished and returns Cancelled, its results those of
  // N = SolitaireSurvey::n_done (tools/common/interrupt.h sets it on Ctrl-C).
  const std::atomic<bool>* stop = nullptr;
};

// The interval for lim x(n,0)/n, for the variants with two Observations
// (standard, pairs15, pairs20, other), k = 0 and N >= 2.
struct SolitaireLimit {
  bool found = false;
  // kExact: x(N,0)/N and x(N,0) - x(N-1,0). An interval for C if the two
  // sequences stay monotone beyond N, which the Observations' holds_from
  // show they are on the range computed.
  mpq_class exact_low, exact_high;
  // Floating point: the best ends, widened by their error bounds and four
  // roundings, over the n where the Observations are taken to hold: from
  // the paper's start (rounding noise hides monotonicity at large n, so it
  // cannot be checked there) unless a step the bounds decide goes the wrong
  // way later, then from that step. An empty range leaves an end at -1
  // (low) or 1e300 (high): no bound.
  long double low = -1, high = 1e300L;
};

struct SolitaireSurvey {
  // The last n computed: N, or fewer when stopped. The Observations and the
  // limit are what a survey to N = n_done gives.
  int n_done = 0;
  std::vector<ObservationCheck> observations;  // ObservationsOf(variant) if k = 0, else none
  SolitaireLimit limit;
};

// Runs the recurrence of options.variant up to N, reporting column k as it
// goes, and fills *survey. InvalidArgument for N outside 1..2^24, k outside
// 0..N or threads < 0; the recurrence's own errors are passed on;
// Cancelled when options.stop was set (*survey then holds the rows done, as
// if N were survey->n_done; on_*_point was called for n = 1..n_done).
Status SurveySolitaire(const SolitaireSurveyOptions& options, SolitaireSurvey* survey);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_MEMORY_SOLITAIRE_SURVEY_H_
