// eulerdeck oeis: the OEIS sequences of the field as b-files, computed by
// the engine (engine/oeis/sequences.h), and the list of them.
#include <iostream>
#include <nlohmann/json.hpp>

#include "engine/oeis/sequences.h"
#include "tools/common/cli.h"
#include "tools/common/interrupt.h"
#include "tools/common/output_file.h"
#include "tools/eulerdeck/commands.h"

namespace eulerdeck::tools {

namespace {

constexpr const char* kProgram = "eulerdeck oeis";

constexpr const char* kUsage =
    "usage: eulerdeck oeis ANUMBER [--to N] [--bfile FILE] [--threads T]\n"
    "       eulerdeck oeis --list [--json]\n"
    "Prints an OEIS sequence of the field in b-file format (\"n a(n)\" lines,\n"
    "comments first), every term computed by the engine: A007709 by the backward\n"
    "count, A028305 and its columns by count --removed, and so on. --list shows\n"
    "every sequence Bersani 2010 lists, the game and statistic that computes it,\n"
    "how its offset maps, and which ones are not computed yet and why\n"
    "(docs/oeis.md).";

nlohmann::ordered_json ListJson(const OeisSequence& s) {
  nlohmann::ordered_json j;
  j["command"] = kProgram;
  j["id"] = s.id;
  j["name"] = s.name;
  j["offset"] = s.offset;
  j["triangle"] = s.triangle;
  j["computed"] = s.computed;
  j["statistic"] = s.statistic;
  if (s.computed) {
    j["default_to"] = s.default_to;
    j["max_to"] = s.max_to;
  }
  return j;
}

}  // namespace

int RunOeis(const std::vector<std::string>& all_args) {
  std::vector<std::string> args = all_args;
  std::string id;
  if (!args.empty() && args[0].rfind("-", 0) != 0) {
    id = args[0];
    args.erase(args.begin());
  }
  int to = 0, threads = 0;
  bool list = false, json = false;
  std::string bfile_path;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help");
  desc.add_options()("list", po::bool_switch(&list),
                     "list the sequences, what computes each, and what is missing");
  desc.add_options()("json", po::bool_switch(&json),
                     "with --list: one JSON object per sequence, one per line "
                     "(docs/schema/eulerdeck-oeis.schema.json)");
  desc.add_options()("to", po::value<int>(&to)->default_value(0),
                     "the last n (the last row of a triangle); 0: the sequence's default");
  desc.add_options()("bfile", po::value<std::string>(&bfile_path),
                     "write the b-file to FILE (- or none: standard output)");
  desc.add_options()("threads", po::value<int>(&threads)->default_value(0),
                     "threads (0: all cores)");
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kUsage, vm)) return kExitOk;
  if (list) {
    if (!id.empty() || vm.count("bfile") || !vm["to"].defaulted()) {
      return BadInput(kProgram, "--list takes no sequence, --to or --bfile");
    }
    for (const OeisSequence& s : OeisSequences()) {
      if (json) {
        std::cout << ListJson(s).dump() << "\n";
      } else {
        std::cout << s.id << (s.computed ? "  computed  " : "  missing   ") << s.statistic << "\n";
      }
    }
    std::cout << std::flush;
    return kExitOk;
  }
  if (json) return BadInput(kProgram, "--json goes with --list (a b-file is text)");
  if (id.empty()) return BadInput(kProgram, "name a sequence (e.g. A007709) or give --list");
  const OeisSequence* seq = FindOeisSequence(id);
  if (!seq) return BadInput(kProgram, "unknown sequence '" + id + "' (see --list)");
  if (!seq->computed) return BadInput(kProgram, std::string(seq->id) + ": " + seq->statistic);
  if (threads < 0) return BadInput(kProgram, "--threads must be at least 0");
  if (to == 0) to = seq->default_to;
  if (Status st = CheckOeisTo(*seq, to); !st.ok()) return BadInput(kProgram, st.ToString());
  OutputFile out;
  const bool to_file = !bfile_path.empty() && bfile_path != "-";
  if (to_file) {
    if (Status s = OpenBfile(bfile_path, &out); !s.ok()) return BadInput(kProgram, s.ToString());
  }
  StopOnSignals signals;
  std::vector<OeisTerm> terms;
  Status s = OeisTerms(id, to, threads, signals.flag(), &terms);
  if (s.IsCancelled()) {
    std::cerr << kProgram << ": interrupted; nothing written\n";
    return signals.ExitCode();
  }
  if (!s.ok()) {
    std::cerr << kProgram << ": " << s.ToString() << "\n";
    return kExitCheckFailed;
  }
  std::ostream& os = to_file ? static_cast<std::ostream&>(out) : std::cout;
  os << "# " << seq->id << ": " << seq->name << "\n"
     << "# Computed by eulerdeck: " << seq->statistic << ".\n"
     << "# Made by: " << CommandLine(kProgram, all_args) << "\n";
  for (const OeisTerm& t : terms) os << t.index << " " << t.value << "\n";
  if (to_file && !CommitOutput(kProgram, &out)) return kExitCheckFailed;
  std::cout << std::flush;
  return kExitOk;
}

}  // namespace eulerdeck::tools
