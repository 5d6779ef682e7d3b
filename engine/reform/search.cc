#include "engine/reform/search.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "engine/base/parallel.h"
#include "engine/eulerian/children.h"
#include "engine/eulerian/rebuild.h"
#include "engine/reform/basin.h"
#include "engine/reform/chains.h"
#include "engine/reform/move.h"
#include "engine/reform/stats.h"

namespace eulerdeck {
namespace {

using Clock = std::chrono::steady_clock;

// Predecessors asked of Rebuild() per deck: a modular deck may have many;
// the beam keeps a sample of the layer anyway.
constexpr uint64_t kPredecessors = 4096;
// Work of one round of the search: random decks, random winning decks.
constexpr int kRoundDecks = 20000;
constexpr int kRoundWinners = 2000;

// Decks a searcher's moves keep for a checkpoint, and cycles it reports.
constexpr size_t kKeptDecks = 256;
constexpr size_t kKeptCycles = 256;
// How often a searcher publishes its moves' kept decks for a checkpoint.
constexpr double kPublishSeconds = 1.0;

std::string Key(const Deck& d) { return std::string(d.begin(), d.end()); }

// The moves of a searcher beyond its own rounds (move.h), for this game.
// Mousetrap: the chain move (chains.h), whose walk of the 1-on-top subtree
// reaches the proven optima n = 11..16 (6 decks at 16 from one deck in
// 21 trillion). Modular: the basin move (basin.h), walks with a memory of
// the decks met and a deepest-first descent of the cycles' in-trees, which
// replaces the searcher's own rounds there (their random decks, followed
// without memory, cost about three times a sequence's length each: at
// n = 19, 750,000 plays a deck).
std::vector<std::unique_ptr<ReformMove>> MakeMoves(const GameSpec& spec, uint64_t seed) {
  std::vector<std::unique_ptr<ReformMove>> moves;
  if (spec.game == Game::kMousetrap) moves.push_back(MakeChainMove(spec, seed));
  if (spec.game == Game::kModular) moves.push_back(MakeBasinMove(spec, seed));
  return moves;
}
// The moves' work a round (units of move.h: about 0.5 s of the chain move,
// three times a mousetrap round of the searcher's own moves).
constexpr uint64_t kMoveRoundWork = 2000000;

// What a searcher shows the driver (search's calling thread), under its
// mutex: its best, its moves' kept decks, one deck of each cycle it found.
struct Published {
  std::mutex mu;
  ReformSearchResult best;
  std::vector<Deck> kept;
  std::vector<Deck> cycles;
};

class Searcher {
 public:
  Searcher(const GameSpec& spec, const ReformSearchOptions& options, uint64_t seed,
           Clock::time_point deadline, ReformSearchResult* result, Published* published)
      : spec_(spec),
        n_(spec.cards()),
        options_(options),
        result_(result),
        published_(published),
        follower_(spec),
        rng_(seed),
        start_(Clock::now()),
        deadline_(deadline),
        last_publish_(start_),
        moves_(MakeMoves(spec, seed)) {}

  // Before Run(): decks a checkpoint kept for this searcher's moves, and one
  // deck of each cycle known.
  void Restart(const std::vector<Deck>& kept, const std::vector<Deck>& cycles) {
    for (const Deck& d : cycles) {
      if (static_cast<int>(d.size()) != n_ || Over()) continue;
      const ReformScore s = Follow(d);
      Consider(d, s, "random-decks");
    }
    for (auto& move : moves_) move->Seed(kept);
  }

