// cardlab: what enumeration cannot do — Monte Carlo estimates, the Memory
// recurrences, Dundee / Problem of Thirteen.
// This file only picks the subcommand.
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "tools/common/cli.h"
#include "tools/common/suggest.h"
#include "tools/common/version.h"

namespace {
constexpr const char* kUsage =
    "usage: cardlab <command> [options]\n"
    "\n"
    "commands:\n"
    "  mc       Monte Carlo estimates for the card games ('eulerdeck --help' lists\n"
    "           them)\n"
    "  memory   the Memory recurrences (solitaire, terminating, combinatorial)\n"
    "  dundee   the Problem of Thirteen and Dundee: greedy, advance and optimal bids\n"
    "\n"
    "Run 'cardlab <command> --help' (or 'cardlab help <command>') for the options\n"
    "of a command; 'cardlab --version' for the version. For exact counts, see\n"
    "'eulerdeck --help'.";
}  // namespace

namespace eulerdeck::tools {
int RunMc(const std::vector<std::string>& args);
int RunMemory(const std::vector<std::string>& args);
int RunDundee(const std::vector<std::string>& args);
}  // namespace eulerdeck::tools

namespace {

int RunCommand(int argc, char** argv) {
  using namespace eulerdeck::tools;
  if (argc >= 2) {
    std::string command = argv[1];
    std::vector<std::string> args(argv + 2, argv + argc);
    HelpAsOption(&command, &args);  // `cardlab help CMD`: CMD's own help
    if (command == "--version" || command == "-V") {
      if (argc > 2) return BadInput("cardlab", command + " takes no arguments");
      std::cout << "cardlab " EULERDECK_VERSION " (commit " EULERDECK_GIT_COMMIT ")\n";
      return kExitOk;
    }
    if (command == "--help" || command == "-h" || command == "help") {
      std::cout << kUsage << "\n";
      return kExitOk;
    }
    try {
      if (command == "mc") return RunMc(args);
      if (command == "memory") return RunMemory(args);
      if (command == "dundee") return RunDundee(args);
    } catch (const po::error& e) {
      return BadInput("cardlab " + command, e.what());
    } catch (const std::bad_alloc&) {
      std::cerr << "cardlab " << command << ": out of memory (try a smaller size)\n";
      return kExitCheckFailed;
    } catch (const std::exception& e) {
      std::cerr << "cardlab " << command << ": internal error: " << e.what() << "\n";
      return kExitCheckFailed;
    }
    const std::string near = Nearest(command, {"mc", "memory", "dundee", "help"});
    return BadInput("cardlab", "unknown command '" + command + "' (" +
                                   (near.empty() ? "" : "did you mean " + near + "? ") +
                                   "try 'cardlab --help')");
  }
  return BadInput("cardlab", "no command given (try 'cardlab --help')");
}

}  // namespace

int main(int argc, char** argv) {
  // A closed standard output ends the command quietly with 141
  // (docs/output.md), its partial output files removed.
  eulerdeck::tools::EndQuietlyOnClosedStdout();
  const int rc = RunCommand(argc, argv);
  const std::string program = argc >= 2 ? std::string("cardlab ") + argv[1] : "cardlab";
  return eulerdeck::tools::FinishStdout(program, rc);
}
