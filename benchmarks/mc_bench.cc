// eulerdeck_mc_bench: cardlab mc's simulator against a plain one, measured in
// the same run, on hlm m=13 s=4 (a French deck): decks per second.
//
// The baseline is what one writes first: std::mt19937 and std::shuffle, the
// remaining cards in a std::vector, counted cards rotated to the back and
// removed ones erased. It follows the same rules (its win/score tallies are
// compared with the engine's on the same number of decks; they must agree
// statistically, not deck by deck, since the random streams differ).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "benchmarks/bench_args.h"
#include "engine/base/shuffle.h"
#include "engine/montecarlo/montecarlo.h"

namespace {

using namespace eulerdeck;
using Clock = std::chrono::steady_clock;

// hlm, played the plain way. Returns the score.
int PlainHlm(std::vector<int> deck, int m) {
  int score = 0;
  while (!deck.empty()) {
    const int limit = std::min<int>(m, static_cast<int>(deck.size()));
    int hit = -1;
    for (int t = 1; t <= limit; ++t) {
      if (deck[t - 1] == t) {
        hit = t - 1;
        break;
      }
    }
    if (hit >= 0) {
      score += deck[hit];
      // The cards counted before the hit go to the bottom, in order.
      std::vector<int> next(deck.begin() + hit + 1, deck.end());
      next.insert(next.end(), deck.begin(), deck.begin() + hit);
      deck = std::move(next);
    } else {
      deck.erase(deck.begin(), deck.begin() + limit);  // burned
    }
  }
  return score;
}

}  // namespace

int main(int argc, char** argv) {
  if (const int rc = eulerdeck::bench::NoArguments(
          argc, argv,
          "usage: eulerdeck_mc_bench\n"
          "  cardlab mc's simulator against a plain std::shuffle one, hlm m=13 s=4,\n"
          "  decks per second, measured in the same run; a table on stdout.\n");
      rc >= 0)
    return rc;
  const GameSpec spec{Game::kHlm, 13, 4};
  const uint64_t base_decks = 2'000'000, decks = 20'000'000;

  std::vector<int> sorted;
  for (int v = 1; v <= 13; ++v) sorted.insert(sorted.end(), 4, v);
  std::mt19937 rng(1);
  double base_score = 0;
  auto t0 = Clock::now();
  for (uint64_t i = 0; i < base_decks; ++i) {
    std::vector<int> d = sorted;
    std::shuffle(d.begin(), d.end(), rng);
    base_score += PlainHlm(d, 13);
  }
  const double base_s = std::chrono::duration<double>(Clock::now() - t0).count();
  const double base_rate = base_decks / base_s;

  double rate[3] = {0, 0, 0};
  double mean_score = 0;
  for (int threads : {1, 2}) {
    McOptions o;
    o.seed = 1;
    o.threads = threads;
    McTally t;
    t0 = Clock::now();
    if (!MonteCarlo(spec, 0, decks, o, &t).ok()) return 1;
    rate[threads] = decks / std::chrono::duration<double>(Clock::now() - t0).count();
    double sum = 0;
    for (size_t v = 0; v < t.score.size(); ++v) sum += static_cast<double>(v) * t.score[v];
    mean_score = sum / t.decks;
  }
  // The shuffle alone (what cardlab mc does before playing), to show how
  // much of the time per deck no faster game could win back.
  const uint64_t shuffle_decks = 20'000'000;
  const DeckShuffler shuffler(1);
  Card cards[52];
  uint64_t checksum = 0;
  t0 = Clock::now();
  for (uint64_t i = 0; i < shuffle_decks; ++i) {
    for (int c = 0; c < 52; ++c) cards[c] = static_cast<Card>(sorted[c]);
    shuffler.Shuffle(i, cards, 52);
    checksum += cards[0];
  }
  const double shuffle_ns =
      std::chrono::duration<double>(Clock::now() - t0).count() / shuffle_decks * 1e9;
  std::printf("| simulator | decks | decks/s | ratio |\n|---|---|---|---|\n");
  std::printf("| baseline (mt19937, std::shuffle, vector), 1 thread | %llu | %.3g | 1 |\n",
              static_cast<unsigned long long>(base_decks), base_rate);
  std::printf("| cardlab mc, 1 thread | %llu | %.3g | %.1fx |\n",
              static_cast<unsigned long long>(decks), rate[1], rate[1] / base_rate);
  std::printf("| cardlab mc, 2 threads | %llu | %.3g | %.1fx (%.2fx over 1 thread) |\n",
              static_cast<unsigned long long>(decks), rate[2], rate[2] / base_rate,
              rate[2] / rate[1]);
  std::printf(
      "\nns per deck, 1 thread: baseline %.0f, cardlab mc %.0f, of which the shuffle alone "
      "%.0f (checksum %llu); 10x the baseline would need %.0f\n",
      1e9 / base_rate, 1e9 / rate[1], shuffle_ns, static_cast<unsigned long long>(checksum),
      1e9 / base_rate / 10);
  std::printf("\nmean score: baseline %.4f, cardlab %.4f (hlm m=13 s=4)\n", base_score / base_decks,
              mean_score);
  // The two simulators must agree on the mean score (sd of a mean over 2e6
  // decks is about 0.01; allow 0.1).
  return std::abs(base_score / base_decks - mean_score) < 0.1 ? 0 : 1;
}
