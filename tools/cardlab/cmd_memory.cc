// cardlab memory: picks the Memory model.
#include <iostream>
#include <string>
#include <vector>

#include "tools/common/cli.h"

namespace eulerdeck::tools {

int RunMemorySolitaire(const std::vector<std::string>& args);
int RunMemoryTerminating(const std::vector<std::string>& args);
int RunMemoryCombinatorial(const std::vector<std::string>& args);

namespace {
constexpr const char* kUsage =
    "usage: cardlab memory <model> [options]\n"
    "       ('cardlab memory <model> --help' for each model's options)\n"
    "\n"
    "models:\n"
    "  solitaire      one player: expected moves, pair types (Foerster & Wattenhofer)\n"
    "  terminating    two players: E(n,j) and the optimal moves (Alfthan 2007)\n"
    "  combinatorial  two players, the opening order known: a position's value\n"
    "                 (Alfthan 2007)";
}  // namespace

int RunMemory(const std::vector<std::string>& args) {
  if (args.empty())
    return BadInput("cardlab memory", "no model given (solitaire, terminating, combinatorial)");
  const std::string& model = args[0];
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (model == "--help" || model == "-h" || (model == "help" && rest.empty())) {
    std::cout << kUsage << "\n";
    return kExitOk;
  }
  // `cardlab memory help MODEL`: the model's own help.
  if (model == "help") return RunMemory({rest[0], "--help"});
  try {
    if (model == "solitaire") return RunMemorySolitaire(rest);
    if (model == "terminating") return RunMemoryTerminating(rest);
    if (model == "combinatorial") return RunMemoryCombinatorial(rest);
  } catch (const po::error& e) {
    return BadInput("cardlab memory " + model, e.what());
  }
  return BadInput("cardlab memory",
                  "unknown model '" + model + "' (solitaire, terminating, combinatorial)");
}

}  // namespace eulerdeck::tools
