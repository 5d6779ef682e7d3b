#include "engine/memory/combinatorial.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <pcg_random.hpp>
#include <sstream>
#include <tuple>

namespace eulerdeck {

Status ParseCmOrder(const std::string& text, CmOrder* order) {
  std::string cleaned = text;
  for (char& ch : cleaned) {
    if (ch == ',') ch = ' ';
  }
  std::istringstream in(cleaned);
  std::string card;
  std::map<long, int> number;  // the user's pair number -> ours
  std::vector<int> seen;       // cards of each of our pairs so far
  CmOrder out;
  while (in >> card) {
    const char side = card.empty() ? '?' : card.back();
    const std::string digits = card.substr(0, card.size() - 1);
    char* end = nullptr;
    const long label = std::strtol(digits.c_str(), &end, 10);
    const bool all_digits =
        !digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos;
    if (!all_digits || *end != '\0' || label < 0 || (side != 'a' && side != 'b')) {
      return Status::InvalidArgument("card '" + card + "' is not a pair number followed by a or b");
    }
    auto it = number.find(label);
    if (side == 'a') {
      if (it != number.end()) return Status::InvalidArgument("card '" + card + "' appears twice");
      it = number.emplace(label, static_cast<int>(seen.size())).first;
      seen.push_back(0);
    } else {
      if (it == number.end()) {
        return Status::InvalidArgument("card '" + card + "' comes before its a-card");
      }
      if (seen[it->second] == 2)
        return Status::InvalidArgument("card '" + card + "' appears twice");
    }
    ++seen[it->second];
    out.pair.push_back(it->second);
  }
  if (out.pair.empty()) return Status::InvalidArgument("the order has no cards");
  for (const auto& [label, id] : number) {
    if (seen[id] != 2) {
      return Status::InvalidArgument("pair " + std::to_string(label) + " has no b-card");
    }
  }
  if (out.pairs() > 60) return Status::InvalidArgument("at most 60 pairs");
  *order = std::move(out);
  return Status::OK();
}

std::string CmOrderString(const CmOrder& order) {
  std::string s;
  std::vector<bool> opened(order.pairs(), false);
  for (int p : order.pair) {
    if (!s.empty()) s += ' ';
    s += std::to_string(p + 1) + (opened[p] ? "b" : "a");
    opened[p] = true;
  }
  return s;
}

namespace {

// Negamax with the whole state: the index of the next unseen card, the set
// of known single cards (bit per pair), a fully known pair waiting.
class Negamax {
 public:
  explicit Negamax(const CmOrder& order) : order_(order.pair) {}

  int Value(size_t i, uint64_t known, bool pending) {
    const auto key = std::make_tuple(i, known, pending);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    const int v = Compute(i, known, pending);
    memo_.emplace(key, v);
    return v;
  }

 private:
  int Compute(size_t i, uint64_t known, bool pending) {
    if (pending) return 1 + Value(i, known, false);  // collect it, go on
    if (i == order_.size()) return 0;
    const uint64_t c = uint64_t{1} << order_[i];
    if (known & c) return 1 + Value(i + 1, known & ~c, false);  // must collect
    // c is new. Risky: the next unseen card (c's partner is still unseen,
    // so there is one).
    const uint64_t d = uint64_t{1} << order_[i + 1];
    int best;
    if (d == c) {
      best = 1 + Value(i + 2, known, false);
    } else if (known & d) {
      best = -Value(i + 2, (known | c) & ~d, true);  // the opponent collects d's pair
    } else {
      best = -Value(i + 2, known | c | d, false);
    }
    if (known != 0) best = std::max(best, -Value(i + 1, known | c, false));  // safe
    return best;
  }

