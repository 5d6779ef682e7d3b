// eulerdeck rebuild: the decks whose removal order is a given one (Cayley's
// first question; engine/eulerian/rebuild.h).
#include <charconv>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "engine/cards/game.h"
#include "engine/eulerian/rebuild.h"
#include "tools/common/cli.h"
#include "tools/common/format.h"
#include "tools/common/interrupt.h"
#include "tools/common/progress.h"
#include "tools/common/results.h"
#include "tools/eulerdeck/commands.h"

namespace eulerdeck::tools {

namespace {
constexpr const char* kUsage =
    "usage: eulerdeck rebuild --game G --ranks M [--suits S]\n"
    "                         (--order ORDER | --order-file FILE | --identity)\n"
    "                         [--max N | --all] [--json]\n"
    "Builds the decks whose removal order (their reformed deck: the cards in the\n"
    "order they are removed; hlm: stored, then the final burned 2) is ORDER, or\n"
    "says that none exists. Mousetrap and hlm have at most one such deck,\n"
    "modular may have several. Works backwards from the last card removed, so\n"
    "decks of thousands of cards take seconds (not limited to the 64 cards of\n"
    "count and run). Every deck printed is checked by playing it forward.\n"
    "--identity asks for the order 1 2 ... M (Cayley's question, with s = 1).\n"
    "Both the search and the replay are quadratic in the cards: 10^5 cards take\n"
    "tens of seconds, 10^6 most of an hour. Ctrl-C (or SIGTERM) stops it with\n"
    "one line and exit 130 (143); the decks already replayed are printed, exactly\n"
    "the first ones --max prints.";

bool Separator(char c) { return c == ' ' || c == ',' || c == '\t' || c == '\n' || c == '\r'; }

// Values separated by spaces, commas or line ends, each a positive integer.
Status ParseOrder(const std::string& text, WideDeck* order) {
  order->clear();
  size_t i = 0;
  while (i < text.size()) {
    if (Separator(text[i])) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < text.size() && !Separator(text[j])) ++j;
    uint32_t v = 0;
    const auto [end, ec] = std::from_chars(text.data() + i, text.data() + j, v);
    if (ec != std::errc() || end != text.data() + j || v == 0) {
      return Status::InvalidArgument("--order: \"" + text.substr(i, j - i) +
                                     "\" is not a card value (a positive integer)");
    }
    order->push_back(v);
    i = j;
  }
  if (order->empty()) return Status::InvalidArgument("--order is empty");
  return Status::OK();
}

std::string WideToString(const WideDeck& d) {
  std::string s;
  for (uint32_t v : d) {
    if (!s.empty()) s += ' ';
    s += std::to_string(v);
  }
  return s;
}

nlohmann::ordered_json WideJson(const WideDeck& d) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (uint32_t v : d) a.push_back(v);
  return a;
}
}  // namespace

