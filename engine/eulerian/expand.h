// The level-to-level expansion of the stored run: the entries of level k of
// the tree (paths, path.h), in key order, become the entries of level k+1,
// again in key order. A child's path is its parent's followed by its removal
// count t, and each parent's children come in increasing t, so expanding a
// sorted level entry by entry yields the next level sorted (no sort needed;
// docs/storage_format.md, "Order"). Storage streams the levels through this;
// it knows nothing of blocks or stores.
#ifndef EULERDECK_ENGINE_EULERIAN_EXPAND_H_
#define EULERDECK_ENGINE_EULERIAN_EXPAND_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "engine/eulerian/children.h"
#include "engine/eulerian/path.h"

namespace eulerdeck {

// Expands runs of sorted paths. Holds a PathDecoder, so consecutive calls
// over one sorted level reuse the work for shared prefixes. Not thread-safe;
// one per thread. `rule` must outlive it.
class LevelExpander {
 public:
  explicit LevelExpander(const ChildRule& rule) : rule_(rule), decoder_(rule.spec()) {}

  // Expands `entries` paths of k counts each (1 <= k < cards), stored
  // flattened at `paths` (entry i at paths + i*k) in key order, each a
  // winning sub-deck. Appends each child, as a path of k+1 counts, to *out,
  // in key order. Whenever *out holds `chunk_entries` paths (> 0), calls
  // full(), which must empty *out (e.g. encode and clear it); fewer than
  // `chunk_entries` paths are left in *out at the end.
  // REQUIRES: *out holds fewer than `chunk_entries` paths of k+1 counts.
  void Expand(const uint16_t* paths, size_t entries, int k, size_t chunk_entries,
              std::vector<uint16_t>* out, const std::function<void()>& full);

 private:
  const ChildRule& rule_;
  PathDecoder decoder_;
};

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_EULERIAN_EXPAND_H_
