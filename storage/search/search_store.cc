#include "storage/search/search_store.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <xxhash.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "engine/reform/follow.h"

namespace eulerdeck::storage {

const char kSearchDocument[] = "reform-search.json";

namespace {

// The document's format: 2 since issue 58 (its "xxh64" required); 1 for the
// documents of earlier builds, read as before: the checksum checked when
// present (issue 51 on), the replays vouching for the rest.
constexpr int kFormat = 2;
constexpr int kFormatOptionalSum = 1;
constexpr const char* kKind = "reform-search";

// A method's name as a string that lives as long as the process (the
// result's `method` is a C string).
const char* Intern(const std::string& name) {
  static std::mutex mu;
  static std::set<std::string> names;
  std::lock_guard<std::mutex> lock(mu);
  return names.insert(name).first->c_str();
}

nlohmann::ordered_json ScoreJson(const ReformScore& s) {
  return {
      {"cyclic", s.cyclic}, {"length", s.length}, {"preperiod", s.preperiod}, {"cycle", s.cycle}};
}

ReformScore ScoreFrom(const nlohmann::json& j) {
  ReformScore s;
  s.cyclic = j.at("cyclic").get<bool>();
  s.length = j.at("length").get<uint64_t>();
  s.preperiod = j.at("preperiod").get<uint64_t>();
  s.cycle = j.at("cycle").get<uint64_t>();
  return s;
}

// A deck from its text, checked against the game: Corruption otherwise.
Deck DeckFrom(const nlohmann::json& j, const GameSpec& spec) {
  Deck d;
  Status s = ParseDeck(j.get<std::string>(), spec, &d);
  if (!s.ok()) throw std::runtime_error("a deck: " + s.ToString());
  return d;
}

Status WriteFileSynced(const std::filesystem::path& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return Status::IOError("cannot write '" + path.string() + "': " + std::strerror(errno));
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t w = ::write(fd, text.data() + done, text.size() - done);
    if (w < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      return err == ENOSPC
                 ? Status::NoSpace("no space left writing '" + path.string() + "'")
                 : Status::IOError("cannot write '" + path.string() + "': " + std::strerror(err));
    }
    done += static_cast<size_t>(w);
  }
  if (::fsync(fd) != 0) {
    const int err = errno;
    ::close(fd);
    return Status::IOError("cannot sync '" + path.string() + "': " + std::strerror(err));
  }
  if (::close(fd) != 0)
    return Status::IOError("cannot write '" + path.string() + "': " + std::strerror(errno));
  return Status::OK();
}

Status SyncDir(const std::filesystem::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return Status::IOError("cannot open '" + dir.string() + "': " + std::strerror(errno));
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0) return Status::IOError("cannot sync '" + dir.string() + "': " + std::strerror(err));
  return Status::OK();
}

// The checksum of a document: XXH64 of its canonical dump (nlohmann::json
// keeps members sorted) without the "xxh64" member, in hex.
std::string DocumentChecksum(nlohmann::json doc) {
  doc.erase("xxh64");
  const std::string text = doc.dump();
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx",
                static_cast<unsigned long long>(XXH64(text.data(), text.size(), 0)));
  return hex;
}

// A sequence's score as it can be: a cycle of at least one deck after its
// pre-period, or a dead-end with neither.
bool ScoreValid(const ReformScore& s) {
  return s.cyclic ? s.cycle >= 1 && s.length == s.preperiod + s.cycle
                  : s.length >= 1 && s.preperiod == 0 && s.cycle == 0;
}

bool SecondsValid(double s) { return std::isfinite(s) && s >= 0; }

std::string ScoreText(const ReformScore& s) {
  return std::to_string(s.length) + (s.cyclic
                                         ? " (cyclic, pre-period " + std::to_string(s.preperiod) +
                                               ", cycle " + std::to_string(s.cycle) + ")"
                                         : " (dead-end)");
}

