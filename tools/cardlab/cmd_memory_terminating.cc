// cardlab memory terminating: seed 003's E(n,j), the optimal move table, and
// the thesis's conjectures checked.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <map>
#include <sstream>

#include "engine/memory/terminating.h"
#include "tools/common/cli.h"
#include "tools/common/format.h"
#include "tools/common/plot.h"

namespace eulerdeck::tools {

namespace {

constexpr const char* kUsage =
    "usage: cardlab memory terminating --n N [--exact | --float] [--grid G] [--values]\n"
    "                                  [--csv FILE] [--json] [--plot FILE.svg|png] [--plot-j LIST]\n"
    "Terminating Memory (seed 003): E(n,j), the expected number of pairs the\n"
    "player to move collects with n pairs left, j of them unknown, for all\n"
    "0 <= j <= n <= N; the optimal move at each (n,j) (Table 2.1: 1 risky,\n"
    "0 safe, # no choice, = a tie); the exceptions to 'risky when j is odd';\n"
    "the thesis's Conjecture 1 (no exception for n >= 16), Conjecture 2 (for\n"
    "j >= 18, E(n,j)/n grows in n for even j and falls for odd j, n >= j) and\n"
    "the closed forms for j <= 4, all checked up to N.\n"
    "--exact (default) uses GMP rationals (N <= 500); --float long double\n"
    "(N <= 3000). --grid G prints the move table for n <= G (default 40);\n"
    "--values prints every E(n,j).";

// The sign of a - b; in floating point, 0 within a relative 1e-12.
int Compare(const mpq_class& a, const mpq_class& b) { return cmp(a, b) > 0 ? 1 : cmp(a, b) < 0 ? -1 : 0; }
int Compare(long double a, long double b) {
  const long double tol = 1e-12L * (std::abs(a) + std::abs(b));
  return a - b > tol ? 1 : b - a > tol ? -1 : 0;
}
std::string Show(const mpq_class& q) { return Decimal(q, 16); }
std::string Show(long double x) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.18Lg", x);
  return buf;
}
double ToDouble(const mpq_class& q) { return q.get_d(); }
double ToDouble(long double x) { return static_cast<double>(x); }

template <class T>
int Report(const TerminatingTable<T>& t, bool exact, int grid, bool values, std::ofstream& csv, bool json,
           const std::string& plot_path, const std::vector<int>& plot_j) {
  const int n_max = t.n_max;
  // Exceptions to "risky iff j odd" (1 <= j < n), and where Conjecture 1's
  // pattern holds from.
  std::vector<std::pair<int, int>> exceptions;
  int pattern_from = 1;
  double min_margin = 1e300;
  for (int n = 1; n <= n_max; ++n) {
    for (int j = 1; j < n; ++j) {
      const TmMove want = j % 2 ? TmMove::kRisky : TmMove::kSafe;
      if (t.move[n][j] != want) {
        exceptions.push_back({n, j});
        pattern_from = n + 1;
      }
      min_margin = std::min(min_margin, std::abs(ToDouble(t.safe[n][j]) - ToDouble(t.risky[n][j])));
    }
  }
  // Conjecture 2: monotonicity of E(n,j)/n in n, for every n >= j.
  std::vector<std::pair<int, int>> conj2_failures;  // (j, n): the step n -> n+1 goes the wrong way
  std::map<int, std::vector<int>> small_j_failures;
  for (int j = 1; j <= n_max; ++j) {
    for (int n = j; n < n_max; ++n) {
      const T a = t.value[n][j] / n, b = t.value[n + 1][j] / (n + 1);
      const int step = Compare(b, a);
      if (step != (j % 2 == 0 ? 1 : -1)) {
        if (j >= 18) conj2_failures.push_back({j, n});
        else small_j_failures[j].push_back(n);
      }
    }
  }
  // The closed forms for j <= 4.
  int closed_checked = 0, closed_failed = 0;
  for (int j = 0; j <= 4; ++j) {
    for (int n = j; n <= n_max; ++n) {
      ++closed_checked;
      const mpq_class want = TerminatingClosedForm(n, j);
      if constexpr (std::is_same_v<T, mpq_class>) {
        closed_failed += t.value[n][j] != want;
      } else {
        closed_failed += std::abs(ToDouble(t.value[n][j]) - want.get_d()) > 1e-12 * (1 + n);
      }
    }
  }
  if (!plot_path.empty()) {
    PlotSpec plot;
    plot.title = "Terminating Memory (seed 003): E(n,j)/n";
    plot.xlabel = "n (pairs)";
    plot.ylabel = "E(n,j)/n";
    for (int j : plot_j) {
      if (j > n_max) continue;
      PlotSeries s{"j = " + std::to_string(j), {}};
      for (int n = std::max(j, 1); n <= n_max; ++n) s.points.push_back({double(n), ToDouble(t.value[n][j]) / n});
      plot.series.push_back(s);
    }
    const Status s = WritePlot(plot_path, plot);
    if (!s.ok()) return BadInput("cardlab memory terminating", s.ToString());
  }
  if (csv.is_open()) {
    csv << "n,j,move,E,E_over_n,safe,risky" << (exact ? ",exact" : "") << "\n";
    for (int n = 0; n <= n_max; ++n) {
      for (int j = 0; j <= n; ++j) {
        csv << n << "," << j << "," << static_cast<char>(t.move[n][j]) << "," << Show(t.value[n][j]) << ","
            << (n ? Show(T(t.value[n][j] / n)) : std::string("")) << "," << (j < n ? Show(t.safe[n][j]) : "") << ","
            << Show(t.risky[n][j]);
        if constexpr (std::is_same_v<T, mpq_class>) csv << "," << t.value[n][j].get_str();
        csv << "\n";
      }
    }
  }
  auto pairs_text = [](const std::vector<std::pair<int, int>>& v) {
    std::string s;
    for (auto [a, b] : v) s += (s.empty() ? "" : " ") + std::string("(") + std::to_string(a) + "," + std::to_string(b) + ")";
    return s.empty() ? std::string("none") : s;
  };
  if (json) {
    nlohmann::json j;
    j["game"] = "terminating memory";
    j["n"] = n_max;
    j["mode"] = exact ? "exact" : "float (long double)";
    j["moves"] = nlohmann::json::array();
    for (int n = 0; n <= n_max; ++n) {
      std::string row;
      for (int k = 0; k <= n; ++k) row += static_cast<char>(t.move[n][k]);
      j["moves"].push_back(row);
    }
    j["exceptions"] = nlohmann::json::array();
    for (auto [n, jj] : exceptions) j["exceptions"].push_back({n, jj});
    j["conjecture1"] = {{"pattern_holds_from", pattern_from}, {"paper_from", 16}, {"to", n_max}};
    j["conjecture2"] = {{"failures_j_ge_18", nlohmann::json::array()}};
    for (auto [jj, n] : conj2_failures) j["conjecture2"]["failures_j_ge_18"].push_back({{"j", jj}, {"n", n}});
    j["closed_forms"] = {{"checked", closed_checked}, {"failed", closed_failed}};
    j["min_safe_risky_margin"] = min_margin;
    if (values) {
      j["E"] = nlohmann::json::array();
      for (int n = 0; n <= n_max; ++n) {
        nlohmann::json row = nlohmann::json::array();
        for (int k = 0; k <= n; ++k) {
          if constexpr (std::is_same_v<T, mpq_class>) row.push_back(t.value[n][k].get_str());
          else row.push_back(ToDouble(t.value[n][k]));
        }
        j["E"].push_back(row);
      }
    }
    std::cout << j.dump() << "\n";
    return kExitOk;
  }
  std::cout << "# Terminating Memory (seed 003), E(n,j) for 0 <= j <= n <= " << n_max << ", "
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
        std::cout << n << " " << k << " " << static_cast<char>(t.move[n][k]) << " " << Show(t.value[n][k]);
        if constexpr (std::is_same_v<T, mpq_class>) std::cout << " " << t.value[n][k].get_str();
        std::cout << "\n";
      }
    }
  }
  std::cout << "exceptions to 'risky iff j odd' (n,j): " << pairs_text(exceptions) << "\n";
  std::cout << "conjecture 1 (no exception for n >= 16): pattern holds for " << pattern_from << " <= n <= " << n_max
            << (pattern_from <= 16 ? " (confirms)" : " (CONTRADICTS)") << "\n";
  std::cout << "conjecture 2 (j >= 18, every n >= j; a failure (j,n) is the step n -> n+1): " << (conj2_failures.empty() ? "holds" : "fails at (j,n) " + pairs_text(conj2_failures))
            << " up to n = " << n_max << "\n";
  for (const auto& [jj, ns] : small_j_failures) {
    std::string s;
    for (int n : ns) s += (s.empty() ? "" : ",") + std::to_string(n);
    std::cout << "  j = " << jj << " (< 18): E(n,j)/n not monotone at n = " << s << "\n";
  }
  std::cout << "closed forms j <= 4: " << closed_checked - closed_failed << " of " << closed_checked << " values agree\n";
  if (!exact) std::printf("smallest |safe - risky| for 1 <= j < n: %.3g\n", min_margin);
  std::fflush(stdout);
  return closed_failed == 0 ? kExitOk : kExitCheckFailed;
}

}  // namespace

