#include "tools/common/cli.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <thread>

#include "tools/common/plot.h"
#include "tools/common/progress.h"
#include "tools/common/suggest.h"

namespace eulerdeck::tools {

namespace {

// A number of ranks: decimal digits only, at most 4 of them.
bool ParseRanksNumber(const std::string& text, int* out) {
  if (text.empty() || text.size() > 4) return false;
  int v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *out = v;
  return true;
}

// --ranks "M" or "A..B" into [first, last].
Status ParseRanks(const std::string& text, int* first, int* last) {
  const size_t dots = text.find("..");
  if (dots == std::string::npos) {
    if (!ParseRanksNumber(text, first)) {
      return Status::InvalidArgument("--ranks '" + text +
                                     "' is not a number of ranks (M, or a range A..B)");
    }
    *last = *first;
    return Status::OK();
  }
  if (!ParseRanksNumber(text.substr(0, dots), first) ||
      !ParseRanksNumber(text.substr(dots + 2), last)) {
    return Status::InvalidArgument("--ranks '" + text + "' is not a range A..B of ranks");
  }
  if (*first > *last) {
    return Status::InvalidArgument("--ranks '" + text + "': the range is empty (A > B)");
  }
  return Status::OK();
}

}  // namespace

void SpecOptions::Add(po::options_description& desc, bool allow_range, bool required) {
  std::string games;  // "mousetrap | modular | hlm" (the options keep a copy)
  for (int g = 0; g < kGameCount; ++g) {
    const GamePolicy& p = Policy(static_cast<Game>(g));
    if (takes == nullptr || takes(p)) games += (games.empty() ? "" : " | ") + std::string(p.name);
  }
  po::typed_value<std::string>* game_value = po::value(&game);
  po::typed_value<std::string>* ranks_value = po::value(&ranks);
  if (required) {
    game_value->required();
    ranks_value->required();
  }
  desc.add_options()("game", game_value, games.c_str())(
      "ranks", ranks_value,
      allow_range ? "number of values m (cards 1..m), or a range A..B: every m from A to B"
                  : "number of values m (cards 1..m)")("suits", po::value(&suits)->default_value(1),
                                                       "copies of each value s");
}

bool SpecOptions::is_range() const { return ranks.find("..") != std::string::npos; }

Status SpecOptions::ToSpec(GameSpec* spec) const {
  if (is_range()) {
    return Status::InvalidArgument("--ranks " + ranks +
                                   ": this command takes one number of ranks, not a range");
  }
  std::vector<GameSpec> specs;
  Status s = ToSpecs(&specs);
  if (s.ok()) *spec = specs[0];
  return s;
}

Status SpecOptions::ToSpecs(std::vector<GameSpec>* specs) const {
  specs->clear();
  GameSpec spec;
  Status s = ParseGame(game, &spec.game);
  if (!s.ok()) return s;
  int first = 0, last = 0;
  s = ParseRanks(ranks, &first, &last);
  if (!s.ok()) return s;
  spec.suits = suits;
  for (int m = first; m <= last; ++m) {
    spec.ranks = m;
    s = ValidateSpec(spec);
    if (!s.ok()) return s;
    specs->push_back(spec);
  }
  return Status::OK();
}

void DeckOptions::Add(po::options_description& desc, const char* deck_help) {
  spec.Add(desc);
  desc.add_options()("deck", po::value(&deck)->required(), deck_help);
}

Status DeckOptions::ToSpecAndDeck(GameSpec* spec_out, Deck* deck_out) const {
  Status s = spec.ToSpec(spec_out);
  if (s.ok()) s = ParseDeck(deck, *spec_out, deck_out);
  return s;
}

void JobOptions::Add(po::options_description& desc, const char* json_help, const char* csv_help,
                     const char* bfile_help) {
  spec.Add(desc, /*allow_range=*/true);
  desc.add_options()("threads", po::value(&threads)->default_value(0),
                     "worker threads (0: all cores)")("json", po::bool_switch(&json), json_help)(
      "csv", po::value(&csv_path), csv_help);
  if (bfile_help) desc.add_options()("bfile", po::value(&bfile_path), bfile_help);
}

void JobOptions::AddPlot(po::options_description& desc, const char* plot_help) {
  desc.add_options()("plot", po::value(&plot_path), plot_help);
}

Status JobOptions::Prepare(std::vector<GameSpec>* specs, OutputFile* csv, OutputFile* bfile,
                           const std::function<Status(const GameSpec&)>& check) const {
  Status s = spec.ToSpecs(specs);
  if (s.ok()) s = CheckThreads(threads);
  if (s.ok()) {
    s = CheckResultStreams(json, {{"csv", csv_path}, {"bfile", bfile_path}, {"plot", plot_path}});
  }
  if (s.ok() && !plot_path.empty()) s = CheckPlotPath(plot_path);
  for (size_t i = 0; s.ok() && check && i < specs->size(); ++i) s = check((*specs)[i]);
  if (s.ok()) s = OpenCsv(csv_path, csv);
  if (s.ok()) s = OpenBfile(bfile_path, bfile);
  return s;
}

bool JobOptions::results_to_stdout() const {
  return csv_path == "-" || bfile_path == "-" || plot_path == "-";
}

Status CheckResultStreams(bool json,
                          const std::vector<std::pair<std::string, std::string>>& paths) {
  std::string first;
  for (const auto& [name, path] : paths) {
    if (path != "-") continue;
    if (json) {
      return Status::InvalidArgument("--json and --" + name +
                                     " - would both write to standard output; give --" + name +
                                     " a file name");
    }
    if (!first.empty()) {
      return Status::InvalidArgument("--" + first + " - and --" + name +
                                     " - would both write to standard output; give one of "
                                     "them a file name");
    }
    first = name;
  }
  return Status::OK();
}

std::string InterruptedLine(const std::string& program, const std::vector<std::string>& args,
                            const std::vector<GameSpec>& specs, const GameSpec& spec, bool range,
                            const Status& why, const std::string& note) {
  const std::string rest =
      range ? std::to_string(spec.ranks) + ".." + std::to_string(specs.back().ranks) : "";
  return program + ": " + (range ? "--ranks " + std::to_string(spec.ranks) + ": " : "") +
         why.ToString() + "; " + note + ", run again: `" + CommandLine(program, args, rest) + "`";
}

Status CheckStoreDir(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::string parent = fs::path(dir).lexically_normal().parent_path().string();
  if (parent.empty()) parent = ".";
  const std::string list = "`eulerdeck list " + parent + "` lists the stores under " + parent;
  if (!dir.empty() && fs::exists(dir, ec) && !fs::is_directory(dir, ec)) {
    return Status::InvalidArgument(
        "'" + dir + "' is a file, not a store (a store is a directory; " + list + ")");
  }
  if (!dir.empty() && !fs::exists(dir, ec)) {
    return Status::InvalidArgument("no store at '" + dir + "': it does not exist (" + list + ")");
  }
  if (!dir.empty() && fs::is_empty(dir, ec)) {
    return Status::InvalidArgument("no store at '" + dir + "': an empty directory (" + list + ")");
  }
  return Status::OK();
}

Status OpenBfile(const std::string& path, OutputFile* out) {
  if (path.empty()) return Status::OK();
  return out->Open(path, "--bfile file");
}

std::string CommandLine(const std::string& command, const std::vector<std::string>& args,
                        const std::string& ranks) {
  auto quote = [](const std::string& a) {
    const char* safe =
        "abcdefghijklmnopqrstuvwxyz"
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        "0123456789-_.,/=:+@%^";
    const bool plain = !a.empty() && a.find_first_not_of(safe) == std::string::npos;
    if (plain) return a;
    std::string q = "'";
    for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
  };
  std::string line = command;
  bool replaced = false;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string a = args[i];
    if (!ranks.empty() && a.rfind("--ranks=", 0) == 0) {
      a = "--ranks=" + ranks;
      replaced = true;
    } else if (!ranks.empty() && a == "--ranks" && i + 1 < args.size()) {
      line.append(" --ranks ").append(quote(ranks));
      ++i;
      replaced = true;
      continue;
    }
    line.append(" ").append(quote(a));  // (not += " " + ...: g++ 12 warns falsely, -Wrestrict)
  }
  if (!ranks.empty() && !replaced) line.append(" --ranks ").append(quote(ranks));
  return line;
}

