// Power cuts (storage/testing/fault_injection.h): a run of the frontier store is cut
// at its n-th sync, the disk is made what the cut would leave (unsynced bytes
// and undurable directory changes dropped), and the run is resumed without
// faults. Every time, the level records must equal an uninterrupted run's and
// verify must be clean. The cut kills the process (SIGKILL), so each cut run
// is a child process: this binary again (fork + exec, as a fork of a process
// whose RocksDB and TBB threads are running could not run them), running
// the hidden test case below. The same for a resumable count
// (storage/count/stored_count.h): cut anywhere, its resume must end with the
// plain count's levels; and for a count --removed store
// (storage/count/stored_removed.h): its resume must end with the plain
// count's rows (whose published terms are checked).
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "engine/removal/removed.h"
#include "storage/count/stored_count.h"
#include "storage/count/stored_removed.h"
#include "storage/run/stored_run.h"
#include "storage/store/frontier_store.h"
#include "storage/store/inspect.h"
#include "storage/testing/fault_injection.h"
#include "tests/support/temp_dir.h"

namespace eulerdeck::storage {
namespace {

namespace fs = std::filesystem;

// The child's orders: "STORE_DIR\nJOURNAL\nN\nJOB" (cut at the N-th sync;
// JOB "run" or "count").
constexpr char kChildVar[] = "EULERDECK_POWER_CUT_CHILD";
constexpr char kChildTest[] = "power cut: the process that is cut";
constexpr int kChildFinished = 3;  // the run ended before the armed cut
constexpr int kChildFailed = 4;    // the run failed (not a cut)

constexpr uint64_t kBudget = 64ull << 20;
// mousetrap n=10: 42 blocks in 10 levels (1 1 1 1 1 2 4 7 12 12), 30 input
// blocks, each followed by a checkpoint (flush + synced progress record), so
// a run has a few hundred syncs, every kind of write among them.
const GameSpec kSpec{Game::kMousetrap, 10, 1};

RunOptions Options() {
  RunOptions options;
  options.threads = 2;
  options.checkpoint_seconds = 0;  // a checkpoint after every input block
  return options;
}

// The count: mousetrap n=12 split at level 4 (3,937 subtrees), committed
// as soon as a batch is done, batches of a few subtrees: a cut can land in
// the build of the levels down to the split, in any commit of subtrees,
// or in the last commit of the levels below it.
const GameSpec kCountSpec{Game::kMousetrap, 12, 1};

CountStoreOptions StoreCountOptions() {
  CountStoreOptions options;
  options.threads = 2;
  options.subtree_target = 3000;
  options.checkpoint_seconds = 0;
  options.batch_seconds = 0.0002;
  return options;
}

// The count --removed: mousetrap n=11 split 3 removals deep on one thread
// (673 tasks, about a second), a batch committed at each turn of the
// driver's loop: a cut can land in the store's creation, in any commit of
// tasks, or after the last. Its reference is the plain CountRemoved(),
// checked against the published terms: A007710(11) = 9722814 decks remove
// one card, A007709(11) = 449719 remove all eleven, and they sum to 11!.
const GameSpec kRemovedSpec{Game::kMousetrap, 11, 1};
constexpr int kRemovedDepth = 3;

const std::vector<uint64_t>& RemovedReference() {
  static const std::vector<uint64_t> reference = [] {
    RemovedResult plain;
    REQUIRE(CountRemoved(kRemovedSpec, RemovedOptions{}, &plain).ok());
    REQUIRE(plain.removed.size() == 12);
    REQUIRE(plain.removed[1] == 9722814);  // OEIS A007710(11)
    REQUIRE(plain.removed[11] == 449719);  // OEIS A007709(11)
    uint64_t sum = 0;
    for (uint64_t x : plain.removed) sum += x;
    REQUIRE(sum == 39916800);  // 11!
    return plain.removed;
  }();
  return reference;
}

RemovedStoreOptions StoreRemovedOptions() {
  RemovedStoreOptions options;
  options.threads = 1;
  options.checkpoint_seconds = 0;
  // A commit every 16 tasks, however fast the solver: the same syncs in
  // the reference run and in every trial (673 tasks: 43 commits).
  options.batch_tasks = 16;
  return options;
}

// The count --removed of the child (or of the resume after a cut): the plan
// made again, checked against an existing store (PlanForStore).
Status RemovedInStore(const std::string& dir, rocksdb::Env* env, RemovedResult* result) {
  std::unique_ptr<FrontierStore> store;
  Status s = FrontierStore::Open(dir, FrontierStore::Mode::kReadWrite, kBudget, &store, env);
  if (!s.ok()) return s;
  StoreParams params;
  bool exists = false;
  s = store->GetParams(&params, &exists);
  std::unique_ptr<RemovedPlan> plan;
  if (s.ok()) {
    s = PlanForStore(kRemovedSpec, exists ? &params : nullptr, dir, kRemovedDepth, 0, &plan);
  }
  if (s.ok()) s = RemovedStore(store.get(), *plan, StoreRemovedOptions(), result);
  return s;
}

// Temporary directories named after this test file.
class TempDir : public testing::TempDir {
 public:
  TempDir() : testing::TempDir("eulerdeck-powercut") {}
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<LevelRecord> Levels(FrontierStore* store) {
  std::vector<LevelRecord> levels;
  REQUIRE(store->GetLevels(&levels).ok());
  return levels;
}

// The child: runs the enumeration with the cut armed. Exits without
// unwinding so that nothing of the parent's test session runs after it.
TEST_CASE("power cut: the process that is cut", "[.][power_cut_child]") {
  const char* orders = std::getenv(kChildVar);
  if (orders == nullptr) return;  // run by hand: nothing to do
  std::istringstream in(orders);
  std::string dir, journal, job;
  uint64_t n = 0;
  std::getline(in, dir);
  std::getline(in, journal);
  in >> n >> job;
  FaultInjection faults(journal);
  faults.ArmCut(n);
  if (job == "removed") {
    RemovedResult result;
    const Status s = RemovedInStore(dir, faults.env(), &result);
    if (!s.ok()) std::fprintf(stderr, "child: %s\n", s.ToString().c_str());
    std::fflush(stderr);
    std::_Exit(s.ok() ? kChildFinished : kChildFailed);
  }
  if (job == "count") {
    // Its note: whether the count had begun counting (the levels down to
    // the split committed) when it was cut.
    std::atomic<int> building{-1};
    CountStoreOptions options = StoreCountOptions();
    options.building_level = &building;
    faults.SetCutNote([&] { return std::to_string(building.load()); });
    Status s;
    {
      std::unique_ptr<FrontierStore> store;
      s = FrontierStore::Open(dir, FrontierStore::Mode::kReadWrite, kBudget, &store, faults.env());
      CountResult result;
      if (s.ok()) s = CountStore(store.get(), kCountSpec, options, &result);
    }
    if (!s.ok()) std::fprintf(stderr, "child: %s\n", s.ToString().c_str());
    std::fflush(stderr);
    std::_Exit(s.ok() ? kChildFinished : kChildFailed);
  }
  // The run's counters say what it was told is durable: the levels below
  // `level` are committed, and (once the level's building has begun) the
  // checkpoint after input block input_done - 2 was written.
  std::atomic<int> level{0};
  std::atomic<uint64_t> input_total{0}, input_done{0};
  RunOptions options = Options();
  options.level = &level;
  options.input_total = &input_total;
  options.input_done = &input_done;
  faults.SetCutNote([&] {
    return std::to_string(level.load()) + " " + std::to_string(input_total.load()) + " " +
           std::to_string(input_done.load());
  });
  Status s;
  {
    std::unique_ptr<FrontierStore> store;
    s = FrontierStore::Open(dir, FrontierStore::Mode::kReadWrite, kBudget, &store, faults.env());
    if (s.ok()) s = RunStore(store.get(), kSpec, options);
  }  // closing the store may sync too
  if (!s.ok()) std::fprintf(stderr, "child: %s\n", s.ToString().c_str());
  std::fflush(stderr);
  std::_Exit(s.ok() ? kChildFinished : kChildFailed);
}

enum class ChildEnd { kCut, kFinished, kFailed };

// Runs the child on `dir`, armed to cut at its n-th sync; its output goes to
// `log`.
ChildEnd RunChild(const std::string& dir, const std::string& journal, uint64_t n,
                  const std::string& job, const std::string& log) {
  // Everything is built before fork(): between fork and exec the child may
  // only make async-signal-safe calls.
  std::string exe = fs::read_symlink("/proc/self/exe").string();
  std::string test = kChildTest;
  std::vector<std::string> env;
  const std::string prefix = std::string(kChildVar) + "=";
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::string(*e).rfind(prefix, 0) != 0) env.emplace_back(*e);
  }
  env.push_back(prefix + dir + "\n" + journal + "\n" + std::to_string(n) + "\n" + job);
  std::vector<char*> envp;
  for (std::string& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  char* argv[] = {exe.data(), test.data(), nullptr};
  const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  REQUIRE(fd >= 0);
  const pid_t pid = fork();
  if (pid == 0) {
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    ::execve(exe.c_str(), argv, envp.data());
    _exit(127);
  }
  ::close(fd);
  REQUIRE(pid > 0);
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) return ChildEnd::kCut;
  if (WIFEXITED(status) && WEXITSTATUS(status) == kChildFinished) return ChildEnd::kFinished;
  return ChildEnd::kFailed;
}

// An uninterrupted run's levels, and how many syncs a run makes (counted
// through the simulator, unarmed, which must change nothing).
struct Reference {
  std::vector<LevelRecord> levels;
  uint64_t syncs = 0;
};

const Reference& GetReference() {
  static const Reference reference = [] {
    Reference ref;
    TempDir plain, counted;
    {
      std::unique_ptr<FrontierStore> store;
      REQUIRE(
          FrontierStore::Open(plain.path(), FrontierStore::Mode::kReadWrite, kBudget, &store).ok());
      REQUIRE(RunStore(store.get(), kSpec, Options()).ok());
      ref.levels = Levels(store.get());
    }
    FaultInjection faults(counted.path() + "/journal");
    {
      std::unique_ptr<FrontierStore> store;
      REQUIRE(FrontierStore::Open(counted.path() + "/store", FrontierStore::Mode::kReadWrite,
                                  kBudget, &store, faults.env())
                  .ok());
      REQUIRE(RunStore(store.get(), kSpec, Options()).ok());
      const auto levels = Levels(store.get());
      REQUIRE(levels.size() == ref.levels.size());
      for (size_t i = 0; i < levels.size(); ++i)
        REQUIRE(levels[i].checksum == ref.levels[i].checksum);
    }
    ref.syncs = faults.syncs();
    REQUIRE(static_cast<int>(ref.levels.size()) == kSpec.cards());
    return ref;
  }();
  return reference;
}

// After a cut (and before anything writes to the store again): what the
// cut run had been told was durable (its note, from the child above) must
// be in the store. Opened read-only, so the next run still sees the disk as
// the cut left it. Returns what there was to check: kNothing before the
// first commit, kLevels when committed levels were compared, kCheckpoint
// when the level's checkpoint was too (the tally makes sure both happen).
enum class Acknowledged { kNothing, kLevels, kCheckpoint };
Acknowledged CheckAcknowledged(const std::string& dir, const std::string& note,
                               const Reference& ref) {
  int level = 0;
  uint64_t input_total = 0, input_done = 0;
  std::istringstream(note) >> level >> input_total >> input_done;
  INFO("at the cut the run was building level " << level << ", input block " << input_done << " of "
                                                << input_total);
  if (level <= 1) return Acknowledged::kNothing;  // nothing committed yet
  INFO("store files: " << [&] {
    std::string names;
    for (const auto& e : fs::directory_iterator(dir)) names += e.path().filename().string() + " ";
    return names;
  }());
  std::unique_ptr<FrontierStore> store;
  const Status s = FrontierStore::Open(dir, FrontierStore::Mode::kReadOnly, kBudget, &store);
  INFO("opening read-only after the cut: " << s.ToString());
  REQUIRE(s.ok());
  const auto levels = Levels(store.get());
  CHECK(static_cast<int>(levels.size()) >= level - 1);
  REQUIRE(level - 2 < static_cast<int>(ref.levels.size()));
  for (size_t i = 0; i < levels.size() && i < ref.levels.size(); ++i) {
    CHECK(levels[i].checksum == ref.levels[i].checksum);
  }
  // input_done is the level's own only once its building has begun, which
  // input_total tells apart when the level below has a different count of
  // blocks than the one below it.
  const uint64_t own_total = ref.levels[level - 2].blocks;
  const uint64_t previous_total = level >= 3 ? ref.levels[level - 3].blocks : 0;
  if (static_cast<int>(levels.size()) >= level || input_total != own_total ||
      own_total == previous_total || input_done < 2) {
    return Acknowledged::kLevels;
  }
  ProgressRecord progress;
  bool exists = false;
  REQUIRE(store->GetProgress(&progress, &exists).ok());
  CHECK(exists);
  CHECK(progress.level == level);
  CHECK(progress.next_ordinal >= input_done - 1);
  return Acknowledged::kCheckpoint;
}

struct Tally {
  int trials = 0;
  int cuts = 0;                 // first cuts that landed
  int second_cuts = 0;          // cuts during the recovery from a first cut
  int not_reached = 0;          // runs that ended before the armed cut (thread timing)
  int levels_checked = 0;       // cuts after which committed levels were compared
  int checkpoints_checked = 0;  // ... and a level's checkpoint too
  FaultInjection::DropReport dropped;
};

// For the study of a failing trial: with EULERDECK_POWER_CUT_KEEP=DIR set,
// each cut's directory (store, journal and the journal's shadow) is copied
// to DIR/<trial>/<stage> before and after its unsynced data are dropped;
// the copies of a trial that passes are removed again (KeptTrial).
const char* KeepDir() { return std::getenv("EULERDECK_POWER_CUT_KEEP"); }
std::string& KeptTrialName() {
  static std::string name;
  return name;
}

void KeepCopy(const std::string& tmp, const std::string& stage) {
  if (KeepDir() == nullptr || KeptTrialName().empty()) return;
  const fs::path to = fs::path(KeepDir()) / KeptTrialName() / stage;
  fs::remove_all(to);  // a trial run again
  fs::create_directories(to);
  fs::copy(tmp, to, fs::copy_options::recursive);
}

// Names the trial whose cuts KeepCopy() keeps, and forgets them when the
// trial ends without a failed REQUIRE and without Failed().
class KeptTrial {
 public:
  explicit KeptTrial(std::string name) { KeptTrialName() = std::move(name); }
  ~KeptTrial() {
    if (KeepDir() != nullptr && !KeptTrialName().empty() && !failed_ &&
        std::uncaught_exceptions() == 0) {
      std::error_code ec;
      fs::remove_all(fs::path(KeepDir()) / KeptTrialName(), ec);
    }
    KeptTrialName().clear();
  }
  KeptTrial(const KeptTrial&) = delete;
  KeptTrial& operator=(const KeptTrial&) = delete;
  // A CHECK failed (it does not throw): keep the copies.
  void Failed() { failed_ = true; }

