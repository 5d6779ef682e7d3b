#include "engine/dundee/counts.h"

#include <algorithm>
#include <exception>
#include <functional>
#include <numeric>
#include <sstream>

namespace eulerdeck {

Status ParseCounts(const std::string& text, std::vector<int>* counts) {
  std::vector<int> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    const size_t caret = item.find('^');
    long value = -1, times = 1;
    try {
      size_t used = 0;
      const std::string head = item.substr(0, caret);
      value = std::stol(head, &used);
      if (used != head.size()) value = -1;
      if (caret != std::string::npos) {
        const std::string tail = item.substr(caret + 1);
        times = std::stol(tail, &used);
        if (used != tail.size()) times = -1;
      }
    } catch (const std::exception&) {  // std::stol: no number, or out of range
      value = -1;
    }
    if (value < 0 || value > kMaxDundeeCards || times < 1 || times > kMaxDundeeValues) {
      return Status::InvalidArgument("'" + item + "' in '" + text + "' is not a count (0.." +
                                     std::to_string(kMaxDundeeCards) + ") or count^times");
    }
    out.insert(out.end(), times, static_cast<int>(value));
    if (out.size() > static_cast<size_t>(kMaxDundeeValues)) {
      return Status::InvalidArgument("'" + text + "' has more than " +
                                     std::to_string(kMaxDundeeValues) + " values");
    }
  }
  if (out.empty()) return Status::InvalidArgument("no counts in '" + text + "'");
  // getline() does not report an empty last item: "4," would read as "4".
  const std::string trimmed = text.substr(0, text.find_last_not_of(" \t") + 1);
  if (!trimmed.empty() && trimmed.back() == ',') {
    return Status::InvalidArgument("'" + text + "' ends with a comma");
  }
  if (TotalCards(out) > kMaxDundeeCards) {
    return Status::InvalidArgument("'" + text + "' has more than " +
                                   std::to_string(kMaxDundeeCards) + " cards");
  }
  *counts = std::move(out);
  return Status::OK();
}

int TotalCards(const std::vector<int>& counts) {
  return std::accumulate(counts.begin(), counts.end(), 0);
}

std::string CountsString(const std::vector<int>& counts) {
  std::string s;
  for (int x : counts) s += (s.empty() ? "" : ",") + std::to_string(x);
  return s;
}

std::vector<std::vector<int>> SortedDecks(int values, int max_cards) {
  std::vector<std::vector<int>> decks;
  if (values < 1) return decks;
  for (int c = values; c <= max_cards; ++c) {
    // Entry i takes at most its predecessor's count (cap) and leaves at least
    // one card for each later entry.
    std::vector<int> s(values, 0);
    std::function<void(int, int, int)> place = [&](int i, int left, int cap) {
      if (i == values) {
        if (left == 0) decks.push_back(s);
        return;
      }
      for (int x = std::min(cap, left - (values - i - 1)); x >= 1; --x) {
        s[i] = x;
        place(i + 1, left - x, x);
      }
    };
    place(0, c, c);
  }
  return decks;
}

}  // namespace eulerdeck
