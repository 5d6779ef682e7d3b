#include "engine/estimate/knuth.h"

#include <tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <string>

#include "engine/base/parallel.h"
#include "engine/base/stats.h"
#include "engine/base/streams.h"
#include "engine/estimate/cpu_time.h"
#include "engine/eulerian/children.h"
#include "engine/eulerian/subtrees.h"

namespace eulerdeck {
namespace {

// Samples summed together, in index order, by one thread: the unit that
// makes the sums the same on any thread count.
constexpr uint64_t kBlock = 256;
// Blocks handed out at a time, at most, between looks at the stop flag.
constexpr uint64_t kBlocksPerRound = 1024;
// until_rel's pilot stage, and the fewest samples its main stage takes: the
// standard error of a heavy-tailed mean is itself unreliable on fewer.
constexpr uint64_t kPilotSamples = 100;

// Running moments of one level over some samples (Chan et al.'s pairwise
// update, so that blocks merge without the cancellation of Σx² - n·mean²).
struct Moments {
  long double n = 0, mean = 0, m2 = 0, sum = 0, sum_sq = 0, max = 0;

  void Add(long double x) {
    n += 1;
    const long double d = x - mean;
    mean += d / n;
    m2 += d * (x - mean);
    sum += x;
    sum_sq += x * x;
    max = std::max(max, x);
  }
  void Merge(const Moments& o) {
    if (o.n == 0) return;
    if (n == 0) {
      *this = o;
      return;
    }
    const long double total = n + o.n, d = o.mean - mean;
    mean += d * o.n / total;
    m2 += o.m2 + d * d * n * o.n / total;
    n = total;
    sum += o.sum;
    sum_sq += o.sum_sq;
    max = std::max(max, o.max);
  }
};

// The 95% half-width of a mean over the mean; 0 when the mean is 0 (every
// sample found nothing: no number of samples gives it a relative width),
// -1 before two samples.
long double RelativeHalfWidth(const Moments& m) {
  if (m.n < 2) return -1;
  if (m.mean <= 0) return 0;
  return StudentT95(static_cast<uint64_t>(m.n)) * std::sqrt(m.m2 / (m.n - 1) / m.n) / m.mean;
}

// Where every sample starts: count() sub-decks of `level` cards, flattened
// in `cards` (the tree's roots, or given subtrees for EstimateBelow()).
struct Start {
  int level = 1;
  std::vector<Card> cards;
  uint64_t count() const { return cards.size() / level; }
  const Card* node(uint64_t i) const { return cards.data() + i * level; }
};

// One thread's tools: the child rule, the exact counter, buffers.
struct Share {
  Share(const GameSpec& spec, const std::atomic<bool>* stop, const Start* start)
      : rule(spec), counter(spec, stop), start(start), x(spec.cards() + 1, 0.0L) {}
  ChildRule rule;
  SubtreeCounter counter;
  const Start* start;
  std::vector<std::pair<uint32_t, Card>> children;
  std::vector<uint64_t> grand;  // with lookahead: the children's children, cumulated
  std::vector<uint64_t> below;
  std::vector<long double> x;
  // SamplePopulation's levels.
  std::vector<Card> pop, next;
  std::vector<long double> weight, next_weight, value, sorted;
  uint64_t counted = 0;
  double counting_seconds = 0;

