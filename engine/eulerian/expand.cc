#include "engine/eulerian/expand.h"

namespace eulerdeck {

void LevelExpander::Expand(const uint16_t* paths, size_t entries, int k, size_t chunk_entries,
                           std::vector<uint16_t>* out, const std::function<void()>& full) {
  const size_t chunk_counts = chunk_entries * static_cast<size_t>(k + 1);
  for (size_t i = 0; i < entries; ++i) {
    const uint16_t* path = paths + i * static_cast<size_t>(k);
    rule_.ForEachChild(decoder_.Decode(path, k), k, [&](uint32_t t, Card) {
      out->insert(out->end(), path, path + k);
      out->push_back(static_cast<uint16_t>(t));
      if (out->size() == chunk_counts) full();
    });
  }
}

}  // namespace eulerdeck
