// The pieces every per-game result shares, in JSON and in CSV, written in one
// place so that the same quantity has the same name and type in every
// command (docs/output.md).
#ifndef EULERDECK_TOOLS_COMMON_RESULTS_H_
#define EULERDECK_TOOLS_COMMON_RESULTS_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/cards/game.h"

namespace eulerdeck::tools {

// The first fields of a per-game JSON result: "command", then "store" when
// not empty, then "game", "ranks", "suits", "cards".
nlohmann::ordered_json GameResultJson(const std::string& command, const GameSpec& spec,
                                      const std::string& store = "");

// "mousetrap,11,1,": the columns game,ranks,suits that start every row of a
// per-game CSV.
std::string CsvGamePrefix(const GameSpec& spec);

// Adds "outcomes" {win, loss, dead_end} (indexed by Outcome), "removed"
// (index i: decks removing exactly i cards) and "score" (score -> decks,
// nonzero only): counts as decimal strings.
void AddDistributionsJson(const uint64_t outcomes[3], const std::vector<uint64_t>& removed,
                          const std::vector<uint64_t>& score, nlohmann::ordered_json* j);

}  // namespace eulerdeck::tools

#endif  // EULERDECK_TOOLS_COMMON_RESULTS_H_
