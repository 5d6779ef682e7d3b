#include "tools/common/plot.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <vector>

namespace eulerdeck::tools {

namespace {

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// gnuplot strings are single-quoted; a quote inside is doubled.
std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

// Twelve colours told apart at a glance (D3's category10, then black and a
// light blue), in an order where neighbours differ most; curves past the
// twelfth reuse them with a dash pattern, so no two curves look alike.
constexpr const char* kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                    "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
                                    "#bcbd22", "#17becf", "#000000", "#aec7e8"};
constexpr size_t kColourCount = sizeof(kColours) / sizeof(kColours[0]);

// How series i is drawn: its colour, and a dash type after the first round.
std::string LineStyle(size_t i) {
  return std::string("lc rgb '") + kColours[i % kColourCount] + "' dt " +
         std::to_string(1 + i / kColourCount);
}

Status CheckGnuplot() {
  if (std::system("gnuplot --version >/dev/null 2>&1") != 0) {
    return Status::InvalidArgument(
        "--plot needs gnuplot (Debian package gnuplot-nox; scripts/setup.sh installs it)");
  }
  return Status::OK();
}

}  // namespace

Status CheckPlotPath(const std::string& path) {
  if (path == "-") return CheckGnuplot();
  if (!EndsWith(path, ".svg") && !EndsWith(path, ".png")) {
    return Status::InvalidArgument("--plot file '" + path + "' must end in .svg or .png");
  }
  // Writable, without creating it: the file if it exists, else its directory.
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "."
                          : slash == 0               ? "/"
                                                     : path.substr(0, slash);
  struct stat st {};
  const bool exists = stat(path.c_str(), &st) == 0;
  if (exists ? (S_ISDIR(st.st_mode) || access(path.c_str(), W_OK) != 0)
             : access(dir.c_str(), W_OK) != 0) {
    return Status::InvalidArgument("cannot write --plot file '" + path + "'");
  }
  return CheckGnuplot();
}

namespace {

// The axis range [lo, hi] of values v (all finite), ended at the data with
// a margin of 3% of the span each side; on a log axis in decades (values
// <= 0 have no place there and are left out). False when there is none.
bool AxisRange(std::vector<double> v, bool log, double* lo, double* hi) {
  if (log) {
    std::vector<double> positive;
    for (double x : v)
      if (x > 0) positive.push_back(std::log10(x));
    v = std::move(positive);
  }
  if (v.empty()) return false;
  const auto [min_it, max_it] = std::minmax_element(v.begin(), v.end());
  double a = *min_it, b = *max_it;
  // One value: a span of one unit (one decade on a log axis) around it.
  const double span = b > a ? b - a : (log ? 1.0 : std::max(1.0, std::abs(a)));
  if (b == a) {
    a -= span / 2;
    b += span / 2;
  }
  a -= 0.03 * span;
  b += 0.03 * span;
  *lo = log ? std::pow(10.0, a) : a;
  *hi = log ? std::pow(10.0, b) : b;
  return true;
}

std::string Range(const char* axis, double lo, double hi) {
  char buf[96];
  std::snprintf(buf, sizeof(buf), "set %srange [%.17g:%.17g]\n", axis, lo, hi);
  return buf;
}

// Renders the plot into `path` (a new temporary file) with gnuplot.
Status Render(const std::string& path, const PlotSpec& spec) {
  // gnuplot's own messages go to a file, reported as one line on failure.
  char log_path[] = "/tmp/eulerdeck-gnuplot-XXXXXX";
  const int log_fd = mkstemp(log_path);
  if (log_fd < 0) return Status::IOError("cannot create a temporary file for gnuplot");
  close(log_fd);
  FILE* gp = popen(("gnuplot >'" + std::string(log_path) + "' 2>&1").c_str(), "w");
  if (gp == nullptr) {
    unlink(log_path);
    return Status::IOError("cannot start gnuplot (install gnuplot-nox)");
  }
  const std::string script = PlotScript(path, spec);
  const bool wrote = std::fwrite(script.data(), 1, script.size(), gp) == script.size();
  const int rc = pclose(gp);
  std::string first_line;
  {
    std::ifstream log(log_path);
    std::string line;
    while (first_line.empty() && std::getline(log, line)) {
      if (line.find_first_not_of(" \t^") != std::string::npos) first_line = line;
    }
  }
  unlink(log_path);
  if (!wrote || rc != 0) {
    return Status::IOError("gnuplot failed" + (first_line.empty() ? "" : ": " + first_line));
  }
  return Status::OK();
}

}  // namespace

