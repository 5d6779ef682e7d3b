// eulerdeck reform-search: a starting deck with a long reform sequence,
// scored as the Mousetrap contest scores it (engine/reform/search.h), as
// text or JSON (docs/schema/eulerdeck-reform-search.schema.json).
#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "engine/reform/search.h"
#include "tools/common/cli.h"
#include "tools/common/format.h"
#include "tools/common/interrupt.h"
#include "tools/common/progress.h"
#include "tools/common/results.h"
#include "tools/common/size_loop.h"
#include "tools/eulerdeck/commands.h"

namespace eulerdeck::tools {

namespace {

constexpr const char* kProgram = "eulerdeck reform-search";

constexpr const char* kUsage =
    "usage: eulerdeck reform-search --game {mousetrap|modular} --ranks N\n"
    "                               [--seconds T] [--decks N] [--seed X]\n"
    "                               [--threads T]\n"
    "                               [--beam B] [--no-exhaustive] [--json]\n"
    "Searches for a starting deck whose reform sequence is long, scored as the\n"
    "Mousetrap contest scores it: a sequence ending on a cycle beats any other,\n"
    "then the longer wins (distinct decks met). Where every deck can be\n"
    "classified in seconds (mousetrap n <= 13, modular n <= 10) it does that and\n"
    "the answer is the optimum; beyond, it follows random decks to find cycles,\n"
    "searches backwards from each cycle (rebuilding the decks that reform into\n"
    "the current ones, a beam of B decks a layer), and extends random winning\n"
    "decks backwards and forwards (docs/reform-records.md). The same --seed\n"
    "repeats a run. Ctrl-C stops with the best deck found so far.";

nlohmann::ordered_json ToJson(const GameSpec& spec, const ReformSearchResult& r,
                              const ReformSearchOptions& o, double seconds) {
  nlohmann::ordered_json j = GameResultJson(kProgram, spec);
  j["deck"] = r.deck;
  j["length"] = r.score.length;
  j["cyclic"] = r.score.cyclic;
  j["preperiod"] = r.score.preperiod;
  j["cycle"] = r.score.cycle;
  j["contest_bonus"] = r.score.cyclic ? 1 : 0;
  j["method"] = r.method;
  j["optimal"] = r.optimal;
  j["seed"] = std::to_string(o.seed);
  j["decks_followed"] = std::to_string(r.decks_followed);
  j["found_after"] = std::to_string(r.found_after);
  j["found_seconds"] = r.found_seconds;
  j["threads"] = o.threads;
  j["thread"] = r.thread;
  j["cycles_found"] = std::to_string(r.cycles_found);
  j["seconds"] = seconds;
  return j;
}

// "1.234 s".
std::string Seconds(double s) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.3f s", s);
  return text;
}

}  // namespace

int RunReformSearch(const std::vector<std::string>& args) {
  SpecOptions game;
  ReformSearchOptions options;
  bool json = false, no_exhaustive = false;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help");
  game.Add(desc);
  desc.add_options()("seconds", po::value<double>(&options.seconds)->default_value(60),
                     "time for the search beyond the exhaustive sizes")(
      "threads", po::value<int>(&options.threads)->default_value(1),
      "independent searchers, one per thread (0: all cores), seeds derived from --seed")(
      "seed", po::value<uint64_t>(&options.seed)->default_value(1),
      "seed of the random choices (the same seed repeats a run)")(
      "beam", po::value<uint64_t>(&options.beam)->default_value(20000),
      "decks kept per layer of the backward search")(
      "decks", po::value<uint64_t>(&options.max_decks)->default_value(0),
      "stop after following this many decks (0: only --seconds); with --seed, "
      "a run repeated exactly")(
      "no-exhaustive", po::bool_switch(&no_exhaustive),
      "search even where every deck could be classified (to test the search)")(
      "json", po::bool_switch(&json),
      "print one JSON object (docs/schema/eulerdeck-reform-search.schema.json)");
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kUsage, vm)) return kExitOk;
  GameSpec spec;
  if (Status s = game.ToSpec(&spec); !s.ok()) return BadInput(kProgram, s.ToString());
  if (!(options.seconds > 0) || options.seconds > 1e7) {
    return BadInput(kProgram, "--seconds must be > 0 and at most 10^7");
  }
  if (options.beam < 1) return BadInput(kProgram, "--beam must be at least 1");
  if (Status t = CheckThreads(options.threads); !t.ok()) return BadInput(kProgram, t.ToString());
  options.exhaustive = !no_exhaustive;

  StopOnSignals signals;
  options.stop = signals.flag();
  std::atomic<uint64_t> followed{0}, unknown_total{0};
  options.decks_followed = &followed;
  ReformSearchResult r;
  const auto start = std::chrono::steady_clock::now();
  Status s;
  {
    Progress progress("reform-search", "decks", &followed, &unknown_total);
    s = ReformSearch(spec, options, &r);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!s.ok() && !s.IsCancelled()) {
    if (s.code() == Status::Code::kInternal) {
      std::cerr << kProgram << ": " << s.ToString() << "\n";
      return kExitCheckFailed;
    }
    return BadInput(kProgram, s.ToString());
  }
  if (s.IsCancelled() && r.deck.empty()) {
    std::cerr << kProgram << ": interrupted before any deck was followed\n";
    return signals.ExitCode();
  }
  if (json) {
    std::cout << ToJson(spec, r, options, seconds).dump() << "\n" << std::flush;
  } else {
    std::cout << "game          " << GameLine(spec) << "\n"
              << "deck          " << DeckToString(r.deck) << "\n"
              << "length        " << Plural(r.score.length, "distinct deck") << ", "
              << (r.score.cyclic ? "ends on a cycle of " + Plural(r.score.cycle, "deck") +
                                       " after " + Plural(r.score.preperiod, "deck")
                                 : std::string("ends on a dead-end"))
              << "\n"
              << "contest bonus " << (r.score.cyclic ? 1 : 0) << "\n"
              << "method        " << r.method << (r.optimal ? " (the optimum)" : "") << "\n"
              << "followed      " << r.decks_followed << " decks, best after " << r.found_after
              << " (" << Seconds(r.found_seconds) << "), " << Plural(r.cycles_found, "cycle")
              << " found\n"
              << std::flush;
    PrintTime(seconds, s.IsCancelled() ? "interrupted" : "");
  }
  return s.IsCancelled() ? signals.ExitCode() : kExitOk;
}

}  // namespace eulerdeck::tools
