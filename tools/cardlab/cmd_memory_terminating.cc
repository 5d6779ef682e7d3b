// cardlab memory terminating: Alfthan 2007's E(n,j), the optimal move table, and
// the thesis's conjectures checked. The science is SurveyTerminating's
// (engine/memory/conjectures.h); this file parses and formats.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "engine/memory/conjectures.h"
#include "tools/common/cli.h"
#include "tools/common/format.h"
#include "tools/common/interrupt.h"
#include "tools/common/plot.h"
#include "tools/common/progress.h"

namespace eulerdeck::tools {

namespace {

constexpr const char* kUsage =
    "usage: cardlab memory terminating --n N [--exact | --float] [--grid G]\n"
    "                                  [--values] [--csv FILE] [--json]\n"
    "                                  [--plot FILE] [--plot-j LIST]\n"
    "Terminating Memory (Alfthan 2007): E(n,j), the expected number of pairs the\n"
    "player to move collects with n pairs left, j of them unknown, for all\n"
    "0 <= j <= n <= N; the optimal move at each (n,j) (Table 2.1: 1 risky,\n"
    "0 safe, # no choice, = a tie); the exceptions to 'risky when j is odd';\n"
    "the thesis's Conjecture 1 (no exception for n >= 16), Conjecture 2 (for\n"
    "j >= 18, E(n,j)/n grows in n for even j and falls for odd j, n >= j) and\n"
    "the closed forms for j <= 4, all checked up to N.\n"
    "--exact (default) uses GMP rationals (N <= 500); --float long double\n"
    "(N <= 3000). --grid G prints the move table for n <= G (default 40);\n"
    "--values prints every E(n,j). Ctrl-C (or SIGTERM) stops after the row n\n"
    "under way and reports the rows done, exactly what --n for the last of them\n"
    "gives, then exits 130 (143).\n"
    "--csv columns: n,j,move,expected_decimal,expected_per_pair_decimal,\n"
    "safe_decimal,risky_decimal,expected_exact (--exact only)\n"
    "(docs/schema/csv_columns.json).";

std::string Show(const mpq_class& q) { return Decimal(q, 16); }
std::string Show(long double x) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.18Lg", x);
  return buf;
}
double ToDouble(const mpq_class& q) { return q.get_d(); }
double ToDouble(long double x) { return static_cast<double>(x); }

template <class T>
int Report(const TerminatingTable<T>& t, const TerminatingChecks& c, bool exact, int grid,
           bool values, OutputFile& csv, bool json, PlotOutput* plot_out,
           const std::vector<int>& plot_j, const std::function<int(int)>& finish) {
  const int n_max = t.n_max;
  if (plot_out->is_open()) {
    PlotSpec plot;
    plot.title = "Terminating Memory (Alfthan 2007): E(n,j)/n";
    plot.xlabel = "n (pairs)";
    plot.ylabel = "E(n,j)/n";
    for (int j : plot_j) {
      if (j > n_max) continue;
      PlotSeries s{"j = " + std::to_string(j), {}, {}};
      for (int n = std::max(j, 1); n <= n_max; ++n)
        s.points.push_back({double(n), ToDouble(t.value[n][j]) / n});
      plot.series.push_back(s);
    }
    if (!WritePlotOrReport("cardlab memory terminating", plot_out, plot)) return kExitCheckFailed;
  }
  if (csv.is_open()) {
    // docs/output.md; the columns are described in docs/schema/csv_columns.json.
    csv << "n,j,move,expected_decimal,expected_per_pair_decimal,safe_decimal,risky_decimal"
        << (exact ? ",expected_exact" : "") << "\n";
    for (int n = 0; n <= n_max; ++n) {
      for (int j = 0; j <= n; ++j) {
        csv << n << "," << j << "," << static_cast<char>(t.move[n][j]) << "," << Show(t.value[n][j])
            << "," << (n ? Show(T(t.value[n][j] / n)) : std::string("")) << ","
            << (j < n ? Show(t.safe[n][j]) : "") << "," << Show(t.risky[n][j]);
        if constexpr (std::is_same_v<T, mpq_class>) csv << "," << t.value[n][j].get_str();
        csv << "\n";
      }
    }
  }
  if (!CommitOutput("cardlab memory terminating", &csv)) return kExitCheckFailed;
  // With --csv - or --plot - that is the only thing on standard output.
  if (csv.is_stdout() || plot_out->path() == "-")
    return finish(c.closed_forms_failed == 0 ? kExitOk : kExitCheckFailed);
  auto pairs_text = [](const std::vector<std::pair<int, int>>& v) {
    std::string s;
    for (auto [a, b] : v)
      s += (s.empty() ? "" : " ") + std::string("(") + std::to_string(a) + "," + std::to_string(b) +
           ")";
    return s.empty() ? std::string("none") : s;
  };
  if (json) {
    // docs/schema/cardlab-memory-terminating.schema.json.
    using Json = nlohmann::ordered_json;
    Json j;
    j["command"] = "cardlab memory terminating";
    j["n"] = n_max;
    j["mode"] = exact ? "exact" : "float (long double)";
    j["moves"] = Json::array();
    for (int n = 0; n <= n_max; ++n) {
      std::string row;
      for (int k = 0; k <= n; ++k) row += static_cast<char>(t.move[n][k]);
      j["moves"].push_back(row);
    }
    auto nj = [](int n, int jj) {
      Json o;
      o["n"] = n;
      o["j"] = jj;
      return o;
    };
    j["exceptions"] = Json::array();
    for (auto [n, jj] : c.exceptions) j["exceptions"].push_back(nj(n, jj));
    Json c1;
    c1["pattern_holds_from"] = c.pattern_holds_from;
    c1["paper_from"] = kConjecture1FromN;
    c1["to"] = n_max;
    c1["confirmed"] = c.conjecture1_confirmed;
    j["conjecture1"] = c1;
    Json c2;
    c2["from_j"] = kConjecture2FromJ;
    c2["failures"] = Json::array();
    for (auto [jj, n] : c.conjecture2_failures) c2["failures"].push_back(nj(n, jj));
    j["conjecture2"] = c2;
    Json closed;
    closed["checked"] = c.closed_forms_checked;
    closed["failed"] = c.closed_forms_failed;
    j["closed_forms"] = closed;
    if (!exact) j["min_safe_risky_margin"] = c.min_safe_risky_margin;
    if (values) {
      Json decimal = Json::array(), fractions = Json::array();
      for (int n = 0; n <= n_max; ++n) {
        Json row = Json::array(), exact_row = Json::array();
        for (int k = 0; k <= n; ++k) {
          row.push_back(ToDouble(t.value[n][k]));
          if constexpr (std::is_same_v<T, mpq_class>) exact_row.push_back(t.value[n][k].get_str());
        }
        decimal.push_back(row);
        fractions.push_back(exact_row);
      }
      j["expected_decimal"] = decimal;
      if (exact) j["expected_exact"] = fractions;
    }
    std::cout << j.dump() << "\n";
    return finish(kExitOk);
  }
  std::cout << "# Terminating Memory (Alfthan 2007), E(n,j) for 0 <= j <= n <= " << n_max << ", "
            << (exact ? "exact" : "float (long double)") << "\n";
  std::cout << "optimal move (1 risky, 0 safe, # no choice, = tie), row n, column j = 0..n:\n";
  for (int n = 1; n <= std::min(grid, n_max); ++n) {
    std::string row;
    for (int k = 0; k <= n; ++k) row += static_cast<char>(t.move[n][k]);
    std::printf("%5d  %s\n", n, row.c_str());
  }
  if (values) {
    std::cout << "n j move E(n,j)" << (exact ? " exact" : "") << "\n";
    for (int n = 0; n <= n_max; ++n) {
      for (int k = 0; k <= n; ++k) {
        std::cout << n << " " << k << " " << static_cast<char>(t.move[n][k]) << " "
                  << Show(t.value[n][k]);
        if constexpr (std::is_same_v<T, mpq_class>) std::cout << " " << t.value[n][k].get_str();
        std::cout << "\n";
      }
    }
  }
  std::cout << "exceptions to 'risky iff j odd' (n,j): " << pairs_text(c.exceptions) << "\n";
  std::cout << "conjecture 1 (no exception for n >= " << kConjecture1FromN << "): pattern "
            << (c.pattern_holds_from <= n_max
                    ? "holds for " + std::to_string(c.pattern_holds_from) +
                          " <= n <= " + std::to_string(n_max)
                    : "fails at n = " + std::to_string(n_max))
            << (n_max < kConjecture1FromN ? " (N is below the conjecture's range: nothing checked)"
                : c.conjecture1_confirmed ? " (confirms)"
                                          : " (CONTRADICTS)")
            << "\n";
  std::cout << "conjecture 2 (j >= " << kConjecture2FromJ
            << ", every n >= j; a failure (j,n) is the step n -> n+1): "
            << (c.conjecture2_failures.empty()
                    ? "holds"
                    : "fails at (j,n) " + pairs_text(c.conjecture2_failures))
            << " up to n = " << n_max
            << (n_max < kConjecture2FromJ ? " (N is below the conjecture's range: nothing checked)"
                                          : "")
            << "\n";
  for (const auto& [jj, ns] : c.small_j_failures) {
    std::string s;
    for (int n : ns) s += (s.empty() ? "" : ",") + std::to_string(n);
    std::cout << "  j = " << jj << " (< " << kConjecture2FromJ
              << "): E(n,j)/n not monotone at n = " << s << "\n";
  }
  std::cout << "closed forms j <= 4: " << c.closed_forms_checked - c.closed_forms_failed << " of "
            << c.closed_forms_checked << " values agree\n";
  if (!exact)
    std::printf("smallest |safe - risky| for 1 <= j < n: %.3g\n", c.min_safe_risky_margin);
  std::fflush(stdout);
  return finish(c.closed_forms_failed == 0 ? kExitOk : kExitCheckFailed);
}

}  // namespace

