#include "storage/store/inspect.h"

#include <xxhash.h>

#include <algorithm>
#include <cstring>

#include "engine/eulerian/children.h"
#include "engine/eulerian/path.h"
#include "storage/store/block_codec.h"
#include "storage/store/format.h"
#include "storage/store/params.h"

namespace eulerdeck::storage {

namespace {

std::string Where(int level, uint64_t block) {
  return "level " + std::to_string(level) + ", block " + std::to_string(block);
}

// Lexicographic comparison of two paths of k counts.
int Compare(const uint16_t* a, const uint16_t* b, int k) {
  for (int i = 0; i < k; ++i) {
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

}  // namespace

Status ForEachEntry(FrontierStore* store, int level,
                    const std::function<bool(const uint16_t* path, int k)>& f) {
  return ForEachEntryFrom(store, level, {}, f);
}

Status ForEachEntryFrom(FrontierStore* store, int level, const std::vector<uint16_t>& from,
                        const std::function<bool(const uint16_t* path, int k)>& f) {
  GameSpec spec;
  Status st = StoreSpec(store, &spec);
  if (!st.ok()) return st;
  const CountCoding coding{spec.ranks, spec.suits};
  // Binary search over the blocks' first entries for the last block starting
  // at or before `from`: only the keys are collected, O(log) blocks decoded.
  std::string start_key;
  if (!from.empty()) {
    std::vector<std::string> keys;
    auto it = store->Blocks(level);
    for (; it->Valid(); it->Next()) keys.emplace_back(it->key());
    if (!it->status().ok()) return it->status();
    size_t lo = 0, hi = keys.size();
    while (hi - lo > 1) {
      const size_t mid = (lo + hi) / 2;
      auto probe = store->Blocks(level, keys[mid], FrontierStore::BlockCheck::kNone);
      PathBlock b;
      Status s = DecodeBlock(probe->value(), coding, &b);
      if (!s.ok()) return Status::Corruption(Where(level, mid) + ": " + s.message());
      const int n = std::min<int>(b.k, static_cast<int>(from.size()));
      if (Compare(b.path(0), from.data(), n) <= 0) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    if (!keys.empty()) start_key = keys[lo];
  }
  auto it = store->Blocks(level, start_key);
  uint64_t block_no = 0;
  for (; it->Valid(); it->Next(), ++block_no) {
    PathBlock b;
    Status s = DecodeBlock(it->value(), coding, &b);
    if (!s.ok()) return Status::Corruption(Where(level, block_no) + ": " + s.message());
    for (size_t i = 0; i < b.entries(); ++i) {
      if (!from.empty()) {
        const int n = std::min<int>(b.k, static_cast<int>(from.size()));
        if (Compare(b.path(i), from.data(), n) < 0) continue;
      }
      if (!f(b.path(i), b.k)) return Status::OK();
    }
  }
  return it->status();
}

Status VerifyStore(FrontierStore* store, VerifyReport* report, const VerifyOptions& options) {
  GameSpec spec;
  Status s = StoreSpec(store, &spec);
  if (!s.ok()) return s;
  std::vector<LevelRecord> levels;
  s = store->GetLevels(&levels);
  if (!s.ok()) return s;
  *report = VerifyReport();
  // The work, in bytes read: the table files whole, then the blocks of every
  // level the walk reads (its own and its parents', read alongside).
  const auto stopped = [&] { return options.stop != nullptr && options.stop->load(); };
  const auto advance = [&](uint64_t bytes) {
    if (options.bytes_done) options.bytes_done->fetch_add(bytes, std::memory_order_relaxed);
  };
  if (options.bytes_total) {
    uint64_t total = store->TableFileBytes();
    for (const LevelRecord& r : levels)
      if (r.kept) total += r.stored_bytes;
    options.bytes_total->store(total);
  }
  // First the files as RocksDB sees them: every table file's block
  // checksums, footer and index included, which the walk below cannot reach.
  s = store->VerifyFiles(&report->files_replaced, options.stop, options.bytes_done);
  if (!s.ok()) return s;
  // The level in progress is checked as far as its last checkpoint, as if
  // committed there: past it, blocks may be a crashed run's leftovers that the
  // next start deletes.
  ProgressRecord progress;
  bool in_progress = false;
  s = store->GetProgress(&progress, &in_progress);
  if (!s.ok()) return s;
  std::vector<uint64_t> ordinal_end(levels.size(), UINT64_MAX);
  if (in_progress) {
    const int expected = levels.empty() ? 1 : levels.back().level + 1;
    if (progress.level != expected) {
      return Status::Corruption("the progress record names level " +
                                std::to_string(progress.level) + ", the next level is " +
                                std::to_string(expected));
    }
    LevelRecord partial;
    partial.level = progress.level;
    partial.entries = progress.entries;
    partial.blocks = progress.blocks;
    partial.stored_bytes = progress.stored_bytes;
    partial.checksum = progress.checksum;
    levels.push_back(partial);
    ordinal_end.push_back(progress.next_ordinal);
    // The pass's deeper levels, keyed by the same input ordinals.
    for (LevelRecord deeper : progress.deeper) {
      deeper.kept = true;
      levels.push_back(deeper);
      ordinal_end.push_back(progress.next_ordinal);
    }
  }
  const ChildRule rule(spec);
  const CountCoding coding{spec.ranks, spec.suits};
  for (size_t li = 0; li < levels.size(); ++li) {
    const LevelRecord& rec = levels[li];
    const bool partial = ordinal_end[li] != UINT64_MAX;
    if (rec.level != static_cast<int>(li) + 1) {
      return Status::Corruption("level records are not 1, 2, 3, ...: found level " +
                                std::to_string(rec.level) + " in place " + std::to_string(li + 1));
    }
    if (!rec.kept) continue;
    const int k = rec.level;
    const bool parents_kept = k > 1 && levels[li - 1].kept;
    // The level below, streamed alongside: parents appear in the same order
    // as their children's prefixes.
    std::unique_ptr<FrontierStore::BlockIterator> below;
    PathBlock parent_block;
    size_t parent_i = 0;
    if (parents_kept) below = store->Blocks(k - 1);
    auto next_parent = [&]() -> Status {  // advance to the next parent entry
      ++parent_i;
      while (parent_i >= parent_block.entries()) {
        if (!below->Valid())
          return below->status().ok() ? Status::Corruption("end") : below->status();
        Status st = DecodeBlock(below->value(), coding, &parent_block);
        below->Next();
        if (!st.ok())
          return Status::Corruption("level " + std::to_string(k - 1) + ": " + st.message());
        parent_i = 0;
      }
      return Status::OK();
    };
    parent_i = static_cast<size_t>(-1);  // the first next_parent() loads entry 0
    bool parent_loaded = false;
    uint64_t entries = 0, blocks = 0, stored = 0, chain = 0;
    PathDecoder decoder(spec);
    std::vector<uint16_t> previous;
    auto it = store->Blocks(k);
    for (; it->Valid(); it->Next(), ++blocks) {
      if (stopped()) return Status::Cancelled("interrupted at level " + std::to_string(k));
      advance(it->value().size());
      if (partial) {
        int key_level = 0;
        uint64_t ordinal = 0;
        uint32_t seq = 0;
        if (ParseBlockKey(it->key(), &key_level, &ordinal, &seq) && ordinal >= ordinal_end[li])
          break;
      }
      PathBlock b;
      s = DecodeBlock(it->value(), coding, &b);
      if (!s.ok()) return Status::Corruption(Where(k, blocks) + ": " + s.message());
      if (b.k != k)
        return Status::Corruption(Where(k, blocks) + ": entries of " + std::to_string(b.k) +
                                  " counts");
      chain = ChainChecksum(chain, it->value());
      stored += it->value().size();
      for (size_t i = 0; i < b.entries(); ++i, ++entries) {
        const uint16_t* path = b.path(i);
        const std::string at = Where(k, blocks) + ", entry " + std::to_string(entries);
        if (!previous.empty() && Compare(previous.data(), path, k) >= 0) {
          return Status::Corruption(at + ": out of order");
        }
        previous.assign(path, path + k);
        if (k == 1 || parents_kept) {
          if (k > 1) {
            if (!parent_loaded) {
              if (!next_parent().ok()) {
                return Status::Corruption(at + ": its parent is not in level " +
                                          std::to_string(k - 1));
              }
              parent_loaded = true;
            }
            // Advance the parent cursor to this entry's prefix.
            while (Compare(parent_block.path(parent_i), path, k - 1) < 0) {
              if (!next_parent().ok())
                return Status::Corruption(at + ": its parent is not in level " +
                                          std::to_string(k - 1));
            }
            if (Compare(parent_block.path(parent_i), path, k - 1) != 0) {
              return Status::Corruption(at + ": its parent is not in level " +
                                        std::to_string(k - 1));
            }
            ++report->parents_checked;
          }
          // The parent is valid (checked at level k-1, or a root), so only
          // the last count needs checking: against the parent's sub-deck,
          // rebuilt incrementally from the prefix it shares with the last.
          const bool valid =
              k == 1 ? PathIsValid(rule, path, 1)
                     : rule.IsValidChild(decoder.Decode(path, k - 1), k - 1, path[k - 1]);
          if (!valid) {
            return Status::Corruption(at + ": not a winning sub-deck (invalid child count " +
                                      std::to_string(path[k - 1]) + ")");
          }
        }
      }
    }
    if (!it->status().ok()) return it->status();
    if (entries != rec.entries || blocks != rec.blocks || stored != rec.stored_bytes) {
      return Status::Corruption("level " + std::to_string(k) + (partial ? " (in progress)" : "") +
                                ": found " + std::to_string(entries) + " entries in " +
                                std::to_string(blocks) + " blocks (" + std::to_string(stored) +
                                " bytes), the " + (partial ? "checkpoint" : "record") + " says " +
                                std::to_string(rec.entries) + " in " + std::to_string(rec.blocks) +
                                " (" + std::to_string(rec.stored_bytes) + " bytes)");
    }
    if (chain != rec.checksum) {
      return Status::Corruption("level " + std::to_string(k) + ": level checksum mismatch");
    }
    if (partial)
      report->in_progress_checked = true;
    else
      ++report->levels_checked;
    report->blocks += blocks;
    report->entries += entries;
  }
  return Status::OK();
}

}  // namespace eulerdeck::storage
