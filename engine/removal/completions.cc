#include "engine/removal/completions.h"

#include <bit>
#include <cstddef>

namespace eulerdeck::internal {

uint64_t CompletionsTableSize(const std::vector<uint8_t>& avail) {
  uint64_t size = 1;
  for (uint8_t c : avail) size *= c + 1u;
  return size;
}

template <typename Count>
Count CompletionsOf(const std::vector<ValueMask>& positions, const std::vector<uint8_t>& avail) {
  const int m = static_cast<int>(avail.size());
  if (positions.empty()) return 1;
  bool simple = true;
  for (uint8_t c : avail) simple &= c <= 1;
  if (simple) {
    // Values compressed to the k available ones: subsets of them.
    std::vector<int> index(m, -1);
    int k = 0;
    for (int v = 0; v < m; ++v)
      if (avail[v]) index[v] = k++;
    std::vector<uint32_t> allowed(positions.size());
    for (size_t p = 0; p < positions.size(); ++p) {
      uint32_t a = 0;
      for (ValueMask x = positions[p]; x; x &= x - 1) a |= 1u << index[std::countr_zero(x)];
      allowed[p] = a;
    }
    std::vector<Count> dp(size_t{1} << k, 0);
    dp[0] = 1;
    for (uint32_t s = 0; s + 1 < (1u << k); ++s) {
      if (!dp[s]) continue;
      for (uint32_t free = allowed[std::popcount(s)] & ~s; free; free &= free - 1)
        dp[s | (free & -free)] += dp[s];
    }
    return dp[(size_t{1} << k) - 1];
  }
  // Mixed radix over how many of each value are used.
  std::vector<uint64_t> stride(m);
  uint64_t size = 1;
  for (int v = 0; v < m; ++v) {
    stride[v] = size;
    size *= avail[v] + 1u;
  }
  std::vector<Count> dp(size, 0);
  dp[0] = 1;
  std::vector<uint8_t> used(m, 0);
  for (uint64_t idx = 0; idx + 1 < size; ++idx) {
    if (dp[idx]) {
      int placed = 0;
      for (int v = 0; v < m; ++v) placed += used[v];
      for (ValueMask x = positions[placed]; x; x &= x - 1) {
        const int v = std::countr_zero(x);
        if (used[v] < avail[v]) dp[idx + stride[v]] += dp[idx];
      }
    }
    for (int v = 0; v < m; ++v) {  // next index: increment the mixed radix
      if (++used[v] <= avail[v]) break;
      used[v] = 0;
    }
  }
  return dp[size - 1];
}

template uint64_t CompletionsOf<uint64_t>(const std::vector<ValueMask>&,
                                          const std::vector<uint8_t>&);
template unsigned __int128 CompletionsOf<unsigned __int128>(const std::vector<ValueMask>&,
                                                            const std::vector<uint8_t>&);

}  // namespace eulerdeck::internal
