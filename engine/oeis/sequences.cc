#include "engine/oeis/sequences.h"

#include <algorithm>
#include <map>

#include "engine/base/parallel.h"
#include "engine/cards/combinatorics.h"
#include "engine/estimate/forecast.h"
#include "engine/eulerian/enumerate.h"
#include "engine/reform/stats.h"
#include "engine/removal/first_win.h"
#include "engine/removal/prefix.h"
#include "engine/removal/removed.h"

namespace eulerdeck {
namespace {

// What a term is computed with, and the terms of one index (one row, for a
// triangle) appended to *out.
struct Context {
  int threads;
  const std::atomic<bool>* stop;
  std::atomic<uint64_t>* tasks_done = nullptr;  // progress, as in CountOptions
  std::atomic<uint64_t>* tasks_total = nullptr;
};
using TermsFn = Status (*)(int64_t index, const Context& ctx, std::vector<std::string>* out);

struct Entry {
  OeisSequence seq;
  TermsFn terms;  // nullptr: not computed (seq.statistic says why)
  // Term n is the backward count of n cards (one suit, mousetrap): the
  // count's forecast model applies (ForecastOeis).
  bool by_count = false;
};

GameSpec Mousetrap(int64_t n) { return GameSpec{Game::kMousetrap, static_cast<int>(n), 1}; }

mpz_class Factorial(int64_t n) {
  mpz_class f = 1;
  for (int64_t i = 2; i <= n; ++i) f *= static_cast<unsigned long>(i);
  return f;
}

// count --removed of the one-suit mousetrap of n cards; n = 0 is the empty
// deck, which removes nothing: {1}.
Status RemovedRow(int64_t n, const Context& ctx, std::vector<uint64_t>* row) {
  if (n == 0) {
    *row = {1};
    return Status::OK();
  }
  RemovedOptions options;
  options.threads = ctx.threads;
  options.stop = ctx.stop;
  options.tasks_done = ctx.tasks_done;
  options.tasks_total = ctx.tasks_total;
  RemovedResult removed;
  if (Status st = CountRemoved(Mousetrap(n), options, &removed); !st.ok()) return st;
  *row = removed.removed;
  return Status::OK();
}

uint64_t Winning(int64_t n, const Context& ctx, Status* st) {
  CountOptions options;
  options.threads = ctx.threads;
  options.stop = ctx.stop;
  options.tasks_done = ctx.tasks_done;
  options.tasks_total = ctx.tasks_total;
  CountResult count;
  *st = Count(Mousetrap(n), options, &count);
  return count.winning();
}

// The decks of n cards (one suit, mousetrap) whose removal order begins
// with `prefix` (only: is `prefix`): Steen's and Mundfrom's "hits". An
// order naming a card the deck lacks, or one card twice, has no deck.
Status Hits(int64_t n, const std::vector<Card>& prefix, bool only, mpz_class* decks) {
  for (size_t i = 0; i < prefix.size(); ++i) {
    bool absent = prefix[i] > n;
    for (size_t j = 0; j < i; ++j) absent |= prefix[j] == prefix[i];
    if (absent) {
      *decks = 0;
      return Status::OK();
    }
  }
  return CountRemovalPrefix(Mousetrap(n), prefix, only, decks);
}

// Past this the permanents computed at once (16 bytes a table entry, one
// table a thread) would hold more memory: a row of 27 cards runs its 1 GiB
// tables four at a time, a row of 23 cards sixty-four at a time.
constexpr uint64_t kOnlyCardTableBytes = uint64_t{4} << 30;

// row[k - 1], k = 1..n: the decks of n cards (one suit, mousetrap) whose
// removal order is exactly the card k (A028306's row n - 1; the row sums to
// A007710(n)). Each is one permanent over the n - 1 cards left unknown
// (prefix.h), the n of them shared out over ctx.threads; progress counts
// them as tasks.
Status OnlyCardRow(int64_t n, const Context& ctx, std::vector<mpz_class>* row) {
  row->assign(n, 0);
  if (n == 0) return Status::OK();
  const uint64_t table_bytes = uint64_t{16} << (n - 1);
  const int threads = static_cast<int>(std::max<uint64_t>(
      1, std::min<uint64_t>(EffectiveThreads(ctx.threads), kOnlyCardTableBytes / table_bytes)));
  if (ctx.tasks_total) ctx.tasks_total->store(n, std::memory_order_relaxed);
  std::vector<Status> status(n);
  ParallelFor(threads, n, [&](size_t i) {
    if (ctx.stop && ctx.stop->load(std::memory_order_relaxed)) {
      status[i] = Status::Cancelled("interrupted");
      return;
    }
    status[i] = Hits(n, {static_cast<Card>(i + 1)}, /*only=*/true, &(*row)[i]);
    if (ctx.tasks_done) ctx.tasks_done->fetch_add(1, std::memory_order_relaxed);
  });
  for (const Status& st : status)
    if (!st.ok()) return st;
  return Status::OK();
}

// The decks of n cards (one suit, mousetrap) that remove no card, the
// derangements: the removal order is exactly empty, one permanent over the
// n cards (prefix.h). n = 0 is the empty deck, which removes nothing: 1.
Status NoneRemoved(int64_t n, mpz_class* decks) {
  if (n == 0) {
    *decks = 1;
    return Status::OK();
  }
  return Hits(n, {}, /*only=*/true, decks);
}

Status HitsTerm(int64_t n, const std::vector<Card>& prefix, std::vector<std::string>* out,
                bool only = false) {
  mpz_class decks;
  if (Status st = Hits(n, prefix, only, &decks); !st.ok()) return st;
  out->push_back(decks.get_str());
  return Status::OK();
}

// The decks of n cards (one suit, mousetrap) reformable exactly k times in
// the OEIS's sense: a dead-end after k reforms, or a sequence of k distinct
// decks ending on a cycle (the reforms made before a deck repeats).
Status ReformableTerm(int64_t n, size_t k, const Context& ctx, std::vector<std::string>* out) {
  ReformStatsOptions options;
  options.threads = ctx.threads;
  options.stop = ctx.stop;
  options.tasks_done = ctx.tasks_done;
  options.tasks_total = ctx.tasks_total;
  ReformStatsResult stats;
  if (Status st = ReformStats(Mousetrap(n), options, &stats); !st.ok()) return st;
  uint64_t decks = k < stats.reformable.size() ? stats.reformable[k] : 0;
  if (auto it = stats.cyclic_sequences.find(k); it != stats.cyclic_sequences.end())
    decks += it->second;
  out->push_back(std::to_string(decks));
  return Status::OK();
}

const std::vector<Entry> kEntries = {
    {{"A000166",
      "Subfactorial or rencontres numbers, or derangements: number of permutations of n "
      "elements with no fixed points.",
      0, false,
      "mousetrap, n ranks, 1 suit: the decks removing no card (count --removed's column 0, "
      "counted as the decks whose removal order is empty: one permanent, "
      "engine/removal/prefix.h); a(0) = 1, the empty deck",
      true, 12, 26},
     [](int64_t n, const Context&, std::vector<std::string>* out) {
       mpz_class none;
       if (Status st = NoneRemoved(n, &none); !st.ok()) return st;
       out->push_back(none.get_str());
       return Status::OK();
     }},
    {{"A001563", "a(n) = n*n! = (n+1)! - n!.", 0, false,
      "mousetrap, n+2 ranks, 1 suit: the decks whose first card removed is 2 (Steen's \"first "
      "hit on 2\": card 2 second, card 1 not first, so (n+1)! - n!); removal orders, "
      "engine/removal/prefix.h",
      true, 21, 24},
     [](int64_t i, const Context&, std::vector<std::string>* out) {
       return HitsTerm(i + 2, {2}, out);
     }},
    {{"A002467",
      "The game of Mousetrap with n cards (given n letters and n envelopes, how many ways are "
      "there to fill the envelopes so that at least one letter goes into its right envelope?).",
      0, false,
      "mousetrap, n ranks, 1 suit: the decks removing at least one card, n! minus the decks "
      "whose removal order is empty (count --removed's column 0; one permanent, "
      "engine/removal/prefix.h); a(0) = 0",
      true, 12, 26},
     [](int64_t n, const Context&, std::vector<std::string>* out) {
       mpz_class none;
       if (Status st = NoneRemoved(n, &none); !st.ok()) return st;
       out->push_back(mpz_class(Factorial(n) - none).get_str());
       return Status::OK();
     }},
    {{"A002468",
      "The game of Mousetrap with n cards: the number of permutations of n cards having at "
      "least one hit after 2.",
      1, false,
      "mousetrap, n ranks, 1 suit: the decks whose first card removed is 2 and which remove "
      "another card after it (removal order begins 2, minus removal order exactly 2)",
      true, 25, 26},
     [](int64_t n, const Context&, std::vector<std::string>* out) {
       mpz_class first, only;
       if (Status st = Hits(n, {2}, false, &first); !st.ok()) return st;
       if (Status st = Hits(n, {2}, true, &only); !st.ok()) return st;
       out->push_back(mpz_class(first - only).get_str());
       return Status::OK();
     }},
    {{"A002469",
      "The game of Mousetrap with n cards: the number of permutations of n cards in which 2 "
      "is the only hit.",
      2, false, "mousetrap, n ranks, 1 suit: the decks whose removal order is exactly 2", true, 23,
      26},
     [](int64_t n, const Context&, std::vector<std::string>* out) {
       return HitsTerm(n, {2}, out, /*only=*/true);
     }},
    {{"A007709", "Number of winning (or reformed) decks at Mousetrap.", 1, false,
      "mousetrap, n ranks, 1 suit: the winning decks (count, the backward enumeration)", true, 13,
      20},
     [](int64_t n, const Context& ctx, std::vector<std::string>* out) {
       Status st;
       const uint64_t w = Winning(n, ctx, &st);
       if (st.ok()) out->push_back(std::to_string(w));
       return st;
     },
     /*by_count=*/true},
    {{"A007710", "From the game of Mousetrap.", 1, false,
      "mousetrap, n ranks, 1 suit: the decks removing exactly one card (count --removed's "
      "column 1, A028305's column k = 1), counted as the sum over k of the decks whose "
      "removal order is exactly k (A028306's row n-1; engine/removal/prefix.h)",
      true, 12, 27},
     [](int64_t n, const Context& ctx, std::vector<std::string>* out) {
       std::vector<mpz_class> row;
       if (Status st = OnlyCardRow(n, ctx, &row); !st.ok()) return st;
       mpz_class sum = 0;
       for (const mpz_class& x : row) sum += x;
       out->push_back(sum.get_str());
       return Status::OK();
     }},
    {{"A007711", "Number of unreformed permutations of {1,...,n}.", 1, false,
      "mousetrap, n ranks, 1 suit: the decks that do not win, n! minus the winning decks "
      "(count)",
      true, 13, 20},
     [](int64_t n, const Context& ctx, std::vector<std::string>* out) {
       Status st;
       const uint64_t w = Winning(n, ctx, &st);
       if (st.ok()) out->push_back(mpz_class(Factorial(n) - w).get_str());
       return st;
     },
     /*by_count=*/true},
    {{"A007712", "Number of once reformable permutations of {1,2,...,n}.", 2, false,
      "mousetrap, n ranks, 1 suit: the decks reformable exactly once (reform-stats): the "
      "reformed deck loses, or the deck is its own reformed deck (1 2, the only one for "
      "2 <= n <= 14; the OEIS counts the reforms made before a deck repeats)",
      true, 12, 16},
     [](int64_t n, const Context& ctx, std::vector<std::string>* out) {
       return ReformableTerm(n, 1, ctx, out);
     }},
    {{"A018931",
      "The number of permutations of n cards in which 2 is the first card hit and 3 the next "
      "hit after 2.",
      3, false, "mousetrap, n ranks, 1 suit: the decks whose removal order begins 2, 3", true, 10,
      27},
     [](int64_t n, const Context&, std::vector<std::string>* out) {
       return HitsTerm(n, {2, 3}, out);
     }},
    {{"A018932", "The number of permutations of n cards in which 4 will be the next hit after 2.",
      4, false, "mousetrap, n ranks, 1 suit: the decks whose removal order begins 2, 4", true, 22,
      27},
     [](int64_t n, const Context&, std::vector<std::string>* out) {
       return HitsTerm(n, {2, 4}, out);
     }},
    {{"A018933", "From the game of Mousetrap.", 0, false,
      "mousetrap, n+5 ranks, 1 suit: the decks whose removal order begins 2, 5 (Mundfrom's "
      "\"2 first, 5 next\"; offset 0 is the 5-card deck)",
      true, 17, 22},
     [](int64_t i, const Context&, std::vector<std::string>* out) {
       return HitsTerm(i + 5, {2, 5}, out);
     }},
    {{"A018934", "From the game of Mousetrap.", 0, false,
      "mousetrap, n+2 ranks, 1 suit: the decks whose removal order begins 2, n+2 (the "
      "highest card next after 2; offset 0 is the 2-card deck)",
      true, 23, 25},
     [](int64_t i, const Context&, std::vector<std::string>* out) {
       return HitsTerm(i + 2, {2, static_cast<Card>(i + 2)}, out);
     }},
    {{"A028305",
      "Triangle of numbers of permutations eliminating just k cards out of n in game of "
      "Mousetrap.",
      0, true,
      "mousetrap, n ranks, 1 suit: row n is count --removed (T(n, k) = the decks removing "
      "exactly k cards, k = 0..n); row 0 is 1, the empty deck",
      true, 11, 17},
     [](int64_t n, const Context& ctx, std::vector<std::string>* out) {
       std::vector<uint64_t> row;
       if (Status st = RemovedRow(n, ctx, &row); !st.ok()) return st;
       for (uint64_t x : row) out->push_back(std::to_string(x));
       return Status::OK();
     }},
    {{"A028306",
      "Triangle read by rows of numbers of permutations eliminating just card k out of n in "
      "game of Mousetrap.",
      0, true,
      "mousetrap, n+1 ranks, 1 suit: T(n, k), k = 0..n, is the decks whose removal order is "
      "exactly the card k+1 (row n is the decks of n+1 cards; it sums to A007710(n+1))",
      true, 9, 26},
     [](int64_t r, const Context& ctx, std::vector<std::string>* out) {
       std::vector<mpz_class> row;
       if (Status st = OnlyCardRow(r + 1, ctx, &row); !st.ok()) return st;
       for (const mpz_class& x : row) out->push_back(x.get_str());
       return Status::OK();
     }},
    {{"A055459",
      "a(n) = number of permutations of {1,...,n} which are twice but not 3-times reformable.", 4,
      false,
      "mousetrap, n ranks, 1 suit: the decks reformable exactly twice (reform-stats). The "
      "OEIS prints offset 1; its example (a(4) = 2) and its data start at n = 4, as here "
      "(docs/errata.md)",
      true, 12, 16},
     [](int64_t n, const Context& ctx, std::vector<std::string>* out) {
       return ReformableTerm(n, 2, ctx, out);
     }},
    {{"A067950", "a(n) = number of 3-times (but not 4-times) reformable permutation of {1,...,n}.",
      6, false, "mousetrap, n ranks, 1 suit: the decks reformable exactly 3 times (reform-stats)",
      true, 12, 16},
     [](int64_t n, const Context& ctx, std::vector<std::string>* out) {
       return ReformableTerm(n, 3, ctx, out);
     }},
    {{"A261867",
      "Triangle T(n, k) read by rows (n >= 1, 1 <= k <= n), where row n gives the "
      "lexicographically first permutation of n cards that is a winning (or reformed) deck at "
      "Cayley's Mousetrap.",
      1, true,
      "mousetrap, n ranks, 1 suit: row n is the first winning deck in lexicographic order, "
      "each card the smallest value with which some completion still wins (count --removed's "
      "lazy deal with the cards chosen so far fixed)",
      true, 12, 17},
     [](int64_t n, const Context& ctx, std::vector<std::string>* out) {
       Deck deck;
       if (Status st = FirstWinningDeck(Mousetrap(n), ctx.threads, ctx.stop, &deck); !st.ok())
         return st;
       for (Card c : deck) out->push_back(std::to_string(c));
       return Status::OK();
     }},
};

const Entry* FindEntry(const std::string& id) {
  for (const Entry& e : kEntries)
    if (id == e.seq.id) return &e;
  return nullptr;
}

}  // namespace

const std::vector<OeisSequence>& OeisSequences() {
  static const std::vector<OeisSequence> sequences = [] {
    std::vector<OeisSequence> v;
    for (const Entry& e : kEntries) {
      v.push_back(e.seq);
      v.back().computed = e.terms != nullptr;  // one source of truth
    }
    return v;
  }();
  return sequences;
}

const OeisSequence* FindOeisSequence(const std::string& id) {
  for (const OeisSequence& s : OeisSequences())
    if (id == s.id) return &s;
  return nullptr;
}

Status CheckOeisTo(const OeisSequence& seq, int to) {
  const int lowest = std::max(1, seq.offset);
  if (to < lowest || to > seq.max_to) {
    return Status::InvalidArgument("--to for " + std::string(seq.id) + " must be " +
                                   std::to_string(lowest) + ".." + std::to_string(seq.max_to));
  }
  return Status::OK();
}

Status OeisTerms(const std::string& id, int to, const OeisOptions& options,
                 std::vector<OeisTerm>* terms) {
  const Entry* entry = FindEntry(id);
  if (!entry) return Status::InvalidArgument("unknown sequence '" + id + "' (see --list)");
  const OeisSequence& seq = entry->seq;
  if (!entry->terms) return Status::NotSupported(std::string(seq.id) + ": " + seq.statistic);
  if (Status st = CheckOeisTo(seq, to); !st.ok()) return st;
  terms->clear();
  const std::atomic<bool>* stop = options.stop;
  const Context ctx{options.threads, stop, options.tasks_done, options.tasks_total};
  int64_t index = seq.offset;
  std::vector<std::string> values;
  std::vector<OeisTerm> row;
  for (int64_t n = seq.offset; n <= to; ++n) {
    if (stop && stop->load(std::memory_order_relaxed)) return Status::Cancelled("interrupted");
    if (options.tasks_done) options.tasks_done->store(0, std::memory_order_relaxed);
    if (options.tasks_total) options.tasks_total->store(0, std::memory_order_relaxed);
    if (options.index_in_progress) options.index_in_progress->store(n, std::memory_order_relaxed);
    values.clear();
    if (Status st = entry->terms(n, ctx, &values); !st.ok()) return st;
    row.clear();
    for (std::string& v : values) row.push_back(OeisTerm{index++, std::move(v)});
    if (options.on_terms) options.on_terms(n, row);
    terms->insert(terms->end(), row.begin(), row.end());
  }
  return Status::OK();
}

Status OeisTerms(const std::string& id, int to, int threads, const std::atomic<bool>* stop,
                 std::vector<OeisTerm>* terms) {
  OeisOptions options;
  options.threads = threads;
  options.stop = stop;
  return OeisTerms(id, to, options, terms);
}

Status ForecastOeis(const std::string& id, int to, int threads, double budget_seconds_per_size,
                    OeisForecast* forecast) {
  const Entry* entry = FindEntry(id);
  if (!entry) return Status::InvalidArgument("unknown sequence '" + id + "' (see --list)");
  if (Status st = CheckOeisTo(entry->seq, to); !st.ok()) return st;
  if (!entry->by_count) {
    return Status::NotSupported(std::string(id) + " has no forecast model (only the count's)");
  }
  *forecast = OeisForecast();
  forecast->to = to;
  const int lowest = std::max(1, entry->seq.offset);
  for (int n = to; n >= lowest; --n) {
    CountForecast f;
    if (Status st = ForecastCount(Mousetrap(n), threads, budget_seconds_per_size, &f); !st.ok())
      return st;
    forecast->from = n;
    forecast->threads = f.threads;
    forecast->seconds += f.seconds;
    forecast->sub_decks += f.nodes.mean;
    // The smaller sizes together add about as little again (the terms grow
    // about n-fold).
    if (f.nodes.mean < 0.01 * forecast->sub_decks) break;
  }
  return Status::OK();
}

}  // namespace eulerdeck
