#include "engine/base/parallel.h"

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

namespace eulerdeck {

int EffectiveThreads(int threads) {
  return threads > 0 ? threads : tbb::this_task_arena::max_concurrency();
}

void ParallelFor(int threads, size_t count, const std::function<void(size_t)>& body) {
  const int n = EffectiveThreads(threads);
  // global_control lets an explicit thread count exceed the core count (an
  // arena alone is capped at the default number of workers).
  tbb::global_control allow(tbb::global_control::max_allowed_parallelism, n);
  tbb::task_arena arena(n);
  arena.execute([&] {
    // Grain 1, simple partitioner: every index is its own stealable task;
    // the callers already made tasks coarse enough.
    tbb::parallel_for(
        tbb::blocked_range<size_t>(0, count, 1),
        [&](const tbb::blocked_range<size_t>& r) {
          for (size_t i = r.begin(); i != r.end(); ++i) body(i);
        },
        tbb::simple_partitioner());
  });
}

}  // namespace eulerdeck