// What a checkpoint's trust rests on, replayed: its best deck's sequence
// (the score it claims), and each cycle it restarts from (a deck on a
// cycle). Corruption otherwise.
Status Replay(const SearchParams& params, const ReformSearchState& state) {
  internal::SequenceFollower follower(params.spec);
  if (!state.best.deck.empty()) {
    const ReformScore got = follower.Follow(state.best.deck.data());
    const ReformScore& want = state.best.score;
    if (got.cyclic != want.cyclic || got.length != want.length || got.preperiod != want.preperiod ||
        got.cycle != want.cycle) {
      return Status::Corruption("its best deck " + DeckToString(state.best.deck) + " replays to " +
                                ScoreText(got) + ", not the " + ScoreText(want) + " it records");
    }
  }
  for (const Deck& d : state.cycles) {
    const ReformScore got = follower.Follow(d.data());
    if (!got.cyclic || got.preperiod != 0) {
      return Status::Corruption("its cycle deck " + DeckToString(d) +
                                " is on no cycle (it replays to " + ScoreText(got) + ")");
    }
  }
  return Status::OK();
}

// True when `dir` is a search store that was only begun: made and locked,
// no checkpoint written (a search killed before its first one, by an
// older build, which wrote none at the start).
bool IsBegunSearchStore(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  bool lock = false;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name == "LOCK") {
      lock = true;
    } else if (name != std::string(kSearchDocument) + ".new") {
      return false;
    }
  }
  return !ec && lock;
}

Status DecodeChecked(const std::string& text, bool check, SearchParams* params,
                     ReformSearchState* state);

}  // namespace

// The document of the store in `dir`, decoded; with `check`, its checksum
// and numbers checked and its best and cycles replayed (Corruption
// otherwise).
static Status ReadDocument(const std::string& dir, bool check, SearchParams* params,
                           ReformSearchState* state) {
  const std::filesystem::path path = std::filesystem::path(dir) / kSearchDocument;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (IsBegunSearchStore(dir)) {
      return Status::InvalidArgument(
          "the search store '" + dir +
          "' was begun but has no checkpoint (its search was stopped before its first): "
          "start it again with `eulerdeck reform-search --store " +
          dir + " --game G --ranks N`");
    }
    return Status::IOError("cannot read '" + path.string() + "'");
  }
  std::stringstream text;
  text << in.rdbuf();
  Status s = DecodeChecked(text.str(), check, params, state);
  if (s.ok() && check) s = Replay(*params, *state);
  if (!s.ok()) return Status::Corruption("'" + path.string() + "': " + s.message());
  return Status::OK();
}

std::string EncodeSearch(const SearchParams& params, const ReformSearchState& state) {
  nlohmann::ordered_json j;
  j["kind"] = kKind;
  j["format"] = kFormat;
  j["game"] = GameName(params.spec.game);
  j["ranks"] = params.spec.ranks;
  j["suits"] = params.spec.suits;
  j["seed"] = std::to_string(params.seed);
  j["budget_seconds"] = params.seconds;
  j["beam"] = params.beam;
  j["exhaustive"] = params.exhaustive;
  j["created"] = params.created;
  j["seconds"] = state.seconds;
  j["decks_followed"] = std::to_string(state.decks_followed);
  j["restarts"] = state.restarts;
  j["finished"] = state.finished;
  nlohmann::ordered_json best = nullptr;
  if (!state.best.deck.empty()) {
    const ReformSearchResult& b = state.best;
    best = {{"deck", DeckToString(b.deck)},
            {"score", ScoreJson(b.score)},
            {"method", b.method},
            {"optimal", b.optimal},
            {"found_after", std::to_string(b.found_after)},
            {"found_seconds", b.found_seconds},
            {"cycles_found", std::to_string(b.cycles_found)},
            {"thread", b.thread}};
  }
  j["best"] = best;
  nlohmann::ordered_json history = nlohmann::ordered_json::array();
  for (const ReformImprovement& h : state.history)
    history.push_back({{"seconds", h.seconds}, {"score", ScoreJson(h.score)}});
  j["history"] = history;
  nlohmann::ordered_json cycles = nlohmann::ordered_json::array();
  for (const Deck& d : state.cycles) cycles.push_back(DeckToString(d));
  j["cycles"] = cycles;
  nlohmann::ordered_json kept = nlohmann::ordered_json::array();
  for (const auto& list : state.kept) {
    nlohmann::ordered_json one = nlohmann::ordered_json::array();
    for (const Deck& d : list) one.push_back(DeckToString(d));
    kept.push_back(one);
  }
  j["kept"] = kept;
  j["xxh64"] = DocumentChecksum(nlohmann::json::parse(j.dump()));
  return j.dump(1) + "\n";
}