int RunRebuild(const std::vector<std::string>& args) {
  std::string game_name, order_text, order_file;
  uint32_t ranks = 0, suits = 1;
  uint64_t max_decks = 1;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help")("game", po::value(&game_name)->required(),
                                                 "mousetrap | modular | hlm")(
      "ranks", po::value(&ranks)->required(), "m: values 1..m (any size)")(
      "suits", po::value(&suits)->default_value(1), "s: copies of each value")(
      "order", po::value(&order_text), "the removal order: values separated by spaces or commas")(
      "order-file", po::value(&order_file),
      "read the removal order from FILE (- for standard input): orders too long for one "
      "argument")("identity", po::bool_switch(), "the order 1 2 ... m (with --suits 1)")(
      "max", po::value(&max_decks)->default_value(1), "print at most N decks")(
      "all", po::bool_switch(), "print every deck (modular may have several)")(
      "json", po::bool_switch(), "print one JSON object");
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kUsage, vm)) return kExitOk;

  Game game = Game::kMousetrap;
  Status s = ParseGame(game_name, &game);
  WideDeck order;
  const bool identity = vm["identity"].as<bool>();
  const int sources = int(identity) + int(vm.count("order") > 0) + int(vm.count("order-file") > 0);
  if (s.ok() && sources != 1) {
    s = Status::InvalidArgument("give exactly one of --order, --order-file and --identity");
  }
  if (s.ok() && vm.count("order-file")) {
    const Status unreadable =
        Status::InvalidArgument("--order-file: cannot read '" + order_file + "'");
    std::error_code ec;
    std::ifstream file;
    if (order_file != "-") {
      if (std::filesystem::is_directory(order_file, ec)) {
        s = unreadable;
      } else {
        file.open(order_file);
        if (!file) s = unreadable;
      }
    }
    std::istream& in = order_file == "-" ? std::cin : file;
    if (s.ok()) {
      std::ostringstream text;
      text << in.rdbuf();
      if (in.bad()) s = unreadable;
      order_text = text.str();
    }
  }
  if (s.ok() && identity) {
    if (suits != 1) s = Status::InvalidArgument("--identity needs --suits 1");
    for (uint32_t v = 1; s.ok() && v <= ranks && v <= kMaxRebuildCards; ++v) order.push_back(v);
  }
  if (s.ok() && !identity) s = ParseOrder(order_text, &order);
  if (s.ok() && max_decks == 0) s = Status::InvalidArgument("--max must be positive");
  if (s.ok() && vm["all"].as<bool>() && !vm["max"].defaulted()) {
    s = Status::InvalidArgument("give --max N or --all, not both");
  }
  if (vm["all"].as<bool>()) max_decks = UINT64_MAX;
  // One deck more than asked for says whether --max cut the list short.
  RebuildOptions options;
  options.max_decks = max_decks == UINT64_MAX ? max_decks : max_decks + 1;
  RebuildResult result;
  if (!s.ok()) return BadInput("eulerdeck rebuild", s.ToString());
  // Progress in cards put back (one step each; modular's search may take
  // some back, so its total is not known), then in decks replayed.
  // Ctrl-C stops either; only replayed decks are printed.
  StopOnSignals signals;
  std::atomic<uint64_t> steps{0}, steps_total{game == Game::kModular ? 0 : order.size() - 1};
  std::atomic<int> replaying{-1};  // the deck being replayed; -1: searching
  options.steps_done = &steps;
  options.stop = signals.flag();
  Progress progress("rebuild", "cards", &steps, &steps_total, 2.0, [&] {
    const int i = replaying.load();
    return i < 0 ? std::string() : "replaying deck " + std::to_string(i + 1);
  });
  s = Rebuild(game, ranks, suits, order, options, &result);
  const bool search_stopped = s.IsCancelled();
  if (!s.ok() && !search_stopped) return BadInput("eulerdeck rebuild", s.ToString());
  if (result.decks.size() > max_decks) {
    result.decks.resize(max_decks);
  } else if (!search_stopped) {
    result.exhausted = true;  // fewer than max + 1: the search ended
  }

  // The obviously right check: each deck, played forward, removes its cards
  // in the order asked for. Stopped, the decks replayed are kept: the first
  // ones of the search, as --max <their number> gives them.
  size_t replayed = 0;
  for (; !search_stopped && replayed < result.decks.size(); ++replayed) {
    const WideDeck& d = result.decks[replayed];
    replaying = static_cast<int>(replayed);
    WideDeck played;
    const bool same = WideRemovalOrder(game, ranks, d, &played, signals.flag()) && played == order;
    if (signals.signal() != 0) break;
    if (!same) {
      progress.Stop();
      std::cerr << "eulerdeck rebuild: internal error: deck " << WideToString(d)
                << " does not replay to the order\n";
      return kExitCheckFailed;
    }
  }
  progress.Stop();
  // (The loop ends early only on a signal.)
  const bool stopped = search_stopped || replayed < result.decks.size();
  auto interrupted = [&] {
    std::cout.flush();
    std::cerr << "eulerdeck rebuild: interrupted ";
    if (search_stopped) {
      std::cerr << "during the search after " << Plural(result.steps, "card") << " put back, "
                << Plural(result.decks.size(), "deck") << " found";
      if (!result.decks.empty()) {
        std::cerr << " (--max " << result.decks.size() << " finds them)";
      }
      std::cerr << "; nothing printed (a deck is printed once replayed)";
    } else {
      std::cerr << "while replaying deck " << replayed + 1 << " of " << result.decks.size()
                << "; the decks printed are the first " << replayed << ", replayed (what --max "
                << replayed << " prints)";
    }
    std::cerr << "; not resumable\n";
    return signals.ExitCode();
  };
  if (stopped) {
    result.decks.resize(replayed);
    result.exhausted = false;
    if (replayed == 0) return interrupted();
  }
  const bool all_found = result.exhausted;  // else more decks exist past --max
  const GameSpec spec{game, static_cast<int>(ranks), static_cast<int>(suits)};
  if (vm["json"].as<bool>()) {
    // docs/schema/eulerdeck-rebuild.schema.json.
    nlohmann::ordered_json j = GameResultJson("eulerdeck rebuild", spec);
    j["order"] = WideJson(order);
    j["decks"] = nlohmann::ordered_json::array();
    for (const WideDeck& d : result.decks) j["decks"].push_back(WideJson(d));
    j["all_found"] = all_found;
    j["steps"] = result.steps;
    std::cout << j.dump() << "\n";
    return stopped ? interrupted() : kExitOk;
  }
  for (const WideDeck& d : result.decks) std::cout << "deck   " << WideToString(d) << "\n";
  std::cout << "decks  " << result.decks.size();
  if (result.decks.empty()) {
    std::cout << ": no " << GameName(game) << " deck removes its cards in this order\n";
  } else if (stopped) {
    std::cout << ", replayed (interrupted: more may exist)\n";
  } else if (all_found) {
    std::cout << (result.decks.size() == 1 ? " (the only one)" : " (all of them)")
              << ", replayed\n";
  } else {
    std::cout << " (more exist: --max N or --all for them), replayed\n";
  }
  return stopped ? interrupted() : kExitOk;
}

}  // namespace eulerdeck::tools