  Status Run() {
    Deck identity(n_);
    for (int i = 0; i < n_; ++i) identity[i] = static_cast<Card>(i + 1);
    Consider(identity, Follow(identity), "random-decks");
    // Rounds until the time is up: random decks (which find the cycles),
    // then backwards from each cycle new in this round, with half the time
    // left shared out among them; while no cycle is known, chains through
    // random winning decks too (a cyclic entry beats any chain).
    Deck deck = identity;
    size_t beamed = 0;
    if (spec_.game == Game::kModular && !moves_.empty()) {
      while (!Over()) StepMoves();
    }
    for (int round = 0; !Over(); ++round) {
      // Random decks find cycles; where none turned up (mousetrap has none
      // past 2 cards) they get one round in ten.
      const bool decks = !cycles_.empty() || round % 10 == 0;
      for (int i = 0; decks && i < kRoundDecks && !Over(); ++i) {
        std::shuffle(deck.begin(), deck.end(), rng_);
        Consider(deck, Follow(deck), "random-decks");
      }
      const size_t fresh = cycles_.size() - beamed;
      for (; beamed < cycles_.size() && !Over(); ++beamed) {
        const bool truncated = BeamBack(cycles_[beamed], options_.beam,
                                        Clock::now() + (deadline_ - Clock::now()) / (2 * fresh));
        beams_.push_back(BeamState{options_.beam, truncated});
      }
      if (fresh == 0 && !Over()) Widen();
      if (!result_->score.cyclic) {
        for (int i = 0; i < kRoundWinners && !Over(); ++i) RandomWinnerChain(i % 2 == 1);
      }
      StepMoves();
    }
    Publish();
    if (options_.stop && options_.stop->load(std::memory_order_relaxed)) {
      return Status::Cancelled("interrupted");
    }
    // The best deck's sequence, followed once more from the deck itself.
    const ReformScore check = follower_.Follow(result_->deck.data());
    if (check.cyclic != result_->score.cyclic || check.length != result_->score.length) {
      return Status::Internal("reform-search: the best deck " + DeckToString(result_->deck) +
                              " does not replay to its score");
    }
    result_->score = check;
    return Status::OK();
  }

 private:
  bool Over() {
    const Clock::time_point now = Clock::now();
    if (now - last_publish_ >= std::chrono::duration<double>(kPublishSeconds)) Publish();
    return now >= deadline_ ||
           (options_.max_decks && result_->decks_followed >= options_.max_decks) ||
           (options_.stop && options_.stop->load(std::memory_order_relaxed));
  }

  // The moves (move.h), each given kMoveRoundWork units a round, in steps
  // (work, not time, so that a seeded run with --decks repeats), and their
  // bests taken after a replay: a move's score is checked before it counts.
  void StepMoves() {
    constexpr uint64_t kStepWork = 20000;
    for (auto& move : moves_) {
      for (uint64_t work = 0; work < kMoveRoundWork && !Over();) {
        const uint64_t done = move->Step(kStepWork);
        work += done;
        result_->decks_followed += done;
        if (options_.decks_followed)
          options_.decks_followed->fetch_add(done, std::memory_order_relaxed);
        const Deck& best = move->best_deck();
        if (!best.empty() &&
            (result_->deck.empty() || BetterReform(move->best_score(), result_->score))) {
          const ReformScore check = follower_.Follow(best.data());
          Consider(best, check, move->name());
        }
        if (done == 0) break;
      }
    }
  }

  // Shows the driver this searcher's best, its moves' kept decks and its
  // cycles (every kPublishSeconds, and at the end; Consider() shows a new
  // best at once).
  void Publish() {
    last_publish_ = Clock::now();
    std::vector<Deck> kept, cycles;
    for (auto& move : moves_) {
      std::vector<Deck> k = move->Keep(kKeptDecks);
      kept.insert(kept.end(), k.begin(), k.end());
    }
    for (size_t i = 0; i < cycles_.size() && i < kKeptCycles; ++i) cycles.push_back(cycles_[i][0]);
    std::lock_guard<std::mutex> lock(published_->mu);
    published_->best = *result_;
    published_->kept = std::move(kept);
    published_->cycles = std::move(cycles);
  }

  ReformScore Follow(const Deck& deck) {
    ++result_->decks_followed;
    if (options_.decks_followed) options_.decks_followed->fetch_add(1, std::memory_order_relaxed);
    const ReformScore s = follower_.Follow(deck.data());
    if (s.cyclic) RecordCycle(deck, s);
    return s;
  }