Status DecodeSearch(const std::string& text, SearchParams* params, ReformSearchState* state) {
  return DecodeChecked(text, /*check=*/true, params, state);
}

namespace {

// With `check`: the checksum and every number's range. From format 2 on
// the checksum is required (a renamed or deleted "xxh64" is damage); a
// document of format 1 (an older build's) may lack it: its replay,
// ReadDocument, vouches for it, as it did for that build.
Status DecodeChecked(const std::string& text, bool check, SearchParams* params,
                     ReformSearchState* state) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return Status::Corruption("not a JSON object");
  const nlohmann::json* format = j.contains("format") ? &j["format"] : nullptr;
  const bool sum_optional = format != nullptr && format->is_number_integer() &&
                            format->get<int64_t>() == kFormatOptionalSum;
  if (check && !sum_optional && !j.contains("xxh64")) {
    return Status::Corruption("its checksum (\"xxh64\") is missing: the file is damaged");
  }
  if (check && j.contains("xxh64") &&
      (!j["xxh64"].is_string() || j["xxh64"].get<std::string>() != DocumentChecksum(j))) {
    return Status::Corruption("its checksum does not match: the file is damaged");
  }
  try {
    if (j.value("kind", "") != kKind) return Status::Corruption("not a reform-search document");
    if (const int f = j.at("format").get<int>(); f != kFormat && f != kFormatOptionalSum) {
      return Status::Corruption("format " + std::to_string(f) + " (this build reads " +
                                std::to_string(kFormatOptionalSum) + " and " +
                                std::to_string(kFormat) + ")");
    }
    SearchParams p;
    Game game;
    if (!ParseGame(j.at("game").get<std::string>(), &game).ok())
      return Status::Corruption("an unknown game");
    p.spec = GameSpec{game, j.at("ranks").get<int>(), j.at("suits").get<int>()};
    if (!ValidateSpec(p.spec).ok()) return Status::Corruption("an invalid game");
    p.seed = std::stoull(j.at("seed").get<std::string>());
    p.seconds = j.at("budget_seconds").get<double>();
    p.beam = j.at("beam").get<uint64_t>();
    p.exhaustive = j.at("exhaustive").get<bool>();
    p.created = j.value("created", "");
    ReformSearchState s;
    s.seconds = j.at("seconds").get<double>();
    s.decks_followed = std::stoull(j.at("decks_followed").get<std::string>());
    s.restarts = j.at("restarts").get<uint64_t>();
    s.finished = j.at("finished").get<bool>();
    const nlohmann::json& b = j.at("best");
    if (!b.is_null()) {
      s.best.deck = DeckFrom(b.at("deck"), p.spec);
      s.best.score = ScoreFrom(b.at("score"));
      s.best.method = Intern(b.at("method").get<std::string>());
      s.best.optimal = b.at("optimal").get<bool>();
      s.best.found_after = std::stoull(b.at("found_after").get<std::string>());
      s.best.found_seconds = b.at("found_seconds").get<double>();
      s.best.cycles_found = std::stoull(b.at("cycles_found").get<std::string>());
      s.best.thread = b.at("thread").get<int>();
      s.best.decks_followed = s.decks_followed;
    }
    for (const auto& h : j.at("history"))
      s.history.push_back(
          ReformImprovement{h.at("seconds").get<double>(), ScoreFrom(h.at("score"))});
    for (const auto& d : j.at("cycles")) s.cycles.push_back(DeckFrom(d, p.spec));
    for (const auto& list : j.at("kept")) {
      s.kept.emplace_back();
      for (const auto& d : list) s.kept.back().push_back(DeckFrom(d, p.spec));
    }
    if (check) {
      bool valid =
          p.seconds > 0 && std::isfinite(p.seconds) && p.beam >= 1 && SecondsValid(s.seconds);
      if (!s.best.deck.empty()) {
        valid = valid && ScoreValid(s.best.score) && SecondsValid(s.best.found_seconds) &&
                s.best.thread >= 0;
      }
      for (const ReformImprovement& h : s.history)
        valid = valid && SecondsValid(h.seconds) && ScoreValid(h.score);
      if (!valid) return Status::Corruption("a number is negative or out of place");
    }
    *params = p;
    *state = std::move(s);
  } catch (const std::exception& e) {
    return Status::Corruption(std::string("a field is missing or wrong: ") + e.what());
  }
  return Status::OK();
}

}  // namespace

