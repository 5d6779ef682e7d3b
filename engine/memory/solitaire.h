// Solitaire Memory (Foerster & Wattenhofer): the expected number of
// moves e(n,k) of the optimal strategy (Lemma 4.1) with n pairs on the table
// and k known cards of distinct labels, by recurrence (6.1), and the
// variants that count something else along the same Markov chain: free
// moves after a collection (8.1), 1.0-, 1.5-, 2.0-pairs (9.1)-(9.3) and
// "other" moves (9.4).
//
// Every variant is one recurrence with four constants, one per kind of move:
//   x(n,k) = k/(2n-k) (a1 + x(n-1,k-1))                      a known card first
//          + 2(n-k)/(2n-k) [ 1/(2n-k-1) (a2 + x(n-1,k))        then its pair
//                          + k/(2n-k-1) (a3 + x(n-1,k))        then a known label
//                          + 2(n-k-1)/(2n-k-1) (a4 + x(n,k+2)) ] then a new label
// with x(0,0) = 0 and x(n,k) = 0 outside 0 <= k <= n.
#ifndef EULERDECK_ENGINE_MEMORY_SOLITAIRE_H_
#define EULERDECK_ENGINE_MEMORY_SOLITAIRE_H_

#include <gmpxx.h>

#include <functional>
#include <string>
#include <vector>

#include "engine/base/status.h"

namespace eulerdeck {

enum class SolitaireVariant {
  kMoves,    // e(n,k), (6.1)
  kFree,     // e^f(n,k), (8.1): the move after a collection is free
  kPairs10,  // e^1.0, (9.1): pairs turned in one move
  kPairs15,  // e^1.5, (9.2): a known card's partner turned first in a move
  kPairs20,  // e^2.0, (9.3): twice the pairs found second in a move
  kOther,    // e^other, (9.4): moves turning two new labels
};

// "standard" (or "moves"), "free", "pairs10", "pairs15", "pairs20", "other".
Status ParseSolitaireVariant(const std::string& text, SolitaireVariant* variant);
const char* SolitaireVariantName(SolitaireVariant variant);
// The paper's symbol: "e", "e^f", "e^1.0", ...
const char* SolitaireVariantSymbol(SolitaireVariant variant);

// The costs (a1, a2, a3, a4) of the four kinds of move.
struct SolitaireCosts {
  int known_first, pair_in_move, known_second, two_new;
};
SolitaireCosts CostsOf(SolitaireVariant variant);

// Row n of the exact table: x(n,k) = numerator[k] / denominator, not reduced
// (one denominator for the whole row; Value() reduces).
struct SolitaireExactRow {
  int n = 0;
  std::vector<mpz_class> numerator;  // k = 0..n
  mpz_class denominator;
  mpq_class Value(int k) const;
};

// Computes rows n = 0..n_max in order, calling on_row for each; stops early
// (OK) when on_row returns false. Integer arithmetic only: row n is kept over
// the common denominator lcm(1..2n+1)^2, so each entry costs a few linear
// multiply-adds and one exact division by (2n-k)(2n-k-1), never a gcd. The
// division's remainder is checked; a nonzero one (the denominator not being
// common after all) is reported as Internal, never rounded. Even and odd k
// form two independent chains (x(n,k) needs x(n,k+2)) computed on two threads
// when threads != 1.
Status SolitaireExact(SolitaireVariant variant, int n_max, int threads,
                      const std::function<bool(const SolitaireExactRow&)>& on_row);

// Floating point rows with a rigorous first-order bound on the rounding
// error of every entry (see the .cc): |x - value[k]| <= bound[k]. One thread:
// the loop is bound by the latency of the two x(n,k+2) chains.
template <class T>
struct SolitaireFloatRow {
  int n = 0;
  std::vector<T> value, bound;
};
template <class T>
Status SolitaireFloat(SolitaireVariant variant, int n_max,
                      const std::function<bool(const SolitaireFloatRow<T>&)>& on_row);

// The obviously-right method, for tests: the recurrence as written, memoised
// in reduced GMP rationals. Rows 0..n_max, x[n][k].
std::vector<std::vector<mpq_class>> SolitaireReference(SolitaireVariant variant, int n_max);

// Independent of the recurrence: plays Lemma 4.1's strategy on every
// arrangement of the 2n cards (each distinct order of labels, the order in
// which unknown cards are turned) and averages the variant's count. Exact;
// (2n)!/2^n arrangements, so n <= 6.
mpq_class SolitaireByPlay(SolitaireVariant variant, int n);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_MEMORY_SOLITAIRE_H_