std::string PlotScript(const std::string& path, const PlotSpec& spec) {
  std::string script;
  if (EndsWith(path, ".png")) {
    script += "set terminal pngcairo size 1000,650 enhanced font 'sans,11'\n";
  } else {
    script += "set terminal svg size 1000,650 dynamic enhanced font 'sans,11'\n";
  }
  script += "set output " + Quote(path) + "\n";
  script += "set title " + Quote(spec.title) + " noenhanced\n";
  script += "set xlabel " + Quote(spec.xlabel) + " noenhanced\n";
  script += "set ylabel " + Quote(spec.ylabel) + " noenhanced\n";
  // The legend goes right of the plot area, where it can never cover a curve.
  script += "set key outside right top noenhanced\n";
  script += "set grid\nset format y '%.7g'\n";
  if (spec.log_x) script += "set logscale x\n";
  if (spec.log_y) script += "set logscale y\nset format y '10^{%L}'\n";
  if (!spec.z.empty()) {
    script += "set view map\nset palette rgbformulae 33,13,10\n";
    script += "plot '-' using 1:2:3 with image notitle\n";
    const auto& pts = spec.series.at(0).points;
    for (size_t i = 0; i < pts.size(); ++i) {
      script += std::to_string(pts[i].first) + " " + std::to_string(pts[i].second) + " " +
                std::to_string(spec.z[i]) + "\n";
    }
    return script + "e\n";
  }
  // Both axes end at the data (or the x domain), plus the margin.
  std::vector<double> xs, ys;
  for (const PlotSeries& s : spec.series) {
    for (size_t i = 0; i < s.points.size(); ++i) {
      const auto [x, y] = s.points[i];
      if (!std::isfinite(y) || !std::isfinite(x)) continue;
      xs.push_back(x);
      ys.push_back(y);
      if (i < s.y_errors.size()) {
        ys.push_back(s.y_errors[i].first);
        ys.push_back(s.y_errors[i].second);
      }
    }
  }
  if (std::isfinite(spec.x_from) && std::isfinite(spec.x_to)) xs = {spec.x_from, spec.x_to};
  double lo = 0, hi = 0;
  if (AxisRange(xs, spec.log_x, &lo, &hi)) script += Range("x", lo, hi);
  if (AxisRange(ys, spec.log_y, &lo, &hi)) script += Range("y", lo, hi);
  script += "plot ";
  for (size_t i = 0; i < spec.series.size(); ++i) {
    const PlotSeries& s = spec.series[i];
    const bool bars = !s.y_errors.empty();
    std::string with = bars          ? "'-' using 1:2:3:4 with yerrorlines pt 7 ps 0.6"
                       : spec.points ? "'-' using 1:2 with linespoints pt 7 ps 0.6"
                                     : "'-' using 1:2 with lines";
    script +=
        std::string(i ? ", " : "") + with + " lw 2 " + LineStyle(i) + " title " + Quote(s.title);
  }
  script += "\n";
  char buf[128];
  for (const PlotSeries& s : spec.series) {
    const bool bars = !s.y_errors.empty();
    bool gap = false;
    for (size_t i = 0; i < s.points.size(); ++i) {
      const auto [x, y] = s.points[i];
      if (!std::isfinite(y)) {
        // A blank line: gnuplot breaks the line here.
        if (!gap) script += "\n";
        gap = true;
        continue;
      }
      gap = false;
      if (bars) {
        const auto [low, high] = i < s.y_errors.size() ? s.y_errors[i] : std::make_pair(y, y);
        std::snprintf(buf, sizeof(buf), "%.17g %.17g %.17g %.17g\n", x, y, low, high);
      } else {
        std::snprintf(buf, sizeof(buf), "%.17g %.17g\n", x, y);
      }
      script += buf;
    }
    script += "e\n";
  }
  return script;
}

Status PlotOutput::Open(const std::string& path) {
  path_ = path;
  if (path.empty()) return Status::OK();
  if (Status s = CheckPlotPath(path); !s.ok()) return s;
  return out_.Open(path);
}

Status PlotOutput::Write(const PlotSpec& spec) {
  if (!out_.is_open()) return Status::OK();
  // gnuplot draws into a temporary file of the same format (its standard
  // output carries its messages), which is then copied into the output.
  const bool png = EndsWith(path_, ".png");
  char tmp[] = "/tmp/eulerdeck-plot-XXXXXX.svg";
  std::memcpy(tmp + sizeof(tmp) - 5, png ? ".png" : ".svg", 4);
  const int fd = mkstemps(tmp, 4);
  if (fd < 0) return Status::IOError("cannot create a temporary file for the plot");
  close(fd);
  Status s = Render(tmp, spec);
  if (s.ok()) {
    std::ifstream in(tmp, std::ios::binary);
    out_ << in.rdbuf();
    if (!in) s = Status::IOError("cannot read back the plot gnuplot drew");
  }
  unlink(tmp);
  if (!s.ok()) return Status::IOError("--plot '" + path_ + "': " + s.message());
  // A write error (a full disk) surfaces here, naming the file.
  return out_.Commit();
}

bool WritePlotOrReport(const std::string& program, PlotOutput* out, const PlotSpec& spec) {
  const Status s = out->Write(spec);
  if (s.ok()) return true;
  std::cerr << program << ": " << s.ToString() << "\n";
  return false;
}

bool WritePlotOrReport(const std::string& program, const std::string& path, const PlotSpec& spec) {
  if (path.empty()) return true;
  PlotOutput out;
  if (Status s = out.Open(path); !s.ok()) {
    std::cerr << program << ": " << s.ToString() << "\n";
    return false;
  }
  return WritePlotOrReport(program, &out, spec);
}

}  // namespace eulerdeck::tools
