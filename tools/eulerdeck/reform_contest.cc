#include "tools/eulerdeck/reform_contest.h"

#include <algorithm>
#include <filesystem>

namespace eulerdeck::tools {

std::vector<GameSpec> ContestCategories() {
  std::vector<GameSpec> out;
  for (Game g : {Game::kMousetrap, Game::kModular})
    for (int n = 10; n <= 25; ++n)
      if (n != 23) out.push_back(GameSpec{g, n, 1});
  return out;
}

// The proven optimum where reform-stats classified every deck, else the
// best recorded deck. A search that does better becomes its own reference.
uint64_t BestKnown(const GameSpec& spec) {
  if (spec.game == Game::kMousetrap) {
    if (spec.ranks == 10) return 4;  // reform-stats (optimum)
    if (spec.ranks <= 15) return 5;  // reform-stats (optimum)
    if (spec.ranks == 16) return 6;  // reform-stats (optimum)
    if (spec.ranks == 17) return 5;  // the chain move
    return 4;                        // the chain move, n = 18..25
  }
  switch (spec.ranks) {
    case 10:
      return 6;  // reform-stats (optimum)
    case 11:
      return 203;  // reform-stats (optimum)
    case 12:
      return 7;  // reform-stats (optimum, cyclic)
    case 13:
      return 840;  // reform-search --contest
    case 14:
      return 25;  // reform-search, 2026-11-23
    case 15:
      return 13;  // reform-search --contest, 2026-11-27
    case 16:
      return 8;
    case 17:
      return 40108;  // reform-search, 2026-11-26 (Bersani 2010 §5: 39,554)
    case 18:
      return 7;
    case 19:
      return 524702;  // reform-search, 2026-11-26
    case 20:
      return 5;
    case 21:
      return 7;
    case 22:
      return 6;
    case 24:
      return 4;
    default:
      return 9;  // 25
  }
}

double ContestScore(const ReformScore& s, uint64_t reference) {
  return (s.cyclic ? 1.0 : 0.0) +
         static_cast<double>(s.length) / static_cast<double>(std::max(reference, s.length));
}

std::string CategoryDir(const std::string& dir, const GameSpec& spec) {
  return dir + "/" + GameName(spec.game) + "-" + std::to_string(spec.ranks);
}

Status ReadContest(const std::string& dir, std::vector<ContestCategory>* categories) {
  categories->clear();
  for (const GameSpec& spec : ContestCategories()) {
    ContestCategory c;
    c.spec = spec;
    c.dir = CategoryDir(dir, spec);
    std::error_code ec;
    if (std::filesystem::is_regular_file(std::filesystem::path(c.dir) / storage::kSearchDocument,
                                         ec)) {
      Status s = storage::ReadSearchStatus(c.dir, &c.params, &c.state, &c.running);
      if (!s.ok()) return s;
      if (c.params.spec.game != spec.game || c.params.spec.ranks != spec.ranks) {
        return Status::Corruption("'" + c.dir + "' holds a search of another game (" +
                                  GameName(c.params.spec.game) + " " +
                                  std::to_string(c.params.spec.ranks) + ")");
      }
      c.begun = true;
    }
    categories->push_back(std::move(c));
  }
  return Status::OK();
}

}  // namespace eulerdeck::tools
