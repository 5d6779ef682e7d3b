#include "storage/run/block_expander.h"

#include <algorithm>

namespace eulerdeck::storage {

BlockExpander::BlockExpander(const ChildRule& rule, uint32_t entries_per_block)
    : rule_(rule),
      entries_per_block_(entries_per_block),
      path_(CountCoding{rule.spec().ranks, rule.spec().suits}),
      deck_(kMaxEnumCards) {}

void BlockExpander::Flush(Output* o, ExpandedBlocks* out) {
  o->writer.Finish();
  std::string block;
  SealBlock(o->raw, &block);
  out->blocks.push_back(std::move(block));
  out->entries += o->raw.entries;
  out->raw_bytes += o->raw.payload.size();
  o->raw.entries = 0;
  o->raw.payload.clear();
  o->writer.Restart();
}

void BlockExpander::Grow(int j) {
  const int level = j + 1;
  Output& o = outputs_[level - first_];
  ExpandedBlocks* out = &out_[level - first_];
  const bool deeper = level < last_;
  ChildCounts valid;
  rule_.ValidCounts(deck_[j - 1].data(), j, &valid);
  // r, t's rank: the same as path_.Rank(t) (RankPath's definition), from
  // the child rule's bitset of available counts.
  rule_.ForEachChildRanked(valid, path_.available_bits(), [&](uint32_t t, Card x, uint32_t r) {
    if (o.raw.entries == entries_per_block_) Flush(&o, out);
    // The child's counts from the prefix it shares with the level's last
    // entry on: the path's (their ranks are known), then t.
    const int shared = o.raw.entries == 0 ? 0 : std::min(o.shared, j);
    o.writer.Entry(level - shared, rank_ + shared, j - shared, r);
    o.shared = j;
    ++o.raw.entries;
    if (deeper) {
      rank_[j] = static_cast<uint16_t>(r);
      path_.Push(static_cast<uint16_t>(t));
      ChildRule::MakeChild(deck_[j - 1].data(), j, t, x, deck_[j].data());
      Grow(level);
      path_.Truncate(j);
      // The deeper levels' last entries now lie under this child.
      for (int l = level + 1; l <= last_; ++l) {
        Output& d = outputs_[l - first_];
        d.shared = std::min(d.shared, j);
      }
    }
  });
}

Status BlockExpander::ExpandLevels(std::string_view data, int k, int levels, ExpandedBlocks* out) {
  if (levels < 1 || levels > kMaxPassLevels || k + levels > rule_.spec().cards()) {
    return Status::InvalidArgument("cannot expand level " + std::to_string(k) + " by " +
                                   std::to_string(levels) + " levels");
  }
  Status s = UnsealBlock(data, &in_);
  if (!s.ok()) return s;
  if (in_.k != k) return Status::Corruption("block has entries of the wrong level");
  const uint32_t n = in_.entries;
  first_ = k + 1;
  last_ = k + levels;
  out_ = out;
  for (int l = first_; l <= last_; ++l) {
    Output& o = outputs_[l - first_];
    o.raw.format = kBlockFormat;
    o.raw.k = l;
    o.raw.count_bytes = rule_.Limit(l - 1) > 255 ? 2 : 1;
    o.raw.entries = 0;
    o.raw.payload.clear();
    // (Made here: a copied expander's writers would write to the original.)
    o.writer = NibbleWriter(&o.raw.payload, o.raw.count_bytes);
    o.shared = 0;
  }

  RankPath& path = path_;
  path.Truncate(0);
  EntryReader reader(in_);
  for (uint32_t i = 0; i < n; ++i) {
    // The input entry: the parent's path, its ranks, its sub-deck.
    int suffix = 0;
    if (!reader.NextSuffix(&suffix)) return Status::Corruption(reader.error());
    const int prefix = k - suffix;
    path.Truncate(prefix);
    for (int l = first_; l <= last_; ++l) {
      Output& o = outputs_[l - first_];
      o.shared = std::min(o.shared, prefix);
    }
    for (int j = prefix; j < k; ++j) {
      uint32_t r = 0;
      if (!reader.NextRank(&r)) return Status::Corruption(reader.error());
      uint16_t t = 0;
      if (!path.PushRank(r, &t)) return Status::Corruption("block holds an impossible count");
      rank_[j] = static_cast<uint16_t>(r);
      if (j == 0) {
        deck_[0][0] = static_cast<Card>(t);
      } else {
        ChildRule::MakeChild(deck_[j - 1].data(), j, t, static_cast<Card>(path.Value(t)),
                             deck_[j].data());
      }
    }
    Grow(k);
  }
  if (!reader.AtEnd()) return Status::Corruption(reader.error());
  for (int l = first_; l <= last_; ++l) {
    Output& o = outputs_[l - first_];
    if (o.raw.entries > 0) Flush(&o, &out[l - first_]);
  }
  return Status::OK();
}

}  // namespace eulerdeck::storage
