// `eulerdeck status` of a reform-search store and of a contest's stores
// (storage/search/search_store.h, reform_contest.h): read-only, so they may
// run while the search writes its store.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "storage/search/search_store.h"
#include "tools/common/cli.h"
#include "tools/common/format.h"
#include "tools/eulerdeck/commands.h"
#include "tools/eulerdeck/reform_contest.h"

namespace eulerdeck::tools {

namespace {

constexpr const char* kStatus = "eulerdeck status";

// A store that cannot be read because it is damaged (Corruption, IOError) is
// a failed check, exit 1, as for the other stores; anything else is bad
// input, exit 2. One line either way.
int SearchError(const Status& s) {
  if (s.IsCorruption() || s.IsIOError()) {
    std::cerr << kStatus << ": " << s.ToString() << "\n";
    return kExitCheckFailed;
  }
  return BadInput(kStatus, s.ToString());
}

std::string ScoreLine(const ReformScore& b) {
  return PluralThousands(b.length, "distinct deck") + ", " +
         (b.cyclic ? "ends on a cycle of " + PluralThousands(b.cycle, "deck") + " after " +
                         PluralThousands(b.preperiod, "deck")
                   : std::string("ends on a dead-end"));
}

// A contest's time a category: "0.3 s" as given when under a minute.
std::string Budget(double seconds) {
  if (seconds >= 60) return HumanDuration(seconds);
  char text[32];
  std::snprintf(text, sizeof(text), "%g s", seconds);
  return text;
}

}  // namespace

// `status` of a reform-search store: its game, budget, time searched, best
// deck and state; --json: the document with "state" added. A store that
// was only begun (LOCK alone) says so.
int SearchStatus(const std::string& dir, bool json, const std::string& plot_path) {
  if (!plot_path.empty()) return BadInput(kStatus, "--plot: a reform search has no levels");
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::path(dir) / storage::kSearchDocument, ec)) {
    // Begun, no checkpoint (storage::IsSearchStore): nothing to resume.
    const std::string again =
        "start it again with `eulerdeck reform-search --store " + dir + " --game G --ranks N`";
    if (json) {
      nlohmann::ordered_json j;
      j["kind"] = "reform-search";
      j["state"] = "begun";
      j["store"] = dir;
      std::cout << j.dump() << "\n" << std::flush;
    } else {
      std::cout << "store      " << dir << "\n"
                << "kind       reform-search\n"
                << "state      begun: stopped before its first checkpoint, nothing kept; " << again
                << "\n"
                << std::flush;
    }
    return kExitOk;
  }
  storage::SearchParams params;
  ReformSearchState state;
  bool running = false;
  if (Status s = storage::ReadSearchStatus(dir, &params, &state, &running); !s.ok()) {
    return SearchError(s);
  }
  const std::string what = running ? "running" : state.finished ? "finished" : "interrupted";
  if (json) {
    nlohmann::ordered_json j = nlohmann::ordered_json::parse(storage::EncodeSearch(params, state));
    j.erase("xxh64");
    j["state"] = what;
    j["store"] = dir;
    std::cout << j.dump() << "\n" << std::flush;
    return kExitOk;
  }
  std::cout << "store      " << dir << "\n"
            << "game       " << GameLine(params.spec) << "\n"
            << "kind       reform-search, seed " << params.seed << ", created " << params.created
            << "\n"
            << "state      " << what << ": " << HumanDuration(state.seconds) << " of "
            << HumanDuration(params.seconds) << " searched, " << Plural(state.restarts, "restart")
            << ", " << PluralThousands(state.decks_followed, "deck") << " followed";
  if (what == "interrupted")
    std::cout << "; continue with `eulerdeck resume --store " << dir << "`";
  std::cout << "\n";
  if (!state.best.deck.empty()) {
    std::cout << "best       " << ScoreLine(state.best.score) << " (" << state.best.method
              << ", found at " << HumanDuration(state.best.found_seconds) << ")\n"
              << "deck       " << DeckToString(state.best.deck) << "\n";
  }
  std::cout << std::flush;
  return kExitOk;
}

