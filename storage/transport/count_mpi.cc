// count_mpi.h with Open MPI: the message protocol between rank 0 and the
// others. Every message goes between rank 0 and one other rank:
//
//   0 -> r  kStart  int32[5]: game, ranks, suits, threads, on the device
//                                                              a count begins
//   0 -> r  kQuit   (empty)                                    no more counts
//   r -> 0  kAsk    uint64[]: a result (or none) and a request for work
//   0 -> r  kWork   uint32[4] block, first, count, k; uint16 paths[count*k]
//   0 -> r  kDone   (empty)                                    this count is over
//
//   0 -> r  kStartSearch   char[]: a JSON object (game, ranks, threads, seed,
//                           seconds left, decks, beam, restarts, first
//                           searcher, checkpoint seconds)   a reform search begins
//   r -> 0  kSearchBest    char[]: a JSON object, the rank's best so far
//                           (deck, score, method, found_after, found_seconds,
//                           decks followed, thread) and "final" on its last
//
//   0 -> r  kStartRemoved  uint64[8]: game, ranks, suits, threads, split
//                           depth, memo entries, plan fingerprint, tasks
//                                                              a count --removed begins
//
//   0 -> r  kOpenDevice    (empty)           open your device (count --gpu)
//   r -> 0  kDeviceOpened  char[]: a JSON object (ok, local_rank, text: the
//                           device in words, or why it did not open)
//
// A rank opens its device once, before anything is written; a count whose
// kStart says "on the device" (1) is counted there, a batch at a time,
// instead of on the rank's threads.
//
// In a count --removed, kAsk is uint64[]: [0] what it carries (as below),
// [1] first task, [2] tasks, [3] thread-seconds (a double's bits), [4] the
// rank's threads, then removed[0..cards]; kWork is uint64[2]: first task,
// tasks. A rank whose plan has another fingerprint aborts the job.
//
// kAsk: [0] what it carries: 0 nothing (a first request), 1 a result, 2 a
// batch given back, plus kLeaving when the rank leaves (it was stopped by a
// signal) instead of asking for more; [1] block, [2] first, [3] count, [4]
// the batch's thread-seconds (a double's bits: wall time x threads, so that
// batches are sized per thread whatever the rank), [5] the rank's threads,
// then the levels 0..cards and the kSizeBuckets size buckets. A rank that
// left gets no further message.
//
// Only the thread that called MpiStart() calls MPI (MPI_THREAD_FUNNELED): on
// rank 0 the driver's thread, while its own threads count.
#include "storage/transport/count_mpi.h"

#include <mpi.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/base/parallel.h"
#include "engine/eulerian/subtrees.h"
#include "engine/removal/removed.h"

