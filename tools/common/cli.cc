#include "tools/common/cli.h"

#include <iostream>

namespace eulerdeck::tools {

void SpecOptions::Add(po::options_description& desc) {
  desc.add_options()
      ("game", po::value(&game)->required(), "mousetrap | modular | hlm")
      ("ranks", po::value(&ranks)->required(), "number of values m (cards 1..m)")
      ("suits", po::value(&suits)->default_value(1), "copies of each value s");
}

Status SpecOptions::ToSpec(GameSpec* spec) const {
  Status s = ParseGame(game, &spec->game);
  if (!s.ok()) return s;
  spec->ranks = ranks;
  spec->suits = suits;
  return ValidateSpec(*spec);
}

void ParseArgs(const std::vector<std::string>& args, const po::options_description& desc,
               po::variables_map& vm) {
  // No positional options: a stray word is an error, not silently ignored.
  po::store(po::command_line_parser(args).options(desc).positional({}).run(), vm);
  if (vm.count("help")) return;  // --help wins over missing required options
  po::notify(vm);
}

int BadInput(const std::string& program, const std::string& message) {
  std::cerr << program << ": " << message << "\n";
  return kExitBadInput;
}

void PrintHelp(const std::string& usage, const po::options_description& desc) {
  std::cout << usage << "\n\n" << desc << "\n";
}

}  // namespace eulerdeck::tools
