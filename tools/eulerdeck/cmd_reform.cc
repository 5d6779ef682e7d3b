// eulerdeck reform: a deck's reform sequence (the Mousetrap contest).
#include <iostream>
#include <nlohmann/json.hpp>

#include "engine/cards/deck.h"
#include "engine/cards/reform.h"
#include "tools/common/cli.h"
#include "tools/common/format.h"
#include "tools/common/results.h"
#include "tools/eulerdeck/commands.h"

namespace eulerdeck::tools {

namespace {
constexpr const char* kUsage =
    "usage: eulerdeck reform --game G --ranks M [--suits S] --deck DECK\n"
    "                        [--max-length N] [--list] [--json]\n"
    "Plays the deck, then its reformed deck, and so on, until a deck does not\n"
    "win (dead-end) or a deck comes back (cycle). The length is the number of\n"
    "distinct decks met, the starting deck included (the scoring of the Mousetrap\n"
    "contest on reformed decks).";
}  // namespace

int RunReform(const std::vector<std::string>& args) {
  DeckOptions deck_options;
  uint64_t max_length = 0;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help");
  deck_options.spec.takes = SpecOptions::Removes;
  deck_options.Add(desc, "the starting deck, top card first: values separated by spaces or commas");
  desc.add_options()("max-length", po::value(&max_length)->default_value(10'000'000),
                     "stop after this many distinct decks")(
      "list", po::bool_switch(), "print every deck of the sequence")("json", po::bool_switch(),
                                                                     "print one JSON object");
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kUsage, vm)) return kExitOk;
  GameSpec spec;
  Deck deck;
  Status s = deck_options.ToSpecAndDeck(&spec, &deck);
  if (s.ok() && max_length == 0) s = Status::InvalidArgument("--max-length must be positive");
  if (s.ok() && spec.policy().on_match != OnMatch::kRemove) {
    s = Status::NotSupported(std::string(spec.policy().name) +
                             " removes no card, so its decks have no reformed deck");
  }
  if (!s.ok()) return BadInput("eulerdeck reform", s.ToString());

  const ReformResult r = Reform(spec, deck, max_length);
  const bool list = vm["list"].as<bool>();
  if (vm["json"].as<bool>()) {
    // docs/schema/eulerdeck-reform.schema.json.
    auto deck_json = [](const Deck& d) {
      nlohmann::ordered_json a = nlohmann::ordered_json::array();
      for (Card c : d) a.push_back(static_cast<int>(c));
      return a;
    };
    nlohmann::ordered_json j = GameResultJson("eulerdeck reform", spec);
    j["deck"] = deck_json(deck);
    j["length"] = r.length();
    j["end"] = ReformEndName(r.end);
    if (r.end == ReformResult::End::kCycle) {
      j["cycle_length"] = r.cycle_length();
      j["cycle_start"] = r.cycle_start + 1;
    }
    if (list) {
      j["decks"] = nlohmann::ordered_json::array();
      for (const Deck& d : r.decks) j["decks"].push_back(deck_json(d));
    }
    std::cout << j.dump() << "\n";
    return kExitOk;
  }
  if (list) {
    for (const Deck& d : r.decks) std::cout << DeckToString(d) << "\n";
  }
  std::cout << "length  " << PluralThousands(r.length(), "distinct deck") << "\n"
            << "end     " << ReformEndName(r.end);
  if (r.end == ReformResult::End::kCycle) {
    std::cout << " of " << PluralThousands(r.cycle_length(), "deck") << " (back to deck "
              << Thousands(static_cast<uint64_t>(r.cycle_start + 1)) << ")";
  }
  std::cout << "\n";
  return kExitOk;
}

}  // namespace eulerdeck::tools
