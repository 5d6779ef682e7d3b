// eulerdeck: exact enumeration of card-matching games. This file only picks
// the subcommand; each lives in its own cmd_*.cc.
#include <cstdio>
#include <exception>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "engine/gpu/gpu_worker.h"
#include "storage/transport/count_mpi.h"
#include "tools/common/cli.h"
#include "tools/common/interrupt.h"
#include "tools/common/suggest.h"
#include "tools/common/version.h"
#include "tools/eulerdeck/commands.h"

namespace {

constexpr const char* kUsage =
    "usage: eulerdeck <command> [options]\n"
    "\n"
    "commands:\n"
    "  play           play one deck and show what happens (--trace for every count)\n"
    "  reform         follow a deck's reform sequence to a dead-end or a cycle\n"
    "  rebuild        the decks with a given removal order (Cayley's question)\n"
    "  count          count the winning decks exactly, backwards from the last card\n"
    "                 (--removed: every deck by the number of cards it removes)\n"
    "  best           the best hlm score, its decks, where no deck may win\n"
    "  reform-stats   every deck by how many times it reforms; cycles, records\n"
    "  reform-search  a deck with a long reform sequence (the Mousetrap contest)\n"
    "  estimate       the winning decks estimated by sampling the backward tree\n"
    "  oeis           an OEIS sequence of the field as a b-file, computed (--list)\n"
    "  brute          play every distinct deck: the reference counts\n"
    "  run            build every level of winning sub-decks into a store, resumable\n"
    "  resume         continue a stored enumeration from its last checkpoint\n"
    "  status         show a store's state, levels, sizes, progress and ETA\n"
    "  inspect        print a stored level's sub-decks and strings\n"
    "  export         write a store's counts, or one level's sub-decks, as CSV\n"
    "  import         a new count store from a count's progress (export --progress)\n"
    "  verify         re-read and check everything in a store\n"
    "  list           list every store under some directories, one row each\n"
    "\n"
    "games (--game), any --ranks m and --suits s:\n";

// The games' lines come from their policies (engine/cards/game.h).
void PrintUsage() {
  std::cout << kUsage;
  for (int g = 0; g < eulerdeck::kGameCount; ++g) {
    const eulerdeck::GamePolicy& p = eulerdeck::Policy(static_cast<eulerdeck::Game>(g));
    std::printf("  %-10s %s%s\n", p.name, p.title, p.enumerable ? "" : " (no count/run)");
  }
  std::cout << "Run 'eulerdeck <command> --help' (or 'eulerdeck help <command>') for the\n"
               "options of a command; 'eulerdeck --version' for the version.\n";
}

}  // namespace

namespace {

int RunCommand(int argc, char** argv) {
  using namespace eulerdeck::tools;
  if (argc < 2) return BadInput("eulerdeck", "no command given (try 'eulerdeck --help')");
  std::string command = argv[1];
  std::vector<std::string> args(argv + 2, argv + argc);
  HelpAsOption(&command, &args);  // `eulerdeck help CMD`: CMD's own help
  try {
    if (command == "--version" || command == "-V") {
      if (!args.empty()) return BadInput("eulerdeck", command + " takes no arguments");
      std::cout << "eulerdeck " EULERDECK_VERSION " (commit " EULERDECK_GIT_COMMIT ")\n";
      return kExitOk;
    }
    if (command == "--help" || command == "-h" || command == "help") {
      PrintUsage();
      return kExitOk;
    }
    if (command == "play") return RunPlay(args);
    if (command == "reform") return RunReform(args);
    if (command == "rebuild") return RunRebuild(args);
    if (command == "best") return RunBest(args);
    if (command == "reform-stats") return RunReformStats(args);
    if (command == "reform-search") return RunReformSearch(args);
    if (command == "estimate") return RunEstimate(args);
    if (command == "oeis") return RunOeis(args);
    if (command == "brute") return RunBrute(args);
    if (command == "count") return RunCount(args);
    if (command == "run") return RunRun(args);
    if (command == "resume") return RunResume(args);
    if (command == "status") return RunStatus(args);
    if (command == "inspect") return RunInspect(args);
    if (command == "export") return RunExport(args);
    if (command == "import") return RunImport(args);
    if (command == "verify") return RunVerify(args);
    if (command == "list") return RunList(args);
    const std::string near =
        Nearest(command, {"play", "reform", "rebuild", "count", "best", "reform-stats",
                          "reform-search", "estimate", "oeis", "brute", "run", "resume", "status",
                          "inspect", "export", "import", "verify", "list", "help"});
    return BadInput("eulerdeck", "unknown command '" + command + "' (" +
                                     (near.empty() ? "" : "did you mean " + near + "? ") +
                                     "try 'eulerdeck --help')");
  } catch (const po::error& e) {
    return BadInput("eulerdeck " + command, e.what());
  } catch (const std::exception& e) {
    std::cerr << "eulerdeck " << command << ": internal error: " << e.what() << "\n";
    return kExitCheckFailed;
  }
}

}  // namespace

int main(int argc, char** argv) {
  // Under mpirun, the ranks other than 0 only count what rank 0 hands them
  // (storage/transport/count_mpi.h); rank 0 runs the command.
  if (eulerdeck::storage::MpiStart(&argc, &argv) > 0) {
    eulerdeck::tools::StopOnSignals signals;
    // count --gpu: the rank's GPU, opened when rank 0 asks.
    auto open_gpu = [](int local_rank, std::unique_ptr<eulerdeck::SubtreeDevice>* device,
                       std::string* description) {
      std::unique_ptr<eulerdeck::gpu::GpuWorker> worker;
      const eulerdeck::Status s = eulerdeck::gpu::GpuWorker::Open(local_rank, &worker);
      if (s.ok()) {
        *description = worker->description();
        *device = std::move(worker);
      }
      return s;
    };
    const eulerdeck::Status s = eulerdeck::storage::MpiServe(signals.flag(), open_gpu);
    eulerdeck::storage::MpiFinish(0);
    return s.ok() ? 0 : 1;
  }
  // A closed standard output ends the command quietly with 141
  // (docs/output.md), its partial output files removed.
  eulerdeck::tools::EndQuietlyOnClosedStdout();
  const int rc = RunCommand(argc, argv);
  eulerdeck::storage::MpiFinish(rc);
  const std::string program = argc >= 2 ? std::string("eulerdeck ") + argv[1] : "eulerdeck";
  return eulerdeck::tools::FinishStdout(program, rc);
}
