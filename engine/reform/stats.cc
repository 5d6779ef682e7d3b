#include "engine/reform/stats.h"

#include <tbb/enumerable_thread_specific.h>

#include <array>
#include <nlohmann/json.hpp>
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

void MergeExample(ReformExample* into, const ReformExample& from) {
  if (from.deck.empty()) return;
  Offer(into, from.length, from.deck.data(), static_cast<int>(from.deck.size()));
}

// The decks of a length, by a JSON array of [length, decks] pairs.
nlohmann::json PairsJson(const std::map<uint64_t, uint64_t>& m) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& [length, decks] : m) a.push_back({length, decks});
  return a;
}

nlohmann::json ExampleJson(const ReformExample& e) {
  nlohmann::json deck = nlohmann::json::array();
  for (Card c : e.deck) deck.push_back(int{c});
  return {{"length", e.length}, {"deck", deck}};
}

}  // namespace

// What a tally holds: everything ReformStatsResult does but the totals, with
// the decks on cycles by cycle length (cycles are counted from them at the
// end, when every deck of every cycle has been seen).
struct ReformTally::Rep {
  explicit Rep(const GameSpec& spec) : spec(spec), n(spec.cards()), sequence(spec) {}
  const GameSpec spec;
  const int n;
  internal::SequenceFollower sequence;
  uint64_t winners = 0, cyclic = 0, on_cycles = 0;
  std::vector<uint64_t> reformable;
  std::map<uint64_t, uint64_t> cycle_decks, cyclic_sequences;
  ReformExample longest_sequence, longest_cyclic_sequence, longest_preperiod, longest_cycle;

  // The four examples with their names in the encoding, in one place for
  // Encode(), Merge() and the merge of two tallies.
  template <class R>
  static auto Examples(R& r) {
    using Pointer = decltype(&r.longest_sequence);
    return std::array<std::pair<const char*, Pointer>, 4>{
        {{"longest_sequence", &r.longest_sequence},
         {"longest_cyclic_sequence", &r.longest_cyclic_sequence},
         {"longest_preperiod", &r.longest_preperiod},
         {"longest_cycle", &r.longest_cycle}}};
  }

  void AddReformable(uint64_t reforms, uint64_t decks) {
    if (reformable.size() <= reforms) reformable.resize(reforms + 1, 0);
    reformable[reforms] += decks;
  }
};

ReformTally::ReformTally(const GameSpec& spec) : rep_(std::make_unique<Rep>(spec)) {}
ReformTally::~ReformTally() = default;

void ReformTally::Add(const Card* w, const Card* order) {
  Rep& r = *rep_;
  ++r.winners;
  const ReformScore s = r.sequence.FollowWinner(w, order);
  if (!s.cyclic) {
    r.AddReformable(s.reforms(), 1);
    Offer(&r.longest_sequence, s.length, w, r.n);
    return;
  }
  ++r.cyclic;
  ++r.cyclic_sequences[s.length];
  if (s.preperiod == 0) {
    ++r.on_cycles;
    ++r.cycle_decks[s.cycle];
  } else {
    Offer(&r.longest_preperiod, s.preperiod, w, r.n);
  }
  Offer(&r.longest_sequence, s.length, w, r.n);
  Offer(&r.longest_cyclic_sequence, s.length, w, r.n);
  Offer(&r.longest_cycle, s.cycle, w, r.n);
}

void ReformTally::Merge(const ReformTally& other) {
  Rep& r = *rep_;
  const Rep& o = *other.rep_;
  r.winners += o.winners;
  for (size_t k = 0; k < o.reformable.size(); ++k) {
    if (o.reformable[k] != 0) r.AddReformable(k, o.reformable[k]);
  }
  r.cyclic += o.cyclic;
  r.on_cycles += o.on_cycles;
  for (const auto& [length, decks] : o.cycle_decks) r.cycle_decks[length] += decks;
  for (const auto& [length, decks] : o.cyclic_sequences) r.cyclic_sequences[length] += decks;
  const auto into = Rep::Examples(r);
  const auto from = Rep::Examples(o);
  for (size_t i = 0; i < into.size(); ++i) MergeExample(into[i].second, *from[i].second);
}

std::string ReformTally::Encode() const {
  const Rep& r = *rep_;
  std::map<uint64_t, uint64_t> reformable;
  for (size_t k = 0; k < r.reformable.size(); ++k) {
    if (r.reformable[k] != 0) reformable[k] = r.reformable[k];
  }
  nlohmann::json j = {{"winners", r.winners},
                      {"reformable", PairsJson(reformable)},
                      {"cyclic", r.cyclic},
                      {"on_cycles", r.on_cycles},
                      {"cycle_decks", PairsJson(r.cycle_decks)},
                      {"cyclic_sequences", PairsJson(r.cyclic_sequences)}};
  for (const auto& [name, e] : Rep::Examples(r)) {
    if (!e->deck.empty()) j[name] = ExampleJson(*e);
  }
  return j.dump();
}

