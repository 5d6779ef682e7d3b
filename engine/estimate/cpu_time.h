// The CPU clock of the forecasts' rates (forecast.h): a rate timed in a
// thread's CPU time is the machine's speed, whatever else runs beside it.
#ifndef EULERDECK_ENGINE_ESTIMATE_CPU_TIME_H_
#define EULERDECK_ENGINE_ESTIMATE_CPU_TIME_H_

#include <time.h>

namespace eulerdeck {

// The calling thread's CPU time in seconds (an arbitrary origin).
inline double ThreadCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_ESTIMATE_CPU_TIME_H_