 private:
  bool failed_ = false;
};

// Runs `job` in the child on `dir`, cut at its cut-th sync, and makes the
// disk what the cut would leave, tallying what was dropped. False when the
// job ended before the cut; otherwise *note is the cut job's note.
bool CutAndDrop(const std::string& job, const std::string& tmp, uint64_t cut, bool recovery,
                Tally* tally, std::string* note) {
  const std::string log = tmp + "/child.log";
  const ChildEnd end = RunChild(tmp + "/store", tmp + "/journal", cut, job, log);
  INFO("child's output: " << ReadFile(log));
  REQUIRE(end != ChildEnd::kFailed);
  if (end == ChildEnd::kFinished) {
    ++tally->not_reached;
    return false;
  }
  ++(recovery ? tally->second_cuts : tally->cuts);
  KeepCopy(tmp, recovery ? "cut2-before-drop" : "cut1-before-drop");
  FaultInjection::DropReport report;
  const Status d = FaultInjection::DropUnsyncedData(tmp + "/journal", &report);
  INFO("dropping unsynced data: " << d.ToString());
  REQUIRE(d.ok());
  tally->dropped.files_truncated += report.files_truncated;
  tally->dropped.bytes_dropped += report.bytes_dropped;
  tally->dropped.creations_undone += report.creations_undone;
  tally->dropped.renames_undone += report.renames_undone;
  tally->dropped.deletions_undone += report.deletions_undone;
  *note = report.note;
  KeepCopy(tmp, recovery ? "cut2-after-drop" : "cut1-after-drop");
  return true;
}

// The cuts of one trial in a fresh `tmp`: `job` cut at its n-th sync, then,
// when second > 0, its recovery cut too, at its second-th sync; `check`
// sees the cut job's note after each cut that landed.
void Cuts(const std::string& job, const std::string& tmp, uint64_t n, uint64_t second, Tally* tally,
          const std::function<void(const std::string&)>& check) {
  ++tally->trials;
  const uint64_t cuts[] = {n, second};
  for (int c = 0; c < 2; ++c) {
    std::string note;
    if (cuts[c] == 0) continue;
    if (!CutAndDrop(job, tmp, cuts[c], c == 1, tally, &note)) break;
    check(note);
  }
}

// `count` cut points spread evenly over [1, syncs]; every third trial also
// cuts its recovery, a few syncs in (reopening, recovering, deleting what
// is past the checkpoint, the first checkpoints).
void ForEachCutPair(int count, uint64_t syncs,
                    const std::function<void(uint64_t, uint64_t)>& trial) {
  REQUIRE(syncs >= static_cast<uint64_t>(count));
  for (int i = 0; i < count; ++i) {
    const uint64_t n = 1 + i * (syncs - 1) / (count - 1);
    trial(n, i % 3 == 2 ? 1 + (7 * i) % 23 : 0);
  }
}

// One trial: a run cut at its n-th sync; then, when second > 0, the
// recovery cut too, at its second-th sync; then a resume without faults,
// which must end with the reference's levels and a clean verify.
void Trial(uint64_t n, uint64_t second, Tally* tally) {
  const Reference& ref = GetReference();
  INFO("cut at sync " << n << " of " << ref.syncs << ", then at sync " << second
                      << " of the recovery (0: none)");
  TempDir tmp;
  const std::string dir = tmp.path() + "/store";
  Cuts("run", tmp.path(), n, second, tally, [&](const std::string& note) {
    const Acknowledged checked = CheckAcknowledged(dir, note, ref);
    if (checked != Acknowledged::kNothing) ++tally->levels_checked;
    if (checked == Acknowledged::kCheckpoint) ++tally->checkpoints_checked;
  });
  std::unique_ptr<FrontierStore> store;
  Status s = FrontierStore::Open(dir, FrontierStore::Mode::kReadWrite, kBudget, &store);
  INFO("reopening after the cut: " << s.ToString());
  REQUIRE(s.ok());
  s = RunStore(store.get(), kSpec, Options());
  INFO("resuming: " << s.ToString());
  REQUIRE(s.ok());
  const auto levels = Levels(store.get());
  REQUIRE(levels.size() == ref.levels.size());
  for (size_t i = 0; i < levels.size(); ++i) {
    const LevelRecord &got = levels[i], &want = ref.levels[i];
    INFO("level " << want.level);
    CHECK(got.level == want.level);
    CHECK(got.entries == want.entries);
    CHECK(got.blocks == want.blocks);
    CHECK(got.raw_bytes == want.raw_bytes);
    CHECK(got.stored_bytes == want.stored_bytes);
    CHECK(got.checksum == want.checksum);
    CHECK(got.kept == want.kept);
  }
  VerifyReport report;
  s = VerifyStore(store.get(), &report);
  INFO("verify: " << s.ToString());
  CHECK(s.ok());
  CHECK(report.levels_checked == kSpec.cards());
}

void Report(const char* what, const Tally& tally, uint64_t syncs) {
  std::cout << what << ": " << tally.trials << " trials over " << syncs << " syncs, " << tally.cuts
            << " cuts + " << tally.second_cuts << " cuts of a recovery (" << tally.not_reached
            << " not reached); dropped " << tally.dropped.bytes_dropped << " bytes of "
            << tally.dropped.files_truncated << " files, undid " << tally.dropped.creations_undone
            << " creations, " << tally.dropped.renames_undone << " renames, "
            << tally.dropped.deletions_undone << " deletions; acknowledged "
            << "levels checked after " << tally.levels_checked << " cuts, a checkpoint after "
            << tally.checkpoints_checked << "\n";
}

void Trials(int count, Tally* tally) {
  const uint64_t syncs = GetReference().syncs;
  ForEachCutPair(count, syncs, [&](uint64_t n, uint64_t second) { Trial(n, second, tally); });
  Report("power cut", *tally, syncs);
  // The simulation must bite: unsynced bytes and new files were dropped.
  CHECK(tally->dropped.bytes_dropped > 0);
  CHECK(tally->dropped.creations_undone > 0);
  // And what the run was told was durable was checked, levels and checkpoints.
  CHECK(tally->levels_checked > 0);
  CHECK(tally->checkpoints_checked > 0);
}

// The count's reference: the plain count's levels (which the engine tests
// check against brute force), and how many syncs a count in a store makes.
struct CountReference {
  std::vector<uint64_t> levels;
  uint64_t syncs = 0;
};

const CountReference& GetCountReference() {
  static const CountReference reference = [] {
    CountReference ref;
    CountResult plain;
    REQUIRE(Count(kCountSpec, CountOptions{}, &plain).ok());
    REQUIRE(plain.level.back() == 3674670);  // OEIS A007709(12)
    ref.levels = plain.level;
    TempDir counted;
    FaultInjection faults(counted.path() + "/journal");
    {
      std::unique_ptr<FrontierStore> store;
      REQUIRE(FrontierStore::Open(counted.path() + "/store", FrontierStore::Mode::kReadWrite,
                                  kBudget, &store, faults.env())
                  .ok());
      CountResult result;
      REQUIRE(CountStore(store.get(), kCountSpec, StoreCountOptions(), &result).ok());
      REQUIRE(result.level == ref.levels);
      CountProgress progress;
      REQUIRE(ReadCountProgress(store.get(), kCountSpec, &progress).ok());
      // Enough commits for cuts to land between them.
      REQUIRE(progress.batches >= 50);
    }
    ref.syncs = faults.syncs();
    return ref;
  }();
  return reference;
}

// One count trial, as Trial() for runs: cut at sync n (and its recovery at
// sync second, when > 0), then resumed without faults to the plain count's
// levels. Once the cut count had begun counting (its note is the level it
// was building, 0 when counting), the levels down to its split must be in
// the store as it was told they were.
void CountTrial(uint64_t n, uint64_t second, Tally* tally) {
  const CountReference& ref = GetCountReference();
  INFO("count cut at sync " << n << " of " << ref.syncs << ", then at sync " << second
                            << " of the recovery (0: none)");
  TempDir tmp;
  const std::string dir = tmp.path() + "/store";
  KeptTrial kept("count-" + std::to_string(n) + "-" + std::to_string(second));
  Cuts("count", tmp.path(), n, second, tally, [&](const std::string& note) {
    if (note != "0") return;
    std::unique_ptr<FrontierStore> store;
    REQUIRE(FrontierStore::Open(dir, FrontierStore::Mode::kReadOnly, kBudget, &store).ok());
    CountProgress progress;
    const Status p = ReadCountProgress(store.get(), kCountSpec, &progress);
    INFO("reading the count after the cut: " << p.ToString());
    REQUIRE(p.ok());
    CHECK(progress.split_level == 4);
    CHECK(progress.subtrees_done <= progress.subtrees_total);
    ++tally->levels_checked;
    if (progress.subtrees_done > 0) ++tally->checkpoints_checked;
  });
  std::unique_ptr<FrontierStore> store;
  Status s = FrontierStore::Open(dir, FrontierStore::Mode::kReadWrite, kBudget, &store);
  INFO("reopening after the cut: " << s.ToString());
  REQUIRE(s.ok());
  CountResult result;
  s = CountStore(store.get(), kCountSpec, StoreCountOptions(), &result);
  INFO("resuming: " << s.ToString());
  REQUIRE(s.ok());
  CHECK(result.level == ref.levels);
  CountProgress progress;
  REQUIRE(ReadCountProgress(store.get(), kCountSpec, &progress).ok());
  CHECK(progress.subtrees_done == progress.subtrees_total);
  if (result.level != ref.levels || progress.subtrees_done != progress.subtrees_total) {
    kept.Failed();
  }
}

void CountTrials(int count, Tally* tally) {
  const uint64_t syncs = GetCountReference().syncs;
  ForEachCutPair(count, syncs, [&](uint64_t n, uint64_t second) { CountTrial(n, second, tally); });
  Report("power cut of a count", *tally, syncs);
  CHECK(tally->dropped.bytes_dropped > 0);
  CHECK(tally->dropped.creations_undone > 0);
  // Cuts landed while it counted, some after subtrees were committed.
  CHECK(tally->levels_checked > 0);
  CHECK(tally->checkpoints_checked > 0);
}

// In the slow suite until 2026-11-25: three runs in a row of a draft of this
// test failed one trial (the count cut at sync 26 of 57, its recovery at sync
// 13: level 1 marked dropped and no level 2), which no later run of the
// drafts or of this test reproduced. Since then no write goes through the
// WAL, and 2,860 trials of the pairs (1..110, 0..25) passed
// (docs/reliability.md, "Power cuts of a count store").
TEST_CASE("power cut: counts cut at 12 points resume to the plain count", "[power_cut_count]") {
  Tally tally;
  CountTrials(12, &tally);
  CHECK(tally.cuts >= 10);
}

TEST_CASE("power cut: counts cut at every sync resume to the plain count",
          "[.][power_cut_count_long]") {
  Tally tally;
  CountTrials(static_cast<int>(GetCountReference().syncs), &tally);
  CHECK(tally.cuts >= 50);
}

// For a study by hand: the count trials named in EULERDECK_POWER_CUT_PAIRS,
// "N:SECOND ..." (SECOND 0: no cut of the recovery), e.g. with
// EULERDECK_POWER_CUT_KEEP to keep what a failing one leaves.
TEST_CASE("power cut: counts cut at the pairs named in the environment",
          "[.][power_cut_count_pairs]") {
  const char* pairs = std::getenv("EULERDECK_POWER_CUT_PAIRS");
  REQUIRE(pairs != nullptr);
  std::istringstream in(pairs);
  Tally tally;
  uint64_t n = 0, second = 0;
  char colon = 0;
  while (in >> n >> colon >> second) {
    REQUIRE(colon == ':');
    CountTrial(n, second, &tally);
  }
  INFO("EULERDECK_POWER_CUT_PAIRS: '" << pairs << "' (N:SECOND ...)");
  REQUIRE(in.eof());
  REQUIRE(tally.trials > 0);
  Report("power cut of a count", tally, GetCountReference().syncs);
}

// How many syncs a count --removed in a store makes (its rows: the
// reference).
uint64_t RemovedSyncs() {
  static const uint64_t syncs = [] {
    TempDir counted;
    FaultInjection faults(counted.path() + "/journal");
    RemovedResult result;
    REQUIRE(RemovedInStore(counted.path() + "/store", faults.env(), &result).ok());
    REQUIRE(result.removed == RemovedReference());
    {
      std::unique_ptr<FrontierStore> store;
      REQUIRE(FrontierStore::Open(counted.path() + "/store", FrontierStore::Mode::kReadOnly,
                                  kBudget, &store)
                  .ok());
      RemovedProgress progress;
      REQUIRE(ReadRemovedProgress(store.get(), &progress).ok());
      // Enough commits for cuts to land between them.
      REQUIRE(progress.batches >= 20);
    }
    return faults.syncs();
  }();
  return syncs;
}

// One count --removed trial: cut at sync n (and its recovery at sync
// second, when > 0); after each cut the store reads back (its records parse,
// none overlaps), and resumed without faults it gives the plain count's rows.
void RemovedTrial(uint64_t n, uint64_t second, Tally* tally) {
  INFO("count --removed cut at sync " << n << " of " << RemovedSyncs() << ", then at sync "
                                      << second << " of the recovery (0: none)");
  TempDir tmp;
  const std::string dir = tmp.path() + "/store";
  KeptTrial kept("removed-" + std::to_string(n) + "-" + std::to_string(second));
  Cuts("removed", tmp.path(), n, second, tally, [&](const std::string&) {
    if (!StoreExists(dir)) return;  // cut before the store was made
    std::unique_ptr<FrontierStore> store;
    REQUIRE(FrontierStore::Open(dir, FrontierStore::Mode::kReadOnly, kBudget, &store).ok());
    StoreParams params;
    bool exists = false;
    REQUIRE(store->GetParams(&params, &exists).ok());
    if (!exists) return;
    RemovedProgress progress;
    const Status p = ReadRemovedProgress(store.get(), &progress);
    INFO("reading the count after the cut: " << p.ToString());
    REQUIRE(p.ok());
    CHECK(progress.tasks_done <= progress.plan.tasks);
    ++tally->levels_checked;
    if (progress.tasks_done > 0) ++tally->checkpoints_checked;
  });
  RemovedResult result;
  const Status s = RemovedInStore(dir, nullptr, &result);
  INFO("resuming: " << s.ToString());
  REQUIRE(s.ok());
  CHECK(result.removed == RemovedReference());
  if (result.removed != RemovedReference()) kept.Failed();
}

void RemovedTrials(int count, Tally* tally) {
  const uint64_t syncs = RemovedSyncs();
  ForEachCutPair(count, syncs,
                 [&](uint64_t n, uint64_t second) { RemovedTrial(n, second, tally); });
  Report("power cut of a count --removed", *tally, syncs);
  CHECK(tally->dropped.bytes_dropped > 0);
  // Cuts landed while it counted, some after tasks were committed.
  CHECK(tally->levels_checked > 0);
  CHECK(tally->checkpoints_checked > 0);
}

TEST_CASE("power cut: counts --removed cut at 12 points resume to the plain count",
          "[power_cut_removed]") {
  Tally tally;
  RemovedTrials(12, &tally);
  CHECK(tally.cuts >= 10);
}

TEST_CASE("power cut: counts --removed cut at every sync resume to the plain count",
          "[.][power_cut_removed_long]") {
  Tally tally;
  RemovedTrials(static_cast<int>(RemovedSyncs()), &tally);
  CHECK(tally.cuts >= 20);
}

TEST_CASE("power cut: runs cut at 10 points resume to the uninterrupted result", "[power_cut]") {
  Tally tally;
  Trials(10, &tally);
  CHECK(tally.cuts >= 8);
}

// The long version (ctest power_cut_long, label slow): every cut point. A
// run's syncs hardly vary (a cut may miss when a background flush ends
// sooner), so nearly every trial must cut. 49 since the store stopped
// writing to the WAL (63 before, 180 before passes of several levels).
TEST_CASE("power cut: runs cut at every sync resume to the uninterrupted result",
          "[.][power_cut_long]") {
  Tally tally;
  Trials(static_cast<int>(GetReference().syncs), &tally);
  CHECK(tally.trials >= 40);
  CHECK(tally.cuts >= tally.trials - 2);
}

}  // namespace
}  // namespace eulerdeck::storage
