#include "engine/dundee/optimal_bids.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "engine/dundee/advance.h"
#include "engine/dundee/counts.h"
#include "engine/dundee/factorials.h"

namespace eulerdeck {

namespace {

// Enumerates bids (sum m) non-decreasing inside each group of equal s, in
// index order. With `lemma13`, only Lemma 13's shape: inside a group the
// entries differ by at most 1, and a value with more cards is named at most
// as often as one with fewer. f(bid) returns false to stop.
class BidSearch {
 public:
  BidSearch(const std::vector<int>& s, int m, bool lemma13)
      : s_(s), m_(m), lemma13_(lemma13), b_(s.size(), 0) {}

  template <class F>
  bool Run(F&& f) {
    return Place(0, m_, f);
  }

 private:
  // Chooses b_[i..] with `left` rounds still to bid; false once f stopped.
  template <class F>
  bool Place(size_t i, int left, F& f) {
    const size_t v = s_.size();
    if (i == v) return left == 0 ? f(b_) : true;
    int lo = 0, hi = left;
    if (i + 1 == v) lo = left;  // the last entry takes what is left
    for (size_t p = 0; p < i; ++p) {
      if (s_[p] == s_[i]) {
        lo = std::max(lo, b_[p]);  // non-decreasing inside the group
        if (lemma13_) hi = std::min(hi, b_[p] + 1);
      } else if (lemma13_ && s_[p] > s_[i]) {
        lo = std::max(lo, b_[p]);
      } else if (lemma13_ && s_[p] < s_[i]) {
        hi = std::min(hi, b_[p]);
      }
    }
    for (int x = lo; x <= hi; ++x) {
      b_[i] = x;
      if (!Place(i + 1, left - x, f)) return false;
    }
    b_[i] = 0;
    return true;
  }

  const std::vector<int>& s_;
  int m_;
  bool lemma13_;
  std::vector<int> b_;
};

// The distinct rearrangements of b's entries inside each group of equal s,
// which all have b's probability: a multinomial per group.
mpz_class Rearrangements(const std::vector<int>& s, const std::vector<int>& b) {
  mpz_class ways = 1;
  std::map<int, std::map<int, int>> groups;  // s value -> b value -> times
  for (size_t i = 0; i < s.size(); ++i) ++groups[s[i]][b[i]];
  for (const auto& [sv, bs] : groups) {
    int n = 0;
    for (const auto& [bv, k] : bs) n += k;
    mpz_class w = dundee::Factorial(n);
    for (const auto& [bv, k] : bs) w /= dundee::Factorial(k);
    ways *= w;
  }
  return ways;
}

}  // namespace

Status FindOptimalBids(const std::vector<int>& s, int m, uint64_t max_bids, OptimalBids* out,
                       const std::atomic<bool>* stop) {
  auto stopped = [&] { return stop != nullptr && stop->load(std::memory_order_relaxed); };
  const int c = TotalCards(s);
  if (m < 0 || m > c) {
    return Status::InvalidArgument("the rounds must be in 0.." + std::to_string(c));
  }
  // Count the canonical bids first (cheap next to evaluating them).
  uint64_t candidates = 0;
  if (!BidSearch(s, m, false).Run([&](const std::vector<int>&) {
        return ++candidates <= max_bids && (candidates % 4096 != 0 || !stopped());
      }) &&
      candidates <= max_bids) {
    return Status::Cancelled("interrupted");
  }
  const bool exhaustive = candidates <= max_bids;
  OptimalBids r;
  r.exhaustive = exhaustive;
  bool first = true;
  const bool finished = BidSearch(s, m, !exhaustive).Run([&](const std::vector<int>& b) {
    if (stopped()) return false;
    ++r.searched;
    const mpq_class p = AdvanceWin(b, s);
    if (first || p > r.probability) {
      r.probability = p;
      r.bids.clear();
      first = false;
    }
    if (p == r.probability) r.bids.push_back(b);
    return true;
  });
  if (!finished) return Status::Cancelled("interrupted");
  for (const std::vector<int>& b : r.bids) r.all_bids += Rearrangements(s, b);
  *out = std::move(r);
  return Status::OK();
}

}  // namespace eulerdeck
