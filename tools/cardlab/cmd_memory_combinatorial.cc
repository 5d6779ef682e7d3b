// cardlab memory combinatorial: the value of a Combinatorial Memory position
// by negamax and by the thesis's block reduction; random orders to compare
// the two (CmSolve, CmCheckRandomOrders in engine/memory/combinatorial.h).
#include <iostream>
#include <nlohmann/json.hpp>

#include "engine/memory/combinatorial.h"
#include "tools/common/cli.h"
#include "tools/common/format.h"
#include "tools/common/interrupt.h"
#include "tools/common/progress.h"

namespace eulerdeck::tools {

namespace {

constexpr const char* kUsage =
    "usage: cardlab memory combinatorial --order ORDER [--json]\n"
    "       cardlab memory combinatorial --random COUNT --pairs P [--seed X] [--json]\n"
    "Combinatorial Memory (Alfthan 2007, §3): the order in which the face-down\n"
    "cards will be opened is known to both players; Left moves first. Prints\n"
    "the value (Left's pairs - Right's) by negamax over the game tree and by\n"
    "the thesis's block reduction (lead preserving, lead shifting and choice\n"
    "games, printed as in the thesis: ↑k, ↓k and ⇕k), which must agree (exit\n"
    "status 1 otherwise). --random checks COUNT uniformly random orders of P\n"
    "pairs; Ctrl-C (or SIGTERM) stops it after the order under way and prints\n"
    "the results of the orders done, exactly what --random for their number\n"
    "gives, then exits 130 (143).";

}  // namespace

int RunMemoryCombinatorial(const std::vector<std::string>& args) {
  const std::string program = "cardlab memory combinatorial";
  std::string order_text;
  uint64_t random = 0, seed = 1;
  int pairs = 0;
  po::options_description desc("options");
  po::options_description_easy_init add = desc.add_options();
  add("help,h", "show this help");
  add("order", po::value(&order_text), "the opening order, e.g. \"1a 2a 1b 3a 2b 3b\"");
  add("random", po::value(&random), "check COUNT random orders instead");
  add("pairs", po::value(&pairs), "pairs in each random order");
  add("seed", po::value(&seed)->default_value(1), "random seed");
  add("json", po::bool_switch(), "print one JSON object");
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kUsage, vm)) return kExitOk;
  const bool json = vm["json"].as<bool>();
  Status s;
  if (vm.count("order") == vm.count("random"))
    s = Status::InvalidArgument("give either --order or --random");
  if (s.ok() && vm.count("random") && (pairs < 1 || pairs > 60))
    s = Status::InvalidArgument("--pairs must be in 1..60");
  if (s.ok() && vm.count("order") && (vm.count("pairs") || !vm["seed"].defaulted())) {
    s = Status::InvalidArgument("--pairs and --seed go with --random");
  }
  CmOrder order;
  if (s.ok() && vm.count("order")) s = ParseCmOrder(order_text, &order);
  if (!s.ok()) return BadInput(program, s.ToString());

  if (vm.count("order")) {
    const CmSolution solved = CmSolve(order);
    if (json) {
      // docs/schema/cardlab-memory-combinatorial.schema.json (the --order form).
      nlohmann::ordered_json j;
      j["command"] = "cardlab memory combinatorial";
      j["order"] = CmOrderString(order);
      j["pairs"] = order.pairs();
      j["value"] = solved.value;
      j["left"] = solved.left;
      j["right"] = solved.right;
      j["blocks"] = CmBlocksString(solved.blocks);
      j["block_value"] = solved.block_value;
      j["agree"] = solved.agree();
      std::cout << j.dump() << "\n";
    } else {
      std::cout << "order    " << CmOrderString(order) << " (" << Plural(order.pairs(), "pair")
                << ")\n"
                << "value    " << solved.value << " (Left " << solved.left << ", Right "
                << solved.right << ") by negamax\n"
                << "blocks   " << CmBlocksString(solved.blocks) << " = " << solved.block_value
                << " by block reduction\n";
    }
    if (!solved.agree()) {
      std::cerr << program << ": block reduction disagrees with negamax\n";
      return kExitCheckFailed;
    }
    return kExitOk;
  }
  CmRandomCheck check;
  std::atomic<uint64_t> done{0}, total{random};
  StopOnSignals signals;
  CmRandomOptions options;
  options.orders_done = &done;
  options.stop = signals.flag();
  {
    Progress progress("combinatorial", "orders", &done, &total);
    s = CmCheckRandomOrders(pairs, random, seed, &check, options);
  }
  // Stopped: the orders done are reported as --random <their number>
  // reports them, then one line says so.
  const bool stopped = s.IsCancelled();
  if (!s.ok() && !stopped) return BadInput(program, s.ToString());
  const uint64_t asked = random;
  random = check.orders;
  if (json) {
    // docs/schema/cardlab-memory-combinatorial.schema.json (the --random form):
    // "agree" is whether every order agreed, "agreements" how many did.
    nlohmann::ordered_json j;
    j["command"] = "cardlab memory combinatorial";
    j["orders"] = std::to_string(random);
    j["pairs"] = pairs;
    j["seed"] = std::to_string(seed);
    j["agree"] = check.agree == random;
    j["agreements"] = std::to_string(check.agree);
    if (!check.first_disagreement.empty()) j["first_disagreement"] = check.first_disagreement;
    std::cout << j.dump() << "\n";
  } else {
    std::cout << "random orders  " << random << ", of " << Plural(pairs, "pair") << " each (seed "
              << seed << ")\n"
              << "agree          " << check.agree << " of " << random
              << " (block reduction = negamax)\n";
    if (!check.first_disagreement.empty()) {
      std::cout << "first disagreement  " << check.first_disagreement << "\n";
    }
  }
  if (stopped) {
    std::cout.flush();
    std::cerr << program << ": interrupted after " << random << " of " << asked
              << " orders; the results are those of the first " << random << " orders of seed "
              << seed << " (what --random " << random << " gives)\n";
    return signals.ExitCode();
  }
  return check.agree == random ? kExitOk : kExitCheckFailed;
}

}  // namespace eulerdeck::tools
