#include "engine/cards/game.h"

namespace eulerdeck {

// The games. Indexed by Game; GameNameList() and the tools' help list them in
// this order.
const GamePolicy kGamePolicies[kGameCount] = {
    {Game::kMousetrap, "mousetrap", "Mousetrap (Cayley)",
     "Cayley (1857); Bersani (2010) Tables 2 and 4; OEIS A007709", CountSpan::kRanks,
     OnMatch::kRemove, OnMiss::kLose, /*ends_on_burned_two=*/false, /*score_studied=*/false,
     /*enumerable=*/true},
    {Game::kModular, "modular", "Modular Mousetrap (Guy & Nowakowski)",
     "Guy & Nowakowski (1993); Bersani (2010) Table 5", CountSpan::kLcmWithRanks, OnMatch::kRemove,
     OnMiss::kDeadEnd, false, false, true},
    {Game::kHlm, "hlm", "He Loves Me, He Loves Me Not", "Bersani (2010) section 3, Tables 1 and 3",
     CountSpan::kMinRanks, OnMatch::kRemove, OnMiss::kBurn, /*ends_on_burned_two=*/true,
     /*score_studied=*/true, true},
    {Game::kTreize, "treize", "Treize / Frustration solitaire (Montmort)",
     "Montmort (1708); Doyle, Grinstead & Snell, Frustration solitaire (1995); "
     "OEIS A000166, A000459, A059074",
     CountSpan::kRemaining, OnMatch::kLose, OnMiss::kWin, false, false,
     /*enumerable=*/false},
};

const char* GameName(Game game) { return Policy(game).name; }

std::string GameNameList(const char* separator) {
  std::string out;
  for (const GamePolicy& p : kGamePolicies) {
    if (!out.empty()) out += separator;
    out += p.name;
  }
  return out;
}

Status ParseGame(std::string_view name, Game* game) {
  for (const GamePolicy& p : kGamePolicies) {
    if (name == p.name) {
      *game = p.game;
      return Status::OK();
    }
  }
  return Status::InvalidArgument("unknown game '" + std::string(name) + "' (expected " +
                                 GameNameList(", ") + ")");
}

Status ValidateSpec(const GameSpec& spec) {
  if (spec.ranks < 1) {
    return Status::InvalidArgument("--ranks must be at least 1, got " + std::to_string(spec.ranks));
  }
  if (spec.suits < 1) {
    return Status::InvalidArgument("--suits must be at least 1, got " + std::to_string(spec.suits));
  }
  if (spec.policy().ends_on_burned_two && spec.ranks < 2) {
    return Status::InvalidArgument(std::string(spec.policy().name) +
                                   " needs --ranks of at least 2 (a winning deck ends on a 2)");
  }
  if (static_cast<long long>(spec.ranks) * spec.suits > kMaxCards) {
    return Status::OutOfRange(
        "ranks x suits = " + std::to_string(static_cast<long long>(spec.ranks) * spec.suits) +
        " cards is more than the " + std::to_string(kMaxCards) + " this build supports");
  }
  return Status::OK();
}

int TotalValue(const GameSpec& spec) { return spec.suits * spec.ranks * (spec.ranks + 1) / 2; }

int WinningScore(const GameSpec& spec) {
  const GamePolicy& p = spec.policy();
  if (p.on_match == OnMatch::kLose) return 0;
  return p.ends_on_burned_two ? TotalValue(spec) - 2 : TotalValue(spec);
}

}  // namespace eulerdeck
