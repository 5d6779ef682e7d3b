// Two checks of OEIS A028306 (decks removing exactly one card, by which
// card) that share nothing with engine/removal/prefix.h but the rules:
// brute force, every deck of 1..n played forward, and the rook polynomial
// of the board of forbidden cells (inclusion-exclusion, as is the formula
// Guy and Nowakowski proved for these numbers, Bersani 2010 §2). Shared by
// the default and the slow tests of engine/removal/prefix.h and engine/oeis.
#ifndef EULERDECK_TESTS_SUPPORT_ONLY_CARD_H_
#define EULERDECK_TESTS_SUPPORT_ONLY_CARD_H_

#include <gmpxx.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "engine/cards/rules.h"

namespace eulerdeck::testing {

// row[k - 1]: the decks of mousetrap with n cards (one suit) whose only
// removed card is k.
inline std::vector<uint64_t> OnlyCardRowByBruteForce(int n) {
  const GameSpec spec{Game::kMousetrap, n, 1};
  std::vector<Card> deck(n), order(n);
  for (int v = 1; v <= n; ++v) deck[v - 1] = static_cast<Card>(v);
  std::vector<uint64_t> row(n, 0);
  do {
    if (PlayOrder(spec, deck.data(), n, order.data()).removed == 1) ++row[order[0] - 1];
  } while (std::next_permutation(deck.begin(), deck.end()));
  return row;
}

namespace internal {

using Edges = std::vector<std::pair<int, int>>;  // vertex ids, any numbering
using Poly = std::vector<mpz_class>;             // Poly[j]: the j-matchings

inline void AddTo(Poly* sum, const Poly& p, size_t shift) {
  if (sum->size() < p.size() + shift) sum->resize(p.size() + shift, 0);
  for (size_t j = 0; j < p.size(); ++j) (*sum)[j + shift] += p[j];
}

// The matching polynomial of a simple graph: deletion and contraction of an
// edge at a vertex of degree >= 3 while there is one; then every component
// is a path or a cycle, whose polynomials follow p(L) = p(L-1) + x p(L-2).
inline Poly Matchings(const Edges& edges) {
  if (edges.empty()) return {1};
  int top = 0;
  for (const auto& e : edges) top = std::max({top, e.first, e.second});
  std::vector<std::vector<int>> adj(top + 1);
  for (size_t i = 0; i < edges.size(); ++i) {
    adj[edges[i].first].push_back(static_cast<int>(i));
    adj[edges[i].second].push_back(static_cast<int>(i));
  }
  for (int v = 0; v <= top; ++v) {
    if (adj[v].size() < 3) continue;
    const auto [a, b] = edges[adj[v][0]];
    Edges without, apart;
    for (size_t i = 0; i < edges.size(); ++i) {
      if (static_cast<int>(i) == adj[v][0]) continue;
      without.push_back(edges[i]);
      const auto [c, d] = edges[i];
      if (c != a && c != b && d != a && d != b) apart.push_back(edges[i]);
    }
    Poly sum = Matchings(without);
    AddTo(&sum, Matchings(apart), 1);
    return sum;
  }
  // Paths and cycles: walk each component from an end (or anywhere on a
  // cycle), counting its edges.
  auto path = [](size_t length) {  // length edges in a row
    Poly prev{1}, cur{1};          // 0 edges: 1; "-1 edges": 1
    for (size_t l = 1; l <= length; ++l) {
      Poly next = cur;
      AddTo(&next, prev, 1);
      prev = std::move(cur);
      cur = std::move(next);
    }
    return cur;
  };
  std::vector<bool> used(edges.size(), false);
  Poly product{1};
  auto multiply = [&product](const Poly& p) {
    Poly out(product.size() + p.size() - 1, 0);
    for (size_t i = 0; i < product.size(); ++i)
      for (size_t j = 0; j < p.size(); ++j) out[i + j] += product[i] * p[j];
    product = std::move(out);
  };
  auto walk = [&](int start) {  // the edges of start's component, marked used
    size_t length = 0;
    std::vector<int> stack{start};
    while (!stack.empty()) {
      const int v = stack.back();
      stack.pop_back();
      for (int i : adj[v]) {
        if (used[i]) continue;
        used[i] = true;
        ++length;
        stack.push_back(edges[i].first == v ? edges[i].second : edges[i].first);
      }
    }
    return length;
  };
  for (int v = 0; v <= top; ++v) {  // paths, from their ends
    if (adj[v].size() == 1 && !used[adj[v][0]]) multiply(path(walk(v)));
  }
  for (int v = 0; v <= top; ++v) {  // what is left is cycles
    if (adj[v].empty() || used[adj[v][0]]) continue;
    const size_t length = walk(v);  // C_L = P_(L-1) + x P_(L-3)
    Poly cycle = path(length - 1);
    AddTo(&cycle, path(length - 3), 1);
    multiply(cycle);
  }
  return product;
}

}  // namespace internal

// The decks of mousetrap with n cards (one suit) whose only removed card is
// k, by inclusion-exclusion over the cells the rules forbid (the positions
// and values 0-based and 1-based). The count names 1..k at positions
// 0..k-1: position i < k-1 may not hold i+1, position k-1 holds k. Then the
// count restarts at 1 on the card after it and runs to n round the n-1
// cards left, position k+j (mod n, skipping k-1) being named j+1, and the
// first of them named n as well: none may match. With r_j the ways to put
// j non-attacking rooks on those cells (values other than k),
// T = sum_j (-1)^j r_j (n-1-j)!.
inline mpz_class OnlyCardByRookPolynomial(int n, int k) {
  if (n == 1) return 1;
  internal::Edges forbidden;  // position p is vertex p, value v is vertex n + v
  auto forbid = [&](int position, int value) {
    if (value != k) forbidden.emplace_back(position, n + value);
  };
  for (int i = 0; i + 1 < k; ++i) forbid(i, i + 1);
  for (int j = 0; j <= n - 2; ++j) {
    const int position = (k + j) % n;  // j <= n-2: never k-1, the card removed
    forbid(position, j + 1);
    if (j == 0) forbid(position, n);
  }
  std::sort(forbidden.begin(), forbidden.end());  // a cell forbidden twice is one cell
  forbidden.erase(std::unique(forbidden.begin(), forbidden.end()), forbidden.end());
  const internal::Poly r = internal::Matchings(forbidden);
  mpz_class decks = 0, factorial;
  for (size_t j = 0; j < r.size() && static_cast<int>(j) <= n - 1; ++j) {
    mpz_fac_ui(factorial.get_mpz_t(), static_cast<unsigned long>(n - 1 - j));
    decks += (j % 2 ? -1 : 1) * r[j] * factorial;
  }
  return decks;
}

}  // namespace eulerdeck::testing

#endif  // EULERDECK_TESTS_SUPPORT_ONLY_CARD_H_
