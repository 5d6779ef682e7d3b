#include "storage/count/stored_reform_stats.h"

#include <memory>
#include <string>

namespace eulerdeck::storage {

Status ReformStatsStore(FrontierStore* store, const GameSpec& spec, CountStoreOptions options,
                        ReformStatsResult* result) {
  if (Status s = ValidateSpec(spec); !s.ok()) return s;
  if (spec.policy().on_match != OnMatch::kRemove) {
    return Status::NotSupported(std::string(GameName(spec.game)) + " reforms no deck");
  }
  // Every winning deck must lie below a subtree root, so the split level
  // must be above the last: a one-card deck has no level to split at.
  if (spec.cards() < 2) {
    return Status::InvalidArgument("a stored reform-stats needs decks of at least 2 cards");
  }
  options.tally = kReformStatsTally;
  options.new_tally = [spec]() -> std::unique_ptr<WinnerTally> {
    return std::make_unique<ReformTally>(spec);
  };
  CountResult count;
  Status s = CountStore(store, spec, options, &count);
  if (!s.ok()) return s;
  // Every batch is committed now: the store's records hold all the tallies.
  CountProgress progress;
  s = ReadCountProgress(store, spec, &progress, /*want_tallies=*/true);
  if (!s.ok()) return s;
  ReformTally all(spec);
  for (const std::string& tally : progress.tallies) {
    s = all.Merge(tally);
    if (!s.ok()) return s;
  }
  return all.Finish(count.winning(), result);
}

}  // namespace eulerdeck::storage
