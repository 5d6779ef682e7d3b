// eulerdeck reform-stats: every deck of a size by how many times it can be
// reformed, its cycles and its longest sequences (engine/reform/stats.h),
// for one size or a range, as text, JSON lines
// (docs/schema/eulerdeck-reform-stats.schema.json) or CSV.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/eulerian/children.h"
#include "engine/reform/stats.h"
#include "tools/common/cli.h"
#include "tools/common/format.h"
#include "tools/common/interrupt.h"
#include "tools/common/results.h"
#include "tools/common/size_loop.h"
#include "tools/eulerdeck/commands.h"
#include "tools/eulerdeck/count_store.h"

namespace eulerdeck::tools {

namespace {

constexpr const char* kProgram = "eulerdeck reform-stats";

constexpr const char* kUsage =
    "usage: eulerdeck reform-stats --game G --ranks M|A..B [--suits S]\n"
    "                              [--threads T] [--json] [--csv FILE]\n"
    "                              [--store DIR [--subtrees N]]\n"
    "Every deck of the size by the number of times it can be reformed (play it,\n"
    "play its reformed deck, and so on, to a deck that loses): exactly k and at\n"
    "least k times (mousetrap, one suit: k = 0 is OEIS A007711, k = 1 A007712\n"
    "for n >= 3), the decks whose sequence ends on a cycle, the cycles by\n"
    "length, and the longest sequence, pre-period and cycle with the first deck\n"
    "of each. The winning decks come from the backward enumeration, each\n"
    "followed forward (docs/reform-stats.md). --ranks A..B does every size in\n"
    "turn, as one table printed at the end (its columns fit its widest numbers;\n"
    "the sizes done are printed on Ctrl-C too). Ctrl-C stops at once; with\n"
    "--store DIR (one size) the work is kept in a count store and `eulerdeck\n"
    "resume --store DIR` continues it after Ctrl-C, kill -9 or a power cut.\n"
    "--csv columns: game,ranks,suits,distribution,value,decks\n"
    "(docs/schema/csv_columns.json).";

struct SizeResult {
  GameSpec spec;
  ReformStatsResult stats;
  double seconds = 0;
};

std::string AtLeastText(const ReformStatsResult& s, size_t k) {
  if (k == 0) return s.total_decks.get_str();
  return std::to_string(s.AtLeast(k));
}

nlohmann::ordered_json ExampleJson(const ReformExample& e) {
  nlohmann::ordered_json j;
  j["length"] = e.length;
  if (!e.deck.empty()) j["deck"] = e.deck;  // absent when no deck has the length
  return j;
}

nlohmann::ordered_json ToJson(const SizeResult& r) {
  const ReformStatsResult& s = r.stats;
  nlohmann::ordered_json j = GameResultJson(kProgram, r.spec);
  j["total_decks"] = s.total_decks.get_str();
  j["winning_decks"] = std::to_string(s.winning_decks);
  nlohmann::ordered_json exactly = nlohmann::ordered_json::array();
  nlohmann::ordered_json at_least = nlohmann::ordered_json::array();
  for (size_t k = 0; k < s.reformable.size(); ++k) {
    exactly.push_back(k == 0 ? s.unreformed.get_str() : std::to_string(s.reformable[k]));
    at_least.push_back(AtLeastText(s, k));
  }
  j["reformable"] = exactly;
  j["reformable_at_least"] = at_least;
  j["cyclic_decks"] = std::to_string(s.cyclic_decks);
  j["decks_on_cycles"] = std::to_string(s.decks_on_cycles);
  nlohmann::ordered_json cycles = nlohmann::ordered_json::array();
  for (const auto& [length, count] : s.cycles) {
    nlohmann::ordered_json c;
    c["length"] = length;
    c["cycles"] = std::to_string(count);
    cycles.push_back(c);
  }
  j["cycles"] = cycles;
  nlohmann::ordered_json sequences = nlohmann::ordered_json::array();
  for (const auto& [length, decks] : s.cyclic_sequences) {
    nlohmann::ordered_json c;
    c["length"] = length;
    c["decks"] = std::to_string(decks);
    sequences.push_back(c);
  }
  j["cyclic_sequences"] = sequences;
  j["longest_sequence"] = ExampleJson(s.longest_sequence);
  j["longest_cyclic_sequence"] = ExampleJson(s.longest_cyclic_sequence);
  j["longest_preperiod"] = ExampleJson(s.longest_preperiod);
  j["longest_cycle"] = ExampleJson(s.longest_cycle);
  j["seconds"] = r.seconds;
  return j;
}

std::string ExampleText(const ReformExample& e, const char* unit) {
  if (e.deck.empty()) return e.length == 0 ? "none" : Plural(e.length, unit);
  return Plural(e.length, unit) + ", first deck " + DeckToString(e.deck);
}

// The decks reformable exactly k times, with thousands separators.
std::string ExactlyText(const ReformStatsResult& s, size_t k) {
  return k == 0 ? Thousands(s.unreformed) : Thousands(s.reformable[k]);
}

void PrintText(const SizeResult& r) {
  const ReformStatsResult& s = r.stats;
  std::cout << "game               " << GameLine(r.spec) << "\n"
            << "total decks        " << Thousands(s.total_decks) << "\n"
            << "winning decks      " << Thousands(s.winning_decks) << "\n"
            << "reformable   times        exactly         at least\n";
  for (size_t k = 0; k < s.reformable.size(); ++k) {
    std::printf("             %5zu %14s %16s\n", k, ExactlyText(s, k).c_str(),
                Thousands(mpz_class(AtLeastText(s, k))).c_str());
  }
  std::fflush(stdout);
  std::cout << "cyclic decks       " << Thousands(s.cyclic_decks)
            << " (on a cycle: " << Thousands(s.decks_on_cycles) << ")\n"
            << "cycles             ";
  if (s.cycles.empty()) std::cout << "none";
  bool first = true;
  for (const auto& [length, count] : s.cycles) {
    std::cout << (first ? "" : ", ") << Thousands(count) << " of "
              << PluralThousands(length, "deck");
    first = false;
  }
  std::cout << "\n"
            << "longest sequence   " << ExampleText(s.longest_sequence, "deck") << "\n"
            << "longest cyclic     " << ExampleText(s.longest_cyclic_sequence, "deck") << "\n"
            << "longest pre-period " << ExampleText(s.longest_preperiod, "deck") << "\n"
            << "longest cycle      " << ExampleText(s.longest_cycle, "deck") << "\n";
}

// Range mode: one table, a row per size: the decks reformable exactly
// k = 0, 1, 2, ... times, then those whose sequence ends on a cycle. A
// larger size reforms more times (more columns) and has wider numbers, so
// the table is printed whole, each column as wide as its widest cell.
class RangeTable {
 public:
  void Add(const SizeResult& r) {
    const ReformStatsResult& s = r.stats;
    Row row{r.spec.ranks, r.spec.cards(), {}, Thousands(s.cyclic_decks)};
    for (size_t k = 0; k < s.reformable.size(); ++k) row.exactly.push_back(ExactlyText(s, k));
    rows_.push_back(std::move(row));
  }

