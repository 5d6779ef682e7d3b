#include "engine/cards/reform.h"

#include <string>
#include <unordered_map>

#include "engine/cards/rules.h"

namespace eulerdeck {

const char* ReformEndName(ReformResult::End end) {
  switch (end) {
    case ReformResult::End::kDeadEnd:
      return "dead-end";
    case ReformResult::End::kCycle:
      return "cycle";
    case ReformResult::End::kLimit:
      return "limit";
  }
  return "?";
}

ReformResult Reform(const GameSpec& spec, const Deck& deck, uint64_t max_length) {
  ReformResult out;
  // Deck bytes as the key: decks are short and a string hashes well.
  std::unordered_map<std::string, uint64_t> seen;
  Deck current = deck;
  while (true) {
    std::string key(current.begin(), current.end());
    auto [it, inserted] = seen.emplace(std::move(key), out.decks.size());
    if (!inserted) {
      out.end = ReformResult::End::kCycle;
      out.cycle_start = it->second;
      return out;
    }
    if (out.decks.size() == max_length) {
      out.end = ReformResult::End::kLimit;
      return out;
    }
    out.decks.push_back(current);
    GameResult r = Play(spec, current);
    if (!r.reformed) {
      out.end = ReformResult::End::kDeadEnd;
      return out;
    }
    current = std::move(*r.reformed);
  }
}

}  // namespace eulerdeck
