#include "tools/eulerdeck/forecast_text.h"

#include <algorithm>
#include <cstdio>

#include "tools/common/format.h"

namespace eulerdeck::tools {

std::string ForecastTime(double seconds) {
  char text[48];
  if (seconds < 1) return "under a second";
  if (seconds < 120) {
    std::snprintf(text, sizeof(text), "~%.0f s", seconds);
  } else if (seconds < 7200) {
    std::snprintf(text, sizeof(text), "~%.0f min", seconds / 60);
  } else if (seconds < 2 * 86400) {
    std::snprintf(text, sizeof(text), "~%.1f h", seconds / 3600);
  } else if (seconds < 2 * 365.25 * 86400) {
    std::snprintf(text, sizeof(text), "~%.1f days", seconds / 86400);
  } else {
    std::snprintf(text, sizeof(text), "~%.2g years", seconds / (365.25 * 86400));
  }
  return text;
}

std::string ForecastTime(const TimeForecast& t) {
  if (t.seconds < 1) return ForecastTime(t.seconds);
  return ForecastTime(t.seconds) + " (" + HumanDuration(t.seconds / t.factor) + " .. " +
         HumanDuration(t.seconds * t.factor) + ")";
}

namespace {

// The sub-decks (of the levels the job reaches) and the winning decks.
std::string SubDecks(const CountForecast& f, const LevelEstimate& sub_decks) {
  char nodes[160];
  std::snprintf(nodes, sizeof(nodes), "~%.3g sub-decks (95%%: %.3g .. %.3g), ~%.3g winning decks",
                sub_decks.mean, std::max(0.0, sub_decks.low), sub_decks.high, f.winning.mean);
  return std::string("forecast       ") + nodes;
}

std::string Descents(const CountForecast& f) {
  return " (" + std::to_string(f.samples) + " samples of the tree of width " +
         std::to_string(f.width) + ", docs/estimates.md)";
}

}  // namespace

std::string ForecastLine(const CountForecast& f) {
  std::string line = SubDecks(f, f.nodes);
  if (f.rate > 0) {
    line += ", " + ForecastTime(TimeForecast{f.seconds, f.factor}) + " on " +
            Plural(f.threads, "thread");
  }
  return line + Descents(f);
}

std::string RunForecastLine(const RunForecast& f) {
  std::string line;
  if (f.last_level < static_cast<int>(f.count.level.size()) - 1) {
    // To --until-level: those levels' sub-decks (the interval is the
    // whole tree's, not theirs).
    line = "forecast       ~" + Significant(f.sub_decks, 3) + " sub-decks to level " +
           std::to_string(f.last_level);
  } else {
    line = SubDecks(f.count, f.count.nodes);
  }
  line += ", ~" + HumanBytes(f.disk_bytes) + " of disk";
  if (f.count.rate > 0) {
    line += ", " + ForecastTime(TimeForecast{f.seconds, f.count.factor}) + " on " +
            Plural(f.count.threads, "thread");
  }
  return line + Descents(f.count);
}

std::string ForceRefusal(double seconds, int threads, double sub_decks) {
  return "forecast " + ForecastTime(seconds) + " on " + Plural(threads, "thread") + " (~" +
         Significant(sub_decks, 3) +
         " sub-decks): --force to start anyway (`eulerdeck estimate` estimates it in seconds)";
}

std::string BeyondTheCount(const Status& s) {
  return s.ToString() +
         " (`eulerdeck estimate` estimates the winning decks of up to 64 cards, `cardlab mc` "
         "plays decks of any size)";
}

}  // namespace eulerdeck::tools
