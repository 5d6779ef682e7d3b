#include "engine/oeis/sequences.h"

#include <map>

#include "engine/cards/combinatorics.h"
#include "engine/eulerian/enumerate.h"
#include "engine/removal/first_win.h"
#include "engine/removal/removed.h"

namespace eulerdeck {
namespace {

constexpr const char* kNotYetHits =
    "not computed yet: needs the order in which the cards are hit (Steen 1878, Mundfrom "
    "1994), a statistic the engine does not tally";
constexpr const char* kNotYetReform =
    "not computed yet: needs the number of times each deck can be reformed (issue 17, "
    "reform-stats)";

const std::vector<OeisSequence> kSequences = {
    {"A000166",
     "Subfactorial or rencontres numbers, or derangements: number of permutations of n "
     "elements with no fixed points.",
     0, false,
     "mousetrap, n ranks, 1 suit: the decks removing no card (count --removed, column 0); "
     "a(0) = 1, the empty deck",
     true, 12, 17},
    {"A001563", "a(n) = n*n! = (n+1)! - n!.", 0, false,
     "not computed: no game statistic of its own (it enters A002468's formula)", false, 0, 0},
    {"A002467",
     "The game of Mousetrap with n cards (given n letters and n envelopes, how many ways are "
     "there to fill the envelopes so that at least one letter goes into its right envelope?).",
     0, false,
     "mousetrap, n ranks, 1 suit: the decks removing at least one card, n! minus count "
     "--removed's column 0; a(0) = 0",
     true, 12, 17},
    {"A002468",
     "The game of Mousetrap with n cards: the number of permutations of n cards having at "
     "least one hit after 2.",
     1, false, kNotYetHits, false, 0, 0},
    {"A002469",
     "The game of Mousetrap with n cards: the number of permutations of n cards in which 2 "
     "is the only hit.",
     2, false, kNotYetHits, false, 0, 0},
    {"A007709", "Number of winning (or reformed) decks at Mousetrap.", 1, false,
     "mousetrap, n ranks, 1 suit: the winning decks (count, the backward enumeration)", true, 13,
     20},
    {"A007710", "From the game of Mousetrap.", 1, false,
     "mousetrap, n ranks, 1 suit: the decks removing exactly one card (count --removed, "
     "column 1; A028305's column k = 1)",
     true, 12, 17},
    {"A007711", "Number of unreformed permutations of {1,...,n}.", 1, false,
     "mousetrap, n ranks, 1 suit: the decks that do not win, n! minus the winning decks "
     "(count)",
     true, 13, 20},
    {"A007712", "Number of once reformable permutations of {1,2,...,n}.", 2, false, kNotYetReform,
     false, 0, 0},
    {"A018931",
     "The number of permutations of n cards in which 2 is the first card hit and 3 the next "
     "hit after 2.",
     3, false, kNotYetHits, false, 0, 0},
    {"A018932", "The number of permutations of n cards in which 4 will be the next hit after 2.", 4,
     false, kNotYetHits, false, 0, 0},
    {"A018933", "From the game of Mousetrap.", 0, false, kNotYetHits, false, 0, 0},
    {"A018934", "From the game of Mousetrap.", 0, false, kNotYetHits, false, 0, 0},
    {"A028305",
     "Triangle of numbers of permutations eliminating just k cards out of n in game of "
     "Mousetrap.",
     0, true,
     "mousetrap, n ranks, 1 suit: row n is count --removed (T(n, k) = the decks removing "
     "exactly k cards, k = 0..n); row 0 is 1, the empty deck",
     true, 11, 17},
    {"A028306",
     "Triangle read by rows of numbers of permutations eliminating just card k out of n in "
     "game of Mousetrap.",
     0, true,
     "not computed yet: needs the decks removing exactly one card, by which card (count "
     "--removed counts them, not which card)",
     false, 0, 0},
    {"A055459",
     "a(n) = number of permutations of {1,...,n} which are twice but not 3-times reformable.", 1,
     false, kNotYetReform, false, 0, 0},
    {"A067950", "a(n) = number of 3-times (but not 4-times) reformable permutation of {1,...,n}.",
     6, false, kNotYetReform, false, 0, 0},
    {"A261867",
     "Triangle T(n, k) read by rows (n >= 1, 1 <= k <= n), where row n gives the "
     "lexicographically first permutation of n cards that is a winning (or reformed) deck at "
     "Cayley's Mousetrap.",
     1, true,
     "mousetrap, n ranks, 1 suit: row n is the first winning deck in lexicographic order, "
     "each card the smallest value with which some completion still wins (count --removed's "
     "lazy deal with the cards chosen so far fixed)",
     true, 12, 17},
};

GameSpec Mousetrap(int n) { return GameSpec{Game::kMousetrap, n, 1}; }

uint64_t Factorial(int n) {
  uint64_t f = 1;
  for (int i = 2; i <= n; ++i) f *= static_cast<uint64_t>(i);
  return f;
}

}  // namespace

const std::vector<OeisSequence>& OeisSequences() { return kSequences; }

const OeisSequence* FindOeisSequence(const std::string& id) {
  for (const OeisSequence& s : kSequences)
    if (id == s.id) return &s;
  return nullptr;
}

Status OeisTerms(const std::string& id, int to, int threads, const std::atomic<bool>* stop,
                 std::vector<OeisTerm>* terms) {
  const OeisSequence* seq = FindOeisSequence(id);
  if (!seq) return Status::InvalidArgument("unknown sequence '" + id + "' (see --list)");
  if (!seq->computed) return Status::NotSupported(std::string(seq->id) + ": " + seq->statistic);
  if (to < 1 || to > seq->max_to) {
    return Status::InvalidArgument("--to for " + id + " must be 1.." + std::to_string(seq->max_to));
  }
  terms->clear();
  int64_t index = seq->offset;
  auto add = [&](uint64_t v) { terms->push_back(OeisTerm{index++, std::to_string(v)}); };
  const std::string which = seq->id;
  // Index 0 of the sequences that start there: the empty deck.
  if (seq->offset == 0) add(which == "A002467" ? 0 : 1);
  for (int n = 1; n <= to; ++n) {
    if (stop && stop->load(std::memory_order_relaxed)) return Status::Cancelled("interrupted");
    if (which == "A007709" || which == "A007711") {
      CountOptions options;
      options.threads = threads;
      options.stop = stop;
      CountResult count;
      if (Status st = Count(Mousetrap(n), options, &count); !st.ok()) return st;
      add(which == "A007709" ? count.winning() : Factorial(n) - count.winning());
      continue;
    }
    if (which == "A261867") {
      Deck deck;
      if (Status st = FirstWinningDeck(Mousetrap(n), threads, stop, &deck); !st.ok()) return st;
      for (Card c : deck) add(c);
      continue;
    }
    RemovedOptions options;
    options.threads = threads;
    options.stop = stop;
    RemovedResult removed;
    if (Status st = CountRemoved(Mousetrap(n), options, &removed); !st.ok()) return st;
    if (which == "A000166") {
      add(removed.removed[0]);
    } else if (which == "A002467") {
      add(Factorial(n) - removed.removed[0]);
    } else if (which == "A007710") {
      add(removed.removed[1]);
    } else if (which == "A028305") {
      for (uint64_t x : removed.removed) add(x);
    } else {
      return Status::Internal("no computation for " + which);
    }
  }
  return Status::OK();
}

}  // namespace eulerdeck
