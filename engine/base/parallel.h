// Runs independent tasks on a bounded number of threads with oneTBB's work
// stealing, which balances tasks of very different sizes (subtrees of the
// enumeration, prefixes of brute force).
#ifndef EULERDECK_ENGINE_BASE_PARALLEL_H_
#define EULERDECK_ENGINE_BASE_PARALLEL_H_

#include <cstddef>
#include <functional>

namespace eulerdeck {

// `threads` > 0, or 0 for every core.
int EffectiveThreads(int threads);

// Calls body(i) for i = 0..count-1, each exactly once, on up to `threads`
// threads (0: all cores), one task per index. Returns when all are done.
// body must be safe to call concurrently for different i.
void ParallelFor(int threads, size_t count, const std::function<void(size_t)>& body);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_BASE_PARALLEL_H_
