// eulerdeck oeis: the OEIS sequences of the field as b-files, computed by
// the engine (engine/oeis/sequences.h), and the list of them.
#include <atomic>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "engine/oeis/sequences.h"
#include "tools/common/cli.h"
#include "tools/common/format.h"
#include "tools/common/interrupt.h"
#include "tools/common/output_file.h"
#include "tools/common/progress.h"
#include "tools/eulerdeck/commands.h"
#include "tools/eulerdeck/forecast_text.h"

namespace eulerdeck::tools {

namespace {

constexpr const char* kProgram = "eulerdeck oeis";

constexpr const char* kUsage =
    "usage: eulerdeck oeis ANUMBER [--to N] [--bfile FILE] [--threads T]\n"
    "       eulerdeck oeis --list [--json]\n"
    "Prints an OEIS sequence of the field in b-file format (\"n a(n)\" lines,\n"
    "comments first), every term computed by the engine, each sequence by its\n"
    "fastest route: A007709 by the backward count, A028305 by count --removed,\n"
    "A007710 and A028306 by removal orders (a permanent for each k), and so on\n"
    "(docs/oeis.md, \"The route of each sequence\"). --list shows\n"
    "every sequence Bersani 2010 lists, the game and statistic that computes it,\n"
    "how its offset maps, and which ones are not computed yet and why\n"
    "(docs/oeis.md). The sequences of the backward count (A007709, A007711) start\n"
    "with a forecast of their time, and one of more than a day needs --force.\n"
    "--bfile FILE writes the b-file to FILE; standard output then gets one line\n"
    "saying how many terms went there. Ctrl-C (or SIGTERM) stops at once: the\n"
    "terms finished are written (to standard output as they come; --bfile FILE\n"
    "holds exactly those), and the exit status is 130 (143).";

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
  bool force = false;
  desc.add_options()("force", po::bool_switch(&force),
                     "start even when the forecast says more than a day");
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
  if (Status t = CheckThreads(threads); !t.ok()) return BadInput(kProgram, t.ToString());
  if (to == 0) to = seq->default_to;
  if (Status st = CheckOeisTo(*seq, to); !st.ok()) return BadInput(kProgram, st.ToString());
  OutputFile out;
  const bool to_file = !bfile_path.empty() && bfile_path != "-";
  if (to_file) {
    if (Status s = OpenBfile(bfile_path, &out); !s.ok()) return BadInput(kProgram, s.ToString());
  }
  // What it will cost, where the count's model applies; more than a day
  // only with --force.
  OeisForecast forecast;
  if (Status f = ForecastOeis(id, to, threads, 1.0, &forecast); f.ok()) {
    if (forecast.seconds > kForceSeconds && !force) {
      return BadInput(kProgram,
                      ForceRefusal(forecast.seconds, forecast.threads, forecast.sub_decks));
    }
    if (!Quiet()) {
      std::cerr << "forecast       ~" << Significant(forecast.sub_decks, 3)
                << " sub-decks for n = " << forecast.from << ".." << forecast.to << ", "
                << (forecast.seconds > 0 ? ForecastTime(forecast.seconds) : "too little to time")
                << " on " << Plural(forecast.threads, "thread") << " (docs/estimates.md)\n";
    }
  } else if (!f.IsNotSupported()) {
    return BadInput(kProgram, f.ToString());
  }

  const std::string header = "# " + std::string(seq->id) + ": " + seq->name + "\n" +
                             "# Computed by eulerdeck: " + seq->statistic + ".\n" +
                             "# Made by: " + CommandLine(kProgram, all_args) + "\n";
  // Standard output gets each n's terms as they come; the file is written
  // whole at the end (with a comment first if interrupted), complete terms
  // only.
  if (!to_file) std::cout << header << std::flush;
  StopOnSignals signals;
  std::atomic<int64_t> index{seq->offset};
  std::atomic<uint64_t> done{0}, total{0};
  OeisOptions options;
  options.threads = threads;
  options.stop = signals.flag();
  options.index_in_progress = &index;
  options.tasks_done = &done;
  options.tasks_total = &total;
  std::ostringstream lines;
  int64_t last_done = seq->offset - 1;
  uint64_t terms_written = 0;
  options.on_terms = [&](int64_t n, const std::vector<OeisTerm>& row) {
    std::ostream& os = to_file ? static_cast<std::ostream&>(lines) : std::cout;
    for (const OeisTerm& t : row) os << t.index << " " << t.value << "\n";
    terms_written += row.size();
    os.flush();
    last_done = n;
  };
  std::vector<OeisTerm> terms;
  Status s;
  {
    ProgressOptions shown;
    shown.label = std::string("oeis ") + seq->id;
    shown.unit = "subtrees";
    shown.done = &done;
    shown.total = &total;
    const int64_t first = seq->offset;
    shown.stage = [&index, first, to] {
      ProgressStage stage;
      const int64_t n = index.load(std::memory_order_relaxed);
      stage.name = "term";
      stage.index = static_cast<int>(n - first + 1);
      stage.count = static_cast<int>(to - first + 1);
      stage.figures.emplace_back("n = " + std::to_string(n));
      return stage;
    };
    Progress progress(std::move(shown));
    s = OeisTerms(id, to, options, &terms);
  }
  if (!s.ok() && !s.IsCancelled()) {
    std::cerr << kProgram << ": " << s.ToString() << "\n";
    return kExitCheckFailed;
  }
  const bool stopped = s.IsCancelled();
  const bool any = last_done >= seq->offset;
  if (to_file && (!stopped || any)) {
    out << header;
    if (stopped) {
      out << "# Interrupted during n = " << last_done + 1 << ": the terms of n = " << seq->offset
          << ".." << last_done << " only.\n";
    }
    out << lines.str();
    if (!CommitOutput(kProgram, &out)) return kExitCheckFailed;
    // The b-file is the result: one line says where it went.
    if (!stopped) {
      std::cout << seq->id << ", n = " << seq->offset << ".." << to << ": "
                << PluralThousands(terms_written, "term") << " written to " << bfile_path << "\n";
    }
  }
  std::cout << std::flush;
  if (stopped) {
    std::cerr << kProgram << ": interrupted during n = " << last_done + 1 << " of " << seq->offset
              << ".." << to;
    if (!any) {
      std::cerr << ", before a term was finished; nothing written";
    } else {
      std::cerr << "; the terms of n = " << seq->offset << ".." << last_done << " are written"
                << (to_file ? " to " + bfile_path : std::string());
    }
    std::cerr << "; not resumable, run again: `" << CommandLine(kProgram, all_args) << "`\n";
    return signals.ExitCode();
  }
  return kExitOk;
}

}  // namespace eulerdeck::tools