namespace eulerdeck::storage {

namespace {

enum Tag {
  kStart = 1,
  kQuit = 2,
  kAsk = 3,
  kWork = 4,
  kDone = 5,
  kStartRemoved = 6,
  kStartSearch = 7,
  kSearchBest = 8,
  kOpenDevice = 9,
  kDeviceOpened = 10
};
enum Carries : uint64_t { kNothing = 0, kResult = 1, kGivenBack = 2, kLeaving = 4 };

bool g_started = false;  // MPI_Init_thread was called
int g_rank = 0, g_size = 1;
int g_local_rank = 0;      // among the ranks of this node
std::vector<bool> g_left;  // rank 0: ranks that left (no message goes to them again)
bool g_abandoned = false;  // rank 0: gave up waiting for some rank after a stop

// Waits for a message from rank 0 without spinning (Open MPI's blocking
// probe keeps a core busy): what idle ranks do most of the time.
void ProbeFromRankZero(MPI_Status* st) {
  for (;;) {
    int flag = 0;
    MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, st);
    if (flag) return;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

size_t AskWords(int cards) { return 6 + (cards + 1) + kSizeBuckets; }

// Threads of a rank: what --threads says, or its cores.
int LocalThreads(int threads) { return EffectiveThreads(threads); }

// Rank 0's side of a count: the other ranks, which of them this count has
// released, their threads, and the requests they send. What rank 0 does
// with a request's batch is the count's own (MpiWorkers, MpiRemovedWorkers).
class Ranks {
 public:
  explicit Ranks(int threads)
      : threads_option_(threads),
        threads_per_rank_(LocalThreads(threads)),
        released_(g_size, true),
        threads_(g_size, threads_per_rank_) {}

  // --threads as given: 0 means each rank's own cores.
  int threads_option() const { return threads_option_; }
  // Their threads in all: rank 0's guess until they say.
  int threads() const { return (g_size - 1) * threads_per_rank_; }
  int threads(int rank) const { return threads_[rank]; }

  // Sends `words` of `type` to every rank still there, with `tag`: a count
  // begins, they ask for work.
  void Start(const void* msg, int words, MPI_Datatype type, int tag) {
    for (int r = 1; r < g_size; ++r) {
      if (g_left[r]) continue;
      MPI_Send(msg, words, type, r, tag, MPI_COMM_WORLD);
      released_[r] = false;
    }
  }
  // The next request, if one came: `words` words in *ask, from *from, whose
  // word [threads_word] (if not 0) is the sender's threads.
  bool Receive(size_t words, size_t threads_word, std::vector<uint64_t>* ask, int* from) {
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, kAsk, MPI_COMM_WORLD, &flag, &st);
    if (!flag) return false;
    ask->assign(words, 0);
    MPI_Recv(ask->data(), static_cast<int>(words), MPI_UINT64_T, st.MPI_SOURCE, kAsk,
             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    *from = st.MPI_SOURCE;
    if ((*ask)[threads_word] > 0) threads_[*from] = static_cast<int>((*ask)[threads_word]);
    return true;
  }
  // A rank that leaves (stopped by a signal): nothing more goes to it.
  void Left(int rank) {
    released_[rank] = true;
    g_left[rank] = true;
  }
  // No more work for `rank` in this count.
  void Release(int rank) {
    MPI_Send(nullptr, 0, MPI_BYTE, rank, kDone, MPI_COMM_WORLD);
    released_[rank] = true;
  }
  bool Released() const {
    for (int r = 1; r < g_size; ++r) {
      if (!released_[r]) return false;
    }
    return true;
  }

 private:
  const int threads_option_;
  const int threads_per_rank_;  // rank 0's guess for the others until they say
  std::vector<bool> released_;
  std::vector<int> threads_;
};

class MpiWorkers : public RemoteWorkers {
 public:
  // `on_devices`: the ranks count on their devices (MpiOpenDevices).
  MpiWorkers(int threads, bool on_devices, std::atomic<uint64_t>* counted)
      : ranks_(threads), on_devices_(on_devices), counted_(counted) {}

  int threads() const override { return ranks_.threads(); }

  Status Start(const GameSpec& spec) override {
    spec_ = spec;
    const int32_t msg[5] = {static_cast<int32_t>(spec.game), spec.ranks, spec.suits,
                            ranks_.threads_option(), on_devices_ ? 1 : 0};
    ranks_.Start(msg, 5, MPI_INT32_T, kStart);
    return Status::OK();
  }

  bool Poll(CountCoordinator* c, bool stopping, Status* error) override {
    const int n = spec_.cards();
    int from = 0;
    if (!ranks_.Receive(AskWords(n), 5, &ask_, &from)) return false;
    const std::vector<uint64_t>& ask = ask_;
    const uint64_t carries = ask[0] & ~uint64_t{kLeaving};
    if (carries == kGivenBack) {
      // Cut short by a signal: handed out again.
      SubtreeBatch back;
      back.block = static_cast<uint32_t>(ask[1]);
      back.first = static_cast<uint32_t>(ask[2]);
      back.count = static_cast<uint32_t>(ask[3]);
      Status s = c->Returned(back);
      if (!s.ok() && error->ok()) *error = s;
    }
    if (carries == kResult) {
      SubtreeBatch batch;
      batch.block = static_cast<uint32_t>(ask[1]);
      batch.first = static_cast<uint32_t>(ask[2]);
      batch.count = static_cast<uint32_t>(ask[3]);
      SubtreeCounts counts;
      std::memcpy(&counts.seconds, &ask[4], sizeof(double));
      counts.level.assign(ask.begin() + 6, ask.begin() + 6 + n + 1);
      for (int b = 0; b < kSizeBuckets; ++b) counts.sizes[b] = ask[6 + n + 1 + b];
      counts.subtrees = batch.count;
      if (counted_ != nullptr) {  // the display's rate counts every rank's work
        uint64_t sum = 0;
        for (uint64_t x : counts.level) sum += x;
        counted_->fetch_add(sum, std::memory_order_relaxed);
      }
      Status s = c->Finished(batch, counts);
      if (!s.ok() && error->ok()) *error = s;
    }
    if (ask[0] & kLeaving) {  // nothing more goes to it
      ranks_.Left(from);
      return true;
    }
    SubtreeBatch next;
    Status s;
    if (!stopping && error->ok() && c->Next(ranks_.threads(from), &next, &s)) {
      std::vector<uint16_t> msg(8 + next.paths.size());
      const uint32_t header[4] = {next.block, next.first, next.count,
                                  static_cast<uint32_t>(next.k)};
      std::memcpy(msg.data(), header, sizeof(header));
      std::memcpy(msg.data() + 8, next.paths.data(), next.paths.size() * sizeof(uint16_t));
      MPI_Send(msg.data(), static_cast<int>(msg.size()), MPI_UINT16_T, from, kWork, MPI_COMM_WORLD);
    } else {
      if (!s.ok() && error->ok()) *error = s;
      ranks_.Release(from);
    }
    return true;
  }

  void Abandon() override { g_abandoned = true; }
  bool Released() const override { return ranks_.Released(); }

 private:
  Ranks ranks_;
  const bool on_devices_;
  std::atomic<uint64_t>* const counted_;
  GameSpec spec_;
  std::vector<uint64_t> ask_;
};

// The loop of a rank > 0 in a count: ask rank 0 for work (with the result
// of the last batch, if any), count the batch it sends, until it says done.
// `ask` is the request, its word [0] what it carries (kNothing at first);
// `count` receives the kWork message `st` announces, puts the batch's place
// in `ask`, counts it (Cancelled when `stop` cut it) and puts its result in
// `ask`. Cancelled when `stop` (a signal) ended the count: the rank has told
// rank 0 that it leaves, giving back the batch it held.
Status ServeBatches(std::vector<uint64_t>* ask, const std::atomic<bool>* stop,
                    const std::function<Status(const MPI_Status& st)>& count) {
  auto send = [&] {
    MPI_Send(ask->data(), static_cast<int>(ask->size()), MPI_UINT64_T, 0, kAsk, MPI_COMM_WORLD);
  };
  for (;;) {
    if (stop != nullptr && stop->load()) {
      (*ask)[0] |= kLeaving;  // with the last result, if any
      send();
      return Status::Cancelled("stopped by a signal");
    }
    send();
    MPI_Status st;
    ProbeFromRankZero(&st);
    if (st.MPI_TAG == kDone) {
      MPI_Recv(nullptr, 0, MPI_BYTE, 0, kDone, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      return Status::OK();
    }
    if (st.MPI_TAG != kWork) return Status::Corruption("unexpected message from rank 0");
    Status s = count(st);
    if (s.IsCancelled()) {
      (*ask)[0] = kGivenBack | kLeaving;  // counted again elsewhere
      send();
      return s;
    }
    if (!s.ok()) return s;
    (*ask)[0] = kResult;
  }
}

// One count on a rank > 0 (ServeBatches): batches of subtrees' paths,
// counted on `threads` threads or, if given, on `device` (which then stands
// for its thread_equivalent() threads).
Status ServeCount(const GameSpec& spec, int threads, SubtreeDevice* device,
                  const std::atomic<bool>* stop) {
  if (device != nullptr) threads = device->thread_equivalent();
  const int n = spec.cards();
  std::vector<uint64_t> ask(AskWords(n), 0);
  ask[5] = static_cast<uint64_t>(threads);
  std::vector<uint16_t> msg;
  return ServeBatches(&ask, stop, [&](const MPI_Status& st) {
    int words = 0;
    MPI_Get_count(&st, MPI_UINT16_T, &words);
    msg.resize(words);
    MPI_Recv(msg.data(), words, MPI_UINT16_T, 0, kWork, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    uint32_t header[4];
    std::memcpy(header, msg.data(), sizeof(header));
    const uint32_t count = header[2];
    const int k = static_cast<int>(header[3]);
    if (msg.size() != 8 + static_cast<size_t>(count) * k) {
      return Status::Corruption("a batch from rank 0 has the wrong size");
    }
    ask[1] = header[0];
    ask[2] = header[1];
    ask[3] = count;
    SubtreeCounts counts;
    Status s = device != nullptr
                   ? device->CountBatch(spec, msg.data() + 8, count, k, stop, nullptr, &counts)
                   : CountSubtrees(spec, msg.data() + 8, count, k, threads, stop, nullptr, &counts);
    if (!s.ok()) return s;
    const double thread_seconds = counts.seconds * threads;
    std::memcpy(&ask[4], &thread_seconds, sizeof(double));
    for (int j = 0; j <= n; ++j) ask[6 + j] = counts.level[j];
    for (int b = 0; b < kSizeBuckets; ++b) ask[6 + n + 1 + b] = counts.sizes[b];
    return Status::OK();
  });
}

// count --removed: rank 0's side.
size_t RemovedAskWords(int cards) { return 5 + (cards + 1); }

class MpiRemovedWorkers : public RemovedRemoteWorkers {
 public:
  explicit MpiRemovedWorkers(int threads) : ranks_(threads) {}

  int threads() const override { return ranks_.threads(); }

  Status Start(const RemovedPlan& plan, uint64_t memo_entries) override {
    n_ = plan.spec().cards();
    const uint64_t msg[8] = {static_cast<uint64_t>(plan.spec().game),
                             static_cast<uint64_t>(plan.spec().ranks),
                             static_cast<uint64_t>(plan.spec().suits),
                             static_cast<uint64_t>(ranks_.threads_option()),
                             static_cast<uint64_t>(plan.split_depth()),
                             memo_entries,
                             plan.fingerprint(),
                             plan.tasks()};
    ranks_.Start(msg, 8, MPI_UINT64_T, kStartRemoved);
    return Status::OK();
  }

  bool Poll(RemovedCoordinator* c, bool stopping, Status* error) override {
    int from = 0;
    if (!ranks_.Receive(RemovedAskWords(n_), 4, &ask_, &from)) return false;
    const std::vector<uint64_t>& ask = ask_;
    const uint64_t carries = ask[0] & ~uint64_t{kLeaving};
    TaskBatch batch;
    batch.first = ask[1];
    batch.count = ask[2];
    if (carries == kGivenBack) {
      Status s = c->Returned(batch);
      if (!s.ok() && error->ok()) *error = s;
    }
    if (carries == kResult) {
      TaskCounts counts;
      std::memcpy(&counts.seconds, &ask[3], sizeof(double));
      counts.removed.assign(ask.begin() + 5, ask.begin() + 5 + n_ + 1);
      counts.tasks = batch.count;
      Status s = c->Finished(batch, counts);
      if (!s.ok() && error->ok()) *error = s;
    }
    if (ask[0] & kLeaving) {
      ranks_.Left(from);
      return true;
    }
    TaskBatch next;
    if (!stopping && error->ok() && c->Next(ranks_.threads(from), &next)) {
      const uint64_t msg[2] = {next.first, next.count};
      MPI_Send(msg, 2, MPI_UINT64_T, from, kWork, MPI_COMM_WORLD);
    } else {
      ranks_.Release(from);
    }
    return true;
  }

  void Abandon() override { g_abandoned = true; }
  bool Released() const override { return ranks_.Released(); }

 private:
  Ranks ranks_;
  int n_ = 0;
  std::vector<uint64_t> ask_;
};

// One count --removed on a rank > 0: make the plan, check it is rank 0's,
// then serve its batches of task indices (ServeBatches).
Status ServeRemoved(const uint64_t start[8], const std::atomic<bool>* stop) {
  const GameSpec spec{static_cast<Game>(start[0]), static_cast<int>(start[1]),
                      static_cast<int>(start[2])};
  const int threads = LocalThreads(static_cast<int>(start[3]));
  RemovedOptions options;
  options.split_depth = static_cast<int>(start[4]);
  if (start[5] != 0) options.memo_entries = start[5];
  std::unique_ptr<RemovedPlan> plan;
  Status s = PlanRemoved(spec, options, &plan);
  if (!s.ok()) return s;
  if (plan->fingerprint() != start[6] || plan->tasks() != start[7]) {
    return Status::Corruption("this rank plans the play otherwise than rank 0 (another build?)");
  }
  const int n = spec.cards();
  std::vector<uint64_t> ask(RemovedAskWords(n), 0);
  ask[4] = static_cast<uint64_t>(threads);
  return ServeBatches(&ask, stop, [&](const MPI_Status&) {
    uint64_t msg[2];
    MPI_Recv(msg, 2, MPI_UINT64_T, 0, kWork, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    const TaskBatch batch{msg[0], msg[1]};
    ask[1] = batch.first;
    ask[2] = batch.count;
    TaskCounts counts;
    Status s = CountTaskBatch(*plan, batch, threads, stop, nullptr, &counts);
    if (!s.ok()) return s;
    std::memcpy(&ask[3], &counts.seconds, sizeof(double));
    for (int i = 0; i <= n; ++i) ask[5 + i] = counts.removed[i];
    return Status::OK();
  });
}

// A reform search's best as a rank sends it.
std::string SearchBestMessage(const ReformSearchResult& r, bool final) {
  nlohmann::json j = {{"final", final},
                      {"deck", DeckToString(r.deck)},
                      {"cyclic", r.score.cyclic},
                      {"length", r.score.length},
                      {"preperiod", r.score.preperiod},
                      {"cycle", r.score.cycle},
                      {"method", r.method},
                      {"found_after", r.found_after},
                      {"found_seconds", r.found_seconds},
                      {"decks", r.decks_followed},
                      {"cycles", r.cycles_found},
                      {"thread", r.thread}};
  return j.dump();
}

const char* InternMethod(const std::string& name) {
  static std::set<std::string> names;  // rank 0's main thread only
  return names.insert(name).first->c_str();
}

void SendString(const std::string& text, int to, int tag) {
  MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, to, tag, MPI_COMM_WORLD);
}

std::string ReceiveString(int from, int tag, int* source) {
  MPI_Status st;
  MPI_Probe(from, tag, MPI_COMM_WORLD, &st);
  int size = 0;
  MPI_Get_count(&st, MPI_CHAR, &size);
  std::string text(static_cast<size_t>(size), '\0');
  MPI_Recv(text.data(), size, MPI_CHAR, st.MPI_SOURCE, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (source) *source = st.MPI_SOURCE;
  return text;
}

// Ranks > 0: one reform search, its best sent at each checkpoint that
// improved it and at the end (also when stopped by a signal).
Status ServeSearch(const std::string& start, const std::atomic<bool>* stop) {
  const nlohmann::json j = nlohmann::json::parse(start, nullptr, false);
  if (j.is_discarded()) return Status::Corruption("a reform search's start message");
  const GameSpec spec{static_cast<Game>(j.at("game").get<int>()), j.at("ranks").get<int>(), 1};
  ReformSearchOptions options;
  options.seconds = j.at("seconds").get<double>();
  options.threads = j.at("threads").get<int>();
  options.seed = j.at("seed").get<uint64_t>();
  options.max_decks = j.at("decks").get<uint64_t>();
  options.beam = j.at("beam").get<uint64_t>();
  options.exhaustive = false;  // rank 0 alone classifies where that is the search
  options.first_searcher = j.at("first_searcher").get<int>();
  options.checkpoint_seconds = j.at("checkpoint_seconds").get<double>();
  options.stop = stop;
  ReformSearchState restart;
  restart.restarts = j.at("restarts").get<uint64_t>();
  if (restart.restarts > 0) {
    restart.restarts -= 1;  // ReformSearch counts this run as one more
    options.resume = &restart;
  }
  ReformScore sent;
  bool any = false;
  options.on_checkpoint = [&](const ReformSearchState& state) {
    if (state.best.deck.empty()) return;
    if (any && !BetterReform(state.best.score, sent)) return;
    SendString(SearchBestMessage(state.best, false), 0, kSearchBest);
    sent = state.best.score;
    any = true;
  };
  ReformSearchResult result;
  Status s = ReformSearch(spec, options, &result);
  if (!s.ok() && !s.IsCancelled()) return s;
  SendString(SearchBestMessage(result, true), 0, kSearchBest);
  return Status::OK();  // rank 0 sends nothing more for this search
}

bool g_released = false;  // rank 0 sent kQuit

}  // namespace

bool MpiBuilt() { return true; }

int MpiStart(int* argc, char*** argv) {
  // Open MPI's launcher sets OMPI_COMM_WORLD_SIZE, PMIx launchers PMIX_RANK.
  if (std::getenv("OMPI_COMM_WORLD_SIZE") == nullptr && std::getenv("PMIX_RANK") == nullptr) {
    return 0;
  }
  int provided = 0;
  MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
  g_started = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  g_left.assign(g_size, false);
  // The ranks that share this node's memory, and so its GPUs: this rank's
  // place among them picks its GPU (count --gpu).
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, g_rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &g_local_rank);
  MPI_Comm_free(&node);
  if (provided < MPI_THREAD_FUNNELED) {
    // Rank 0 counts on threads while its main thread talks MPI.
    if (g_rank == 0) {
      std::fprintf(stderr, "eulerdeck: this MPI does not support MPI_THREAD_FUNNELED\n");
    }
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return g_rank;
}

int MpiWorldSize() { return g_size; }
int MpiLocalRank() { return g_local_rank; }

Status MpiServe(const std::atomic<bool>* stop, const DeviceOpener& open_device) {
  // The rank's device, once rank 0 has asked for it; closed on return.
  std::unique_ptr<SubtreeDevice> device;
  std::string device_text;
  for (;;) {
    MPI_Status st;
    ProbeFromRankZero(&st);
    if (st.MPI_TAG == kQuit) {
      MPI_Recv(nullptr, 0, MPI_BYTE, 0, kQuit, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      return Status::OK();
    }
    Status s;
    if (st.MPI_TAG == kOpenDevice) {
      MPI_Recv(nullptr, 0, MPI_BYTE, 0, kOpenDevice, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      std::string text;
      Status opened = Status::NotSupported("--gpu: this build's ranks open no device");
      if (device != nullptr) {
        opened = Status::OK();
        text = device_text;
      } else if (open_device) {
        opened = open_device(g_local_rank, &device, &text);
        if (!opened.ok()) device.reset();
      }
      if (!opened.ok()) text = opened.message();
      if (opened.ok()) device_text = text;
      const nlohmann::json reply = {
          {"ok", opened.ok()}, {"local_rank", g_local_rank}, {"text", text}};
      SendString(reply.dump(), 0, kDeviceOpened);
      continue;
    }
    if (st.MPI_TAG == kStartSearch) {
      s = ServeSearch(ReceiveString(0, kStartSearch, nullptr), stop);
    } else if (st.MPI_TAG == kStartRemoved) {
      uint64_t start[8];
      MPI_Recv(start, 8, MPI_UINT64_T, 0, kStartRemoved, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      s = ServeRemoved(start, stop);
    } else {
      if (st.MPI_TAG != kStart) return Status::Corruption("unexpected message from rank 0");
      int32_t msg[5];
      MPI_Recv(msg, 5, MPI_INT32_T, 0, kStart, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      const GameSpec spec{static_cast<Game>(msg[0]), msg[1], msg[2]};
      if (msg[4] != 0 && device == nullptr) {
        s = Status::Corruption("rank 0 counts on devices, but this rank opened none");
      } else {
        s = ServeCount(spec, LocalThreads(msg[3]), msg[4] != 0 ? device.get() : nullptr, stop);
      }
    }
    if (s.IsCancelled()) return Status::OK();  // left: rank 0 sends nothing more
    if (!s.ok()) {
      // Rank 0 would wait for this rank's batch forever: end the job (the
      // store keeps what was committed).
      std::fprintf(stderr, "eulerdeck (MPI rank %d): %s\n", g_rank, s.ToString().c_str());
      MPI_Abort(MPI_COMM_WORLD, 1);
      return s;
    }
  }
}

Status MpiOpenDevices(const Status& mine, const std::string& description,
                      std::vector<std::string>* lines) {
  lines->clear();
  if (g_size <= 1) {
    if (!mine.ok()) return mine;
    lines->push_back(description);
    return Status::OK();
  }
  const std::string of = " of " + std::to_string(g_size) + " (local rank ";
  auto who = [&of](int rank, int local) {
    return "MPI rank " + std::to_string(rank) + of + std::to_string(local) + ")";
  };
  if (!mine.ok()) {
    return Status::NotSupported(who(0, g_local_rank) + ": " + mine.message());
  }
  lines->push_back("rank 0" + of + std::to_string(g_local_rank) + "): " + description);
  for (int r = 1; r < g_size; ++r) {
    MPI_Send(nullptr, 0, MPI_BYTE, r, kOpenDevice, MPI_COMM_WORLD);
  }
  // Every rank's answer, in any order, kept in rank order.
  std::vector<nlohmann::json> replies(g_size);
  for (int got = 1; got < g_size; ++got) {
    int from = 0;
    const std::string text = ReceiveString(MPI_ANY_SOURCE, kDeviceOpened, &from);
    replies[from] = nlohmann::json::parse(text, nullptr, false);
  }
  Status first;
  for (int r = 1; r < g_size; ++r) {
    const nlohmann::json& j = replies[r];
    if (j.is_discarded() || !j.is_object()) {
      if (first.ok()) first = Status::NotSupported(who(r, -1) + ": an unreadable answer");
      continue;
    }
    const int local = j.value("local_rank", -1);
    const std::string text = j.value("text", "");
    if (!j.value("ok", false)) {
      if (first.ok()) first = Status::NotSupported(who(r, local) + ": " + text);
      continue;
    }
    lines->push_back("rank " + std::to_string(r) + of + std::to_string(local) + "): " + text);
  }
  if (!first.ok()) lines->clear();
  return first;
}

void MpiFinish(int exit_code) {
  if (!g_started) return;
  if (g_abandoned) {
    // Some rank did not answer after a stop: what is finished is committed,
    // and waiting for it in MPI_Finalize could hang.
    MPI_Abort(MPI_COMM_WORLD, exit_code == 0 ? 1 : exit_code);
  }
  if (g_rank == 0 && !g_released) {
    for (int r = 1; r < g_size; ++r) {
      if (!g_left[r]) MPI_Send(nullptr, 0, MPI_BYTE, r, kQuit, MPI_COMM_WORLD);
    }
    g_released = true;
  }
  MPI_Finalize();
}

Status CountStoreMpi(FrontierStore* store, const GameSpec& spec, const CountStoreOptions& options,
                     CountResult* result) {
  if (g_size <= 1) return CountStore(store, spec, options, result);
  MpiWorkers workers(options.threads, options.device != nullptr, options.sub_decks_counted);
  return CountStore(store, spec, options, result, &workers);
}

Status RemovedStoreMpi(FrontierStore* store, const RemovedPlan& plan,
                       const RemovedStoreOptions& options, uint64_t memo_entries,
                       RemovedResult* result) {
  if (g_size <= 1) return RemovedStore(store, plan, options, result, nullptr, memo_entries);
  MpiRemovedWorkers workers(options.threads);
  return RemovedStore(store, plan, options, result, &workers, memo_entries);
}

Status ReformSearchMpi(const GameSpec& spec, const ReformSearchOptions& options,
                       ReformSearchResult* result) {
  if (g_size <= 1) return ReformSearch(spec, options, result);
  const double left = options.seconds - (options.resume ? options.resume->seconds : 0);
  const bool exhaustive_only =
      options.exhaustive &&
      (spec.game == Game::kMousetrap ? spec.cards() <= 13 : spec.cards() <= 10);
  if (left <= 0 || exhaustive_only) return ReformSearch(spec, options, result);
  const uint64_t restarts = options.resume ? options.resume->restarts + 1 : 0;
  for (int r = 1; r < g_size; ++r) {
    nlohmann::json start = {{"game", static_cast<int>(spec.game)},
                            {"ranks", spec.ranks},
                            {"threads", options.threads},
                            {"seed", options.seed},
                            {"seconds", left},
                            {"decks", options.max_decks},
                            {"beam", options.beam},
                            {"restarts", restarts},
                            {"first_searcher", r << 16},
                            {"checkpoint_seconds", options.checkpoint_seconds}};
    SendString(start.dump(), r, kStartSearch);
  }
  // The other ranks' bests, as they come (read on this thread only: the
  // checkpoints run on it).
  ReformSearchResult remote;
  int remote_rank = 0;
  std::vector<bool> final(g_size, false);
  std::vector<uint64_t> remote_decks(g_size, 0);
  auto take = [&](const std::string& text, int from) {
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded()) return;
    ReformSearchResult r;
    if (!ParseDeck(j.at("deck").get<std::string>(), spec, &r.deck).ok()) return;
    r.score.cyclic = j.at("cyclic").get<bool>();
    r.score.length = j.at("length").get<uint64_t>();
    r.score.preperiod = j.at("preperiod").get<uint64_t>();
    r.score.cycle = j.at("cycle").get<uint64_t>();
    r.method = InternMethod(j.at("method").get<std::string>());
    r.found_after = j.at("found_after").get<uint64_t>();
    r.found_seconds = j.at("found_seconds").get<double>();
    r.cycles_found = j.at("cycles").get<uint64_t>();
    r.thread = j.at("thread").get<int>();
    remote_decks[from] = j.at("decks").get<uint64_t>();
    if (j.at("final").get<bool>()) final[from] = true;
    if (remote.deck.empty() || BetterReform(r.score, remote.score) ||
        (!BetterReform(remote.score, r.score) && from < remote_rank)) {
      remote = r;
      remote_rank = from;
    }
  };
  auto poll = [&] {
    for (;;) {
      int flag = 0;
      MPI_Status st;
      MPI_Iprobe(MPI_ANY_SOURCE, kSearchBest, MPI_COMM_WORLD, &flag, &st);
      if (!flag) return;
      int from = 0;
      const std::string text = ReceiveString(st.MPI_SOURCE, kSearchBest, &from);
      take(text, from);
    }
  };
  // The state with the other ranks' best in it (a cyclic or longer one
  // wins; ties stay with rank 0).
  auto merged = [&](ReformSearchState state) {
    uint64_t extra = 0;
    for (uint64_t d : remote_decks) extra += d;
    state.decks_followed += extra;
    if (!remote.deck.empty() &&
        (state.best.deck.empty() || BetterReform(remote.score, state.best.score))) {
      const uint64_t followed = state.best.decks_followed;
      state.best = remote;
      state.best.decks_followed = followed;
      if (state.history.empty() || BetterReform(remote.score, state.history.back().score))
        state.history.push_back(ReformImprovement{state.seconds, remote.score});
    }
    state.best.decks_followed = state.decks_followed;
    return state;
  };
  ReformSearchOptions local = options;
  ReformSearchState last_local, last;
  local.on_checkpoint = [&](const ReformSearchState& state) {
    poll();
    last_local = state;
    last = merged(state);
    if (options.on_checkpoint) options.on_checkpoint(last);
  };
  ReformSearchResult mine;
  Status s = ReformSearch(spec, local, &mine);
  // Every rank's last word: they stop at the same budget (or on the same
  // signal, which mpirun sends to all).
  for (int r = 1; r < g_size; ++r) {
    while (!final[r]) {
      int from = 0;
      const std::string text = ReceiveString(MPI_ANY_SOURCE, kSearchBest, &from);
      take(text, from);
    }
  }
  last = merged(last_local);
  if (options.on_checkpoint) options.on_checkpoint(last);
  *result = mine;
  if (!remote.deck.empty() && BetterReform(remote.score, mine.score)) *result = remote;
  result->decks_followed = last.decks_followed;
  return s;
}

}  // namespace eulerdeck::storage