  // x[k+1..n] += w × the sub-decks below `node` (k cards), counted exactly
  // and timed (the forecast's rate of this machine).
  void AddBelow(const Card* node, int k, int n, long double w) {
    // Timed in this thread's CPU time, not the wall's: a thread preempted
    // by another process during a count of microseconds made the rate (and
    // so the forecast) swing 17..79 s for a job of 55 s on a shared
    // machine (issue 42, B2); the machine's load is measured apart
    // (forecast.cc).
    const double start = ThreadCpuSeconds();
    counter.Count(node, k, &below);
    counting_seconds += ThreadCpuSeconds() - start;
    for (int j = k + 1; j <= n; ++j) {
      x[j] += w * static_cast<long double>(below[j]);
      counted += below[j];
    }
  }
};

// Uniform in [0, bound), bound < 2^32 in practice (a sum of children).
uint64_t Below64(pcg32& rng, uint64_t bound) {
  if (bound <= UINT32_MAX) return Below(rng, static_cast<uint32_t>(bound));
  // Two statements: the order of two calls within one expression is unspecified.
  const uint64_t high = rng();
  const uint64_t r = (high << 32) | rng();
  return r % bound;  // a bias below 2^-32 at most
}

// Sample `index`: x[k] = the estimate of level k's size from one descent.
void Sample(const GameSpec& spec, const EstimateOptions& options, uint64_t index, Share* s) {
  const int n = spec.cards();
  std::fill(s->x.begin(), s->x.end(), 0.0L);
  pcg32 rng = RandomStream(options.seed, index);
  Card node[kNodeBytes], child[kNodeBytes];
  const Start& start = *s->start;
  const int k0 = start.level;
  long double w = static_cast<long double>(start.count());
  s->x[k0] = w;
  const Card* root = start.node(Below64(rng, start.count()));
  std::copy(root, root + k0, node);
  // Count exactly below this level (never above the start).
  const int exact_from = std::max(n - options.exact_levels, k0);
  for (int k = k0; k < n; ++k) {
    if (k == exact_from) return s->AddBelow(node, k, n, w);
    s->children.clear();
    s->rule.ForEachChild(node, k, [&](uint32_t t, Card c) { s->children.emplace_back(t, c); });
    if (s->children.empty()) return;  // the descent dies: 0 below
    s->x[k + 1] = w * static_cast<long double>(s->children.size());
    if (k + 1 == n) return;
    if (!options.lookahead) {
      w *= static_cast<long double>(s->children.size());
      const auto [t, c] = s->children[Below(rng, static_cast<uint32_t>(s->children.size()))];
      ChildRule::MakeChild(node, k, t, c, child);
      std::copy(child, child + k + 1, node);
      continue;
    }
    // Lookahead: level k+1 is counted above, exactly for this node; the
    // levels below only through children that have children, so the
    // descent goes to child c with probability g(c) / Σg, g(c) = c's
    // children, and w grows by Σg / g(c) (unbiased: E = Σ_c g(c)/Σg ·
    // Σg/g(c) · below(c) = Σ_c below(c), dead children contributing 0).
    s->grand.clear();
    uint64_t sum = 0;
    for (const auto& [t, c] : s->children) {
      ChildRule::MakeChild(node, k, t, c, child);
      uint64_t g = 0;
      s->rule.ForEachChild(child, k + 1, [&](uint32_t, Card) { ++g; });
      sum += g;
      s->grand.push_back(sum);
    }
    if (sum == 0) return;  // no grandchild: 0 below level k+1
    const uint64_t r = Below64(rng, sum);
    const size_t pick = std::upper_bound(s->grand.begin(), s->grand.end(), r) - s->grand.begin();
    const uint64_t g = s->grand[pick] - (pick ? s->grand[pick - 1] : 0);
    w *= static_cast<long double>(sum) / static_cast<long double>(g);
    const auto [t, c] = s->children[pick];
    ChildRule::MakeChild(node, k, t, c, child);
    std::copy(child, child + k + 1, node);
  }
}

// Sample `index` with a population of up to `width` sub-decks per level
// (width > 1): a generalisation of the descent above, which is the case
// width = 1. Every sub-deck of the population carries a weight w, the
// number of tree nodes it stands for in expectation. All children of the
// population are made; level k+1 gets Σ w over them, exactly given the
// population. Children are then valued v = w·g (g = their own children
// with lookahead, 1 without; the childless are dropped, contributing
// nothing below level k+1) and thinned to `width` by threshold sampling
// (Duffield, Lund and Thorup 2007): τ solves Σ min(1, v/τ) = width; a
// child with v >= τ is kept as it is, the others with probability v/τ and
// weight w·τ/v, drawn systematically (one uniform) in the order made, that
// is grouped by parent. E[kept weight · f] = w·f for every child and any f,
// so every level stays unbiased; and since τ equalises the kept values,
// the population follows the rich subtrees instead of one descent's luck
// (Chen 1992's heuristic sampling; Aldous and Vazirani's "go with the
// winners"), which is what cuts the heavy tail of the single descent.
void SamplePopulation(const GameSpec& spec, const EstimateOptions& options, uint64_t index,
                      Share* s) {
  const int n = spec.cards();
  std::fill(s->x.begin(), s->x.end(), 0.0L);
  pcg32 rng = RandomStream(options.seed, index);
  // Zeroed: a child is stored with its scratch bytes past k+1 (stride n).
  Card node[kNodeBytes] = {}, child[kNodeBytes] = {};
  // The population of level k: k cards each, at stride n, and weights.
  std::vector<Card>& pop = s->pop;
  std::vector<long double>& weight = s->weight;
  pop.clear();
  weight.clear();
  // The first population: every start if they fit the width, or else
  // `width` of them drawn uniformly with replacement, each standing for
  // count/width (unbiased: each draw's expectation is the mean start).
  const Start& start = *s->start;
  const int k0 = start.level;
  const uint64_t starts = start.count();
  const bool all = starts <= options.width;
  for (uint64_t i = 0; i < (all ? starts : options.width); ++i) {
    const Card* root = start.node(all ? i : Below64(rng, starts));
    pop.insert(pop.end(), root, root + k0);
    pop.resize(pop.size() + n - k0);
    weight.push_back(
        all ? 1.0L : static_cast<long double>(starts) / static_cast<long double>(options.width));
  }
  s->x[k0] = static_cast<long double>(starts);
  const int exact_from = std::max(n - options.exact_levels, k0);
  for (int k = k0; k < n && !weight.empty(); ++k) {
    const size_t m = weight.size();
    if (k == exact_from) {
      for (size_t i = 0; i < m; ++i) {
        std::copy(&pop[i * n], &pop[i * n] + k, node);
        s->AddBelow(node, k, n, weight[i]);
      }
      return;
    }
    // The children, their weights (the parent's) and values.
    std::vector<Card>& next = s->next;
    std::vector<long double>& next_weight = s->next_weight;
    std::vector<long double>& value = s->value;
    next.clear();
    next_weight.clear();
    value.clear();
    long double level = 0;
    for (size_t i = 0; i < m; ++i) {
      std::copy(&pop[i * n], &pop[i * n] + k, node);
      const long double w = weight[i];
      s->rule.ForEachChild(node, k, [&](uint32_t t, Card c) {
        level += w;
        if (k + 1 == n) return;
        ChildRule::MakeChild(node, k, t, c, child);
        uint64_t g = 1;
        if (options.lookahead) {
          g = 0;
          s->rule.ForEachChild(child, k + 1, [&](uint32_t, Card) { ++g; });
          if (g == 0) return;  // childless: nothing below level k+1
        }
        next.insert(next.end(), child, child + n);
        next_weight.push_back(w);
        value.push_back(w * static_cast<long double>(g));
      });
    }
    s->x[k + 1] = level;
    const size_t c = next_weight.size();
    const size_t width = options.width;
    if (c > width) {
      // τ: the values above it are kept whole; the rest share width - L.
      std::vector<long double>& sorted = s->sorted;
      sorted.assign(value.begin(), value.end());
      std::sort(sorted.begin(), sorted.end(), std::greater<long double>());
      long double rest = 0;
      for (long double v : sorted) rest += v;
      size_t large = 0;
      long double tau = rest / static_cast<long double>(width);
      while (large < width - 1 && sorted[large] >= tau) {
        rest -= sorted[large];
        ++large;
        tau = rest / static_cast<long double>(width - large);
      }
      // Systematic draw of the small ones: one uniform, steps of 1.
      // (32 bits: each small child is kept with probability v/τ to within
      // 2^-32, far below any estimate's error.)
      const long double u = static_cast<long double>(rng()) / 4294967296.0L;
      long double acc = u;
      size_t kept = 0;
      // Moves child i to place kept <= i (in place: no copy onto itself).
      auto keep = [&](size_t i, long double w) {
        if (kept != i) std::copy(&next[i * n], &next[i * n] + k + 1, &next[kept * n]);
        next_weight[kept++] = w;
      };
      for (size_t i = 0; i < c; ++i) {
        if (value[i] >= tau) {
          keep(i, next_weight[i]);
          continue;
        }
        const long double before = acc;
        acc += value[i] / tau;
        if (std::floor(acc) > std::floor(before)) keep(i, next_weight[i] * tau / value[i]);
      }
      next.resize(kept * n);
      next_weight.resize(kept);
    }
    pop.swap(next);
    weight.swap(next_weight);
  }
}

// Estimate() and EstimateBelow(): the samples start from `start`.
Status EstimateFrom(const GameSpec& spec, const Start& start, const EstimateOptions& options,
                    EstimateResult* result) {
  const int n = spec.cards();
  if (options.samples == 0) return Status::InvalidArgument("samples must be at least 1");
  if (options.width == 0) return Status::InvalidArgument("width must be at least 1");
  if (!(options.until_rel >= 0)) {
    return Status::InvalidArgument("the relative half-width must be at least 0");
  }
  if (options.exact_levels < 0 || options.exact_levels > n - 1) {
    return Status::InvalidArgument("exact levels must be between 0 and " + std::to_string(n - 1) +
                                   " (the cards less one), not " +
                                   std::to_string(options.exact_levels));
  }
  *result = EstimateResult();
  tbb::enumerable_thread_specific<Share> shares(spec, options.stop, &start);
  // Index n + 1: the sum over the levels (the nodes).
  std::vector<Moments> total(n + 2);
  uint64_t taken = 0;  // samples merged, pilot included
  auto stopped = [&] { return options.stop && options.stop->load(std::memory_order_relaxed); };
  // Samples first .. first+count-1 into `total`. A block costs about kBlock
  // descents whatever the width, so that the stop flag is looked at as
  // often; rounds grow from 4 blocks to kBlocksPerRound so that a short run
  // is not one long round. Block and round sizes depend on the options
  // only, and the blocks merge in order: the same sums on any thread count.
  auto run_samples = [&](uint64_t first_index, uint64_t count_samples) -> Status {
    const uint64_t block = std::max<uint64_t>(1, kBlock / options.width);
    const uint64_t blocks = count_samples / block + (count_samples % block != 0);
    const uint64_t end_index = first_index + count_samples;
    std::vector<std::vector<Moments>> round(std::min(kBlocksPerRound, blocks),
                                            std::vector<Moments>(n + 2));
    uint64_t round_blocks = 4;
    for (uint64_t first = 0; first < blocks;
         first += round_blocks, round_blocks = std::min(kBlocksPerRound, 2 * round_blocks)) {
      const uint64_t count = std::min(round_blocks, blocks - first);
      std::vector<uint8_t> finished(count, 0);
      ParallelFor(options.threads, count, [&](size_t b) {
        // Skipped once stopped: the round's blocks after the first one
        // skipped are dropped (below).
        if (stopped()) return;
        Share& s = shares.local();
        std::vector<Moments>& m = round[b];
        std::fill(m.begin(), m.end(), Moments());
        const uint64_t begin = first_index + (first + b) * block;
        const uint64_t end = std::min(begin + block, end_index);
        for (uint64_t i = begin; i < end; ++i) {
          if (options.width > 1) {
            SamplePopulation(spec, options, i, &s);
          } else {
            Sample(spec, options, i, &s);
          }
          long double nodes = 0;
          for (int j = 1; j <= n; ++j) {
            m[j].Add(s.x[j]);
            nodes += s.x[j];
          }
          m[n + 1].Add(nodes);
        }
        if (options.samples_done) options.samples_done->fetch_add(end - begin);
        // A stop seen only now may have cut an exact count short: the
        // block is dropped.
        finished[b] = !stopped();
      });
      // The blocks merge in order, the unbroken prefix of finished ones if
      // the round was stopped: the sums are then those of a run asked for
      // exactly the samples merged.
      uint64_t merged = 0;
      for (; merged < count && finished[merged]; ++merged) {
        for (int j = 1; j <= n + 1; ++j) total[j].Merge(round[merged][j]);
        const uint64_t begin = first_index + (first + merged) * block;
        taken += std::min(begin + block, end_index) - begin;
      }
      if (merged < count) {  // stopped (a stop after the last block is not an interruption)
        return Status::Cancelled("interrupted after " + std::to_string(taken) + " samples");
      }
      if (options.relative_half_width) {
        options.relative_half_width->store(static_cast<double>(RelativeHalfWidth(total[n])),
                                           std::memory_order_relaxed);
      }
    }
    return Status::OK();
  };
  uint64_t main_first = 0, main_count = options.samples;
  // Stopped: the estimate is that of the samples merged (run_samples).
  bool interrupted = false;
  std::vector<Moments> pilot_total;  // until_rel's pilot, once set aside
  if (options.until_rel > 0) {
    // Two stages (Stein 1945): a pilot of kPilotSamples gives the variance,
    // hence the samples the goal needs; those are then drawn afresh and the
    // pilot is set aside. Stopping at the first round whose interval looks
    // narrow enough would bias both the estimate and its interval: the
    // relative width is smallest exactly when the mean came out high (on
    // 26 cells of Bersani's tables, 6 intervals so stopped missed the
    // exact count). A sample size fixed by the pilot leaves the main
    // stage's CLT interval as honest as that of a fixed --samples.
    const uint64_t pilot = std::min(kPilotSamples, options.samples);
    if (Status s = run_samples(0, pilot); s.IsCancelled()) {
      interrupted = true;
    } else if (!s.ok()) {
      return s;
    }
    const long double h = RelativeHalfWidth(total[n]);
    result->pilot_samples = pilot;
    if (interrupted) {
      main_count = 0;
      result->pilot_samples = 0;  // the pilot's samples are the estimate
    } else if (h > 0 && pilot < options.samples) {
      const long double need = std::ceil(static_cast<long double>(pilot) * (h / options.until_rel) *
                                         (h / options.until_rel));
      main_first = pilot;
      main_count = std::min<uint64_t>(
          options.samples - pilot,
          std::max<uint64_t>(kPilotSamples,
                             need > 1e18L ? UINT64_MAX : static_cast<uint64_t>(need)));
      pilot_total.swap(total);
      total.assign(n + 2, Moments());
      if (options.samples_total) options.samples_total->store(pilot + main_count);
    } else {
      // Every pilot sample alike (0, or an exact count): nothing to refine.
      main_count = 0;
      result->pilot_samples = 0;
    }
  }
  if (main_count > 0) {
    if (Status s = run_samples(main_first, main_count); s.IsCancelled()) {
      interrupted = true;
      if (total[n].n == 0 && !pilot_total.empty()) {
        // Stopped before the main stage merged a block: the pilot's
        // samples are all there is.
        total.swap(pilot_total);
        result->pilot_samples = 0;
      }
    } else if (!s.ok()) {
      return s;
    }
  }
  if (interrupted && total[n].n == 0) {
    return Status::Cancelled("interrupted before the first samples were drawn");
  }
  result->interrupted = interrupted;
  result->samples = static_cast<uint64_t>(total[n].n);
  result->exact_levels = options.exact_levels;
  for (const Share& s : shares) {
    result->sub_decks_counted += s.counted;
    result->counting_seconds += s.counting_seconds;
  }
  result->level.resize(n + 1);
  for (int j = 1; j <= n + 1; ++j) {
    const Moments& m = total[j];
    LevelEstimate& e = j <= n ? result->level[j] : result->nodes;
    e.mean = static_cast<double>(m.mean);
    const long double var = m.n > 1 ? m.m2 / (m.n - 1) : 0.0L;
    e.std_error = static_cast<double>(std::sqrt(var / m.n));
    // One sample has no interval; its standard error is 0, and so its width.
    const double t = m.n > 1 ? StudentT95(static_cast<uint64_t>(m.n)) : 0.0;
    e.low = e.mean - t * e.std_error;
    e.high = e.mean + t * e.std_error;
    e.ess = m.sum_sq > 0 ? static_cast<double>(m.sum * m.sum / m.sum_sq) : 0.0;
    e.max_share = m.sum > 0 ? static_cast<double>(m.max / m.sum) : 0.0;
  }
  return Status::OK();
}

}  // namespace

Status Estimate(const GameSpec& spec, const EstimateOptions& options, EstimateResult* result) {
  if (Status s = CheckEnumerable(spec); !s.ok()) return s;
  Start start;
  start.cards = ChildRule(spec).Roots();
  return EstimateFrom(spec, start, options, result);
}

Status EstimateBelow(const GameSpec& spec, int k, const std::vector<Card>& roots,
                     const EstimateOptions& options, EstimateResult* result) {
  if (Status s = CheckEnumerable(spec); !s.ok()) return s;
  if (k < 1 || k >= spec.cards()) {
    return Status::InvalidArgument("the subtrees' roots must have 1 to " +
                                   std::to_string(spec.cards() - 1) + " cards, not " +
                                   std::to_string(k));
  }
  if (roots.empty() || roots.size() % k != 0) {
    return Status::InvalidArgument("the roots must be a positive number of sub-decks of " +
                                   std::to_string(k) + " cards");
  }
  Start start;
  start.level = k;
  start.cards = roots;
  return EstimateFrom(spec, start, options, result);
}

}  // namespace eulerdeck
