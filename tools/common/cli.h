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
#include <utility>
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

// Raw values of --game/--ranks/--suits, turned into a GameSpec by ToSpec(),
// or into one GameSpec per size by ToSpecs() for the commands that take a
// range of sizes (--ranks A..B: count, brute, cardlab mc).
struct SpecOptions {
  // SpecOptions::takes for the commands of the backward enumeration
  // (count, run, estimate, rebuild: Policy::enumerable), of the games that
  // remove their matches (reform, reform-stats, count --removed), of hlm.
  static bool Enumerable(const GamePolicy& p) { return p.enumerable; }
  static bool Removes(const GamePolicy& p) { return p.on_match == OnMatch::kRemove; }
  static bool Hlm(const GamePolicy& p) { return p.ends_on_burned_two; }

  std::string game;
  std::string ranks;  // "M", or "A..B"
  int suits = 1;
  // The games the command takes (null: every game): the only ones --help
  // lists for --game, and so the only ones the completion offers. The
  // command still refuses the others itself, in its own words.
  bool (*takes)(const GamePolicy&) = nullptr;

  // Adds --game/--ranks/--suits; with allow_range, --ranks says it also
  // takes a range A..B. Not required: the command checks them itself
  // (ToSpec says which is missing), e.g. where another option replaces them.
  void Add(po::options_description& desc, bool allow_range = false, bool required = true);
  // The one size given. InvalidArgument for a bad game, a bad size, or a
  // range ("--ranks 1..5: this command takes one number of ranks, not a
  // range").
  Status ToSpec(GameSpec* spec) const;
  // Every size from A to B of --ranks A..B in turn (one for --ranks M), each
  // checked (ValidateSpec).
  Status ToSpecs(std::vector<GameSpec>* specs) const;
  // True when --ranks is a range A..B (even A..A).
  bool is_range() const;
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

// What every job over many decks takes besides the game (brute, count):
// --ranks A..B for a range of sizes, --threads, --json, --csv FILE and,
// where asked for, --bfile FILE (an OEIS b-file). Every path accepts "-"
// (standard output).
struct JobOptions {
  SpecOptions spec;
  int threads = 0;
  bool json = false;
  std::string csv_path;
  std::string bfile_path;
  std::string plot_path;

  // Adds --game/--ranks (a range allowed)/--suits, --threads, --json
  // (json_help), --csv (csv_help) and, if bfile_help is given, --bfile.
  void Add(po::options_description& desc, const char* json_help, const char* csv_help,
           const char* bfile_help = nullptr);
  // Adds --plot FILE (.svg, .png or "-"), checked by Prepare() (CheckPlotPath).
  void AddPlot(po::options_description& desc, const char* plot_help);
  // The specs (ToSpecs), --threads checked (CheckThreads), the outputs checked
  // (CheckResultStreams), `check` (the job's own limits on each spec, if
  // given), and only then the CSV and b-file opened, before any work starts:
  // bad input writes nothing.
  Status Prepare(std::vector<GameSpec>* specs, OutputFile* csv, OutputFile* bfile,
                 const std::function<Status(const GameSpec&)>& check = nullptr) const;
  // True when --csv, --bfile or --plot is "-": the command prints nothing
  // else on standard output (no text report).
  bool results_to_stdout() const;
};

// Refuses (InvalidArgument, one line) what would mix two results on standard
// output: --json together with an output path "-", or two paths "-".
// `paths`: (option name without dashes, path) of the command's output files.
Status CheckResultStreams(bool json, const std::vector<std::pair<std::string, std::string>>& paths);

// Opens `path` for an OEIS b-file (like OpenCsv, naming --bfile).
Status OpenBfile(const std::string& path, OutputFile* out);

// The --store DIR of a command that reads an existing store (status,
// inspect, export, verify, resume): OK when DIR is a directory that is not
// empty (the store's reader judges the rest); otherwise InvalidArgument
// saying what is there and where stores are found: "'DIR' is a file, not a
// store (...)", "no store at 'DIR': it does not exist (`eulerdeck list
// PARENT` lists the stores under PARENT)".
Status CheckStoreDir(const std::string& dir);

// `command` and `args` as one line a POSIX shell runs again ("eulerdeck
// count --game mousetrap --ranks 9..11"), arguments quoted where needed; with
// `ranks` not empty, the value of --ranks is replaced by it (the command that
// continues an interrupted range).
std::string CommandLine(const std::string& command, const std::vector<std::string>& args,
                        const std::string& ranks = "");

// The line an interrupted, non-resumable job (count, brute) ends with:
// "<program>: [--ranks M: ]<why>; <note>, run again: `<command>`", the
// command doing what is left: for a range, from the size interrupted on.
// `spec` is the size interrupted, an element of `specs`.
std::string InterruptedLine(const std::string& program, const std::vector<std::string>& args,
                            const std::vector<GameSpec>& specs, const GameSpec& spec, bool range,
                            const Status& why, const std::string& note);

// Parses args (the subcommand's arguments, without program and subcommand
// names) into `vm`. Throws po::error on unknown or malformed options; main()
// turns it into one line and exit status 2.
void ParseArgs(const std::vector<std::string>& args, const po::options_description& desc,
               po::variables_map& vm);

// "512MiB", "1GiB", "256M", "1G", "100000" (bytes). InvalidArgument naming
// the text when it is not a size.
Status ParseBytes(const std::string& text, uint64_t* bytes);

// A duration option (--checkpoint-seconds, --batch-seconds): InvalidArgument
// naming --`option` unless finite and >= 0 (> 0 unless zero_allowed); inf and
// nan are refused, as a checkpoint never taken would be.
Status CheckSeconds(const std::string& option, double seconds, bool zero_allowed);

// Opens `path` for the results' CSV before any work starts, so that a typo
// does not cost the run; does nothing when path is empty. InvalidArgument
// naming the file when it cannot be written.
Status OpenCsv(const std::string& path, OutputFile* out);

// The most --threads a command accepts: 4 x the cores
// (std::thread::hardware_concurrency(), at least 1). More would only cost
// memory and time; 10^8 exhausted the memory before this bound.
int MaxThreads();
// --threads: 0 (all cores) to MaxThreads(); InvalidArgument, one line, beyond.
Status CheckThreads(int threads);

// Commits `file` (OutputFile::Commit). On failure prints "<program>: <why>"
// on stderr and returns false: the caller exits with kExitCheckFailed.
bool CommitOutput(const std::string& program, OutputFile* file);

// Prints "<program>: <message>" on stderr and returns kExitBadInput.
int BadInput(const std::string& program, const std::string& message);

// `TOOL help CMD [ARGS...]` is `TOOL CMD [ARGS...] --help`: when *command is
// "help" and args are given, the first becomes the command and --help is
// appended. Anything else is left as it is.
void HelpAsOption(std::string* command, std::vector<std::string>* args);

// Flushes standard output and checks that everything written to it arrived
// (a full disk, /dev/full or a closed pipe loses results silently
// otherwise). Returns `rc`, or kExitCheckFailed after one line on stderr
// naming the error when the results could not be written and rc was
// kExitOk; kExitClosedStdout, quietly, when its reader closed it (EPIPE).
// Call once, at the end of main().
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