  void Consider(const Deck& deck, const ReformScore& s, const char* method) {
    if (!result_->deck.empty() && !BetterReform(s, result_->score)) return;
    result_->deck = deck;
    result_->score = s;
    result_->method = method;
    result_->found_after = result_->decks_followed;
    result_->found_seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    std::lock_guard<std::mutex> lock(published_->mu);
    published_->best = *result_;
  }

  // *out = deck's reformed deck; false when deck loses.
  bool Reformed(const Deck& deck, Deck* out) const {
    out->resize(n_);
    return PlayOrder(spec_, deck.data(), n_, out->data()).outcome == Outcome::kWin;
  }

  // The cycle deck's sequence ends on, kept once (by its smallest deck).
  void RecordCycle(const Deck& deck, const ReformScore& s) {
    Deck x = deck, next;
    for (uint64_t i = 0; i < s.preperiod; ++i) {
      Reformed(x, &next);
      std::swap(x, next);
    }
    std::vector<Deck> members;
    for (uint64_t i = 0; i < s.cycle; ++i) {
      members.push_back(x);
      Reformed(x, &next);
      std::swap(x, next);
    }
    const std::string key = Key(*std::min_element(members.begin(), members.end()));
    if (!cycle_keys_.insert(key).second) return;
    cycles_.push_back(std::move(members));
    ++result_->cycles_found;
  }

  // The decks whose reformed deck is `deck` (at most kPredecessors).
  std::vector<Deck> Predecessors(const Deck& deck) const {
    const WideDeck order(deck.begin(), deck.end());
    RebuildOptions options;
    options.max_decks = kPredecessors;
    RebuildResult r;
    std::vector<Deck> out;
    if (!Rebuild(spec_.game, static_cast<uint32_t>(spec_.ranks), static_cast<uint32_t>(spec_.suits),
                 order, options, &r)
             .ok())
      return out;
    for (const WideDeck& d : r.decks) {
      Deck p(d.size());
      for (size_t i = 0; i < d.size(); ++i) p[i] = static_cast<Card>(d[i]);
      out.push_back(std::move(p));
    }
    return out;
  }

  // The backward search from a cycle whose beam truncated a layer, the
  // narrowest such, again, 8 times wider, with half the time left.
  void Widen() {
    size_t pick = beams_.size();
    for (size_t i = 0; i < beams_.size(); ++i) {
      if (beams_[i].truncated && beams_[i].width < kMaxBeam &&
          (pick == beams_.size() || beams_[i].width < beams_[pick].width)) {
        pick = i;
      }
    }
    if (pick == beams_.size()) return;
    BeamState& b = beams_[pick];
    b.width = std::min(kMaxBeam, b.width * 8);
    b.truncated = BeamBack(cycles_[pick], b.width, Clock::now() + (deadline_ - Clock::now()) / 2);
  }

  // Layers of decks ever further before the cycle, each at most `beam` (a
  // uniform sample of the decks of the layer, drawn as they come: a layer
  // never holds more than `beam`). True when a layer was truncated, so that
  // a wider beam could go deeper; a search stopped by its time is not.
  bool BeamBack(const std::vector<Deck>& cycle, uint64_t beam, Clock::time_point until) {
    bool truncated = false;
    std::set<std::string> on_cycle;
    for (const Deck& d : cycle) on_cycle.insert(Key(d));
    std::vector<Deck> layer = cycle, next;
    uint64_t depth = 0;
    while (!layer.empty()) {
      if (Clock::now() >= until || Over()) return truncated;
      next.clear();
      uint64_t seen = 0;
      for (const Deck& x : layer) {
        if (Clock::now() >= until || Over()) return truncated;
        for (Deck& p : Predecessors(x)) {
          if (depth == 0 && on_cycle.count(Key(p))) continue;
          ++seen;
          if (next.size() < beam) {
            next.push_back(std::move(p));
            continue;
          }
          // Reservoir sampling: the i-th deck replaces one kept with
          // probability beam / i.
          truncated = true;
          const uint64_t j = std::uniform_int_distribution<uint64_t>(0, seen - 1)(rng_);
          if (j < beam) next[j] = std::move(p);
        }
      }
      if (next.empty()) break;
      ++depth;
      // Every deck of the layer is depth reforms from the cycle.
      ReformScore s;
      s.cyclic = true;
      s.preperiod = depth;
      s.cycle = cycle.size();
      s.length = depth + cycle.size();
      ++result_->decks_followed;
      Consider(next.front(), s, "backward-beam");
      std::swap(layer, next);
    }
    return truncated;
  }

