// eulerdeck reform-search: a starting deck with a long reform sequence,
// scored as the Mousetrap contest scores it (engine/reform/search.h), as
// text or JSON (docs/schema/eulerdeck-reform-search.schema.json).
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "engine/reform/search.h"
#include "storage/search/search_store.h"
#include "storage/transport/count_mpi.h"
#include "tools/common/cli.h"
#include "tools/common/format.h"
#include "tools/common/interrupt.h"
#include "tools/common/progress.h"
#include "tools/common/results.h"
#include "tools/common/size_loop.h"
#include "tools/eulerdeck/commands.h"
#include "tools/eulerdeck/reform_contest.h"

namespace eulerdeck::tools {

namespace {

constexpr const char* kProgram = "eulerdeck reform-search";

constexpr const char* kUsage =
    "usage: eulerdeck reform-search --game {mousetrap|modular} --ranks N\n"
    "                               [--seconds T | --hours H] [--seed X]\n"
    "                               [--threads T] [--store DIR] [--decks N]\n"
    "                               [--beam B] [--no-exhaustive] [--json]\n"
    "       eulerdeck reform-search --contest [--seconds T | --hours H]\n"
    "                               [--store DIR] [--threads T] [--json]\n"
    "       eulerdeck reform-search --submission --store DIR [--json]\n"
    "Searches for a starting deck whose reform sequence is long, scored as the\n"
    "Mousetrap contest scores it: a sequence ending on a cycle beats any other,\n"
    "then the longer wins (distinct decks met). Where every deck can be\n"
    "classified in seconds (mousetrap n <= 13, modular n <= 10) it does that and\n"
    "the answer is the optimum. Beyond, for mousetrap it walks the backward tree\n"
    "of winning decks (1 on top first) and grows a chain both ways wherever a\n"
    "reformed deck wins again; for modular it follows random decks with a memory\n"
    "of the decks met and descends the cycles' in-trees deepest first\n"
    "(docs/reform-records.md). --seed, --threads and --decks repeat a run. All\n"
    "cores by default, 10 minutes. With --store DIR the search checkpoints its\n"
    "best deck and the decks it restarts from every few seconds, and the same\n"
    "command (or `eulerdeck resume --store DIR`) continues it; --seconds/--hours\n"
    "is then the whole search's budget. --contest runs every category of the\n"
    "contest (n = 10..25 but 23, both games) in turn, T each, and prints the 30\n"
    "entries with their scores; `eulerdeck status --store DIR` sums a stored\n"
    "contest up, and --submission prints its entry as the contest takes it, one\n"
    "line a category: n, game, the deck. A stored search is trusted only once\n"
    "its checksum matches and its best deck and cycles replay (damage: exit 1).\n"
    "Ctrl-C stops with the best deck found so far.";

nlohmann::ordered_json ToJson(const GameSpec& spec, const ReformSearchResult& r,
                              const ReformSearchOptions& o, double seconds,
                              const ReformSearchState* state, const std::string& store) {
  nlohmann::ordered_json j = GameResultJson(kProgram, spec);
  j["deck"] = r.deck;
  j["length"] = r.score.length;
  j["cyclic"] = r.score.cyclic;
  j["preperiod"] = r.score.preperiod;
  j["cycle"] = r.score.cycle;
  j["contest_bonus"] = r.score.cyclic ? 1 : 0;
  j["method"] = r.method;
  j["optimal"] = r.optimal;
  j["seed"] = std::to_string(o.seed);
  j["decks_followed"] = std::to_string(r.decks_followed);
  j["found_after"] = std::to_string(r.found_after);
  j["found_seconds"] = r.found_seconds;
  j["threads"] = o.threads;
  j["thread"] = r.thread;
  j["cycles_found"] = std::to_string(r.cycles_found);
  j["seconds"] = seconds;
  if (state) {
    j["search_seconds"] = state->seconds;
    j["budget_seconds"] = o.seconds;
    j["restarts"] = state->restarts;
    j["finished"] = state->finished;
    j["store"] = store;
    nlohmann::ordered_json h = nlohmann::ordered_json::array();
    for (const ReformImprovement& i : state->history)
      h.push_back({{"seconds", i.seconds}, {"length", i.score.length}, {"cyclic", i.score.cyclic}});
    j["improvements"] = h;
  }
  return j;
}

// "1.234 s".
std::string Seconds(double s) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.3f s", s);
  return text;
}

std::string NowUtc() {
  char text[32];
  const std::time_t t = std::time(nullptr);
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return text;
}

// "39,554 cyclic" for the progress line.
std::string ScoreText(const ReformScore& s) {
  if (s.length == 0) return "-";
  return Thousands(s.length) + (s.cyclic ? " cyclic" : " dead-end");
}

// One search (one category), stored or not. Returns the exit code; *r,
// *state and *seconds are what it found.
struct OneSearch {
  GameSpec spec;
  ReformSearchOptions options;
  std::string store_dir;
  bool seconds_given = false;
  bool seed_given = false;
  bool spec_given = true;
  std::string label = "reform-search";
  // Out.
  ReformSearchResult result;
  ReformSearchState state;
  bool stored = false;
  double seconds = 0;
  Status status;
};

// A store that cannot be read because it is damaged (Corruption, IOError):
// one line, exit 1, as for the other stores; anything else is bad input.
int StoreDamaged(const Status& s) {
  if (s.IsCorruption() || s.IsIOError()) {
    std::cerr << kProgram << ": " << s.ToString() << "\n";
    return kExitCheckFailed;
  }
  return BadInput(kProgram, s.ToString());
}

int RunOne(OneSearch* job, const std::atomic<bool>* stop) {
  ReformSearchOptions& options = job->options;
  std::unique_ptr<storage::SearchStore> store;
  storage::SearchParams params;
  ReformSearchState prior;
  if (!job->store_dir.empty()) {
    if (Status s = storage::SearchStore::Open(job->store_dir, &store); !s.ok()) {
      return BadInput(kProgram, s.ToString());
    }
    if (store->exists()) {
      if (Status s = store->Load(&params, &prior); !s.ok()) return StoreDamaged(s);
      if (job->spec_given &&
          (params.spec.game != job->spec.game || params.spec.ranks != job->spec.ranks ||
           params.spec.suits != job->spec.suits)) {
        return BadInput(kProgram, "the store '" + job->store_dir + "' searches " +
                                      GameLine(params.spec) + ", not " + GameLine(job->spec));
      }
      if (job->seed_given && params.seed != options.seed) {
        return BadInput(kProgram, "the store '" + job->store_dir + "' searches with seed " +
                                      std::to_string(params.seed) + ", not " +
                                      std::to_string(options.seed));
      }
      job->spec = params.spec;
      options.seed = params.seed;
      options.beam = params.beam;
      options.exhaustive = params.exhaustive;
      // A budget given on the command line is the whole search's new one.
      if (job->seconds_given) params.seconds = options.seconds;
      options.seconds = params.seconds;
      options.resume = &prior;
    } else if (!job->spec_given) {
      // A store only begun (LOCK alone) says nothing of its game.
      return BadInput(kProgram, storage::ReadSearchParams(job->store_dir, &params).ToString());
    } else {
      params.spec = job->spec;
      params.seed = options.seed;
      params.seconds = options.seconds;
      params.beam = options.beam;
      params.exhaustive = options.exhaustive;
      params.created = NowUtc();
      // The parameters at once, before the first checkpoint: a search
      // stopped before it leaves a store that resumes.
      if (Status s = store->Save(params, ReformSearchState()); !s.ok()) {
        std::cerr << kProgram << ": " << s.ToString() << "\n";
        return kExitCheckFailed;
      }
    }
    job->stored = true;
  }
  // Progress: the time spent of the budget (bar, ETA), the best so far,
  // decks followed per second.
  std::atomic<uint64_t> followed{0}, elapsed_s{0}, total_s{0};
  std::mutex mu;
  ReformScore best_score;
  uint64_t improvements = 0;
  double last_improvement = -1;
  const double before = options.resume ? options.resume->seconds : 0;
  total_s = static_cast<uint64_t>(options.seconds);
  elapsed_s = static_cast<uint64_t>(std::min(before, options.seconds));
  if (options.resume && !options.resume->best.deck.empty()) best_score = options.resume->best.score;
  Status save_error;
  options.decks_followed = &followed;
  std::atomic<uint64_t> classify_done{0}, classify_total{0};
  options.classify_done = &classify_done;
  options.classify_total = &classify_total;
  options.on_checkpoint = [&](const ReformSearchState& st) {
    {
      std::lock_guard<std::mutex> lock(mu);
      best_score = st.best.score;
      improvements = st.history.size();
      if (!st.history.empty()) last_improvement = st.history.back().seconds;
    }
    if (store) {
      Status s = store->Save(params, st);
      if (!s.ok() && save_error.ok()) save_error = s;
    }
  };
  std::atomic<bool> stop_all{false};
  options.stop = &stop_all;
  const auto start = std::chrono::steady_clock::now();
  ProgressOptions po_options;
  po_options.label = job->label;
  po_options.unit = "seconds searched";
  po_options.done = &elapsed_s;
  po_options.total = &total_s;
  po_options.stage = [&] {
    ProgressStage st;
    st.index = 0;
    st.rate_count = followed.load();
    st.rate_unit = "decks";
    if (const uint64_t total = classify_total.load(); total > 0) {
      // The exhaustive phase: every deck classified (reform-stats).
      const uint64_t share = 100 * std::min(classify_done.load(), total) / total;
      st.work_done = static_cast<double>(std::min(classify_done.load(), total));
      st.work_total = static_cast<double>(total);
      st.figures.emplace_back("classifying every deck: " + std::to_string(share) + "% of " +
                                  Thousands(total) + " subtrees",
                              std::to_string(share) + "%");
      return st;
    }
    // The search stops at its budget's end: the ETA is never later.
    const double e =
        before + std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    st.seconds_left_limit = std::max(0.0, options.seconds - e);
    std::lock_guard<std::mutex> lock(mu);
    st.figures.emplace_back("best " + ScoreText(best_score),
                            "best " + Thousands(best_score.length));
    if (last_improvement >= 0) {
      st.figures.emplace_back("last better at " + Seconds(last_improvement) + " (" +
                              std::to_string(improvements) + " in all)");
    }
    return st;
  };
  Status s;
  {
    Progress progress(po_options);
    // The clock of the progress line and the stop flag: a signal, or a
    // checkpoint that could not be written (nothing would be kept).
    std::thread ticker([&] {
      while (!stop_all.load()) {
        const double e =
            before +
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        elapsed_s = static_cast<uint64_t>(std::min(e, options.seconds));
        if ((stop && stop->load()) || !save_error.ok()) stop_all = true;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    });
    s = storage::ReformSearchMpi(job->spec, options, &job->result);
    stop_all = true;
    ticker.join();
  }
  job->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  job->status = s;
  if (!save_error.ok()) {
    std::cerr << kProgram << ": " << save_error.ToString()
              << " (the store keeps its last checkpoint)\n";
    return kExitCheckFailed;
  }
  if (!s.ok() && !s.IsCancelled()) {
    if (s.code() == Status::Code::kInternal) {
      std::cerr << kProgram << ": " << s.ToString() << "\n";
      return kExitCheckFailed;
    }
    return BadInput(kProgram, s.ToString());
  }
  if (store && store->exists()) {
    // What the search ended with, as the last checkpoint wrote it (none
    // when it was stopped before its first, e.g. while classifying).
    storage::SearchParams p;
    if (Status l = store->Load(&p, &job->state); !l.ok()) {
      std::cerr << kProgram << ": " << l.ToString() << "\n";
      return kExitCheckFailed;
    }
  }
  return kExitOk;
}

void PrintText(const OneSearch& job, const std::atomic<bool>* stopped) {
  const ReformSearchResult& r = job.result;
  std::cout << "game          " << GameLine(job.spec) << "\n"
            << "deck          " << DeckToString(r.deck) << "\n"
            << "length        " << Plural(r.score.length, "distinct deck") << ", "
            << (r.score.cyclic ? "ends on a cycle of " + Plural(r.score.cycle, "deck") + " after " +
                                     Plural(r.score.preperiod, "deck")
                               : std::string("ends on a dead-end"))
            << "\n"
            << "contest bonus " << (r.score.cyclic ? 1 : 0) << "\n"
            << "method        " << r.method << (r.optimal ? " (the optimum)" : "") << "\n"
            << "followed      " << Plural(r.decks_followed, "deck") << ", best after "
            << Thousands(r.found_after) << " (" << Seconds(r.found_seconds) << "), "
            << Plural(r.cycles_found, "cycle") << " found\n";
  if (job.stored) {
    std::cout << "store         " << job.store_dir << ": " << Seconds(job.state.seconds) << " of "
              << Seconds(job.options.seconds) << " searched, "
              << Plural(job.state.restarts, "restart") << ", "
              << (job.state.finished ? "finished" : "resume with the same command") << "\n";
  }
  std::cout << std::flush;
  PrintTime(job.seconds, stopped && stopped->load() ? "interrupted" : "");
}

// A contest's store directory, before anything is made in it: missing,
// empty, or holding the contest's category stores (GAME-N) only.
Status CheckContestDir(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(dir, ec)) return Status::OK();
  if (!fs::is_directory(dir, ec))
    return Status::InvalidArgument("'" + dir + "' exists and is not a directory");
  std::set<std::string> names;
  for (const GameSpec& spec : ContestCategories())
    names.insert(fs::path(CategoryDir(dir, spec)).filename().string());
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (!names.count(name)) {
      return Status::InvalidArgument("'" + dir + "' holds something other than a contest (" + name +
                                     ")");
    }
  }
  return Status::OK();
}

