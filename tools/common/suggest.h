// "did you mean count?": the known word nearest to a mistyped one.
#ifndef EULERDECK_TOOLS_COMMON_SUGGEST_H_
#define EULERDECK_TOOLS_COMMON_SUGGEST_H_

#include <algorithm>
#include <initializer_list>
#include <string>
#include <vector>

namespace eulerdeck::tools {

// The edit distance of a and b: insertions, deletions, substitutions and
// swaps of two neighbours ("cuont"), one each.
inline size_t EditDistance(const std::string& a, const std::string& b) {
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<size_t>> d(n + 1, std::vector<size_t>(m + 1));
  for (size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (size_t i = 1; i <= n; ++i) {
    for (size_t j = 1; j <= m; ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[n][m];
}

// The known word nearest to `word`, when it is near enough to be the one
// meant: at most 2 edits, and fewer than half the word's letters (so that
// "ab" suggests nothing); the first of equals. Empty when none is.
template <typename Words>
std::string NearestOf(const std::string& word, const Words& known) {
  std::string best;
  size_t best_distance = 3;
  for (const auto& k : known) {
    const size_t d = EditDistance(word, k);
    if (d < best_distance && 2 * d < word.size()) {
      best = k;
      best_distance = d;
    }
  }
  return best;
}
inline std::string Nearest(const std::string& word, std::initializer_list<const char*> known) {
  return NearestOf(word, known);
}
inline std::string Nearest(const std::string& word, const std::vector<std::string>& known) {
  return NearestOf(word, known);
}

}  // namespace eulerdeck::tools

#endif  // EULERDECK_TOOLS_COMMON_SUGGEST_H_