  // A winning deck by a random descent of the backward tree, then its chain:
  // backwards while a predecessor exists, then forwards to its end. With
  // one_first, only decks whose top card is 1 (removed first, so their
  // reformed deck starts with 1 as well): the longest mousetrap chains of
  // 10..14 cards all start so (docs/reform-records.md). In the tree that is
  // value 1 kept for the last step, at count 1.
  void RandomWinnerChain(bool one_first) {
    const ChildRule& rule = Rule();
    const std::vector<Card> roots = rule.Roots();
    Card node[kNodeBytes], child[kNodeBytes];
    std::vector<std::pair<uint32_t, Card>> children;
    node[0] = roots[std::uniform_int_distribution<size_t>(0, roots.size() - 1)(rng_)];
    for (int k = 1; k < n_; ++k) {
      children.clear();
      const bool last = k + 1 == n_;
      rule.ForEachChild(node, k, [&](uint32_t t, Card x) {
        if (one_first && (last ? (t != 1 || x != 1) : x == 1)) return;
        children.emplace_back(t, x);
      });
      if (children.empty()) return;  // a sub-deck with no winning extension
      const auto [t, x] =
          children[std::uniform_int_distribution<size_t>(0, children.size() - 1)(rng_)];
      ChildRule::MakeChild(node, k, t, x, child);
      std::copy(child, child + k + 1, node);
    }
    Deck start(node, node + n_);
    for (int back = 0; back < 10000; ++back) {
      std::vector<Deck> preds = Predecessors(start);
      if (preds.empty()) break;
      start = std::move(preds.front());
    }
    Consider(start, Follow(start), "random-winners");
  }

  const ChildRule& Rule() {
    if (!rule_) rule_ = std::make_unique<ChildRule>(spec_);
    return *rule_;
  }

