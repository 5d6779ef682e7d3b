#include "engine/reform/stats.h"

#include <tbb/enumerable_thread_specific.h>

#include <string>
#include <utility>

#include "engine/cards/combinatorics.h"
#include "engine/cards/rules.h"
#include "engine/eulerian/enumerate.h"
#include "engine/reform/follow.h"

namespace eulerdeck {
namespace {

// a < b, lexicographically (a loop: GCC 12 warns falsely on byte ranges).
bool Less(const Card* a, const Deck& b, int n) {
  for (int i = 0; i < n; ++i)
    if (a[i] != b[i]) return a[i] < b[i];
  return false;
}

void Offer(ReformExample* e, uint64_t length, const Card* deck, int n) {
  if (length < e->length) return;
  if (length == e->length && !e->deck.empty() && !Less(deck, e->deck, n)) return;
  e->length = length;
  e->deck.assign(deck, deck + n);
}

void Merge(ReformExample* into, const ReformExample& from) {
  if (from.deck.empty()) return;
  Offer(into, from.length, from.deck.data(), static_cast<int>(from.deck.size()));
}

// One thread's share: the winning decks it was handed and where their
// sequences went.
class Follower {
 public:
  explicit Follower(const GameSpec& spec) : n_(spec.cards()), sequence_(spec) {}

  void Follow(const Card* w) {
    ++winners_;
    const ReformScore s = sequence_.Follow(w);
    if (!s.cyclic) {
      if (s.length == 1) {
        failure_ = Status::Internal("reform-stats: enumerated deck " +
                                    DeckToString(Deck(w, w + n_)) + " does not win");
        return;
      }
      const uint64_t reforms = s.reforms();
      if (reformable_.size() <= reforms) reformable_.resize(reforms + 1, 0);
      ++reformable_[reforms];
      Offer(&longest_sequence_, s.length, w, n_);
      return;
    }
    ++cyclic_;
    ++cyclic_sequences_[s.length];
    if (s.preperiod == 0) {
      ++on_cycles_;
      ++cycle_decks_[s.cycle];
    } else {
      Offer(&longest_preperiod_, s.preperiod, w, n_);
    }
    Offer(&longest_sequence_, s.length, w, n_);
    Offer(&longest_cyclic_sequence_, s.length, w, n_);
    Offer(&longest_cycle_, s.cycle, w, n_);
  }

  void AddTo(ReformStatsResult* r, std::map<uint64_t, uint64_t>* cycle_decks) const {
    r->winning_decks += winners_;
    if (r->reformable.size() < reformable_.size()) r->reformable.resize(reformable_.size(), 0);
    for (size_t k = 0; k < reformable_.size(); ++k) r->reformable[k] += reformable_[k];
    r->cyclic_decks += cyclic_;
    r->decks_on_cycles += on_cycles_;
    for (const auto& [length, decks] : cycle_decks_) (*cycle_decks)[length] += decks;
    for (const auto& [length, decks] : cyclic_sequences_) r->cyclic_sequences[length] += decks;
    Merge(&r->longest_sequence, longest_sequence_);
    Merge(&r->longest_cyclic_sequence, longest_cyclic_sequence_);
    Merge(&r->longest_preperiod, longest_preperiod_);
    Merge(&r->longest_cycle, longest_cycle_);
  }
  const Status& failure() const { return failure_; }

 private:
  const int n_;
  internal::SequenceFollower sequence_;
  uint64_t winners_ = 0, cyclic_ = 0, on_cycles_ = 0;
  std::vector<uint64_t> reformable_;
  std::map<uint64_t, uint64_t> cycle_decks_, cyclic_sequences_;
  ReformExample longest_sequence_, longest_cyclic_sequence_, longest_preperiod_, longest_cycle_;
  Status failure_;
};

}  // namespace

uint64_t ReformStatsResult::AtLeast(size_t k) const {
  uint64_t n = cyclic_decks;
  for (size_t j = k; j < reformable.size(); ++j) n += reformable[j];
  return n;
}

Status ReformStats(const GameSpec& spec, const ReformStatsOptions& options,
                   ReformStatsResult* result) {
  if (Status st = ValidateSpec(spec); !st.ok()) return st;
  if (spec.policy().on_match != OnMatch::kRemove) {
    return Status::NotSupported(std::string(GameName(spec.game)) + " reforms no deck");
  }
  *result = ReformStatsResult();
  result->total_decks = TotalDecks(spec);

  tbb::enumerable_thread_specific<Follower> followers(spec);
  CountOptions count_options;
  count_options.threads = options.threads;
  count_options.stop = options.stop;
  count_options.tasks_done = options.tasks_done;
  count_options.tasks_total = options.tasks_total;
  count_options.on_winning_deck = [&](const Card* deck) { followers.local().Follow(deck); };
  CountResult count;
  if (Status st = Count(spec, count_options, &count); !st.ok()) return st;

  std::map<uint64_t, uint64_t> cycle_decks;
  for (const Follower& f : followers) {
    if (!f.failure().ok()) return f.failure();
    f.AddTo(result, &cycle_decks);
  }
  if (result->reformable.empty()) result->reformable.assign(1, 0);
  // Every deck of a cycle of L decks is counted once: L of them per cycle.
  for (const auto& [length, decks] : cycle_decks) {
    if (decks % length != 0) {
      return Status::Internal("reform-stats: " + std::to_string(decks) +
                              " decks on cycles of length " + std::to_string(length));
    }
    result->cycles[length] = decks / length;
  }
  uint64_t followed = result->cyclic_decks;
  for (uint64_t x : result->reformable) followed += x;
  if (result->winning_decks != count.winning() || followed != count.winning()) {
    return Status::Internal("reform-stats: " + std::to_string(result->winning_decks) +
                            " decks followed of " + std::to_string(count.winning()) +
                            " winning decks");
  }
  result->unreformed = result->total_decks - mpz_class(std::to_string(result->winning_decks));
  if (result->longest_sequence.length == 0 && result->total_decks > 0) {
    result->longest_sequence.length = 1;  // every deck loses: no example kept
  }
  return Status::OK();
}

}  // namespace eulerdeck