  void Print(const GameSpec& first) const {
    if (rows_.empty()) return;
    // Step 1. The widths: the labels "k=0", ... and "cyclic", or wider cells.
    std::vector<size_t> width;
    size_t cyclic = 6;
    for (const Row& row : rows_) {
      for (size_t k = 0; k < row.exactly.size(); ++k) {
        if (k == width.size()) width.push_back(("k=" + std::to_string(k)).size());
        width[k] = std::max(width[k], row.exactly[k].size());
      }
      cyclic = std::max(cyclic, row.cyclic.size());
    }
    // Step 2. The title, the header and the rows.
    PrintRangeTitle(first);
    std::printf("decks reformable exactly k times, and those whose sequence ends on a cycle\n");
    std::printf("%5s %5s", "ranks", "cards");
    for (size_t k = 0; k < width.size(); ++k) {
      std::printf(" %*s", static_cast<int>(width[k]), ("k=" + std::to_string(k)).c_str());
    }
    std::printf("  %*s\n", static_cast<int>(cyclic), "cyclic");
    for (const Row& row : rows_) {
      std::printf("%5d %5d", row.ranks, row.cards);
      for (size_t k = 0; k < width.size(); ++k) {
        std::printf(" %*s", static_cast<int>(width[k]),
                    k < row.exactly.size() ? row.exactly[k].c_str() : "");
      }
      std::printf("  %*s\n", static_cast<int>(cyclic), row.cyclic.c_str());
    }
    std::fflush(stdout);
  }