int RunMemoryTerminating(const std::vector<std::string>& args) {
  const std::string program = "cardlab memory terminating";
  int n_max = 0, grid = 40;
  std::string csv_path, plot_path, plot_j_text = "1,2,3,4,5,6,7,8,9,10";
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help")
      ("n", po::value(&n_max)->required(), "largest number of pairs N")
      ("exact", po::bool_switch(), "GMP rationals (the default)")
      ("float", po::bool_switch(), "long double")
      ("grid", po::value(&grid)->default_value(40), "print the move table for n <= G")
      ("values", po::bool_switch(), "print every E(n,j)")
      ("csv", po::value(&csv_path), "also write every (n, j) to FILE")
      ("json", po::bool_switch(), "print one JSON object")
      ("plot", po::value(&plot_path), "plot E(n,j)/n against n to FILE (.svg or .png) with gnuplot")
      ("plot-j", po::value(&plot_j_text)->default_value("1,2,3,4,5,6,7,8,9,10"), "the j plotted (comma list)");
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kUsage, vm)) return kExitOk;
  const bool use_float = vm["float"].as<bool>();
  Status s;
  if (use_float && vm["exact"].as<bool>()) s = Status::InvalidArgument("--exact and --float exclude each other");
  if (s.ok() && n_max < 1) s = Status::InvalidArgument("--n must be at least 1");
  // The whole table is kept (E(n,j)/n is compared across rows): about
  // 0.35 GB at n = 500 exact and 0.25 GB at n = 3000 in long double.
  if (s.ok() && !use_float && n_max > 500) s = Status::InvalidArgument("--exact --n must be at most 500 (use --float)");
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
    } else {
      s = CheckPlotPath(plot_path);
    }
  }
  std::ofstream csv;
  if (s.ok()) s = OpenCsv(csv_path, &csv);
  if (!s.ok()) return BadInput(program, s.ToString());
  const bool json = vm["json"].as<bool>(), values = vm["values"].as<bool>();
  if (use_float) {
    TerminatingTable<long double> t;
    s = Terminating(n_max, &t);
    if (!s.ok()) return BadInput(program, s.ToString());
    return Report(t, false, grid, values, csv, json, plot_path, plot_j);
  }
  TerminatingTable<mpq_class> t;
  s = Terminating(n_max, &t);
  if (!s.ok()) return BadInput(program, s.ToString());
  return Report(t, true, grid, values, csv, json, plot_path, plot_j);
}

}  // namespace eulerdeck::tools