  const std::vector<int>& order_;
  std::map<std::tuple<size_t, uint64_t, bool>, int> memo_;
};

}  // namespace

int CmNegamax(const CmOrder& order) { return Negamax(order).Value(0, 0, false); }

std::vector<CmBlock> CmBlocks(const CmOrder& order) {
  const std::vector<int>& o = order.pair;
  std::vector<bool> opened(order.pairs(), false);
  std::vector<CmBlock> blocks;
  int known = 0;  // single known cards as the heap starts
  size_t i = 0;
  while (i < o.size()) {
    std::vector<int> heap;  // a maximal run of a-cards ...
    while (i < o.size() && !opened[o[i]]) {
      opened[o[i]] = true;
      heap.push_back(o[i++]);
    }
    int p = 0;  // ... and the run of b-cards after it
    const size_t b_start = i;
    while (i < o.size() && opened[o[i]]) {
      ++p;
      ++i;
    }
    const bool adjacent = !heap.empty() && b_start < o.size() && o[b_start] == heap.back();
    const int a_cards = static_cast<int>(heap.size());
    size_t m = heap.size();
    if (known == 0) {
      if (m == 1) {
        // No choice and the one card's partner next: the leader opens both.
        blocks.push_back({CmBlockType::kPreserving, p});
        continue;  // known stays 0: the b-run closed the only open pair
      }
      blocks.push_back({CmBlockType::kShifting, 0});  // the forced first two cards
      m -= 2;
    }
    if (adjacent && m >= 1) {
      static constexpr CmBlockType kByM[] = {CmBlockType::kPreserving, CmBlockType::kChoice,
                                             CmBlockType::kShifting};
      blocks.push_back({kByM[m % 3], p});
    } else {
      static constexpr CmBlockType kByH[] = {CmBlockType::kPreserving, CmBlockType::kShifting,
                                             CmBlockType::kChoice};
      blocks.push_back({kByH[m % 3], p});
    }
    known += a_cards - p;
  }
  return blocks;
}

int CmBlockValue(const std::vector<CmBlock>& blocks) {
  int v = 0;
  for (auto it = blocks.rbegin(); it != blocks.rend(); ++it) {
    switch (it->type) {
      case CmBlockType::kPreserving:
        v = it->p + v;
        break;
      case CmBlockType::kShifting:
        v = -(it->p + v);
        break;
      case CmBlockType::kChoice:
        v = std::abs(it->p + v);
        break;
    }
  }
  return v;
}

std::string CmBlocksString(const std::vector<CmBlock>& blocks) {
  std::string s;
  for (const CmBlock& b : blocks) {
    if (!s.empty()) s += ' ';
    s += b.type == CmBlockType::kPreserving ? "↑" : b.type == CmBlockType::kShifting ? "↓" : "⇕";
    s += std::to_string(b.p);
  }
  return s;
}

CmSolution CmSolve(const CmOrder& order) {
  CmSolution s;
  s.value = CmNegamax(order);
  s.left = (order.pairs() + s.value) / 2;  // left - right = value, left + right = pairs
  s.right = order.pairs() - s.left;
  s.blocks = CmBlocks(order);
  s.block_value = CmBlockValue(s.blocks);
  return s;
}

Status CmCheckRandomOrders(int pairs, uint64_t count, uint64_t seed, CmRandomCheck* check,
                           const CmRandomOptions& options) {
  if (pairs < 1 || pairs > 60) return Status::InvalidArgument("pairs must be in 1..60");
  *check = CmRandomCheck();
  pcg32 rng(seed);
  for (uint64_t r = 0; r < count; ++r) {
    CmOrder o;
    for (int p = 0; p < pairs; ++p) o.pair.insert(o.pair.end(), 2, p);
    std::shuffle(o.pair.begin(), o.pair.end(), rng);
    // Renumber by first appearance, as the notation does.
    std::vector<int> id(pairs, -1);
    int next = 0;
    for (int& p : o.pair) {
      if (id[p] < 0) id[p] = next++;
      p = id[p];
    }
    const bool same = CmNegamax(o) == CmBlockValue(CmBlocks(o));
    ++check->orders;
    check->agree += same;
    if (!same && check->first_disagreement.empty()) check->first_disagreement = CmOrderString(o);
    if (options.orders_done != nullptr)
      options.orders_done->fetch_add(1, std::memory_order_relaxed);
    if (r + 1 < count && options.stop != nullptr && options.stop->load(std::memory_order_relaxed)) {
      return Status::Cancelled("interrupted after " + std::to_string(r + 1) + " of " +
                               std::to_string(count) + " orders");
    }
  }
  return Status::OK();
}

}  // namespace eulerdeck