bool IsSearchStore(const std::string& dir) {
  std::error_code ec;
  return std::filesystem::is_regular_file(std::filesystem::path(dir) / kSearchDocument, ec) ||
         IsBegunSearchStore(dir);
}

bool IsContestStore(const std::string& dir) {
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if ((name.rfind("mousetrap-", 0) == 0 || name.rfind("modular-", 0) == 0) &&
        IsSearchStore(e.path().string())) {
      return true;
    }
  }
  return false;
}

Status ReadSearchParams(const std::string& dir, SearchParams* params) {
  ReformSearchState state;
  return ReadDocument(dir, /*check=*/false, params, &state);
}

Status ReadSearchStatus(const std::string& dir, SearchParams* params, ReformSearchState* state,
                        bool* running) {
  if (Status s = ReadDocument(dir, /*check=*/true, params, state); !s.ok()) return s;
  *running = false;
  const std::string lock = (std::filesystem::path(dir) / "LOCK").string();
  const int fd = ::open(lock.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    *running = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    ::close(fd);
  }
  return Status::OK();
}

Status SearchStore::Open(const std::string& dir, std::unique_ptr<SearchStore>* store) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path path(dir);
  if (fs::exists(path, ec)) {
    if (!fs::is_directory(path, ec))
      return Status::InvalidArgument("'" + dir + "' exists and is not a directory");
    for (const fs::directory_entry& e : fs::directory_iterator(path, ec)) {
      const std::string name = e.path().filename().string();
      if (name != kSearchDocument && name != "LOCK" &&
          name != std::string(kSearchDocument) + ".new") {
        return Status::InvalidArgument(
            "'" + dir + "' holds something other than a reform search (" + name + ")");
      }
    }
  } else {
    fs::create_directories(path, ec);
    if (ec) return Status::IOError("cannot create '" + dir + "': " + ec.message());
  }
  const fs::path lock = path / "LOCK";
  const int fd = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    return Status::IOError("cannot open '" + lock.string() + "': " + std::strerror(errno));
  // A reader that probes the lock (`status`, `list`: ReadSearchStatus) holds
  // it for microseconds; a search holds it for as long as it runs. So the
  // lock is tried for a second before the store is said to be in use.
  bool locked = false;
  for (int attempt = 0; attempt < 50 && !locked; ++attempt) {
    locked = ::flock(fd, LOCK_EX | LOCK_NB) == 0;
    if (!locked) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (!locked) {
    ::close(fd);
    return Status::InvalidArgument("the search store '" + dir + "' is in use by another process");
  }
  store->reset(new SearchStore(dir, fd));
  return Status::OK();
}

SearchStore::~SearchStore() { ::close(lock_fd_); }

bool SearchStore::exists() const {
  std::error_code ec;
  return std::filesystem::is_regular_file(std::filesystem::path(dir_) / kSearchDocument, ec);
}

Status SearchStore::Load(SearchParams* params, ReformSearchState* state) const {
  return ReadDocument(dir_, /*check=*/true, params, state);
}

Status SearchStore::Save(const SearchParams& params, const ReformSearchState& state) {
  const std::filesystem::path dir(dir_);
  const std::filesystem::path fresh = dir / (std::string(kSearchDocument) + ".new");
  Status s = WriteFileSynced(fresh, EncodeSearch(params, state));
  if (!s.ok()) return s;
  if (::rename(fresh.c_str(), (dir / kSearchDocument).c_str()) != 0) {
    return Status::IOError("cannot replace '" + (dir / kSearchDocument).string() +
                           "': " + std::strerror(errno));
  }
  return SyncDir(dir);
}

}  // namespace eulerdeck::storage
