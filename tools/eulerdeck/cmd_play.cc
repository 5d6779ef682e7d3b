// eulerdeck play: one deck, every detail.
#include <iostream>
#include <nlohmann/json.hpp>

#include "engine/cards/deck.h"
#include "engine/cards/rules.h"
#include "tools/common/cli.h"
#include "tools/common/format.h"
#include "tools/common/results.h"
#include "tools/eulerdeck/commands.h"

namespace eulerdeck::tools {

namespace {

constexpr const char* kUsage =
    "usage: eulerdeck play --game G --ranks M [--suits S] --deck DECK [--trace]\n"
    "                      [--json]\n"
    "Plays one deck and prints the outcome, the removed cards (hlm: stored, its\n"
    "rules' word; burned cards too), the score and, for a winning deck, the\n"
    "reformed deck. --trace lists every count in order as CARD/CALLED: the value\n"
    "of the card turned up, then the value called as it is turned; a * after it\n"
    "marks a match, the card removed (hlm: stored). \"1/1* 4/1 3/2\": the 1\n"
    "matched and went, then a 4 was turned as 1 was called, a 3 as 2 was called.\n"
    "The JSON keeps the field names removed_cards and trace[].removed for every\n"
    "game (docs/schema/eulerdeck-play.schema.json).";

nlohmann::ordered_json DeckJson(const Deck& deck) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (Card c : deck) a.push_back(static_cast<int>(c));
  return a;
}

// Visited cards with the value called: "1/1* 4/1 3/2"; * marks a removal.
std::string TraceString(const std::vector<Visit>& trace) {
  std::string out;
  for (const Visit& v : trace) {
    if (!out.empty()) out += ' ';
    out += std::to_string(v.card) + "/" + std::to_string(v.called);
    if (v.removed) out += '*';
  }
  return out;
}

}  // namespace

int RunPlay(const std::vector<std::string>& args) {
  DeckOptions deck_options;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help");
  deck_options.Add(
      desc, "the deck, top card first: values separated by spaces or commas (e.g. \"1 4 3 2\")");
  desc.add_options()("trace", po::bool_switch(),
                     "also show every count: CARD/CALLED, * on a match")("json", po::bool_switch(),
                                                                         "print one JSON object");
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kUsage, vm)) return kExitOk;
  GameSpec spec;
  Deck deck;
  Status s = deck_options.ToSpecAndDeck(&spec, &deck);
  if (!s.ok()) return BadInput("eulerdeck play", s.ToString());

  const bool trace = vm["trace"].as<bool>();
  const GameResult r = Play(spec, deck, {.trace = trace});

  if (vm["json"].as<bool>()) {
    // docs/schema/eulerdeck-play.schema.json.
    nlohmann::ordered_json j = GameResultJson("eulerdeck play", spec);
    j["deck"] = DeckJson(deck);
    j["outcome"] = OutcomeName(r.outcome);
    j["removed_cards"] = DeckJson(r.removed);
    j["burned_cards"] = DeckJson(r.burned);
    j["residual_cards"] = DeckJson(r.residual);
    j["deck_score"] = r.score;
    j["winning_score"] = WinningScore(spec);
    if (r.reformed) j["reformed_deck"] = DeckJson(*r.reformed);
    if (trace) {
      nlohmann::ordered_json t = nlohmann::ordered_json::array();
      for (const Visit& v : r.trace) {
        nlohmann::ordered_json visit;
        visit["card"] = v.card;
        visit["called"] = v.called;
        visit["removed"] = v.removed;
        t.push_back(visit);
      }
      j["trace"] = t;
    }
    std::cout << j.dump() << "\n";
    return kExitOk;
  }

  // hlm stores the cards it matches (docs/rules.md); the others remove them.
  const bool stores = spec.policy().on_miss == OnMiss::kBurn;
  std::cout << "game      " << GameLine(spec) << "\n"
            << "deck      " << DeckToString(deck) << "\n"
            << "outcome   " << OutcomeName(r.outcome) << "\n"
            << (stores ? "stored    " : "removed   ")
            << (r.removed.empty() ? "none"
                                  : DeckToString(r.removed) + " (" + Thousands(r.removed.size()) +
                                        " of " + PluralThousands(deck.size(), "card") + ")")
            << "\n";
  if (stores) {
    std::cout << "burned    " << (r.burned.empty() ? "none" : DeckToString(r.burned)) << "\n";
  } else if (!r.residual.empty()) {
    std::cout << "residual  " << DeckToString(r.residual) << "\n";  // as in --json
  }
  // Treize has no score (nothing is removed): "0 of 0" would say nothing.
  if (WinningScore(spec) > 0)
    std::cout << "score     " << Thousands(static_cast<uint64_t>(r.score)) << " of "
              << Thousands(static_cast<uint64_t>(WinningScore(spec))) << "\n";
  std::cout << "reformed  " << (r.reformed ? DeckToString(*r.reformed) : "none") << "\n";
  if (trace) std::cout << "trace     " << TraceString(r.trace) << "\n";
  return kExitOk;
}

}  // namespace eulerdeck::tools