void ParseArgs(const std::vector<std::string>& args, const po::options_description& desc,
               po::variables_map& vm) {
  // No option takes a negative number, and Boost would turn "-1" into 2^64-1
  // for an unsigned one: refuse it by name before parsing.
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const size_t eq = a.find('=');
    std::string option, value;
    if (a.rfind("--", 0) == 0 && eq != std::string::npos) {
      option = a.substr(0, eq);
      value = a.substr(eq + 1);
    } else if (i > 0 && args[i - 1].rfind("--", 0) == 0 &&
               args[i - 1].find('=') == std::string::npos) {
      option = args[i - 1];
      value = a;
    }
    if (value.size() >= 2 && value[0] == '-' &&
        (std::isdigit(static_cast<unsigned char>(value[1])) || value[1] == '.')) {
      throw po::error("the argument ('" + value + "') for option '" + option +
                      "' must not be negative");
    }
  }
  // No positional options: a stray word is an error, not silently ignored.
  try {
    po::store(po::command_line_parser(args).options(desc).positional({}).run(), vm);
  } catch (const po::unknown_option& e) {
    // "did you mean --store?", as an unknown command is answered (main.cc).
    std::vector<std::string> known;
    for (const auto& o : desc.options()) {
      if (!o->long_name().empty()) known.push_back("--" + o->long_name());
    }
    std::string option = e.get_option_name();
    option = option.substr(0, option.find('='));
    const std::string near = Nearest(option, known);
    if (near.empty()) throw;
    throw po::error(std::string(e.what()) + " (did you mean " + near + "?)");
  }
  if (vm.count("help")) return;  // --help wins over missing required options
  // An empty argument is never meant (a file name, a deck, a game): refuse
  // it by name rather than treat it as "not given".
  for (const auto& [name, value] : vm) {
    const auto* text = boost::any_cast<std::string>(&value.value());
    if (!value.defaulted() && text != nullptr && text->empty()) {
      throw po::error("the argument for option '--" + name + "' must not be empty");
    }
  }
  po::notify(vm);
}

