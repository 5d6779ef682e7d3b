// cardlab memory combinatorial: the value of a Combinatorial Memory position
// by negamax and by the thesis's block reduction; random orders to compare
// the two.
#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>
#include <pcg_random.hpp>

#include "engine/memory/combinatorial.h"
#include "tools/common/cli.h"

namespace eulerdeck::tools {

namespace {

constexpr const char* kUsage =
    "usage: cardlab memory combinatorial --order \"1a 2a 1b 3a 2b 3b\" [--json]\n"
    "       cardlab memory combinatorial --random COUNT --pairs P [--seed X] [--json]\n"
    "Combinatorial Memory (seed 003 §3): the order in which the face-down\n"
    "cards will be opened is known to both players; Left moves first. Prints\n"
    "the value (Left's pairs - Right's) by negamax over the game tree and by\n"
    "the thesis's block reduction (lead preserving, lead shifting and choice\n"
    "games), which must agree (exit status 1 otherwise). --random checks COUNT\n"
    "uniformly random orders of P pairs.";

}  // namespace

int RunMemoryCombinatorial(const std::vector<std::string>& args) {
  const std::string program = "cardlab memory combinatorial";
  std::string order_text;
  uint64_t random = 0, seed = 1;
  int pairs = 0;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help")
      ("order", po::value(&order_text), "the opening order, e.g. \"1a 2a 1b 3a 2b 3b\"")
      ("random", po::value(&random), "check COUNT random orders instead")
      ("pairs", po::value(&pairs), "pairs in each random order")
      ("seed", po::value(&seed)->default_value(1), "random seed")
      ("json", po::bool_switch(), "print one JSON object");
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kUsage, vm)) return kExitOk;
  const bool json = vm["json"].as<bool>();
  Status s;
  if (vm.count("order") == vm.count("random")) s = Status::InvalidArgument("give either --order or --random");
  if (s.ok() && vm.count("random") && (pairs < 1 || pairs > 60)) s = Status::InvalidArgument("--pairs must be in 1..60");
  if (s.ok() && vm.count("order") && (vm.count("pairs") || !vm["seed"].defaulted())) {
    s = Status::InvalidArgument("--pairs and --seed go with --random");
  }
  CmOrder order;
  if (s.ok() && vm.count("order")) s = ParseCmOrder(order_text, &order);
  if (!s.ok()) return BadInput(program, s.ToString());

  if (vm.count("order")) {
    const int negamax = CmNegamax(order);
    const std::vector<CmBlock> blocks = CmBlocks(order);
    const int reduced = CmBlockValue(blocks);
    const int left = (order.pairs() + negamax) / 2, right = order.pairs() - left;
    if (json) {
      nlohmann::json j = {{"order", CmOrderString(order)}, {"pairs", order.pairs()}, {"value", negamax},
                          {"left", left}, {"right", right}, {"blocks", CmBlocksString(blocks)},
                          {"block_value", reduced}, {"agree", negamax == reduced}};
      std::cout << j.dump() << "\n";
    } else {
      std::cout << "order    " << CmOrderString(order) << " (" << order.pairs() << " pairs)\n"
                << "value    " << negamax << " (Left " << left << ", Right " << right << ") by negamax\n"
                << "blocks   " << CmBlocksString(blocks) << " = " << reduced << " by block reduction\n";
    }
    if (negamax != reduced) {
      std::cerr << program << ": block reduction disagrees with negamax\n";
      return kExitCheckFailed;
    }
    return kExitOk;
  }
  pcg32 rng(seed);
  uint64_t agree = 0;
  std::string first_bad;
  for (uint64_t r = 0; r < random; ++r) {
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
    agree += same;
    if (!same && first_bad.empty()) first_bad = CmOrderString(o);
  }
  if (json) {
    std::cout << nlohmann::json({{"orders", random}, {"pairs", pairs}, {"seed", seed}, {"agree", agree},
                                 {"first_disagreement", first_bad}})
                     .dump()
              << "\n";
  } else {
    std::cout << "random orders  " << random << " of " << pairs << " pairs (seed " << seed << ")\n"
              << "agree          " << agree << " of " << random << " (block reduction = negamax)\n";
    if (!first_bad.empty()) std::cout << "first disagreement  " << first_bad << "\n";
  }
  return agree == random ? kExitOk : kExitCheckFailed;
}

}  // namespace eulerdeck::tools