Status ReformTally::Merge(std::string_view encoded) {
  Rep& r = *rep_;
  const nlohmann::json j = nlohmann::json::parse(encoded, nullptr, /*allow_exceptions=*/false);
  const Status bad = Status::Corruption("a reform tally cannot be read");
  if (j.is_discarded() || !j.is_object()) return bad;
  ReformTally part(r.spec);
  Rep& p = *part.rep_;
  // Only non-negative integers are read as counts: nlohmann converts a
  // float or a negative number without a word (undefined for 1e300).
  auto count = [](const nlohmann::json& v) {
    if (!v.is_number_unsigned()) throw nlohmann::json::type_error::create(302, "not a count", &v);
    return v.get<uint64_t>();
  };
  try {
    p.winners = count(j.at("winners"));
    p.cyclic = count(j.at("cyclic"));
    p.on_cycles = count(j.at("on_cycles"));
    // A reform count sizes a vector: one past 2^24 (16 million reforms of
    // one deck, far beyond the longest sequences known, 249,034 decks at
    // modular n = 19) is taken for damage rather than allocated.
    for (const auto& pair : j.at("reformable")) {
      const uint64_t k = count(pair.at(0));
      if (k == 0 || k > (uint64_t{1} << 24)) return bad;
      p.AddReformable(k, count(pair.at(1)));
    }
    for (const auto& pair : j.at("cycle_decks")) {
      p.cycle_decks[count(pair.at(0))] += count(pair.at(1));
    }
    for (const auto& pair : j.at("cyclic_sequences")) {
      p.cyclic_sequences[count(pair.at(0))] += count(pair.at(1));
    }
    for (const auto& [name, e] : Rep::Examples(p)) {
      if (!j.contains(name)) continue;
      e->length = count(j[name].at("length"));
      for (const auto& c : j[name].at("deck")) {
        const uint64_t v = count(c);
        if (v < 1 || v > 255) return bad;
        e->deck.push_back(static_cast<Card>(v));
      }
      if (static_cast<int>(e->deck.size()) != r.n) return bad;
    }
  } catch (const nlohmann::json::exception&) {
    return bad;
  }
  Merge(part);
  return Status::OK();
}

Status ReformTally::Finish(uint64_t winning_decks, ReformStatsResult* result) const {
  const Rep& r = *rep_;
  *result = ReformStatsResult();
  result->total_decks = TotalDecks(r.spec);
  result->winning_decks = r.winners;
  result->reformable = r.reformable;
  if (result->reformable.empty()) result->reformable.assign(1, 0);
  result->cyclic_decks = r.cyclic;
  result->decks_on_cycles = r.on_cycles;
  result->cyclic_sequences = r.cyclic_sequences;
  result->longest_sequence = r.longest_sequence;
  result->longest_cyclic_sequence = r.longest_cyclic_sequence;
  result->longest_preperiod = r.longest_preperiod;
  result->longest_cycle = r.longest_cycle;
  // Every deck of a cycle of L decks is counted once: L of them per cycle.
  result->cycles.clear();
  for (const auto& [length, decks] : r.cycle_decks) {
    if (length == 0 || decks % length != 0) {
      return Status::Internal("reform-stats: " + std::to_string(decks) +
                              " decks on cycles of length " + std::to_string(length));
    }
    result->cycles[length] = decks / length;
  }
  uint64_t followed = result->cyclic_decks;
  for (uint64_t x : result->reformable) followed += x;
  if (result->winning_decks != winning_decks || followed != winning_decks) {
    return Status::Internal("reform-stats: " + std::to_string(result->winning_decks) +
                            " decks followed of " + std::to_string(winning_decks) +
                            " winning decks");
  }
  result->unreformed = result->total_decks - mpz_class(std::to_string(result->winning_decks));
  if (result->longest_sequence.length == 0 && result->total_decks > 0) {
    result->longest_sequence.length = 1;  // every deck loses: no example kept
  }
  return Status::OK();
}

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
  tbb::enumerable_thread_specific<ReformTally> tallies(spec);
  CountOptions count_options;
  count_options.threads = options.threads;
  count_options.stop = options.stop;
  count_options.tasks_done = options.tasks_done;
  count_options.tasks_total = options.tasks_total;
  count_options.on_winning_deck = [&](const Card* deck, const Card* order) {
    tallies.local().Add(deck, order);
  };
  CountResult count;
  if (Status st = Count(spec, count_options, &count); !st.ok()) return st;

  ReformTally all(spec);
  for (const ReformTally& t : tallies) all.Merge(t);
  return all.Finish(count.winning(), result);
}

}  // namespace eulerdeck
