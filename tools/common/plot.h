// Plots through gnuplot (Debian's gnuplot-nox): the data are piped to a
// gnuplot process that writes an SVG or PNG file, so figures are drawn by a
// real plotting tool, never by hand.
#ifndef EULERDECK_TOOLS_COMMON_PLOT_H_
#define EULERDECK_TOOLS_COMMON_PLOT_H_

#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "engine/base/status.h"
#include "tools/common/output_file.h"

namespace eulerdeck::tools {

struct PlotSeries {
  std::string title;
  // (x, y) in order of x. A y that is not finite (NaN) is a gap: the line
  // breaks there instead of joining the points either side (a count of
  // zero on a log scale, which has no place on the axis).
  std::vector<std::pair<double, double>> points;
  // Empty, or one (low, high) per point: the point's interval, drawn as an
  // error bar (e.g. a Wilson 95% interval).
  std::vector<std::pair<double, double>> y_errors;
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
  // The x axis spans the data (NaN), or this domain where given (every
  // value the quantity can take, so that e.g. cards removed starts at 0 in
  // every game). Either way both axes end at the data (or the domain), not
  // at the next round number, with a margin of 3% of the span on each side
  // (on a log axis, of the span in decades), so that no point sits on the
  // frame.
  double x_from = std::numeric_limits<double>::quiet_NaN();
  double x_to = std::numeric_limits<double>::quiet_NaN();
};

// InvalidArgument unless `path` ends in .svg or .png and can be created, or
// is "-" (an SVG on standard output, docs/output.md): checked before a long
// computation starts.
Status CheckPlotPath(const std::string& path);

// The gnuplot script that draws `spec` into `path` (format from the
// extension): the data inline. Every line series has its own colour
// (twelve, then the same with dashes); the legend stands right of the plot
// area, never over the curves.
std::string PlotScript(const std::string& path, const PlotSpec& spec);

// A plot file, like every results file an OutputFile (output_file.h): opened
// before the work starts, so that a bad path costs nothing, and written in
// one go at the end, so that a failed write (a full disk) is an error, never
// a short or empty file. Not thread-safe.
class PlotOutput {
 public:
  // Checks `path` (CheckPlotPath) and opens it; "" means no plot (nothing
  // done). InvalidArgument naming the file when it cannot.
  Status Open(const std::string& path);
  bool is_open() const { return out_.is_open(); }
  const std::string& path() const { return path_; }
  // Draws the plot with gnuplot into a temporary file and copies it into
  // the output, which it commits. IOError naming the problem if gnuplot
  // fails or the output cannot be written. OK and nothing done when not open.
  Status Write(const PlotSpec& spec);

 private:
  std::string path_;
  OutputFile out_;
};

// out->Write(spec). On failure prints "<program>: <why>" on stderr and
// returns false: the caller exits with kExitCheckFailed (as after
// CommitOutput in cli.h).
bool WritePlotOrReport(const std::string& program, PlotOutput* out, const PlotSpec& spec);
// The same for a path not opened before (nothing when `path` is empty).
bool WritePlotOrReport(const std::string& program, const std::string& path, const PlotSpec& spec);

}  // namespace eulerdeck::tools

#endif  // EULERDECK_TOOLS_COMMON_PLOT_H_
