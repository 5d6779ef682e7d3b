#include "storage/block_expander.h"

#include <algorithm>

namespace eulerdeck::storage {

BlockExpander::BlockExpander(const ChildRule& rule, uint32_t entries_per_block)
    : rule_(rule),
      entries_per_block_(entries_per_block),
      path_(CountCoding{rule.spec().ranks, rule.spec().suits}),
      deck_(kMaxEnumCards) {}

void BlockExpander::StartOutput(int k) {
  out_.k = k + 1;
  out_.count_bytes = rule_.Limit(k) > 255 ? 2 : 1;
  out_.entries = 0;
  ranks_at_ = 0;
  if (suffixes_.size() < entries_per_block_) suffixes_.resize(entries_per_block_);
}

void BlockExpander::FlushOutput(ExpandedBlocks* out) {
  out_.payload.assign(suffixes_.data(), out_.entries);
  out_.payload.append(ranks_.data(), ranks_at_);
  std::string block;
  SealBlock(out_, &block);
  out->blocks.push_back(std::move(block));
  out->entries += out_.entries;
  out->raw_bytes += out_.payload.size();
  out_.entries = 0;
  ranks_at_ = 0;
}

Status BlockExpander::Expand(std::string_view data, int k, ExpandedBlocks* out) {
  Status s = UnsealBlock(data, &in_);
  if (!s.ok()) return s;
  if (in_.k != k) return Status::Corruption("block has entries of the wrong level");
  const uint32_t n = in_.entries;
  const int width = in_.count_bytes;
  const size_t size = in_.payload.size();
  const auto* bytes = reinterpret_cast<const uint8_t*>(in_.payload.data());
  StartOutput(k);
  const bool wide = out_.count_bytes == 2;
  // A child writes at most k+1 ranks of two bytes.
  const size_t child_bytes = 2 * static_cast<size_t>(k + 1);
  char* ranks = nullptr;  // ranks_.data() + ranks_at_ while a child is written
  auto put_rank = [&](uint32_t r) {
    if (wide) *ranks++ = static_cast<char>(r >> 8);
    *ranks++ = static_cast<char>(r & 0xff);
  };

  RankPath& path = path_;
  path.Truncate(0);
  ChildCounts valid;
  // The prefix this parent shares with the last parent that had children:
  // the prefix its first child shares with the last entry written.
  int shared_with_last = 0;
  size_t at = n;  // column 2 starts after the suffix lengths
  for (uint32_t i = 0; i < n; ++i) {
    // Column 1 and 2 of the input: the parent's path, its ranks, its sub-deck.
    int suffix = 0;
    if (s = ReadSuffix(in_, i, at, &suffix); !s.ok()) return s;
    const int prefix = k - suffix;
    path.Truncate(prefix);
    for (int j = prefix; j < k; ++j) {
      uint32_t r = bytes[at++];
      if (width == 2) r = (r << 8) | bytes[at++];
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
    shared_with_last = std::min(shared_with_last, prefix);

    // The children, written as entries of level k+1: the parent's counts
    // from the shared prefix on (their ranks are the parent's), then t.
    rule_.ValidCounts(deck_[k - 1].data(), k, &valid);
    bool first = true;
    rule_.ForEachChild(valid, path.available_bits(), [&](uint32_t t, Card) {
      if (out_.entries == entries_per_block_) FlushOutput(out);
      if (ranks_.size() < ranks_at_ + child_bytes) ranks_.resize(2 * ranks_.size() + child_bytes);
      ranks = ranks_.data() + ranks_at_;
      if (!first && out_.entries > 0) {
        suffixes_[out_.entries] = 1;
      } else {
        const int shared = out_.entries == 0 ? 0 : shared_with_last;
        suffixes_[out_.entries] = static_cast<char>(k + 1 - shared);
        for (int j = shared; j < k; ++j) put_rank(rank_[j]);
        first = false;
      }
      uint32_t r = 0;
      path.Rank(t, &r);  // t is a child: its value is available
      put_rank(r);
      ranks_at_ = static_cast<size_t>(ranks - ranks_.data());
      ++out_.entries;
    });
    if (!first) shared_with_last = k;
  }
  if (at != size) return Status::Corruption("block payload has trailing bytes");
  if (out_.entries > 0) FlushOutput(out);
  return Status::OK();
}

}  // namespace eulerdeck::storage
