#include "engine/cards/rules.h"

#include "engine/cards/rules_core.h"

namespace eulerdeck {

namespace {

// Keeps everything: removal order, burned cards, optionally the whole trace.
struct FullRecorder {
  static constexpr bool kWantVisits = true;
  static constexpr bool kCanStop = false;
  bool Stop() { return false; }
  GameResult* result;
  bool trace;
  void OnVisit(Card card, Card called) {
    if (trace) result->trace.push_back({card, called, card == called});
  }
  void OnRemove(Card card) {
    result->removed.push_back(card);
    result->score += card;
  }
  void OnBurn(const Card* a, uint32_t na, const Card* b, uint32_t nb) {
    result->burned.insert(result->burned.end(), a, a + na);
    result->burned.insert(result->burned.end(), b, b + nb);
  }
};

struct QuickRecorder {
  static constexpr bool kWantVisits = false;
  static constexpr bool kCanStop = false;
  bool Stop() { return false; }
  uint32_t removed = 0;
  uint32_t score = 0;
  void OnVisit(Card, Card) {}
  void OnRemove(Card card) {
    ++removed;
    score += card;
  }
  void OnBurn(const Card*, uint32_t, const Card*, uint32_t) {}
};

// Removal order into a caller's array; burned cards are kept apart and
// appended at the end.
struct OrderRecorder {
  static constexpr bool kWantVisits = false;
  static constexpr bool kCanStop = false;
  bool Stop() { return false; }
  Card* order = nullptr;
  uint32_t removed = 0;
  uint32_t score = 0;
  Card burned[kMaxCards];
  uint32_t burned_count = 0;
  void OnVisit(Card, Card) {}
  void OnRemove(Card card) {
    order[removed++] = card;
    score += card;
  }
  void OnBurn(const Card* a, uint32_t na, const Card* b, uint32_t nb) {
    std::memcpy(burned + burned_count, a, na);
    std::memcpy(burned + burned_count + na, b, nb);
    burned_count += na + nb;
  }
};

}  // namespace

const char* OutcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kWin:
      return "win";
    case Outcome::kLoss:
      return "loss";
    case Outcome::kDeadEnd:
      return "dead-end";
  }
  return "?";
}

GameResult Play(const GameSpec& spec, const Deck& deck, PlayOptions options) {
  GameResult result;
  FullRecorder rec{&result, options.trace};
  Card circle[kMaxCards];
  std::memcpy(circle, deck.data(), deck.size());
  uint32_t left = 0;
  result.outcome =
      internal::PlayCircle(spec, circle, static_cast<uint32_t>(deck.size()), &left, rec);
  result.residual.assign(circle, circle + left);
  if (result.outcome == Outcome::kWin && spec.policy().on_match == OnMatch::kRemove) {
    Deck reformed = result.removed;
    if (spec.policy().ends_on_burned_two) reformed.push_back(result.burned.back());
    result.reformed = std::move(reformed);
  }
  return result;
}

QuickResult PlayQuick(const GameSpec& spec, const Card* cards, int n) {
  QuickRecorder rec;
  Card circle[kMaxCards];
  std::memcpy(circle, cards, n);
  uint32_t left = 0;
  const Outcome outcome = internal::PlayCircle(spec, circle, static_cast<uint32_t>(n), &left, rec);
  return {outcome, static_cast<uint16_t>(rec.removed), rec.score};
}

QuickResult PlayOrder(const GameSpec& spec, const Card* cards, int n, Card* order) {
  OrderRecorder rec;
  rec.order = order;
  Card circle[kMaxCards];
  std::memcpy(circle, cards, n);
  uint32_t left = 0;
  const Outcome outcome = internal::PlayCircle(spec, circle, static_cast<uint32_t>(n), &left, rec);
  std::memcpy(order + rec.removed, rec.burned, rec.burned_count);
  return {outcome, static_cast<uint16_t>(rec.removed), rec.score};
}

}  // namespace eulerdeck
