#include "tools/common/results.h"

namespace eulerdeck::tools {

nlohmann::ordered_json GameResultJson(const std::string& command, const GameSpec& spec,
                                      const std::string& store) {
  nlohmann::ordered_json j;
  j["command"] = command;
  if (!store.empty()) j["store"] = store;
  j["game"] = GameName(spec.game);
  j["ranks"] = spec.ranks;
  j["suits"] = spec.suits;
  j["cards"] = spec.cards();
  return j;
}

std::string CsvGamePrefix(const GameSpec& spec) {
  return std::string(GameName(spec.game)) + "," + std::to_string(spec.ranks) + "," +
         std::to_string(spec.suits) + ",";
}

void AddDistributionsJson(const uint64_t outcomes[3], const std::vector<uint64_t>& removed,
                          const std::vector<uint64_t>& score, nlohmann::ordered_json* j) {
  (*j)["outcomes"] = {{"win", std::to_string(outcomes[0])},
                      {"loss", std::to_string(outcomes[1])},
                      {"dead_end", std::to_string(outcomes[2])}};
  nlohmann::ordered_json by_removed = nlohmann::ordered_json::array();
  for (uint64_t c : removed) by_removed.push_back(std::to_string(c));
  (*j)["removed"] = by_removed;
  nlohmann::ordered_json by_score = nlohmann::ordered_json::object();
  for (size_t v = 0; v < score.size(); ++v) {
    if (score[v]) by_score[std::to_string(v)] = std::to_string(score[v]);
  }
  (*j)["score"] = by_score;
}

}  // namespace eulerdeck::tools
