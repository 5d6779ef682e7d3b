#include "engine/eulerian/rebuild.h"

#include <algorithm>
#include <string>

#include "engine/cards/rules_core.h"

namespace eulerdeck {

namespace {

// The card at slot p of C = D[k-q..k-1], x, D[0..k-q-1] (children.h), read
// from D without building C.
uint32_t CardOfChild(const WideDeck& d, uint32_t x, uint32_t q, uint32_t p) {
  const uint32_t k = static_cast<uint32_t>(d.size());
  if (p < q) return d[k - q + p];
  if (p == q) return x;
  return d[p - q - 1];
}

// Condition (2) of children.h for putting x back at count t in front of D
// (k cards): no count u < t names the card it visits in C. By counting, as
// forward play would. The caller keeps t within the limit (condition (1)).
bool FirstRemovalAt(const GameSpec& spec, const WideDeck& d, uint32_t x, uint32_t t) {
  const uint32_t k = static_cast<uint32_t>(d.size());
  const uint32_t m = static_cast<uint32_t>(spec.ranks);
  const uint32_t q = (t - 1) % (k + 1);
  uint32_t p = 0, called = 1;  // slot visited and value named at count u
  for (uint32_t u = 1; u < t; ++u) {
    if (CardOfChild(d, x, q, p) == called) return false;
    if (++p == k + 1) p = 0;
    called = called == m ? 1 : called + 1;
  }
  return true;
}

// D becomes C (x at slot q = (t-1) mod (k+1)), and back.
void PutBack(WideDeck* d, uint32_t x, uint32_t t) {
  const uint32_t k = static_cast<uint32_t>(d->size());
  const uint32_t q = (t - 1) % (k + 1);
  std::rotate(d->begin(), d->begin() + (k - q), d->end());  // D[k-q..k-1] first
  d->insert(d->begin() + q, x);
}
void TakeOut(WideDeck* c, uint32_t t) {
  const uint32_t k = static_cast<uint32_t>(c->size()) - 1;
  const uint32_t q = (t - 1) % (k + 1);
  c->erase(c->begin() + q);
  std::rotate(c->begin(), c->begin() + q, c->end());
}

Status CheckOrder(Game game, uint32_t ranks, uint32_t suits, const WideDeck& order) {
  const GamePolicy& policy = Policy(game);
  if (!policy.enumerable) {
    return Status::NotSupported(std::string(policy.name) +
                                " removes no card, so no deck has a removal order");
  }
  if (ranks < 1 || suits < 1) return Status::InvalidArgument("ranks and suits must be positive");
  if (policy.ends_on_burned_two && ranks < 2) {
    return Status::InvalidArgument(std::string(policy.name) + " needs at least 2 ranks");
  }
  if (static_cast<uint64_t>(ranks) * suits > kMaxRebuildCards) {
    return Status::InvalidArgument("a deck of " + std::to_string(uint64_t{ranks} * suits) +
                                   " cards is past the limit of " +
                                   std::to_string(kMaxRebuildCards));
  }
  // Modular counts up to lcm(k, m) <= n * m, which must fit 32 bits.
  if (policy.span == CountSpan::kLcmWithRanks &&
      uint64_t{ranks} * suits * ranks >= (uint64_t{1} << 32)) {
    return Status::InvalidArgument(std::string(policy.name) + " with " + std::to_string(ranks) +
                                   " ranks counts past 2^32; at most 65535 cards");
  }
  if (order.size() != static_cast<size_t>(ranks) * suits) {
    return Status::InvalidArgument("the order has " + std::to_string(order.size()) +
                                   " cards, the deck " + std::to_string(ranks * suits));
  }
  std::vector<uint32_t> copies(ranks + 1, 0);
  for (uint32_t v : order) {
    if (v < 1 || v > ranks) {
      return Status::InvalidArgument("card " + std::to_string(v) + " is not a value 1.." +
                                     std::to_string(ranks));
    }
    if (++copies[v] > suits) {
      return Status::InvalidArgument("value " + std::to_string(v) + " appears more than " +
                                     std::to_string(suits) + (suits == 1 ? " time" : " times"));
    }
  }
  return Status::OK();
}

}  // namespace

Status Rebuild(Game game, uint32_t ranks, uint32_t suits, const WideDeck& order,
               const RebuildOptions& options, RebuildResult* result) {
  *result = RebuildResult();
  if (options.max_decks < 1) return Status::InvalidArgument("max_decks must be at least 1");
  Status s = CheckOrder(game, ranks, suits, order);
  if (!s.ok()) return s;
  const GameSpec spec{game, static_cast<int>(ranks), static_cast<int>(suits)};
  const uint32_t n = static_cast<uint32_t>(order.size());

  // The root: hlm's final burned 2 (it is no removal); else the empty deck,
  // to which the last card removed is put back like any other.
  WideDeck deck;
  uint32_t placed = 0;  // cards of the order put back, from its end
  if (Policy(game).ends_on_burned_two) {
    if (order.back() != 2) {
      result->exhausted = true;  // every hlm win ends by burning a 2
      return Status::OK();
    }
    deck.push_back(2);
    placed = 1;
  }
  deck.reserve(n);

  // Depth-first over the counts t that put each card back: at depth i the
  // card order[n-1-i] went back at count chosen[i]. Mousetrap and hlm have
  // one candidate per card, so the stack never branches for them.
  const uint32_t m = ranks;
  std::vector<uint32_t> chosen(n, 0);
  const uint32_t root = placed;
  uint32_t i = placed;  // depth: the next card to put back is order[n-1-i]
  uint32_t next_t = 0;  // 0: start the candidates of depth i afresh
  auto stopped = [&] {
    return options.stop != nullptr && options.stop->load(std::memory_order_relaxed);
  };
  while (true) {
    if (i == n) {
      result->decks.push_back(deck);
      // Counts that never pass the ranks name each card once: one deck at
      // most, so the search is over.
      const CountSpan span = Policy(game).span;
      if (span == CountSpan::kRanks || span == CountSpan::kMinRanks) break;
      if (result->decks.size() >= options.max_decks) return Status::OK();
    } else {
      const uint32_t x = order[n - 1 - i];
      const uint32_t limit = CountLimit(spec, static_cast<uint32_t>(deck.size()) + 1);
      uint32_t t = next_t == 0 ? x : next_t;
      while (t <= limit && !stopped() && !FirstRemovalAt(spec, deck, x, t)) t += m;
      if (stopped()) {
        return Status::Cancelled("interrupted after " + std::to_string(result->steps) + " steps, " +
                                 std::to_string(result->decks.size()) + " decks found");
      }
      if (t <= limit) {
        PutBack(&deck, x, t);
        ++result->steps;
        if (options.steps_done != nullptr) {
          options.steps_done->fetch_add(1, std::memory_order_relaxed);
        }
        chosen[i++] = t;
        next_t = 0;
        continue;
      }
    }
    // A deck found, or no (further) count at this depth: take the previous
    // card out again and try its next count.
    if (i == root) break;
    --i;
    TakeOut(&deck, chosen[i]);
    next_t = chosen[i] + m;
  }
  result->exhausted = true;
  return Status::OK();
}

namespace {

// Keeps the removal order of a game played on wide cards (rules_core.h).
struct WideOrderRecorder {
  static constexpr bool kWantVisits = false;
  static constexpr bool kCanStop = true;
  WideDeck* order;
  const std::atomic<bool>* stop;
  void OnVisit(uint32_t, uint32_t) {}
  void OnRemove(uint32_t card) { order->push_back(card); }
  void OnBurn(const uint32_t* a, uint32_t na, const uint32_t* b, uint32_t nb) {
    burned.insert(burned.end(), a, a + na);
    burned.insert(burned.end(), b, b + nb);
  }
  bool Stop() { return stop != nullptr && stop->load(std::memory_order_relaxed); }
  WideDeck burned;
};

}  // namespace

bool WideRemovalOrder(Game game, uint32_t ranks, const WideDeck& deck, WideDeck* order,
                      const std::atomic<bool>* stop) {
  order->clear();
  if (deck.empty() || !Policy(game).enumerable) return false;
  const GameSpec spec{game, static_cast<int>(ranks), 1};  // suits do not enter play
  WideDeck circle = deck;
  WideOrderRecorder rec{order, stop, {}};
  uint32_t left = 0;
  const Outcome outcome =
      internal::PlayCircle(spec, circle.data(), static_cast<uint32_t>(circle.size()), &left, rec);
  if (outcome != Outcome::kWin) return false;
  // A win of hlm burns exactly the final 2 (the order's last card).
  order->insert(order->end(), rec.burned.begin(), rec.burned.end());
  return true;
}

}  // namespace eulerdeck
