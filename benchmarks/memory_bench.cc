// eulerdeck_memory_bench: the exact solitaire Memory table (Foerster & Wattenhofer) to
// n = 5000, time and peak memory, and the speed of the row method against
// the recurrence as written (reduced GMP rationals at every operation),
// measured in the same run.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>

#include "benchmarks/bench_args.h"
#include "engine/memory/solitaire.h"

namespace {

using namespace eulerdeck;
using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

long PeakRssKiB() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

// Seconds for the exact rows 0..n; *last gets x(n,0).
double TimeRows(int n, int threads, mpq_class* last) {
  const auto t0 = Clock::now();
  const Status s =
      SolitaireExact(SolitaireVariant::kMoves, n, threads, [&](const SolitaireExactRow& r) {
        if (r.n == n) *last = r.Value(0);
        return true;
      });
  if (!s.ok()) std::fprintf(stderr, "%s\n", s.ToString().c_str());
  return Seconds(t0);
}

}  // namespace

int main(int argc, char** argv) {
  if (const int rc = eulerdeck::bench::NoArguments(
          argc, argv,
          "usage: eulerdeck_memory_bench\n"
          "  The exact solitaire Memory table to n = 5000 (time, peak memory) and the\n"
          "  row method against the recurrence as written, in the same run; tables on stdout.\n");
      rc >= 0)
    return rc;
  // 1. Against the recurrence as written, n = 300 (all rows, both compared).
  const int small = 300;
  auto t0 = Clock::now();
  const auto ref = SolitaireReference(SolitaireVariant::kMoves, small);
  const double ref_s = Seconds(t0);
  mpq_class fast_last;
  const double fast_s = TimeRows(small, 1, &fast_last);
  const bool same = fast_last == ref[small][0];
  std::printf("| method | n | seconds | ratio |\n|---|---|---|---|\n");
  std::printf(
      "| recurrence as written (mpq, reduced every operation), 1 thread | %d | %.3f | 1 |\n", small,
      ref_s);
  std::printf("| rows over lcm(1..2n+1)^2, 1 thread | %d | %.3f | %.1fx |\n", small, fast_s,
              ref_s / fast_s);

  // 2. The whole table to n = 5000, one and two threads.
  const int big = 5000;
  mpq_class e1, e2;
  const double one = TimeRows(big, 1, &e1);
  const double two = TimeRows(big, 2, &e2);
  std::printf("| rows over lcm(1..2n+1)^2, 1 thread | %d | %.2f | |\n", big, one);
  std::printf("| rows over lcm(1..2n+1)^2, 2 threads | %d | %.2f | %.2fx over 1 thread |\n", big,
              two, one / two);

  // 3. Floating point (double) with error bounds, n = 30000.
  const int flt = 30000;
  double value = 0, bound = 0;
  t0 = Clock::now();
  (void)SolitaireFloat<double>(SolitaireVariant::kMoves, flt,
                               [&](const SolitaireFloatRow<double>& r) {
                                 value = r.value[0];
                                 bound = r.bound[0];
                                 return true;
                               });
  const double float_s = Seconds(t0);
  std::printf("| double with error bounds, 1 thread | %d | %.2f | %.2f ns per entry |\n", flt,
              float_s, float_s / (0.5 * flt * (flt + 1.0)) * 1e9);

  std::printf("\ne(5000,0) = %.12f (%zu / %zu digits), float e(30000,0) = %.9f +- %.2g\n",
              e1.get_d(), mpz_sizeinbase(e1.get_num_mpz_t(), 10),
              mpz_sizeinbase(e1.get_den_mpz_t(), 10), value, bound);
  std::printf("peak RSS %.1f MiB\n", PeakRssKiB() / 1024.0);
  return same && e1 == e2 ? 0 : 1;
}
