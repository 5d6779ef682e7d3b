// cardlab memory solitaire: Foerster & Wattenhofer's recurrences, exact or in floating
// point with error bounds, the Observations 1-9 checked, and the interval
// for the constant C of Conjectures 1-3. The science is SurveySolitaire's
// (engine/memory/solitaire_survey.h); this file parses and formats.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "engine/memory/solitaire_survey.h"
#include "tools/common/cli.h"
#include "tools/common/format.h"
#include "tools/common/interrupt.h"
#include "tools/common/plot.h"
#include "tools/common/progress.h"

namespace eulerdeck::tools {

namespace {

constexpr const char* kUsage =
    "usage: cardlab memory solitaire --n N [--k K]\n"
    "                                [--exact | --float [--precision double|long]]\n"
    "                                [--variant V] [--from A] [--every S]\n"
    "                                [--fractions] [--threads T] [--csv FILE]\n"
    "                                [--json] [--plot FILE]\n"
    "Solitaire Memory (Foerster & Wattenhofer): x(n,K) for n = 1..N by the\n"
    "recurrence of the variant, with x(n,K)/n and x(n,K) - x(n-1,K). Variants:\n"
    "standard (e(n,k), expected moves of the optimal strategy, (6.1)), free\n"
    "((8.1)), pairs10, pairs15, pairs20 (twice the 2.0-pairs), other\n"
    "((9.1)-(9.4)).\n"
    "--exact (default): GMP rationals, no rounding. --float: floating point with\n"
    "a rigorous first-order bound on the rounding error of every value.\n"
    "For K = 0 it also checks the paper's Observations for the variant (strict\n"
    "monotonicity, reported with the range where it holds) and, for standard,\n"
    "pairs15, pairs20 and other, bounds lim x(n,0)/n (Conjectures 1-6).\n"
    "Rows printed: n = A..N that are multiples of S (--every 250: 250, 500, ...),\n"
    "and N. Ctrl-C (or SIGTERM) stops after the row under way and prints the\n"
    "results of the rows done, exactly what --n for the last of them gives, then\n"
    "exits 130 (143).\n"
    "--csv columns: variant,k,n,expected_decimal,expected_exact (--float:\n"
    "error_bound),expected_per_pair_decimal,difference_decimal\n"
    "(docs/schema/csv_columns.json).";

// One row as printed: decimal strings (text, CSV), and doubles (plot, JSON).
struct Row {
  int n;
  std::string value, exact, bound, ratio, difference;
  double ratio_d, difference_d, value_d = 0, bound_d = 0;
};

}  // namespace

int RunMemorySolitaire(const std::vector<std::string>& args) {
  const std::string program = "cardlab memory solitaire";
  int n_max = 0, k = 0, from = 1, every = 1, threads = 0;
  std::string variant_text = "standard", precision = "double", csv_path, plot_path;
  po::options_description desc("options");
  po::options_description_easy_init add = desc.add_options();
  add("help,h", "show this help");
  add("n", po::value(&n_max)->required(), "largest number of pairs N");
  add("k", po::value(&k)->default_value(0), "known cards K (the column printed)");
  add("exact", po::bool_switch(), "exact fractions, GMP rationals (the default)");
  add("float", po::bool_switch(), "floating point, with error bounds");
  add("precision", po::value(&precision)->default_value("double"),
      "--float: double or long (long double)");
  add("variant", po::value(&variant_text)->default_value("standard"),
      "standard, free, pairs10, pairs15, pairs20, other");
  add("from", po::value(&from)->default_value(1), "first n printed");
  add("every", po::value(&every)->default_value(1),
      "print the rows of n a multiple of S (and the last)");
  add("fractions", po::bool_switch(), "--exact: also print the fractions (can be long)");
  add("threads", po::value(&threads)->default_value(0),
      "worker threads, --exact only (0: all cores; at most 2 are used)");
  add("csv", po::value(&csv_path),
      "write the rows, with the fractions, to FILE as CSV (- for standard output, instead "
      "of the table)");
  add("json", po::bool_switch(), "print one JSON object");
  add("plot", po::value(&plot_path),
      "plot x/n and x(n)-x(n-1) with gnuplot to FILE (.svg or .png; - for an SVG on "
      "standard output, instead of the table)");
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kUsage, vm)) return kExitOk;
  const bool use_float = vm["float"].as<bool>();
  SolitaireVariant variant;
  Status s = ParseSolitaireVariant(variant_text, &variant);
  if (s.ok() && use_float && vm["exact"].as<bool>())
    s = Status::InvalidArgument("--exact and --float exclude each other");
  if (s.ok() && n_max < 1) s = Status::InvalidArgument("--n must be at least 1");
  if (s.ok() && n_max > (1 << 24)) s = Status::InvalidArgument("--n must be at most 16777216");
  if (s.ok() && (k < 0 || k > n_max)) s = Status::InvalidArgument("--k must be in 0..N");
  if (s.ok() && (from < 1 || every < 1))
    s = Status::InvalidArgument("--from and --every must be at least 1");
  if (s.ok() && from > n_max) s = Status::InvalidArgument("--from must be at most N");
  if (s.ok() && !use_float && !vm["precision"].defaulted())
    s = Status::InvalidArgument("--precision goes with --float");
  if (s.ok() && precision != "double" && precision != "long") {
    s = Status::InvalidArgument("--precision must be double or long");
  }
  if (s.ok()) s = CheckThreads(threads);
  if (s.ok())
    s = CheckResultStreams(vm["json"].as<bool>(), {{"csv", csv_path}, {"plot", plot_path}});
  OutputFile csv;
  if (s.ok()) s = OpenCsv(csv_path, &csv);
  PlotOutput plot_out;
  if (s.ok()) s = plot_out.Open(plot_path);
  if (!s.ok()) return BadInput(program, s.ToString());
  const bool json = vm["json"].as<bool>(), fractions = vm["fractions"].as<bool>();
  const char* symbol = SolitaireVariantSymbol(variant);
  const std::string name = std::string(symbol) + "(n," + std::to_string(k) + ")";

  std::vector<Row> rows;
  PlotSeries plot_ratio{name + "/n", {}, {}},
      plot_diff{name + " - " + std::string(symbol) + "(n-1," + std::to_string(k) + ")", {}, {}};
  const int plot_stride = std::max(1, n_max / 4000);
  // The multiples of --every (250, 500, ...: round numbers), and the last.
  auto keep = [&](int n) { return n >= from && n >= k && (n % every == 0 || n == n_max); };
  auto plotted = [&](int n) {
    return !plot_path.empty() && n % plot_stride == 0 && n >= std::max(k, 1);
  };
  SolitaireSurveyOptions options;
  options.variant = variant;
  options.n_max = n_max;
  options.k = k;
  options.arithmetic = !use_float            ? SolitaireArithmetic::kExact
                       : precision == "long" ? SolitaireArithmetic::kLongDouble
                                             : SolitaireArithmetic::kDouble;
  options.threads = threads;
  // Stopped, the last row done is printed as --n would print it: the point
  // is kept until the next (an mpq copy: far cheaper than the row).
  std::optional<SolitaireExactPoint> last_exact;
  std::optional<SolitaireFloatPoint> last_float;
  auto exact_row = [&](const SolitaireExactPoint& p) {
    // x(K-1, K) does not exist: no difference on the first row.
    rows.push_back({p.n, Decimal(p.value, 16), p.value.get_str(), "", Decimal(p.ratio, 12),
                    p.n > k ? Decimal(p.difference, 12) : "", p.ratio.get_d(), p.difference.get_d(),
                    p.value.get_d()});
  };
  auto float_row = [&](const SolitaireFloatPoint& p) {
    char buf[4][64];
    std::snprintf(buf[0], 64, "%.*Lg", precision == "long" ? 19 : 16, p.value);
    std::snprintf(buf[1], 64, "%.2Lg", p.bound);
    std::snprintf(buf[2], 64, "%.12Lg", p.ratio);
    std::snprintf(buf[3], 64, "%.12Lg", p.difference);
    if (p.n == k) buf[3][0] = '\0';  // x(K-1, K) does not exist
    rows.push_back({p.n, buf[0], "", buf[1], buf[2], buf[3], static_cast<double>(p.ratio),
                    static_cast<double>(p.difference), static_cast<double>(p.value),
                    static_cast<double>(p.bound)});
  };
  options.on_exact_point = [&](const SolitaireExactPoint& p) {
    if (keep(p.n)) {
      exact_row(p);
    } else if (p.n >= from && p.n >= k) {
      last_exact = p;
    }
    if (plotted(p.n)) {
      plot_ratio.points.push_back({static_cast<double>(p.n), p.ratio.get_d()});
      if (p.n > k) plot_diff.points.push_back({static_cast<double>(p.n), p.difference.get_d()});
    }
  };
  options.on_float_point = [&](const SolitaireFloatPoint& p) {
    if (keep(p.n)) {
      float_row(p);
    } else if (p.n >= from && p.n >= k) {
      last_float = p;
    }
    if (plotted(p.n)) {
      plot_ratio.points.push_back({static_cast<double>(p.n), static_cast<double>(p.ratio)});
      if (p.n > k)
        plot_diff.points.push_back({static_cast<double>(p.n), static_cast<double>(p.difference)});
    }
  };
  std::atomic<uint64_t> done{0}, total{static_cast<uint64_t>(n_max) * (n_max + 1) / 2};
  options.entries_done = &done;
  StopOnSignals signals;
  options.stop = signals.flag();
  SolitaireSurvey survey;
  {
    Progress progress("solitaire", "entries", &done, &total);
    s = SurveySolitaire(options, &survey);
  }
  // Stopped: the rows done are reported as --n <last done> reports them,
  // then one line says so (below, after the results).
  const bool stopped = s.IsCancelled();
  if (stopped) {
    n_max = survey.n_done;
    const bool last_kept = !rows.empty() && rows.back().n == n_max;
    if (!last_kept && last_exact && last_exact->n == n_max) exact_row(*last_exact);
    if (!last_kept && last_float && last_float->n == n_max) float_row(*last_float);
  }
  auto interrupted = [&] {
    std::cout.flush();
    std::cerr << program << ": interrupted after n = " << survey.n_done << " of " << options.n_max;
    if (survey.n_done >= std::max({from, k, 1})) {
      std::cerr << "; the results are those of n = 1.." << survey.n_done << " (what --n "
                << survey.n_done << " gives)\n";
    } else {
      std::cerr << ", before the first row asked for; nothing printed\n";
    }
    return signals.ExitCode();
  };
  if (stopped && survey.n_done < std::max({from, k, 1})) return interrupted();
  if (!s.ok() && !stopped) return BadInput(program, s.ToString());

  const std::string mode =
      use_float ? std::string("float (") + (precision == "long" ? "long double" : "double") + ")"
                : "exact";
  auto paper_range = [&](const SolitaireObservation& o) {
    return std::to_string(o.paper_from) + " <= n <= 5000";
  };
  const std::vector<ObservationCheck>& observations = survey.observations;
  auto observed = [&](const ObservationCheck& o) {
    std::string text = std::to_string(o.holds_from) + " <= n <= " + std::to_string(n_max);
    if (use_float) {
      text += " as computed; certified by the error bounds from n = " +
              std::to_string(o.certified_from);
      if (o.wrong_way_to > 1)
        text += "; last step certainly the wrong way: to n = " + std::to_string(o.wrong_way_to);
    }
    return text;
  };
  // The interval's ends in ten decimals, rounded outwards (exact), with a
  // margin of one unit in floating point.
  const SolitaireLimit& limit = survey.limit;
  std::string limit_low, limit_high, limit_assumption;
  if (limit.found && !use_float) {
    limit_low = DecimalFloor(limit.exact_low, 10);
    limit_high = DecimalCeil(limit.exact_high, 10);
    limit_assumption =
        "if x(n,0)/n keeps increasing and x(n,0)-x(n-1,0) keeps decreasing beyond n = " +
        std::to_string(n_max) +
        " (as they do from n = " + std::to_string(observations[0].holds_from) +
        " and n = " + std::to_string(observations[1].holds_from) + ")";
  } else if (limit.found) {
    char lo[64], hi[64];
    std::snprintf(lo, sizeof(lo), "%.10Lf", std::floor(limit.low * 1e10L - 1) / 1e10L);
    std::snprintf(hi, sizeof(hi), "%.10Lf", std::ceil(limit.high * 1e10L + 1) / 1e10L);
    limit_low = lo;
    limit_high = hi;
    limit_assumption =
        "if x(n,0)/n increases for n >= " + std::to_string(observations[0].observation.paper_from) +
        " and x(n,0)-x(n-1,0) decreases for n >= " +
        std::to_string(observations[1].observation.paper_from) +
        " (the paper's Observations as Conjectures; floating point cannot check them at large n: "
        "use --exact)";
  }
  if (plot_out.is_open()) {
    PlotSpec plot;
    plot.title = std::string("Solitaire Memory (Foerster & Wattenhofer), ") +
                 SolitaireVariantName(variant) + ", k = " + std::to_string(k);
    plot.xlabel = "n (pairs, log scale)";
    plot.log_x = true;
    plot.ylabel = "moves per pair";
    plot.series = {plot_ratio, plot_diff};
    if (!WritePlotOrReport(program, &plot_out, plot)) return kExitCheckFailed;
  }
  if (csv.is_open()) {
    // docs/output.md; the columns are described in docs/schema/csv_columns.json.
    csv << "variant,k,n,expected_decimal," << (use_float ? "error_bound" : "expected_exact")
        << ",expected_per_pair_decimal,difference_decimal\n";
    for (const Row& r : rows) {
      csv << SolitaireVariantName(variant) << "," << k << "," << r.n << "," << r.value << ","
          << (use_float ? r.bound : r.exact) << "," << r.ratio << "," << r.difference << "\n";
    }
  }
  if (!CommitOutput(program, &csv)) return kExitCheckFailed;
  // A CSV or plot on standard output is the only thing there.
  if (csv.is_stdout() || plot_path == "-") return stopped ? interrupted() : kExitOk;
  if (json) {
    // docs/schema/cardlab-memory-solitaire.schema.json.
    using Json = nlohmann::ordered_json;
    Json j;
    j["command"] = "cardlab memory solitaire";
    j["variant"] = SolitaireVariantName(variant);
    j["symbol"] = symbol;
    j["n"] = n_max;
    j["k"] = k;
    j["mode"] = mode;
    j["rows"] = Json::array();
    for (const Row& r : rows) {
      Json row;
      row["n"] = r.n;
      row["expected_decimal"] = r.value_d;
      if (!use_float && fractions) row["expected_exact"] = r.exact;
      if (use_float) row["error_bound"] = r.bound_d;
      row["expected_per_pair_decimal"] = r.ratio_d;
      if (!r.difference.empty()) row["difference_decimal"] = r.difference_d;
      j["rows"].push_back(row);
    }
    j["observations"] = Json::array();
    for (const ObservationCheck& o : observations) {
      Json ob;
      ob["id"] = o.observation.id;
      ob["sequence"] = SequenceName(o.observation.sequence);
      ob["strictly"] = o.observation.increasing ? "increasing" : "decreasing";
      ob["paper_from"] = o.observation.paper_from;
      ob["holds_from"] = o.holds_from;
      ob["certified_from"] = o.certified_from;
      ob["to"] = o.to;
      ob["reached"] = o.reached;
      ob["confirms_paper"] = o.confirms_paper;
      j["observations"].push_back(ob);
    }
    if (limit.found) {
      Json l;
      l["low_decimal"] = std::stod(limit_low);
      l["high_decimal"] = std::stod(limit_high);
      l["assuming"] = limit_assumption;
      j["limit"] = l;
    }
    std::cout << j.dump() << "\n";
    return stopped ? interrupted() : kExitOk;
  }
  std::cout << "# solitaire Memory (Foerster & Wattenhofer), " << name << ": "
            << SolitaireVariantName(variant) << ", " << mode << "\n";
  if (use_float) {
    std::printf("%8s  %-22s %-9s %-15s %-15s\n", "n", name.c_str(), "+-bound", "ratio",
                "difference");
  } else {
    std::printf("%8s  %-22s %-15s %-15s%s\n", "n", name.c_str(), "ratio", "difference",
                fractions ? "  exact" : "");
  }
  for (const Row& r : rows) {
    if (use_float) {
      std::printf("%8d  %-22s %-9s %-15s %-15s\n", r.n, r.value.c_str(), r.bound.c_str(),
                  r.ratio.c_str(), r.difference.c_str());
    } else {
      std::printf("%8d  %-22s %-15s %-15s%s%s\n", r.n, r.value.c_str(), r.ratio.c_str(),
                  r.difference.c_str(), fractions ? "  " : "", fractions ? r.exact.c_str() : "");
    }
  }
  for (const ObservationCheck& o : observations) {
    std::printf("observation %d  %s strictly %s: paper %s; here %s%s\n", o.observation.id,
                SequenceName(o.observation.sequence),
                o.observation.increasing ? "increasing" : "decreasing",
                paper_range(o.observation).c_str(), observed(o).c_str(),
                !o.reached         ? " (N is below the paper's range: nothing checked)"
                : o.confirms_paper ? ""
                                   : " (CONTRADICTS the paper's range)");
  }
  if (limit.found) {
    std::printf("limit  lim %s(n,0)/n in [%s, %s] %s\n", symbol, limit_low.c_str(),
                limit_high.c_str(), limit_assumption.c_str());
  }
  std::fflush(stdout);
  return stopped ? interrupted() : kExitOk;
}

}  // namespace eulerdeck::tools
