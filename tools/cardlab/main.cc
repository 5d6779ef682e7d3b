// cardlab: what enumeration cannot do — Monte Carlo estimates (issue 5), the
// Memory recurrences (issue 6), Dundee / Problem of Thirteen (issue 7). None
// is built yet: this front end only describes them and refuses to run them.
#include <iostream>
#include <string>

#include "tools/common/cli.h"

namespace {
constexpr const char* kUsage =
    "usage: cardlab <command> [options]\n"
    "\n"
    "planned commands (not yet available in this version):\n"
    "  mc       Monte Carlo estimates for mousetrap, modular and hlm\n"
    "  memory   the Memory recurrences (solitaire, terminating, combinatorial)\n"
    "  dundee   the Problem of Thirteen and Dundee probabilities\n"
    "\n"
    "For exact counts use eulerdeck (see 'eulerdeck --help').";
}  // namespace

int main(int argc, char** argv) {
  using namespace eulerdeck::tools;
  if (argc >= 2) {
    const std::string command = argv[1];
    if (command == "--help" || command == "-h" || command == "help") {
      std::cout << kUsage << "\n";
      return kExitOk;
    }
    if (command == "mc" || command == "memory" || command == "dundee") {
      return BadInput("cardlab", "'" + command + "' is not available in this version yet");
    }
    return BadInput("cardlab", "unknown command '" + command + "' (try 'cardlab --help')");
  }
  return BadInput("cardlab", "no command given (try 'cardlab --help')");
}
