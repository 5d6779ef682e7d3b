// Plots through gnuplot (Debian's gnuplot-nox): the data are piped to a
// gnuplot process that writes an SVG or PNG file, so figures are drawn by a
// real plotting tool, never by hand.
#ifndef EULERDECK_TOOLS_COMMON_PLOT_H_
#define EULERDECK_TOOLS_COMMON_PLOT_H_

#include <string>
#include <utility>
#include <vector>

#include "engine/base/status.h"

namespace eulerdeck::tools {

struct PlotSeries {
  std::string title;
  std::vector<std::pair<double, double>> points;
};

struct PlotSpec {
  std::string title, xlabel, ylabel;
  bool log_x = false;
  bool log_y = false;
  // Lines through the points, or the points marked as well (few points, or
  // a distribution whose values are discrete).
  bool points = false;
  std::vector<PlotSeries> series;
  // A heat map instead of lines: the points of series[0] carry z in `z`.
  std::vector<double> z;
};

// InvalidArgument unless `path` ends in .svg or .png and can be created, or
// is "-" (an SVG on standard output, docs/output.md): checked before a long
// computation starts.
Status CheckPlotPath(const std::string& path);

// Writes the plot to `path` (format from the extension). Every line series
// has its own colour (twelve, then the same with dashes); with more than four
// series the legend stands right of the plot area instead of over the curves.
// IOError naming the problem if gnuplot is missing or fails.
Status WritePlot(const std::string& path, const PlotSpec& spec);

// WritePlot() when `path` is not empty. On failure prints "<program>: <why>"
// on stderr and returns false: the caller exits with kExitCheckFailed (as
// after CommitOutput in cli.h).
bool WritePlotOrReport(const std::string& program, const std::string& path, const PlotSpec& spec);

}  // namespace eulerdeck::tools

#endif  // EULERDECK_TOOLS_COMMON_PLOT_H_
