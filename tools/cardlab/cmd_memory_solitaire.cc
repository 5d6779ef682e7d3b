// cardlab memory solitaire: seed 004's recurrences, exact or in floating
// point with error bounds, the Observations 1-9 checked, and the interval
// for the constant C of Conjectures 1-3.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "engine/memory/solitaire.h"
#include "tools/common/cli.h"
#include "tools/common/format.h"
#include "tools/common/plot.h"
#include "tools/common/progress.h"

namespace eulerdeck::tools {

namespace {

constexpr const char* kUsage =
    "usage: cardlab memory solitaire --n N [--k K] [--exact | --float [--precision double|long]]\n"
    "                                [--variant V] [--from A] [--every S] [--fractions]\n"
    "                                [--csv FILE] [--json] [--plot FILE.svg|png]\n"
    "Solitaire Memory (seed 004): x(n,K) for n = 1..N by the recurrence of the\n"
    "variant, with x(n,K)/n and x(n,K) - x(n-1,K). Variants: standard (e(n,k),\n"
    "expected moves of the optimal strategy, (6.1)), free ((8.1)), pairs10,\n"
    "pairs15, pairs20 (twice the 2.0-pairs), other ((9.1)-(9.4)).\n"
    "--exact (default): GMP rationals, no rounding. --float: floating point with\n"
    "a rigorous first-order bound on the rounding error of every value.\n"
    "For K = 0 it also checks the paper's Observations for the variant (strict\n"
    "monotonicity, reported with the range where it holds) and, for standard,\n"
    "pairs15, pairs20 and other, bounds lim x(n,0)/n (Conjectures 1-6).\n"
    "Rows printed: n = A, A+S, A+2S, ... and N.";

// One row as printed: decimal strings, and doubles for the plot.
struct Row {
  int n;
  std::string value, exact, bound, ratio, difference;
  double ratio_d, difference_d;
};

// `tail` compares the values as computed. In floating point, `certified`
// counts only the steps the error bounds decide, and `refuted` moves only on a
// step the bounds decide the wrong way: only that contradicts the paper.
struct ObservationResult {
  SolitaireObservation observation;
  MonotoneTail tail, certified, refuted;
};

// The sign of a - b when both carry error bounds: 0 if the bounds overlap.
int CertainSign(long double a, long double ea, long double b, long double eb) {
  if (a - b > ea + eb) return 1;
  if (b - a > ea + eb) return -1;
  return 0;
}

int Sign(const mpq_class& q) { return sgn(q); }

// One step n of every observation, given the sign of its sequence's change
// (indexed by SolitaireSequence) as computed and as decided: exactly, or in
// floating point by the error bounds (0 there means undecided, which neither
// certifies nor refutes; exactly, 0 means equal, which breaks strictness).
void StepObservations(std::vector<ObservationResult>& observations, int n, const int computed[3],
                      const int decided[3], bool exact) {
  for (ObservationResult& o : observations) {
    const int i = static_cast<int>(o.observation.sequence), want = o.observation.increasing ? 1 : -1;
    o.tail.Step(n, computed[i]);
    o.certified.Step(n, decided[i]);
    o.refuted.Step(n, decided[i] != want && (exact || decided[i] != 0) ? -want : want);
  }
}

}  // namespace

int RunMemorySolitaire(const std::vector<std::string>& args) {
  const std::string program = "cardlab memory solitaire";
  int n_max = 0, k = 0, from = 1, every = 1, threads = 0;
  std::string variant_text = "standard", precision = "double", csv_path, plot_path;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help")
      ("n", po::value(&n_max)->required(), "largest number of pairs N")
      ("k", po::value(&k)->default_value(0), "known cards K (the column printed)")
      ("exact", po::bool_switch(), "exact rationals (the default)")
      ("float", po::bool_switch(), "floating point with error bounds")
      ("precision", po::value(&precision)->default_value("double"), "--float: double or long (long double)")
      ("variant", po::value(&variant_text)->default_value("standard"), "standard, free, pairs10, pairs15, pairs20, other")
      ("from", po::value(&from)->default_value(1), "first n printed")
      ("every", po::value(&every)->default_value(1), "print every S-th row (and the last)")
      ("fractions", po::bool_switch(), "--exact: also print the fractions (can be long)")
      ("threads", po::value(&threads)->default_value(0), "--exact: threads (0: all cores; at most 2 are used)")
      ("csv", po::value(&csv_path), "also write the rows to FILE (with the fractions)")
      ("json", po::bool_switch(), "print one JSON object")
      ("plot", po::value(&plot_path), "plot x/n and x(n)-x(n-1) to FILE (.svg or .png) with gnuplot");
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kUsage, vm)) return kExitOk;
  const bool use_float = vm["float"].as<bool>();
  SolitaireVariant variant;
  Status s = ParseSolitaireVariant(variant_text, &variant);
  if (s.ok() && use_float && vm["exact"].as<bool>()) s = Status::InvalidArgument("--exact and --float exclude each other");
  if (s.ok() && n_max < 1) s = Status::InvalidArgument("--n must be at least 1");
  if (s.ok() && n_max > (1 << 24)) s = Status::InvalidArgument("--n must be at most 16777216");
  if (s.ok() && (k < 0 || k > n_max)) s = Status::InvalidArgument("--k must be in 0..N");
  if (s.ok() && (from < 1 || every < 1)) s = Status::InvalidArgument("--from and --every must be at least 1");
  if (s.ok() && from > n_max) s = Status::InvalidArgument("--from must be at most N");
  if (s.ok() && !use_float && !vm["precision"].defaulted()) s = Status::InvalidArgument("--precision goes with --float");
  if (s.ok() && precision != "double" && precision != "long") {
    s = Status::InvalidArgument("--precision must be double or long");
  }
  if (s.ok() && threads < 0) s = Status::InvalidArgument("--threads must be >= 0");
  if (s.ok() && !plot_path.empty()) s = CheckPlotPath(plot_path);
  std::ofstream csv;
  if (s.ok()) s = OpenCsv(csv_path, &csv);
  if (!s.ok()) return BadInput(program, s.ToString());
  const bool json = vm["json"].as<bool>(), fractions = vm["fractions"].as<bool>();
  const char* symbol = SolitaireVariantSymbol(variant);
  const std::string name = std::string(symbol) + "(n," + std::to_string(k) + ")";

  std::vector<ObservationResult> observations;
  if (k == 0) {
    for (const SolitaireObservation& o : ObservationsOf(variant)) {
      observations.push_back({o, MonotoneTail(1, o.increasing), MonotoneTail(1, o.increasing), MonotoneTail(1, o.increasing)});
    }
  }
  // If x(n,0)/n increases and x(n,0) - x(n-1,0) decreases from some n on
  // (the Conjectures), their common limit lies between the two at every such
  // n. Exact: the interval at N. Float: the best ends over the range where
  // both are monotone as computed, each widened by its error bound.
  const bool limit_wanted = k == 0 && observations.size() == 2;
  std::vector<long double> low_at, high_at;  // float: per n

  std::vector<Row> rows;
  PlotSeries plot_ratio{name + "/n", {}}, plot_diff{name + " - " + std::string(symbol) + "(n-1," + std::to_string(k) + ")", {}};
  const int plot_stride = std::max(1, n_max / 4000);
  auto keep = [&](int n) { return n >= from && n >= k && ((n - from) % every == 0 || n == n_max); };
  std::atomic<uint64_t> done{0}, total{static_cast<uint64_t>(n_max) * (n_max + 1) / 2};
  std::string limit_low, limit_high;
  bool limit_found = false;
  {
    Progress progress("solitaire", "entries", &done, &total);
    if (!use_float) {
      std::optional<mpq_class> prev_v, prev_d, last_ratio, last_diff;
      s = SolitaireExact(variant, n_max, threads, [&](const SolitaireExactRow& r) {
        done += r.n + 1;
        const mpq_class v = r.Value(k);
        if (r.n >= 1) {
          const mpq_class ratio = v / r.n, d = v - *prev_v;
          if (r.n >= 2) {
            const int signs[3] = {Sign(v - *prev_v), Sign(ratio - *prev_v / (r.n - 1)), Sign(d - *prev_d)};
            StepObservations(observations, r.n, signs, signs, true);
          }
          if (limit_wanted && r.n == n_max) {
            last_ratio = ratio;
            last_diff = d;
          }
          if (keep(r.n)) {
            // x(K-1, K) does not exist: no difference on the first row.
            rows.push_back({r.n, Decimal(v, 16), v.get_str(), "", Decimal(ratio, 12), r.n > k ? Decimal(d, 12) : "",
                            ratio.get_d(), d.get_d()});
          }
          if (!plot_path.empty() && r.n % plot_stride == 0 && r.n >= std::max(k, 1)) {
            plot_ratio.points.push_back({static_cast<double>(r.n), ratio.get_d()});
            if (r.n > k) plot_diff.points.push_back({static_cast<double>(r.n), d.get_d()});
          }
          prev_d = d;
        }
        prev_v = v;
        return true;
      });
      if (limit_wanted && last_ratio && last_diff && n_max >= 2) {
        limit_found = true;
        limit_low = DecimalFloor(*last_ratio, 10);
        limit_high = DecimalCeil(*last_diff, 10);
      }
    } else {
      auto run = [&](auto zero) -> Status {
        using T = decltype(zero);
        T prev_v = 0, prev_b = 0, prev_d = 0, prev_db = 0;
        if (limit_wanted) {
          low_at.assign(n_max + 1, -1);
          high_at.assign(n_max + 1, 1e300L);
        }
        Status st = SolitaireFloat<T>(variant, n_max, [&](const SolitaireFloatRow<T>& r) {
          done += r.n + 1;
          const T v = k <= r.n ? r.value[k] : T(0), b = k <= r.n ? r.bound[k] : T(0);
          if (r.n >= 1) {
            const T ratio = v / r.n, d = v - prev_v, db = b + prev_b;
            if (r.n >= 2) {
              const T prev_ratio = prev_v / (r.n - 1);
              const int computed[3] = {CertainSign(v, 0, prev_v, 0), CertainSign(ratio, 0, prev_ratio, 0),
                                       CertainSign(d, 0, prev_d, 0)};
              const int decided[3] = {CertainSign(v, b, prev_v, prev_b),
                                      CertainSign(ratio, b / r.n, prev_ratio, prev_b / (r.n - 1)),
                                      CertainSign(d, db, prev_d, prev_db)};
              StepObservations(observations, r.n, computed, decided, false);
            }
            // The ends move outwards by the bounds (and one more rounding).
            if (limit_wanted) {
              const T eps = std::numeric_limits<T>::epsilon();
              low_at[r.n] = ratio - b / r.n - 4 * std::abs(ratio) * eps;
              high_at[r.n] = d + db + 4 * std::abs(v) * eps;
            }
            if (keep(r.n)) {
              char buf[4][64];
              std::snprintf(buf[0], 64, "%.*Lg", precision == "long" ? 19 : 16, static_cast<long double>(v));
              std::snprintf(buf[1], 64, "%.2Lg", static_cast<long double>(b));
              std::snprintf(buf[2], 64, "%.12Lg", static_cast<long double>(ratio));
              std::snprintf(buf[3], 64, "%.12Lg", static_cast<long double>(d));
              if (r.n == k) buf[3][0] = '\0';  // x(K-1, K) does not exist
              rows.push_back({r.n, buf[0], "", buf[1], buf[2], buf[3], static_cast<double>(ratio), static_cast<double>(d)});
            }
            if (!plot_path.empty() && r.n % plot_stride == 0 && r.n >= std::max(k, 1)) {
              plot_ratio.points.push_back({static_cast<double>(r.n), static_cast<double>(ratio)});
              if (r.n > k) plot_diff.points.push_back({static_cast<double>(r.n), static_cast<double>(d)});
            }
            prev_d = d;
            prev_db = db;
          }
          prev_v = v;
          prev_b = b;
          return true;
        });
        if (st.ok() && limit_wanted && n_max >= 2) {
          long double best_low = -1, best_high = 1e300L;
          // Rounding noise hides monotonicity at large n, so the ranges are
          // the Conjectures' (the paper's starts), unless a step the bounds
          // decide goes the wrong way later.
          auto start = [&](const ObservationResult& o) { return std::max(o.observation.paper_from, o.refuted.From()); };
          for (int n = start(observations[0]); n <= n_max; ++n) best_low = std::max(best_low, low_at[n]);
          for (int n = std::max(2, start(observations[1])); n <= n_max; ++n) best_high = std::min(best_high, high_at[n]);
          // Ten decimals, rounded outwards with a margin of one unit.
          char lo[64], hi[64];
          std::snprintf(lo, sizeof(lo), "%.10Lf", std::floor(static_cast<long double>(best_low) * 1e10L - 1) / 1e10L);
          std::snprintf(hi, sizeof(hi), "%.10Lf", std::ceil(static_cast<long double>(best_high) * 1e10L + 1) / 1e10L);
          limit_found = true;
          limit_low = lo;
          limit_high = hi;
        }
        return st;
      };
      s = precision == "long" ? run(0.0L) : run(0.0);
    }
  }
  if (!s.ok()) return BadInput(program, s.ToString());

  const std::string mode = use_float ? std::string("float (") + (precision == "long" ? "long double" : "double") + ")" : "exact";
  auto paper_range = [&](const SolitaireObservation& o) {
    return std::to_string(o.paper_from) + " <= n <= 5000";
  };
  auto observed = [&](const ObservationResult& o) {
    std::string text = std::to_string(o.tail.From()) + " <= n <= " + std::to_string(n_max);
    if (use_float) {
      text += " as computed; certified by the error bounds from n = " + std::to_string(o.certified.From());
      if (o.refuted.From() > 1) text += "; last step certainly the wrong way: to n = " + std::to_string(o.refuted.From());
    }
    return text;
  };
  // The paper checked n <= 5000: its claim is confirmed if ours starts no
  // later (on the range computed).
  // Confirms: nothing refutes the paper's range within what was computed;
  // not reached when N is below the range's start.
  auto reached = [&](const ObservationResult& o) { return n_max > o.observation.paper_from; };
  auto confirms = [&](const ObservationResult& o) { return reached(o) && o.refuted.From() <= o.observation.paper_from; };
  std::string limit_assumption;
  if (limit_wanted && !use_float) {
    limit_assumption = "if x(n,0)/n keeps increasing and x(n,0)-x(n-1,0) keeps decreasing beyond n = " +
                       std::to_string(n_max) + " (as they do from n = " + std::to_string(observations[0].tail.From()) +
                       " and n = " + std::to_string(observations[1].tail.From()) + ")";
  } else if (limit_wanted) {
    limit_assumption = "if x(n,0)/n increases for n >= " + std::to_string(observations[0].observation.paper_from) +
                       " and x(n,0)-x(n-1,0) decreases for n >= " +
                       std::to_string(observations[1].observation.paper_from) +
                       " (the paper's Observations as Conjectures; floating point cannot check them at large n: "
                       "use --exact)";
  }
  if (!plot_path.empty()) {
    PlotSpec plot;
    plot.title = std::string("Solitaire Memory (seed 004), ") + SolitaireVariantName(variant) + ", k = " + std::to_string(k);
    plot.xlabel = "n (pairs, log scale)";
    plot.log_x = true;
    plot.ylabel = "moves per pair";
    plot.series = {plot_ratio, plot_diff};
    s = WritePlot(plot_path, plot);
    if (!s.ok()) return BadInput(program, s.ToString());
  }
  if (csv.is_open()) {
    csv << "n,value," << (use_float ? "error_bound" : "exact") << ",ratio,difference\n";
    for (const Row& r : rows) {
      csv << r.n << "," << r.value << "," << (use_float ? r.bound : r.exact) << "," << r.ratio << ","
          << r.difference << "\n";
    }
  }
  if (json) {
    nlohmann::json j;
    j["game"] = "solitaire memory";
    j["variant"] = SolitaireVariantName(variant);
    j["symbol"] = symbol;
    j["k"] = k;
    j["n"] = n_max;
    j["mode"] = mode;
    j["rows"] = nlohmann::json::array();
    for (const Row& r : rows) {
      nlohmann::json row = {{"n", r.n}, {"value", r.value}, {"ratio", r.ratio}, {"difference", r.difference}};
      if (use_float) row["error_bound"] = r.bound;
      if (!use_float && fractions) row["exact"] = r.exact;
      j["rows"].push_back(row);
    }
    j["observations"] = nlohmann::json::array();
    for (const ObservationResult& o : observations) {
      j["observations"].push_back({{"id", o.observation.id},
                                   {"sequence", SequenceName(o.observation.sequence)},
                                   {"strictly", o.observation.increasing ? "increasing" : "decreasing"},
                                   {"paper_from", o.observation.paper_from},
                                   {"holds_from", o.tail.From()},
                                   {"certified_from", o.certified.From()},
                                   {"to", n_max},
                                   {"reached", reached(o)},
                                   {"confirms_paper", confirms(o)}});
    }
    if (limit_found) j["limit"] = {{"low", limit_low}, {"high", limit_high}, {"assuming", limit_assumption}};
    std::cout << j.dump() << "\n";
    return kExitOk;
  }
  std::cout << "# solitaire Memory (seed 004), " << name << ": " << SolitaireVariantName(variant) << ", " << mode
            << "\n";
  if (use_float) {
    std::printf("%8s  %-22s %-9s %-15s %-15s\n", "n", name.c_str(), "+-bound", "ratio", "difference");
  } else {
    std::printf("%8s  %-22s %-15s %-15s%s\n", "n", name.c_str(), "ratio", "difference", fractions ? "  exact" : "");
  }
  for (const Row& r : rows) {
    if (use_float) {
      std::printf("%8d  %-22s %-9s %-15s %-15s\n", r.n, r.value.c_str(), r.bound.c_str(), r.ratio.c_str(),
                  r.difference.c_str());
    } else {
      std::printf("%8d  %-22s %-15s %-15s%s%s\n", r.n, r.value.c_str(), r.ratio.c_str(), r.difference.c_str(),
                  fractions ? "  " : "", fractions ? r.exact.c_str() : "");
    }
  }
  for (const ObservationResult& o : observations) {
    std::printf("observation %d  %s strictly %s: paper %s; here %s%s\n", o.observation.id,
                SequenceName(o.observation.sequence), o.observation.increasing ? "increasing" : "decreasing",
                paper_range(o.observation).c_str(), observed(o).c_str(),
                !reached(o) ? " (N is below the paper's range: nothing checked)"
                : confirms(o) ? "" : " (CONTRADICTS the paper's range)");
  }
  if (limit_found) {
    std::printf("limit  lim %s(n,0)/n in [%s, %s] %s\n", symbol, limit_low.c_str(), limit_high.c_str(),
                limit_assumption.c_str());
  }
  std::fflush(stdout);
  return kExitOk;
}

}  // namespace eulerdeck::tools
