#include "engine/memory/observations.h"

namespace eulerdeck {

std::vector<SolitaireObservation> ObservationsOf(SolitaireVariant variant) {
  using S = SolitaireSequence;
  switch (variant) {
    case SolitaireVariant::kMoves:
      return {{1, S::kRatio, true, 1}, {2, S::kDifference, false, 12}};
    case SolitaireVariant::kPairs10:
      return {{3, S::kValue, false, 5}};
    case SolitaireVariant::kPairs15:
      return {{4, S::kRatio, true, 3}, {5, S::kDifference, false, 12}};
    case SolitaireVariant::kPairs20:
      return {{6, S::kRatio, true, 2}, {7, S::kDifference, false, 2}};
    case SolitaireVariant::kOther:
      return {{8, S::kRatio, true, 2}, {9, S::kDifference, false, 12}};
    case SolitaireVariant::kFree:
      break;
  }
  return {};
}

const char* SequenceName(SolitaireSequence sequence) {
  switch (sequence) {
    case SolitaireSequence::kValue:
      return "x(n,0)";
    case SolitaireSequence::kRatio:
      return "x(n,0)/n";
    case SolitaireSequence::kDifference:
      return "x(n,0)-x(n-1,0)";
  }
  return "?";
}

ObservationChecker::ObservationChecker(const std::vector<SolitaireObservation>& observations) {
  for (const SolitaireObservation& o : observations) {
    tails_.push_back({o, MonotoneTail(1, o.increasing), MonotoneTail(1, o.increasing),
                      MonotoneTail(1, o.increasing)});
  }
}

void ObservationChecker::Step(int n, const int computed[kSolitaireSequences],
                              const int decided[kSolitaireSequences], bool exact) {
  for (Tails& t : tails_) {
    const int i = static_cast<int>(t.observation.sequence);
    const int want = t.observation.increasing ? 1 : -1;
    t.computed.Step(n, computed[i]);
    t.certified.Step(n, decided[i]);
    // Wrong way: decided against the claim (exactly, equal counts too).
    const bool wrong = decided[i] != want && (exact || decided[i] != 0);
    t.wrong_way.Step(n, wrong ? -want : want);
  }
}

std::vector<ObservationCheck> ObservationChecker::Results(int to) const {
  std::vector<ObservationCheck> results;
  for (const Tails& t : tails_) {
    ObservationCheck c;
    c.observation = t.observation;
    c.to = to;
    c.holds_from = t.computed.From();
    c.certified_from = t.certified.From();
    c.wrong_way_to = t.wrong_way.From();
    c.reached = to > t.observation.paper_from;
    c.confirms_paper = c.reached && c.wrong_way_to <= t.observation.paper_from;
    results.push_back(c);
  }
  return results;
}

}  // namespace eulerdeck
