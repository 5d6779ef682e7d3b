#include "engine/eulerian/subtrees.h"

#include <tbb/enumerable_thread_specific.h>

#include <chrono>
#include <string>

#include "engine/base/parallel.h"
#include "engine/eulerian/children.h"
#include "engine/eulerian/path.h"
#include "engine/eulerian/walker.h"

namespace eulerdeck {

int SizeBucket(uint64_t sub_decks) { return sub_decks == 0 ? 0 : 63 - __builtin_clzll(sub_decks); }

Status SubtreeCounts::Add(const SubtreeCounts& other) {
  if (level.size() < other.level.size()) level.resize(other.level.size(), 0);
  for (size_t j = 0; j < other.level.size(); ++j) {
    if (__builtin_add_overflow(level[j], other.level[j], &level[j])) {
      return Status::OutOfRange("level " + std::to_string(j) + " holds more than 2^64 sub-decks");
    }
  }
  for (int b = 0; b < kSizeBuckets; ++b) sizes[b] += other.sizes[b];
  subtrees += other.subtrees;
  seconds += other.seconds;
  return Status::OK();
}

namespace {

// One thread's share of a batch: a walker, the decoder of the roots' paths
// and the sizes of the subtrees it walked.
struct Share {
  Share(const ChildRule& rule, const std::atomic<bool>* stop, std::atomic<uint64_t>* counted,
        const WinnerCallback* on_leaf)
      : walker(rule, /*verify=*/false, stop, counted, on_leaf), decoder(rule.spec()) {}
  internal::Walker walker;
  PathDecoder decoder;
  std::array<uint64_t, kSizeBuckets> sizes{};
  uint64_t subtrees = 0;
  bool cut = false;
};

}  // namespace

Status CountSubtrees(const GameSpec& spec, const uint16_t* paths, size_t entries, int k,
                     int threads, const std::atomic<bool>* stop, std::atomic<uint64_t>* counted,
                     SubtreeCounts* out, const WinnerCallback* on_winning_deck) {
  const auto start = std::chrono::steady_clock::now();
  const int n = spec.cards();
  if (k < 1 || k >= n) {
    return Status::InvalidArgument("subtrees must be rooted at levels 1.." + std::to_string(n - 1) +
                                   ", not " + std::to_string(k));
  }
  const ChildRule rule(spec);
  *out = SubtreeCounts();
  out->level.assign(n + 1, 0);
  auto walk = [&](Share* share, size_t i) {
    if (share->cut) return;
    const uint64_t before = share->walker.counted();
    const Card* root = share->decoder.Decode(paths + i * k, k);
    if (!share->walker.WalkFrom(root, k, /*report=*/false)) {
      share->cut = true;
      return;
    }
    ++share->sizes[SizeBucket(share->walker.counted() - before + 1)];
    ++share->subtrees;
  };
  auto collect = [&](Share& share) -> Status {
    share.walker.Report();
    if (share.cut) return Status::Cancelled("interrupted inside a batch of subtrees");
    SubtreeCounts part;
    part.level = share.walker.level();
    part.sizes = share.sizes;
    part.subtrees = share.subtrees;
    return out->Add(part);
  };
  Status s;
  if (EffectiveThreads(threads) == 1 || entries == 1) {
    // One thread: no arena (the resumable count runs one batch per thread).
    Share share(rule, stop, counted, on_winning_deck);
    for (size_t i = 0; i < entries; ++i) walk(&share, i);
    s = collect(share);
  } else {
    tbb::enumerable_thread_specific<Share> shares(rule, stop, counted, on_winning_deck);
    ParallelFor(threads, entries, [&](size_t i) { walk(&shares.local(), i); });
    for (Share& share : shares) {
      if (s.ok()) s = collect(share);
    }
  }
  if (s.ok() && out->subtrees != entries) s = Status::Cancelled("interrupted inside a batch");
  out->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return s;
}

struct SubtreeCounter::Rep {
  Rep(const GameSpec& spec, const std::atomic<bool>* stop)
      : rule(spec), walker(rule, /*verify=*/false, stop, nullptr) {}
  const ChildRule rule;
  internal::Walker walker;
};

SubtreeCounter::SubtreeCounter(const GameSpec& spec, const std::atomic<bool>* stop)
    : rep_(std::make_unique<Rep>(spec, stop)) {}
SubtreeCounter::~SubtreeCounter() = default;

bool SubtreeCounter::Count(const Card* node, int k, std::vector<uint64_t>* level) {
  rep_->walker.ClearCounts();
  const bool whole = rep_->walker.WalkFrom(node, k, /*report=*/false);
  *level = rep_->walker.level();
  return whole;
}

}  // namespace eulerdeck
