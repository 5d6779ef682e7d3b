// Terminating Memory for two players (Alfthan 2007 §2): with n pairs on
// the board, j of them "unknown" (no card seen) and k = n - j known single
// cards, E(n,j) is the expected number of pairs the player to move collects
// from here on, both playing optimally. The first card of a move is always
// an unseen one; if it misses, the player either turns a known card (safe:
// nothing more can happen) or a second unseen card (risky). Passive moves
// (two known cards) are not allowed, so the game terminates.
//
// With N = n + j unseen cards (2j of unknown pairs, k partners of known cards):
//   risky = 4j(j-1)/(N(N-1)) (n - E(n,j-2))       miss, miss: the opponent moves
//         + 2j/(N(N-1))      (1 + E(n-1,j-1))     second matches first: go on
//         + 2jk/(N(N-1))     (n - 1 - E(n-1,j-1)) second matches a known card:
//                                                 the opponent collects it
//         + k/N              (1 + E(n-1,j))       first matches a known card
//   safe  = 2j/N (n - E(n,j-1)) + k/N (1 + E(n-1,j))          (only if k >= 1)
//   E(n,j) = max(safe, risky) if k >= 1, risky if j = n; E(0,0) = 0.
// (n - E) is the opponent's share: the board's n pairs are all collected.
#ifndef EULERDECK_ENGINE_MEMORY_TERMINATING_H_
#define EULERDECK_ENGINE_MEMORY_TERMINATING_H_

#include <gmpxx.h>

#include <atomic>
#include <cstdint>
#include <vector>

#include "engine/base/status.h"

namespace eulerdeck {

enum class TmMove : char {
  kNoChoice = '#',  // j = 0 (safe and risky coincide) or j = n (no known card)
  kSafe = '0',      // the paper's Table 2.1 symbols
  kRisky = '1',
  kTie = '=',
};

template <class T>
struct TerminatingTable {
  int n_max = 0;
  // [n][j] for 0 <= j <= n <= n_max. safe[n][j] is meaningful when j < n.
  std::vector<std::vector<T>> value, safe, risky;
  std::vector<std::vector<TmMove>> move;
};

struct TerminatingOptions {
  // If set, advanced (relaxed) by the entries computed, n + 1 for each row
  // n = 0..n_max, for progress display.
  std::atomic<uint64_t>* entries_done = nullptr;
  // If set, polled after each row: once true, the table stops after the row
  // it has finished and is cut there (table->n_max = that row: row n needs
  // rows <= n only, so it is the table of that smaller n_max), and
  // Terminating returns Cancelled (tools/common/interrupt.h sets it).
  const std::atomic<bool>* stop = nullptr;
};

// Exact (T = mpq_class) or floating point (double, long double). n_max < 2^20.
template <class T>
Status Terminating(int n_max, TerminatingTable<T>* table, const TerminatingOptions& options = {});

// The closed forms of Alfthan 2007 (§2.3.2 and Appendix A) for j <= 4, valid for
// every n >= j: n, (n+2)/3, (11n-12)/15, (13n^2+119n-180)/(35(n+3)) (the
// appendix prints "119" for 119n: OCR), (211n^2+72n+1232)/(315(n+4)).
mpq_class TerminatingClosedForm(int n, int j);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_MEMORY_TERMINATING_H_
