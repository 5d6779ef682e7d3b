// Estimates of the number of winning sub-decks at every level of the
// backward tree (engine/eulerian), hence of winning decks, by sampling the
// tree instead of walking it (issue 18; Bersani 2010 §3 for why forward
// Monte Carlo cannot: winning decks are too rare past ~10^20 decks).
//
// One sample is a random descent from a root: at each sub-deck one child is
// chosen uniformly among its children, and the product of the numbers of
// children met so far, W_k at level k, is an unbiased estimator of the
// number of sub-decks at level k (Knuth 1975, "Estimating the efficiency of
// backtrack programs"; W_k = 0 once the descent dies). With
// `exact_levels` = L > 0 the descent stops at level n - L and the subtree
// below is counted exactly (Purdom's partial backtracking, taken to the
// leaves): W_{n-L} times the subtree's level counts is still unbiased and
// varies far less, since the last levels are where the tree is widest.
//
// With `lookahead`, children are not chosen uniformly but in proportion to
// their own numbers of children, and the product takes the inverse of each
// choice's probability instead (importance sampling; Chen 1992's heuristic
// sampling with the simplest heuristic): a descent never enters a dead end,
// which in the widest levels most children are.
//
// With `width` W > 1 one sample keeps a population of up to W sub-decks
// per level, each with a weight (the nodes it stands for), thinned from
// all their children by threshold sampling on weight × children (see
// SamplePopulation() in knuth.cc). The single descent is the case W = 1;
// wider samples follow the rich subtrees together instead of one at a
// time, and on hlm with 4 suits cut the variance per second ~100 times
// (docs/estimates.md), which is what makes the French deck reachable.
//
// Samples are i.i.d.; each level's estimate is their mean, its interval the
// CLT one (mean ± t standard errors, t Student's for N - 1 degrees of
// freedom: 1.96 for many samples, 2.13 for the forecast's 16). The
// estimator is heavy-tailed, so the interval can be dishonest when a few
// samples carry most of the sum: every level also reports its effective
// sample size (Σx)²/Σx² and the largest sample's share of the sum, and the
// caller should distrust an interval whose ESS is small. Sample i draws from stream i of the seed
// (engine/base/streams.h) and the sums are taken in sample order in fixed
// blocks, so a run is repeated exactly by its seed on any thread count.
#ifndef EULERDECK_ENGINE_ESTIMATE_KNUTH_H_
#define EULERDECK_ENGINE_ESTIMATE_KNUTH_H_

#include <atomic>
#include <cstdint>
#include <vector>

#include "engine/base/status.h"
#include "engine/cards/game.h"

namespace eulerdeck {

struct EstimateOptions {
  uint64_t samples = 100000;
  uint64_t seed = 1;
  int threads = 0;  // 0: all cores
  // The last levels counted exactly under each sampled sub-deck (0: the
  // plain estimator, every descent to a leaf). At most cards - 1.
  int exact_levels = 6;
  // Importance sampling by one level of lookahead: the descent goes to a
  // child with probability proportional to that child's own children
  // (dead ends are never entered), the weights corrected so that the
  // estimate stays unbiased. false: uniform children (Knuth's estimator).
  bool lookahead = true;
  // Sub-decks kept per level by one sample (1: a single descent; more: a
  // population thinned by threshold sampling, see SamplePopulation()).
  uint32_t width = 1;
  // > 0: stop once the winning decks' 95% half-width is at most this
  // fraction of the estimate (after at least 100 samples), or after
  // `samples`, whichever comes first; an estimate still 0 after 100
  // samples stops too (no sample reached a winning deck).
  double until_rel = 0;
  const std::atomic<bool>* stop = nullptr;        // stops the sampling once true
  std::atomic<uint64_t>* samples_done = nullptr;  // progress, if set
  // Progress, if set: the samples the run will take in all, set once known
  // (with until_rel: after the pilot, pilot included).
  std::atomic<uint64_t>* samples_total = nullptr;
  // Progress, if set: the winning decks' 95% half-width over the estimate
  // so far, after each round (-1 until it is known).
  std::atomic<double>* relative_half_width = nullptr;
};

struct LevelEstimate {
  double mean = 0;           // the estimated number of sub-decks of the level
  double std_error = 0;      // of the mean
  double low = 0, high = 0;  // the 95% interval, mean ± StudentT95(samples) std_error
  double ess = 0;            // (Σx)²/Σx² over the samples: 0 when every sample is 0
  double max_share = 0;      // the largest sample / Σx (0 when Σx = 0)
};

struct EstimateResult {
  std::vector<LevelEstimate> level;  // [0..cards]; [0] unused
  uint64_t samples = 0;              // behind the estimate (until_rel: the main stage's)
  uint64_t pilot_samples = 0;        // until_rel's pilot, set aside (0: none)
  // Stopped (options.stop) before the samples asked for: the estimate is
  // that of the samples drawn. Without until_rel, or stopped in its pilot,
  // it is exactly what samples = `samples` gives.
  bool interrupted = false;
  int exact_levels = 0;
  uint64_t sub_decks_counted = 0;  // by the exact counts below the samples
  double counting_seconds = 0;     // the CPU seconds those exact counts took (their threads')
  // The sub-decks of every level together: the enumeration's work (its
  // interval from the per-descent sums, not from the levels' intervals).
  LevelEstimate nodes;
  const LevelEstimate& winning() const { return level.back(); }
};

// InvalidArgument / OutOfRange for what the enumeration cannot take
// (CheckEnumerable, engine/eulerian/children.h), samples = 0 or
// exact_levels outside 0..cards-1. When *stop is set: OK with
// result->interrupted and the estimate of the samples drawn until then (in
// until_rel's main stage, its samples, or the pilot's if it has none yet);
// Cancelled if there are none.
Status Estimate(const GameSpec& spec, const EstimateOptions& options, EstimateResult* result);

// The same below given sub-decks instead of the whole tree: `roots` holds
// roots.size()/k winning sub-decks of k cards each (1 <= k < cards),
// flattened, and not checked. A descent starts from one of them drawn
// uniformly; a population from all of them when they are no more than the
// width, or else from `width` drawn uniformly with replacement, each
// standing for roots/width of them. level[j] estimates the sub-decks of j
// cards below the roots (j > k; level[k] is the number of roots, lower
// levels 0), and `nodes` their sum. No exact count starts above level k.
// A resumable count estimates the work it has left with it
// (storage/count/stored_count.h).
Status EstimateBelow(const GameSpec& spec, int k, const std::vector<Card>& roots,
                     const EstimateOptions& options, EstimateResult* result);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_ESTIMATE_KNUTH_H_
