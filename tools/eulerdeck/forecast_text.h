// The forecasts `count` and `run` print before they start
// (engine/estimate/forecast.h), and the limit past which they need --force.
#ifndef EULERDECK_TOOLS_EULERDECK_FORECAST_TEXT_H_
#define EULERDECK_TOOLS_EULERDECK_FORECAST_TEXT_H_

#include <string>

#include "engine/estimate/forecast.h"

namespace eulerdeck::tools {

// A day: a job forecast to take longer needs --force.
inline constexpr double kForceSeconds = 86400;

// "~29 min", "~3.2 days", "~4e+12 years": a forecast's time, rounded.
std::string ForecastTime(double seconds);
// With its error (SecondsForWork): "~55 s (37s .. 1m22s)", seconds divided
// and multiplied by the factor; "under a second" alone.
std::string ForecastTime(const TimeForecast& t);

// The count's forecast line for stderr ("forecast       ~1.47e+08 sub-decks …").
std::string ForecastLine(const CountForecast& f);

// The stored run's: the sub-decks it will write (to --until-level), the
// disk at the store's largest, the time.
std::string RunForecastLine(const RunForecast& f);

// The one line of a refusal: "forecast ~3.2 days on 2 threads (~1e+13
// sub-decks): --force to start anyway (`eulerdeck estimate` estimates it in
// seconds)".
std::string ForceRefusal(double seconds, int threads, double sub_decks);
// A size past the count (OutOfRange: more than 64 cards, `--ranks 99`): its
// message and what estimates such decks instead.
std::string BeyondTheCount(const Status& s);

}  // namespace eulerdeck::tools

#endif  // EULERDECK_TOOLS_EULERDECK_FORECAST_TEXT_H_
