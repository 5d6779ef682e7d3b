#include "engine/cards/game.h"

namespace eulerdeck {

const char* GameName(Game game) {
  switch (game) {
    case Game::kMousetrap:
      return "mousetrap";
    case Game::kModular:
      return "modular";
    case Game::kHlm:
      return "hlm";
  }
  return "?";
}

Status ParseGame(std::string_view name, Game* game) {
  if (name == "mousetrap") {
    *game = Game::kMousetrap;
  } else if (name == "modular") {
    *game = Game::kModular;
  } else if (name == "hlm") {
    *game = Game::kHlm;
  } else {
    return Status::InvalidArgument("unknown game '" + std::string(name) +
                                   "' (expected mousetrap, modular or hlm)");
  }
  return Status::OK();
}

Status ValidateSpec(const GameSpec& spec) {
  if (spec.ranks < 1) {
    return Status::InvalidArgument("--ranks must be at least 1, got " + std::to_string(spec.ranks));
  }
  if (spec.suits < 1) {
    return Status::InvalidArgument("--suits must be at least 1, got " + std::to_string(spec.suits));
  }
  if (spec.game == Game::kHlm && spec.ranks < 2) {
    return Status::InvalidArgument("hlm needs --ranks of at least 2 (a winning deck ends on a 2)");
  }
  if (static_cast<long long>(spec.ranks) * spec.suits > kMaxCards) {
    return Status::OutOfRange(
        "ranks x suits = " + std::to_string(static_cast<long long>(spec.ranks) * spec.suits) +
        " cards is more than the " + std::to_string(kMaxCards) + " this build supports");
  }
  return Status::OK();
}

int WinningScore(const GameSpec& spec) {
  const int all = spec.suits * spec.ranks * (spec.ranks + 1) / 2;
  return spec.game == Game::kHlm ? all - 2 : all;
}

}  // namespace eulerdeck