// `status` of a contest's stores: every category's state, best and score
// against the best known, the categories finished, the score so far and the
// time left (the budget left of the categories not finished; the exhaustive
// sizes take their own time, seconds); --json: the same as one object.
int ContestStatus(const std::string& dir, bool json, const std::string& plot_path) {
  if (!plot_path.empty()) return BadInput(kStatus, "--plot: a contest has no levels");
  std::vector<ContestCategory> categories;
  if (Status s = ReadContest(dir, &categories); !s.ok()) return SearchError(s);
  // The contest's time a category: that of the categories begun.
  double budget = 0;
  for (const ContestCategory& c : categories)
    if (c.begun) budget = std::max(budget, c.params.seconds);
  int finished = 0, with_deck = 0;
  bool running = false;
  double left = 0, score = 0;
  for (const ContestCategory& c : categories) {
    running |= c.running;
    if (c.begun && c.state.finished) {
      ++finished;
    } else {
      left += c.begun ? std::max(0.0, c.params.seconds - c.state.seconds) : budget;
    }
    if (!c.state.best.deck.empty()) {
      ++with_deck;
      score += ContestScore(c.state.best.score, BestKnown(c.spec));
    }
  }
  const int all = static_cast<int>(categories.size());
  const std::string what = running ? "running" : finished == all ? "finished" : "interrupted";
  if (json) {
    nlohmann::ordered_json j;
    j["kind"] = "reform-search contest";
    j["store"] = dir;
    j["state"] = what;
    j["categories"] = all;
    j["categories_finished"] = finished;
    j["categories_with_deck"] = with_deck;
    j["budget_seconds"] = budget;
    j["seconds_left"] = left;
    j["score"] = score;
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const ContestCategory& c : categories) {
      nlohmann::ordered_json r;
      r["game"] = GameName(c.spec.game);
      r["n"] = c.spec.ranks;
      r["state"] = !c.begun           ? "not begun"
                   : c.running        ? "running"
                   : c.state.finished ? "finished"
                                      : "interrupted";
      r["searched_seconds"] = c.state.seconds;
      r["best_known"] = BestKnown(c.spec);
      if (c.state.best.deck.empty()) {
        r["deck"] = nullptr;
      } else {
        const ReformScore& b = c.state.best.score;
        r["deck"] = c.state.best.deck;
        r["length"] = b.length;
        r["cyclic"] = b.cyclic;
        r["preperiod"] = b.preperiod;
        r["cycle"] = b.cycle;
        r["contest_score"] = ContestScore(b, BestKnown(c.spec));
      }
      rows.push_back(r);
    }
    j["entries"] = rows;
    std::cout << j.dump() << "\n" << std::flush;
    return kExitOk;
  }
  std::cout << "store      " << dir << "\n"
            << "kind       reform-search contest (seed 001): " << all << " categories, "
            << Budget(budget) << " each\n"
            << "state      " << what << ": " << finished << " of " << all << " categories finished";
  if (finished < all) std::cout << ", at most " << HumanDuration(left) << " left";
  if (what == "interrupted")
    std::cout << "; continue with `eulerdeck resume --store " << dir << "`";
  std::cout << "\n"
            << "# game      n     length  end       score  state        searched\n";
  for (const ContestCategory& c : categories) {
    const char* state = !c.begun           ? "not begun"
                        : c.running        ? "running"
                        : c.state.finished ? "finished"
                                           : "interrupted";
    char line[160];
    if (c.state.best.deck.empty()) {
      std::snprintf(line, sizeof(line), "%-9s %2d  %9s  %-8s  %5s  %-11s  %s\n",
                    GameName(c.spec.game), c.spec.ranks, "-", "", "-", state,
                    c.begun ? HumanDuration(c.state.seconds).c_str() : "-");
    } else {
      const ReformScore& b = c.state.best.score;
      std::snprintf(line, sizeof(line), "%-9s %2d  %9s  %-8s  %5.3f  %-11s  %s\n",
                    GameName(c.spec.game), c.spec.ranks, Thousands(b.length).c_str(),
                    b.cyclic ? "cycle" : "dead-end", ContestScore(b, BestKnown(c.spec)), state,
                    HumanDuration(c.state.seconds).c_str());
    }
    std::cout << line;
  }
  char total[96];
  std::snprintf(total, sizeof(total), "score      %.3f of %d (%d categories with a deck)\n", score,
                2 * all, with_deck);
  std::cout << total << "submit     `eulerdeck reform-search --submission --store " << dir
            << "` prints the entry as the contest takes it\n"
            << std::flush;
  return kExitOk;
}

}  // namespace eulerdeck::tools