// `--submission --store DIR`: the entry of the contest stored in DIR as
// the contest takes it, one line a category with a deck, "N GAME DECK"
// (seed 001: the size, the game, the permutation), or with --json one
// object. Categories without a deck yet are left out, and a line on stderr
// names them.
int PrintSubmission(const std::string& dir, bool json) {
  if (!storage::IsContestStore(dir)) {
    return BadInput(kProgram, "'" + dir + "' holds no contest (reform-search --contest --store)");
  }
  std::vector<ContestCategory> categories;
  if (Status s = ReadContest(dir, &categories); !s.ok()) return StoreDamaged(s);
  std::string missing;
  int entries = 0;
  double score = 0;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  std::string text;
  for (const ContestCategory& c : categories) {
    const ReformSearchResult& b = c.state.best;
    if (b.deck.empty()) {
      missing += std::string(missing.empty() ? "" : ", ") + GameName(c.spec.game) + " " +
                 std::to_string(c.spec.ranks);
      continue;
    }
    ++entries;
    score += ContestScore(b.score, BestKnown(c.spec));
    text += std::to_string(c.spec.ranks) + " " + GameName(c.spec.game) + " " +
            DeckToString(b.deck) + "\n";
    nlohmann::ordered_json e;
    e["n"] = c.spec.ranks;
    e["game"] = GameName(c.spec.game);
    e["deck"] = b.deck;
    e["length"] = b.score.length;
    e["cyclic"] = b.score.cyclic;
    e["preperiod"] = b.score.preperiod;
    e["cycle"] = b.score.cycle;
    e["finished"] = c.state.finished;
    list.push_back(e);
  }
  if (json) {
    nlohmann::ordered_json j;
    j["command"] = std::string(kProgram) + " --submission";
    j["contest"] = "seed 001: Mousetrap, n = 10..25 but 23, mousetrap and modular";
    j["store"] = dir;
    j["categories"] = categories.size();
    j["entries"] = list;
    j["score"] = score;
    std::cout << j.dump() << "\n" << std::flush;
  } else {
    std::cout << text << std::flush;
  }
  if (!missing.empty()) {
    std::cerr << kProgram << ": " << entries << " of " << categories.size()
              << " categories have a deck; none yet for " << missing << "\n";
  }
  return kExitOk;
}

}  // namespace

