// What every subcommand of the two tools shares: the game options, parsing
// with Boost.Program_options (unknown options rejected), and the exit-status
// contract: 0 success, 1 a check failed, 2 bad input (one line on stderr,
// nothing on stdout).
#ifndef EULERDECK_TOOLS_COMMON_CLI_H_
#define EULERDECK_TOOLS_COMMON_CLI_H_

#include <boost/program_options.hpp>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "engine/base/status.h"
#include "engine/cards/deck.h"
#include "engine/cards/game.h"
#include "tools/common/output_file.h"

namespace eulerdeck::tools {

namespace po = boost::program_options;

inline constexpr int kExitOk = 0;
inline constexpr int kExitCheckFailed = 1;
inline constexpr int kExitBadInput = 2;

// Raw values of --game/--ranks/--suits, turned into a GameSpec by ToSpec().
struct SpecOptions {
  std::string game;
  int ranks = 0;
  int suits = 1;

  void Add(po::options_description& desc);
  Status ToSpec(GameSpec* spec) const;
};

// --game/--ranks/--suits and --deck: the deck one game is played on (play,
// reform).
struct DeckOptions {
  SpecOptions spec;
  std::string deck;

  void Add(po::options_description& desc, const char* deck_help);
  // The spec, then the deck checked against it (engine/cards/deck.h).
  Status ToSpecAndDeck(GameSpec* spec_out, Deck* deck_out) const;
};

// What every job over many decks takes besides the game: --threads and an
// optional --csv FILE (brute, count).
struct JobOptions {
  SpecOptions spec;
  int threads = 0;
  std::string csv_path;

  // Adds --game/--ranks/--suits, --threads and --csv (described by csv_help).
  void Add(po::options_description& desc, const char* csv_help);
  // The spec, --threads checked, `check` (the job's own limits on the spec,
  // if given), and only then the CSV file opened (OpenCsv), before any work
  // starts: bad input writes nothing.
  Status Prepare(GameSpec* spec_out, OutputFile* csv,
                 const std::function<Status(const GameSpec&)>& check = nullptr) const;
};

// Parses args (the subcommand's arguments, without program and subcommand
// names) into `vm`. Throws po::error on unknown or malformed options; main()
// turns it into one line and exit status 2.
void ParseArgs(const std::vector<std::string>& args, const po::options_description& desc,
               po::variables_map& vm);

// "512MiB", "1GiB", "256M", "1G", "100000" (bytes). InvalidArgument naming
// the text when it is not a size.
Status ParseBytes(const std::string& text, uint64_t* bytes);

// Opens `path` for the results' CSV before any work starts, so that a typo
// does not cost the run; does nothing when path is empty. InvalidArgument
// naming the file when it cannot be written.
Status OpenCsv(const std::string& path, OutputFile* out);

// Commits `file` (OutputFile::Commit). On failure prints "<program>: <why>"
// on stderr and returns false: the caller exits with kExitCheckFailed.
bool CommitOutput(const std::string& program, OutputFile* file);

// Prints "<program>: <message>" on stderr and returns kExitBadInput.
int BadInput(const std::string& program, const std::string& message);

// Flushes standard output and checks that everything written to it arrived
// (a full disk, /dev/full or a closed pipe loses results silently
// otherwise). Returns `rc`, or kExitCheckFailed after one line on stderr
// naming the error when the results could not be written and rc was
// kExitOk. Call once, at the end of main().
int FinishStdout(const std::string& program, int rc);

// Prints the usage of a subcommand on stdout.
void PrintHelp(const std::string& usage, const po::options_description& desc);

// ParseArgs() with the common options added (--quiet/-q, which calls
// SetQuiet()), then, if --help was given, PrintHelp() and true: the caller
// returns kExitOk. Throws po::error like ParseArgs().
bool ParseOrHelp(const std::vector<std::string>& args, const po::options_description& desc,
                 const std::string& usage, po::variables_map& vm);

}  // namespace eulerdeck::tools

#endif  // EULERDECK_TOOLS_COMMON_CLI_H_
