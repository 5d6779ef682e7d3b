// The contest's best sequence of a size, proven by classifying every deck
// (ReformStats(), engine/reform/stats.h): the longest cyclic sequence where
// one exists (a cyclic entry beats any other), else the longest. What the
// search and its moves are tested against (tests/reform/).
#ifndef EULERDECK_TESTS_SUPPORT_REFORM_OPTIMUM_H_
#define EULERDECK_TESTS_SUPPORT_REFORM_OPTIMUM_H_

#include <catch2/catch.hpp>

#include "engine/reform/follow.h"
#include "engine/reform/stats.h"

namespace eulerdeck {

inline ReformScore ReformOptimum(const GameSpec& spec) {
  ReformStatsResult stats;
  REQUIRE(ReformStats(spec, ReformStatsOptions{}, &stats).ok());
  ReformScore best;
  best.cyclic = stats.longest_cyclic_sequence.length > 0;
  best.length = best.cyclic ? stats.longest_cyclic_sequence.length : stats.longest_sequence.length;
  return best;
}

}  // namespace eulerdeck

#endif  // EULERDECK_TESTS_SUPPORT_REFORM_OPTIMUM_H_