int RunReformSearch(const std::vector<std::string>& args) {
  SpecOptions game;
  ReformSearchOptions options;
  bool json = false, no_exhaustive = false, contest = false, submission = false;
  double hours = 0;
  std::string store_dir;
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help");
  // The games it plays only (not SpecOptions::Add's every game), so that
  // --help and the completion offer no other.
  desc.add_options()("game", po::value(&game.game), "mousetrap | modular")(
      "ranks", po::value(&game.ranks), "number of values m (cards 1..m)")(
      "suits", po::value(&game.suits)->default_value(1), "copies of each value (1 only)");
  options.threads = 0;
  desc.add_options()("seconds", po::value<double>(&options.seconds)->default_value(600),
                     "time for the search beyond the exhaustive sizes (with --store: the whole "
                     "search's; --contest: each category's)")("hours", po::value<double>(&hours),
                                                              "the same in hours")(
      "threads", po::value<int>(&options.threads)->default_value(0),
      "independent searchers, one per thread (0: all cores), seeds derived from --seed")(
      "seed", po::value<uint64_t>(&options.seed)->default_value(1),
      "seed of the random choices (the same seed repeats a run)")(
      "store", po::value<std::string>(&store_dir),
      "checkpoint the search in DIR; run again (or `eulerdeck resume --store DIR`) to continue")(
      "checkpoint-seconds", po::value<double>(&options.checkpoint_seconds)->default_value(2),
      "with --store: seconds between checkpoints")(
      "contest", po::bool_switch(&contest),
      "every category of the contest in turn (n = 10..25 but 23, both games)")(
      "submission", po::bool_switch(&submission),
      "with --store DIR of a contest: print its entry as the contest takes it, one line a "
      "category (n, game, the deck), and search nothing; --json: one object")(
      "beam", po::value<uint64_t>(&options.beam)->default_value(20000),
      "decks kept per layer of the backward search")(
      "decks", po::value<uint64_t>(&options.max_decks)->default_value(0),
      "stop after following this many decks (0: only --seconds); with --seed, "
      "a run repeated exactly")(
      "no-exhaustive", po::bool_switch(&no_exhaustive),
      "search even where every deck could be classified (to test the search)")(
      "json", po::bool_switch(&json),
      "print one JSON object (docs/schema/eulerdeck-reform-search.schema.json)");
  po::variables_map vm;
  if (ParseOrHelp(args, desc, kUsage, vm)) return kExitOk;
  if (vm.count("hours")) {
    if (!vm["seconds"].defaulted())
      return BadInput(kProgram, "give --seconds or --hours, not both");
    if (!(hours > 0) || hours > 2000)
      return BadInput(kProgram, "--hours must be > 0 and at most 2000");
    options.seconds = hours * 3600;
  }
  if (!(options.seconds > 0) || options.seconds > 1e7) {
    return BadInput(kProgram, "--seconds must be > 0 and at most 10^7");
  }
  if (!(options.checkpoint_seconds > 0))
    return BadInput(kProgram, "--checkpoint-seconds must be > 0");
  if (options.beam < 1) return BadInput(kProgram, "--beam must be at least 1");
  if (Status t = CheckThreads(options.threads); !t.ok()) return BadInput(kProgram, t.ToString());
  options.exhaustive = !no_exhaustive;
  const bool seconds_given = vm.count("hours") || !vm["seconds"].defaulted();

  if (submission) {
    if (contest || !game.game.empty() || !game.ranks.empty()) {
      return BadInput(kProgram,
                      "--submission reads a stored contest: only --store DIR (and --json)");
    }
    if (store_dir.empty()) return BadInput(kProgram, "--submission needs --store DIR, a contest's");
    return PrintSubmission(store_dir, json);
  }
  StopOnSignals signals;
  // What a Ctrl-C keeps, said at once (issue 58, B3): a search step, a
  // category's classification, can take many seconds before the stop is
  // seen, and a second Ctrl-C then ends the process without a word.
  const std::string kept = store_dir.empty()
                               ? std::string("nothing is kept without --store")
                               : "continue with `eulerdeck resume --store " + store_dir + "`";
  signals.SetNotes(std::string(kProgram) + ": stopping at the end of the search's current step (" +
                       kept + "; Ctrl-C again stops at once)\n",
                   std::string(kProgram) + ": stopped at once" +
                       (store_dir.empty() ? "; nothing is kept without --store"
                                          : ", the last checkpoints kept; " + kept) +
                       "\n");
  if (contest) {
    if (!game.game.empty() || !game.ranks.empty()) {
      return BadInput(kProgram, "--contest runs every category: no --game or --ranks");
    }
    if (!vm["suits"].defaulted()) return BadInput(kProgram, "--contest: one suit, no --suits");
    if (!store_dir.empty()) {
      if (Status s = CheckContestDir(store_dir); !s.ok()) return BadInput(kProgram, s.ToString());
    }
    nlohmann::ordered_json entries = nlohmann::ordered_json::array();
    double total = 0;
    int done = 0, finished = 0;
    const std::vector<GameSpec> categories = ContestCategories();
    // A stored contest resumed without --seconds/--hours keeps its time a
    // category (the budget of the categories already begun).
    if (!store_dir.empty() && !seconds_given) {
      for (const GameSpec& spec : categories) {
        storage::SearchParams params;
        const std::string dir = CategoryDir(store_dir, spec);
        if (storage::IsSearchStore(dir) && storage::ReadSearchParams(dir, &params).ok()) {
          options.seconds = params.seconds;
          break;
        }
      }
    }
    for (const GameSpec& spec : categories) {
      OneSearch job;
      job.spec = spec;
      job.options = options;
      job.seconds_given = seconds_given;
      job.seed_given = !vm["seed"].defaulted();
      job.label = std::string(GameName(spec.game)) + " " + std::to_string(spec.ranks);
      if (!store_dir.empty()) job.store_dir = CategoryDir(store_dir, spec);
      const int rc = RunOne(&job, signals.flag());
      if (rc != kExitOk) return rc;
      if (job.status.ok()) ++finished;
      if (job.result.deck.empty()) break;  // interrupted before any deck
      const ReformSearchResult& r = job.result;
      const uint64_t reference = BestKnown(spec);
      const double score = ContestScore(r.score, reference);
      total += score;
      ++done;
      if (json) {
        nlohmann::ordered_json e = ToJson(spec, r, job.options, job.seconds,
                                          job.stored ? &job.state : nullptr, job.store_dir);
        e["best_known"] = reference;
        e["contest_score"] = score;
        entries.push_back(e);
      } else {
        char line[96];
        std::snprintf(line, sizeof(line), "%-9s %2d  %8s  %-8s %7s %5s  %5.3f  ",
                      GameName(spec.game), spec.ranks, Thousands(r.score.length).c_str(),
                      r.score.cyclic ? "cycle" : "dead-end", Thousands(r.score.preperiod).c_str(),
                      Thousands(r.score.cycle).c_str(), score);
        if (done == 1) {
          std::cout << "# the contest's entries (seed 001): game, n, length, end, pre-period,\n"
                       "# cycle, score against the best known (docs/reform-records.md), deck\n";
        }
        std::cout << line << DeckToString(r.deck) << "\n" << std::flush;
      }
      if (job.status.IsCancelled()) break;
    }
    if (json) {
      nlohmann::ordered_json j;
      j["command"] = std::string(kProgram) + " --contest";
      j["contest"] = true;
      j["categories"] = done;
      j["score"] = total;
      j["entries"] = entries;
      std::cout << j.dump() << "\n" << std::flush;
    } else {
      char line[96];
      std::snprintf(line, sizeof(line), "score %.3f of %d (%d categories)\n", total,
                    2 * static_cast<int>(categories.size()), done);
      std::cout << line << std::flush;
    }
    if (signals.signal()) {
      std::cerr << kProgram << ": interrupted after " << finished << " of " << categories.size()
                << " categories; "
                << (store_dir.empty()
                        ? std::string("nothing kept (no --store)")
                        : "continue with `eulerdeck resume --store " + store_dir + "`")
                << "\n";
      return signals.ExitCode();
    }
    return kExitOk;
  }

  OneSearch job;
  job.options = options;
  job.store_dir = store_dir;
  job.seconds_given = seconds_given;
  job.seed_given = !vm["seed"].defaulted();
  if (game.game.empty() && !store_dir.empty() && storage::IsSearchStore(store_dir)) {
    job.spec_given = false;  // the store's game
  } else if (game.game.empty() || game.ranks.empty()) {
    return BadInput(kProgram, std::string("the option '--") +
                                  (game.game.empty() ? "game" : "ranks") +
                                  "' is required but missing (or --contest)");
  } else if (Status s = game.ToSpec(&job.spec); !s.ok()) {
    return BadInput(kProgram, s.ToString());
  } else if (Status c = CheckReformSearchSpec(job.spec); !c.ok()) {
    return BadInput(kProgram, c.ToString());  // before any store is made
  }
  const int rc = RunOne(&job, signals.flag());
  if (rc != kExitOk) return rc;
  if (job.status.IsCancelled() && job.result.deck.empty()) {
    std::cerr << kProgram << ": interrupted before any deck was followed\n";
    return signals.ExitCode();
  }
  if (json) {
    std::cout << ToJson(job.spec, job.result, job.options, job.seconds,
                        job.stored ? &job.state : nullptr, job.store_dir)
                     .dump()
              << "\n"
              << std::flush;
  } else {
    PrintText(job, signals.flag());
  }
  return job.status.IsCancelled() ? signals.ExitCode() : kExitOk;
}

}  // namespace eulerdeck::tools
