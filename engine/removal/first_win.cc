#include "engine/removal/first_win.h"

#include <algorithm>
#include <vector>

#include "engine/cards/rules.h"
#include "engine/removal/one_suit.h"

namespace eulerdeck {

Status FirstWinningDeck(const GameSpec& spec, int threads, const std::atomic<bool>* stop,
                        Deck* deck) {
  if (Status st = ValidateSpec(spec); !st.ok()) return st;
  if (spec.suits != 1 || spec.policy().on_miss == OnMiss::kBurn ||
      spec.policy().on_match != OnMatch::kRemove) {
    return Status::NotSupported(
        "the first winning deck is searched for mousetrap and modular "
        "with one suit");
  }
  const int n = spec.cards();
  // Its counts are exact below 2^64 decks: up to 20 cards.
  if (n > 20) return Status::OutOfRange("the first winning deck is searched up to 20 cards");
  deck->clear();
  if (n <= internal::kLeafCards) {
    // Too few cards for the lazy deal's leaves: every deck, in order.
    Deck d(n);
    for (int i = 0; i < n; ++i) d[i] = static_cast<Card>(i + 1);
    do {
      if (PlayQuick(spec, d.data(), n).outcome == Outcome::kWin) {
        *deck = d;
        return Status::OK();
      }
    } while (std::next_permutation(d.begin(), d.end()));
    return Status::OK();
  }
  RemovedOptions options;
  options.threads = threads;
  options.stop = stop;
  std::vector<Card> fixed(n, 0);
  std::vector<bool> used(n + 1, false);
  for (int p = 0; p < n; ++p) {
    bool found = false;
    for (int v = 1; v <= n && !found; ++v) {
      if (used[v]) continue;
      fixed[p] = static_cast<Card>(v);
      RemovedResult r;
      if (Status st = internal::CountRemovedOneSuit(spec, options, &r, &fixed); !st.ok()) {
        return st;
      }
      found = r.removed[n] > 0;
      if (found) used[v] = true;
    }
    if (!found) {
      if (p == 0) return Status::OK();  // no deck wins
      return Status::Internal("a winning prefix has no winning completion");
    }
  }
  *deck = Deck(fixed.begin(), fixed.end());
  if (PlayQuick(spec, deck->data(), n).outcome != Outcome::kWin) {
    return Status::Internal("the deck found does not win when played");
  }
  return Status::OK();
}

}  // namespace eulerdeck
