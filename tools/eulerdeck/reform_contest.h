// The Mousetrap contest (seed 001, docs/reform-records.md) as the tools know
// it: its 30 categories, the reference each is scored against, the stores
// of a contest (`reform-search --contest --store DIR`: one search store per
// category, DIR/GAME-N), their summary (`status`) and the entry a contest
// takes (`reform-search --submission`).
#ifndef EULERDECK_TOOLS_EULERDECK_REFORM_CONTEST_H_
#define EULERDECK_TOOLS_EULERDECK_REFORM_CONTEST_H_

#include <cstdint>
#include <string>
#include <vector>

#include "engine/base/status.h"
#include "engine/cards/game.h"
#include "engine/reform/search.h"
#include "storage/search/search_store.h"

namespace eulerdeck::tools {

// n = 10..25 but 23, mousetrap then modular.
std::vector<GameSpec> ContestCategories();

// The best length known to this project for each category, the contest's
// reference for a score (docs/reform-records.md, "The best known").
uint64_t BestKnown(const GameSpec& spec);

// The contest's subscore: the length over the reference (or over itself
// where it is longer), plus 1 for a cycle.
double ContestScore(const ReformScore& s, uint64_t reference);

// A category's store in the contest's store `dir`: dir/GAME-N.
std::string CategoryDir(const std::string& dir, const GameSpec& spec);

// One category of a stored contest, as its store stands.
struct ContestCategory {
  GameSpec spec;
  std::string dir;
  bool begun = false;  // its store holds a checkpoint
  bool running = false;
  storage::SearchParams params;
  ReformSearchState state;  // best.deck empty: no deck yet
};

// Every category of the contest stored in `dir`, in the contest's order
// (Corruption / IOError where a category's store is damaged; a category
// whose store was only begun, with no checkpoint, counts as not begun).
Status ReadContest(const std::string& dir, std::vector<ContestCategory>* categories);

// `eulerdeck status --store DIR` of a reform-search store and of a
// contest's stores (cmd_search_status.cc). Return the exit code.
int SearchStatus(const std::string& dir, bool json, const std::string& plot_path);
int ContestStatus(const std::string& dir, bool json, const std::string& plot_path);

}  // namespace eulerdeck::tools

#endif  // EULERDECK_TOOLS_EULERDECK_REFORM_CONTEST_H_
