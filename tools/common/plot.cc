#include "tools/common/plot.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>

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

// Copies the file at `path` to standard output.
Status CopyToStdout(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::cout << in.rdbuf();
  std::cout.flush();
  if (!in || !std::cout) return Status::IOError("could not write the plot to standard output");
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

Status WritePlot(const std::string& path, const PlotSpec& spec) {
  if (path == "-") {
    // gnuplot's standard output carries its messages here: it draws into a
    // temporary SVG, which is then copied out.
    char svg[] = "/tmp/eulerdeck-plot-XXXXXX.svg";
    const int fd = mkstemps(svg, 4);
    if (fd < 0) return Status::IOError("cannot create a temporary file for the plot");
    close(fd);
    Status s = WritePlot(svg, spec);
    if (s.ok()) s = CopyToStdout(svg);
    unlink(svg);
    return s;
  }
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
    script += "e\n";
  } else {
    script += "plot ";
    for (size_t i = 0; i < spec.series.size(); ++i) {
      script += std::string(i ? ", " : "") + "'-' using 1:2 with " +
                (spec.points ? std::string("linespoints pt 7 ps 0.6") : std::string("lines")) +
                " lw 2 " + LineStyle(i) + " title " + Quote(spec.series[i].title);
    }
    script += "\n";
    char buf[64];
    for (const PlotSeries& s : spec.series) {
      for (const auto& [x, y] : s.points) {
        std::snprintf(buf, sizeof(buf), "%.17g %.17g\n", x, y);
        script += buf;
      }
      script += "e\n";
    }
  }
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
    return Status::IOError("gnuplot failed writing '" + path + "'" +
                           (first_line.empty() ? "" : ": " + first_line));
  }
  return Status::OK();
}

bool WritePlotOrReport(const std::string& program, const std::string& path, const PlotSpec& spec) {
  if (path.empty()) return true;
  const Status s = WritePlot(path, spec);
  if (s.ok()) return true;
  std::cerr << program << ": " << s.ToString() << "\n";
  return false;
}

}  // namespace eulerdeck::tools