  const GameSpec spec_;
  const int n_;
  const ReformSearchOptions& options_;
  ReformSearchResult* const result_;
  Published* const published_;
  internal::SequenceFollower follower_;
  std::mt19937_64 rng_;
  const Clock::time_point start_, deadline_;
  Clock::time_point last_publish_;
  std::vector<std::unique_ptr<ReformMove>> moves_;
  std::set<std::string> cycle_keys_;
  // The backward searches, one per cycle (cycles_[i]): the widest beam so
  // far and whether it truncated a layer.
  struct BeamState {
    uint64_t width;
    bool truncated;
  };
  static constexpr uint64_t kMaxBeam = uint64_t{1} << 22;  // ~250 MB a layer at 25 cards
  std::vector<std::vector<Deck>> cycles_;
  std::vector<BeamState> beams_;
  std::unique_ptr<ChildRule> rule_;
};

// Classifying every deck takes seconds up to these sizes (docs/reform-stats.md).
bool SmallEnough(const GameSpec& spec) {
  return spec.game == Game::kMousetrap ? spec.cards() <= 13 : spec.cards() <= 10;
}

Status Exhaustive(const GameSpec& spec, const ReformSearchOptions& options,
                  ReformSearchResult* result) {
  const auto start = Clock::now();
  ReformStatsOptions stats_options;
  stats_options.threads = options.threads;
  stats_options.stop = options.stop;
  stats_options.tasks_done = options.classify_done;
  stats_options.tasks_total = options.classify_total;
  ReformStatsResult stats;
  if (Status st = ReformStats(spec, stats_options, &stats); !st.ok()) return st;
  const ReformExample& best = stats.longest_cyclic_sequence.deck.empty()
                                  ? stats.longest_sequence
                                  : stats.longest_cyclic_sequence;
  result->deck = best.deck;
  result->score = internal::SequenceFollower(spec).Follow(best.deck.data());
  result->method = "exhaustive";
  result->optimal = true;
  result->decks_followed = stats.winning_decks;
  result->found_after = stats.winning_decks;
  result->found_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  result->cycles_found = 0;
  for (const auto& [length, count] : stats.cycles) result->cycles_found += count;
  return Status::OK();
}

}  // namespace

Status CheckReformSearchSpec(const GameSpec& spec) {
  if (Status st = ValidateSpec(spec); !st.ok()) return st;
  if (spec.game != Game::kMousetrap && spec.game != Game::kModular) {
    return Status::NotSupported("reform-search plays mousetrap and modular, not " +
                                std::string(GameName(spec.game)));
  }
  if (spec.suits != 1) return Status::NotSupported("reform-search: one suit only (the contest's)");
  if (spec.cards() < 2 || spec.cards() > kMaxEnumCards) {
    return Status::InvalidArgument("reform-search: 2.." + std::to_string(kMaxEnumCards) + " cards");
  }
  return Status::OK();
}

Status ReformSearch(const GameSpec& spec, const ReformSearchOptions& options,
                    ReformSearchResult* result) {
  if (Status st = CheckReformSearchSpec(spec); !st.ok()) return st;
  if (!(options.seconds > 0)) return Status::InvalidArgument("reform-search: seconds must be > 0");
  if (!(options.checkpoint_seconds > 0)) {
    return Status::InvalidArgument("reform-search: checkpoint seconds must be > 0");
  }
  *result = ReformSearchResult();
  const ReformSearchState* prior = options.resume;
  ReformSearchState state;
  if (prior) {
    state = *prior;
    state.restarts = prior->restarts + 1;
  }
  auto checkpoint = [&] {
    if (options.on_checkpoint) options.on_checkpoint(state);
  };
  if (options.exhaustive && SmallEnough(spec)) {
    if (prior && prior->finished && !prior->best.deck.empty()) {
      *result = prior->best;
      return Status::OK();
    }
    Status st = Exhaustive(spec, options, result);
    if (st.ok()) {
      state.best = *result;
      state.seconds += result->found_seconds;
      state.decks_followed += result->decks_followed;
      state.finished = true;
      state.history.push_back(ReformImprovement{state.seconds, result->score});
      checkpoint();
    }
    return st;
  }
  // The budget left of the whole search.
  const double left = options.seconds - state.seconds;
  if (left <= 0) {
    state.finished = true;
    if (!state.best.deck.empty()) *result = state.best;
    checkpoint();
    return Status::OK();
  }
  // Independent searchers, one per thread, each with its own seed (thread 0
  // the given one) and, with --decks, an equal share of the decks; the best
  // wins, ties to the lower thread, so a run is repeated by its seed and
  // thread count. A resumed search draws every seed again (restart r).
  const int threads = EffectiveThreads(options.threads);
  ReformSearchOptions each = options;
  if (options.max_decks) each.max_decks = std::max<uint64_t>(1, options.max_decks / threads);
  const auto start = Clock::now();
  const Clock::time_point deadline =
      start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(left));
  std::vector<ReformSearchResult> results(threads);
  std::vector<Status> statuses(threads);
  std::vector<Published> published(threads);
  std::vector<std::unique_ptr<Searcher>> searchers;
  for (int i = 0; i < threads; ++i) {
    const uint64_t index = static_cast<uint64_t>(options.first_searcher) + i;
    uint64_t seed = options.seed + index * 0x9E3779B97F4A7C15ULL;
    if (state.restarts > 0)
      seed ^= std::mt19937_64(state.restarts * 0xD1B54A32D192ED03ULL + seed)();
    searchers.push_back(
        std::make_unique<Searcher>(spec, each, seed, deadline, &results[i], &published[i]));
  }
  std::mutex mu;
  std::condition_variable cv;
  int running = threads;
  std::vector<std::thread> workers;
  for (int i = 0; i < threads; ++i) {
    workers.emplace_back([&, i] {
      if (prior) {
        static const std::vector<Deck> kNone;
        const std::vector<Deck>& kept =
            prior->kept.empty() ? kNone : prior->kept[i % prior->kept.size()];
        searchers[i]->Restart(kept, prior->cycles);
      }
      statuses[i] = searchers[i]->Run();
      std::lock_guard<std::mutex> lock(mu);
      --running;
      cv.notify_all();
    });
  }
  // The driver: the best of all searchers (ties to the lower one; a prior
  // best stands until beaten), its improvements, and the checkpoints.
  const ReformSearchResult prior_best = state.best;
  const double before = state.seconds;
  const uint64_t followed_before = state.decks_followed;
  auto gather = [&](bool all) {
    ReformSearchResult best = prior_best;
    bool from_prior = !best.deck.empty();
    int best_thread = -1;
    uint64_t followed = 0, cycles = 0;
    std::vector<std::vector<Deck>> kept;
    std::set<std::string> cycle_keys;
    std::vector<Deck> cycle_decks;
    if (all) {
      for (const Deck& d : state.cycles)
        if (cycle_keys.insert(Key(d)).second) cycle_decks.push_back(d);
    }
    for (int i = 0; i < threads; ++i) {
      std::lock_guard<std::mutex> lock(published[i].mu);
      const ReformSearchResult& r = published[i].best;
      followed += r.decks_followed;
      cycles = std::max(cycles, r.cycles_found);
      if (!r.deck.empty() && (best.deck.empty() || BetterReform(r.score, best.score))) {
        best = r;
        best_thread = i;
        from_prior = false;
      }
      if (all) {
        kept.push_back(published[i].kept);
        for (const Deck& d : published[i].cycles)
          if (cycle_keys.insert(Key(d)).second) cycle_decks.push_back(d);
      }
    }
    if (!from_prior && best_thread >= 0) {
      best.thread = options.first_searcher + best_thread;
      best.found_seconds += before;
    }
    const double now = before + std::chrono::duration<double>(Clock::now() - start).count();
    // No deck yet (a checkpoint before any searcher published one, as on a
    // loaded machine) is no improvement: its empty score (length 0) would
    // make the document one its own reader refuses.
    if (!best.deck.empty() &&
        (state.best.deck.empty() || BetterReform(best.score, state.best.score))) {
      state.history.push_back(ReformImprovement{now, best.score});
    }
    state.best = best;
    state.best.decks_followed = followed_before + followed;
    state.best.cycles_found = std::max(cycles, prior_best.cycles_found);
    state.decks_followed = followed_before + followed;
    state.seconds = now;
    if (all) {
      state.kept = std::move(kept);
      state.cycles = std::move(cycle_decks);
    }
  };
  {
    std::unique_lock<std::mutex> lock(mu);
    auto last = Clock::now();
    while (running > 0) {
      cv.wait_for(lock, std::chrono::milliseconds(200));
      if (running == 0) break;
      const bool due =
          options.on_checkpoint &&
          Clock::now() - last >= std::chrono::duration<double>(options.checkpoint_seconds);
      lock.unlock();
      gather(due);
      if (due) {
        checkpoint();
        last = Clock::now();
      }
      lock.lock();
    }
  }
  for (std::thread& t : workers) t.join();
  gather(true);
  for (const Status& st : statuses)
    if (!st.ok() && !st.IsCancelled()) return st;
  bool cancelled = false;
  for (const Status& st : statuses) cancelled |= st.IsCancelled();
  state.finished = !cancelled;  // the budget spent (time, or --decks)
  *result = state.best;
  checkpoint();
  if (cancelled) return Status::Cancelled("interrupted");
  return Status::OK();
}

}  // namespace eulerdeck