Status ParseBytes(const std::string& text, uint64_t* bytes) {
  size_t i = 0;
  uint64_t v = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
    if (v > (UINT64_MAX - 9) / 10)
      return Status::InvalidArgument("size '" + text + "' is too large");
    v = v * 10 + static_cast<uint64_t>(text[i++] - '0');
  }
  const std::string unit = text.substr(i);
  uint64_t mult = 0;
  if (unit.empty() || unit == "B")
    mult = 1;
  else if (unit == "K" || unit == "KiB" || unit == "k")
    mult = uint64_t{1} << 10;
  else if (unit == "M" || unit == "MiB")
    mult = uint64_t{1} << 20;
  else if (unit == "G" || unit == "GiB")
    mult = uint64_t{1} << 30;
  if (i == 0 || mult == 0) {
    return Status::InvalidArgument("'" + text + "' is not a size (use e.g. 512MiB or 2GiB)");
  }
  if (v > UINT64_MAX / mult) return Status::InvalidArgument("size '" + text + "' is too large");
  *bytes = v * mult;
  return Status::OK();
}

Status CheckSeconds(const std::string& option, double seconds, bool zero_allowed) {
  if (!std::isfinite(seconds) || seconds < 0 || (!zero_allowed && seconds == 0)) {
    return Status::InvalidArgument("--" + option + " must be a finite number of seconds " +
                                   (zero_allowed ? ">= 0" : "> 0"));
  }
  return Status::OK();
}

Status OpenCsv(const std::string& path, OutputFile* out) {
  if (path.empty()) return Status::OK();
  return out->Open(path, "--csv file");
}

int MaxThreads() {
  const unsigned cores = std::thread::hardware_concurrency();
  return 4 * static_cast<int>(std::clamp(cores, 1u, 1u << 20));
}

Status CheckThreads(int threads) {
  if (threads < 0) return Status::InvalidArgument("--threads must be >= 0");
  if (threads > MaxThreads()) {
    return Status::InvalidArgument("--threads " + std::to_string(threads) + ": at most " +
                                   std::to_string(MaxThreads()) + " here (4 x the " +
                                   std::to_string(MaxThreads() / 4) + " cores; 0: all cores)");
  }
  return Status::OK();
}

bool CommitOutput(const std::string& program, OutputFile* file) {
  const Status s = file->Commit();
  if (s.ok()) return true;
  std::cerr << program << ": " << s.ToString() << "\n";
  return false;
}

int BadInput(const std::string& program, const std::string& message) {
  std::cerr << program << ": " << message << "\n";
  return kExitBadInput;
}

void HelpAsOption(std::string* command, std::vector<std::string>* args) {
  if (*command != "help" || args->empty()) return;
  *command = args->front();
  args->erase(args->begin());
  args->push_back("--help");
}

bool ParseOrHelp(const std::vector<std::string>& args, const po::options_description& desc,
                 const std::string& usage, po::variables_map& vm) {
  // The options every command takes, listed under their own heading.
  po::options_description common("common options");
  common.add_options()("quiet,q", po::bool_switch(),
                       "no progress display, forecast or time line on stderr (errors and results "
                       "still appear)");
  po::options_description all;
  all.add(desc).add(common);
  ParseArgs(args, all, vm);
  if (vm.count("quiet") && vm["quiet"].as<bool>()) SetQuiet(true);
  if (!vm.count("help")) return false;
  PrintHelp(usage, all);
  return true;
}

int FinishStdout(const std::string& program, int rc) {
  std::cout.flush();
  errno = 0;
  const bool failed = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout);
  if (!failed) return rc;
  const int err = errno;
  // A reader that left: quiet, as the SIGPIPE handler ends it
  // (EndQuietlyOnClosedStdout); here where SIGPIPE did not.
  if (err == EPIPE) return kExitClosedStdout;
  std::cerr << program << ": could not write the results to standard output"
            << (err != 0 ? std::string(" (") + std::strerror(err) + ")" : std::string()) << "\n";
  return rc == kExitOk ? kExitCheckFailed : rc;
}

void PrintHelp(const std::string& usage, const po::options_description& desc) {
  std::cout << usage << "\n\n" << desc << "\n";
}

}  // namespace eulerdeck::tools