 private:
  struct Row {
    int ranks, cards;
    std::vector<std::string> exactly;
    std::string cyclic;
  };
  std::vector<Row> rows_;
};

Status CheckReforms(const GameSpec& spec) {
  if (spec.policy().on_match != OnMatch::kRemove) {
    return Status::InvalidArgument(std::string(GameName(spec.game)) + " reforms no deck");
  }
  return CheckEnumerable(spec);
}

}  // namespace

int RunReformStats(const std::vector<std::string>& args, const std::string& program) {
  JobOptions job;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help");
  job.spec.takes = SpecOptions::Removes;
  job.Add(desc,
          "print one JSON object per size, one per line "
          "(docs/schema/eulerdeck-reform-stats.schema.json)",
          "write the distributions to FILE as CSV (- for standard output, instead of the "
          "report)");
  po::options_description store_desc("resumable (one size)");
  CountStoreFlags stored;
  stored.Add(store_desc);
  desc.add(store_desc);
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kUsage, vm)) return kExitOk;
  std::vector<GameSpec> specs;
  OutputFile csv, bfile;
  const bool range = job.spec.is_range();
  if (stored.enabled() && range) {
    return BadInput(program, "--store takes one size, not a --ranks range");
  }
  if (!stored.enabled()) {
    for (const char* flag : {"subtrees", "checkpoint-seconds", "batch-seconds", "memory-budget"}) {
      if (!vm[flag].defaulted() && vm.count(flag)) {
        return BadInput(program, std::string("--") + flag + " needs --store");
      }
    }
  }
  Status s = job.Prepare(&specs, &csv, &bfile, CheckReforms);
  if (s.ok() && stored.enabled()) s = stored.Check();
  if (!s.ok()) return BadInput(program, s.ToString());
  const bool text = !job.json && !job.results_to_stdout();
  if (csv.is_open()) csv << "game,ranks,suits,distribution,value,decks\n";
  RangeTable table;  // a range's rows, printed at the end (or on Ctrl-C)

  StopOnSignals signals;
  ReformStatsOptions options;
  options.threads = job.threads;
  options.stop = signals.flag();
  SizeResult r;
  const int status = RunSizes(
      SizeLoop{program.c_str(), args, specs, range, "reform-stats", "subtrees",
               "without --store reform-stats is not resumable", stored.dir},
      signals,
      [&](const GameSpec& spec, std::atomic<uint64_t>* done, std::atomic<uint64_t>* total) {
        options.tasks_done = done;
        options.tasks_total = total;
        r = SizeResult{};
        r.spec = spec;
        if (stored.enabled()) {
          std::atomic<int> building{0};
          std::atomic<uint64_t> counted{0};  // for the store's live rate (`status`)
          return ReformStatsInStore(
              stored, spec,
              CountStoreCounters{job.threads, options.stop, done, total, &counted, &building},
              &r.stats);
        }
        return ReformStats(spec, options, &r.stats);
      },
      [&](const GameSpec& spec, double seconds) {
        r.seconds = seconds;
        const ReformStatsResult& st = r.stats;
        if (csv.is_open()) {
          const std::string key = CsvGamePrefix(spec);
          for (size_t k = 0; k < st.reformable.size(); ++k) {
            csv << key << "reformable," << k << ","
                << (k == 0 ? st.unreformed.get_str() : std::to_string(st.reformable[k])) << "\n";
          }
          for (size_t k = 0; k < st.reformable.size(); ++k) {
            csv << key << "reformable_at_least," << k << "," << AtLeastText(st, k) << "\n";
          }
          for (const auto& [length, decks] : st.cyclic_sequences) {
            csv << key << "cyclic_sequence_length," << length << "," << decks << "\n";
          }
          for (const auto& [length, count] : st.cycles) {
            csv << key << "cycle_length," << length << "," << count * length << "\n";
          }
        }
        PrintSizeResult(
            job.json, text, range, [&] { return ToJson(r); }, [&] { table.Add(r); },
            [&] { PrintText(r); }, seconds);
      });
  if (text && range) table.Print(specs[0]);
  if (status != kExitOk) return status;
  if (!CommitOutput(program, &csv)) return kExitCheckFailed;
  return kExitOk;
}

}  // namespace eulerdeck::tools
