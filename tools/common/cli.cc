#include "tools/common/cli.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "tools/common/progress.h"

namespace eulerdeck::tools {

void SpecOptions::Add(po::options_description& desc) {
  static const std::string games = GameNameList(" | ");
  desc.add_options()("game", po::value(&game)->required(), games.c_str())(
      "ranks", po::value(&ranks)->required(), "number of values m (cards 1..m)")(
      "suits", po::value(&suits)->default_value(1), "copies of each value s");
}

Status SpecOptions::ToSpec(GameSpec* spec) const {
  Status s = ParseGame(game, &spec->game);
  if (!s.ok()) return s;
  spec->ranks = ranks;
  spec->suits = suits;
  return ValidateSpec(*spec);
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

void JobOptions::Add(po::options_description& desc, const char* csv_help) {
  spec.Add(desc);
  desc.add_options()("threads", po::value(&threads)->default_value(0),
                     "worker threads (0: all cores)")("csv", po::value(&csv_path), csv_help);
}

Status JobOptions::Prepare(GameSpec* spec_out, OutputFile* csv,
                           const std::function<Status(const GameSpec&)>& check) const {
  Status s = spec.ToSpec(spec_out);
  if (s.ok() && threads < 0) s = Status::InvalidArgument("--threads must be >= 0");
  if (s.ok() && check) s = check(*spec_out);
  if (s.ok()) s = OpenCsv(csv_path, csv);
  return s;
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
  po::store(po::command_line_parser(args).options(desc).positional({}).run(), vm);
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

Status OpenCsv(const std::string& path, OutputFile* out) {
  if (path.empty()) return Status::OK();
  Status s = out->Open(path);
  if (!s.ok()) return Status::InvalidArgument("cannot write --csv file '" + path + "'");
  return s;
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

bool ParseOrHelp(const std::vector<std::string>& args, const po::options_description& desc,
                 const std::string& usage, po::variables_map& vm) {
  // The options every command takes, listed under their own heading.
  po::options_description common("common options");
  common.add_options()("quiet,q", po::bool_switch(),
                       "no progress display on stderr (errors and results still appear)");
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
  std::cerr << program << ": could not write the results to standard output"
            << (err != 0 ? std::string(" (") + std::strerror(err) + ")" : std::string()) << "\n";
  return rc == kExitOk ? kExitCheckFailed : rc;
}

void PrintHelp(const std::string& usage, const po::options_description& desc) {
  std::cout << usage << "\n\n" << desc << "\n";
}

}  // namespace eulerdeck::tools