int RunMemoryTerminating(const std::vector<std::string>& args) {
  const std::string program = "cardlab memory terminating";
  int n_max = 0, grid = 40;
  std::string csv_path, plot_path, plot_j_text = "1,2,3,4,5,6,7,8,9,10";
  po::options_description desc("options");
  po::options_description_easy_init add = desc.add_options();
  add("help,h", "show this help");
  add("n", po::value(&n_max)->required(), "largest number of pairs N");
  add("exact", po::bool_switch(), "exact fractions, GMP rationals (the default)");
  add("float", po::bool_switch(), "floating point (long double)");
  add("grid", po::value(&grid)->default_value(40), "print the move table for n <= G");
  add("values", po::bool_switch(), "print every E(n,j)");
  add("csv", po::value(&csv_path),
      "write every (n, j) to FILE as CSV (- for standard output, instead of the report)");
  add("json", po::bool_switch(), "print one JSON object");
  add("plot", po::value(&plot_path),
      "plot E(n,j)/n against n with gnuplot to FILE (.svg or .png; - for an SVG on standard "
      "output, instead of the report)");
  add("plot-j", po::value(&plot_j_text)->default_value("1,2,3,4,5,6,7,8,9,10"),
      "the j plotted, separated by commas");
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kUsage, vm)) return kExitOk;
  const bool use_float = vm["float"].as<bool>();
  Status s;
  if (use_float && vm["exact"].as<bool>())
    s = Status::InvalidArgument("--exact and --float exclude each other");
  if (s.ok() && n_max < 1) s = Status::InvalidArgument("--n must be at least 1");
  // The whole table is kept (E(n,j)/n is compared across rows): about
  // 0.35 GB at n = 500 exact and 0.25 GB at n = 3000 in long double.
  if (s.ok() && !use_float && n_max > 500)
    s = Status::InvalidArgument("--exact --n must be at most 500 (use --float)");
  if (s.ok() && n_max > 3000) s = Status::InvalidArgument("--n must be at most 3000");
  if (s.ok() && grid < 0) s = Status::InvalidArgument("--grid must be >= 0");
  std::vector<int> plot_j;
  if (s.ok()) {
    std::stringstream in(plot_j_text);
    std::string item;
    while (s.ok() && std::getline(in, item, ',')) {
      try {
        size_t used = 0;
        const int j = std::stoi(item, &used);
        if (used != item.size() || j < 0) throw std::invalid_argument(item);
        plot_j.push_back(j);
      } catch (const std::exception&) {
        s = Status::InvalidArgument("--plot-j '" + plot_j_text + "' is not a list of j >= 0");
      }
    }
  }
  if (s.ok() && !plot_path.empty()) {
    if (std::none_of(plot_j.begin(), plot_j.end(), [&](int j) { return j <= n_max; })) {
      s = Status::InvalidArgument("--plot-j has no j <= N = " + std::to_string(n_max));
    }
  }
  if (s.ok())
    s = CheckResultStreams(vm["json"].as<bool>(), {{"csv", csv_path}, {"plot", plot_path}});
  OutputFile csv;
  if (s.ok()) s = OpenCsv(csv_path, &csv);
  PlotOutput plot_out;
  if (s.ok()) s = plot_out.Open(plot_path);
  if (!s.ok()) return BadInput(program, s.ToString());
  const bool json = vm["json"].as<bool>(), values = vm["values"].as<bool>();
  TerminatingChecks checks;
  // Progress in table entries (n + 1 for row n); Ctrl-C stops after the row
  // under way, and the rows done are reported as --n <last row> reports
  // them, then one line says so.
  std::atomic<uint64_t> done{0}, total{static_cast<uint64_t>(n_max + 1) * (n_max + 2) / 2};
  StopOnSignals signals;
  TerminatingOptions options;
  options.entries_done = &done;
  options.stop = signals.flag();
  auto run = [&](auto* t) {
    Progress progress("terminating", "entries", &done, &total);
    return SurveyTerminating(n_max, t, &checks, options);
  };
  auto report = [&](const auto& t, bool exact) {
    const bool stopped = s.IsCancelled();
    if (!s.ok() && !stopped) return BadInput(program, s.ToString());
    auto finish = [&](int rc) {
      if (!stopped) return rc;
      std::cout.flush();
      std::cerr << program << ": interrupted after n = " << t.n_max << " of " << n_max;
      if (t.n_max >= 1) {
        std::cerr << "; the results are those of n = 1.." << t.n_max << " (what --n " << t.n_max
                  << " gives)\n";
      } else {
        std::cerr << ", before the first row; nothing printed\n";
      }
      return signals.ExitCode();
    };
    if (stopped && t.n_max < 1) return finish(kExitOk);
    return Report(t, checks, exact, grid, values, csv, json, &plot_out, plot_j, finish);
  };
  if (use_float) {
    TerminatingTable<long double> t;
    s = run(&t);
    return report(t, false);
  }
  TerminatingTable<mpq_class> t;
  s = run(&t);
  return report(t, true);
}

}  // namespace eulerdeck::tools
