#include "storage/search/search_store.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

namespace eulerdeck::storage {

const char kSearchDocument[] = "reform-search.json";

namespace {

constexpr int kFormat = 1;
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

}  // namespace

// The document of the store in `dir`, decoded.
static Status ReadDocument(const std::string& dir, SearchParams* params, ReformSearchState* state) {
  const std::filesystem::path path = std::filesystem::path(dir) / kSearchDocument;
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError("cannot read '" + path.string() + "'");
  std::stringstream text;
  text << in.rdbuf();
  Status s = DecodeSearch(text.str(), params, state);
  if (!s.ok()) return Status::Corruption("'" + path.string() + "': " + s.ToString());
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
  return j.dump(1) + "\n";
}

Status DecodeSearch(const std::string& text, SearchParams* params, ReformSearchState* state) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return Status::Corruption("not a JSON object");
  try {
    if (j.value("kind", "") != kKind) return Status::Corruption("not a reform-search document");
    if (j.at("format").get<int>() != kFormat) {
      return Status::Corruption("format " + std::to_string(j.at("format").get<int>()) +
                                " (this build reads " + std::to_string(kFormat) + ")");
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
    *params = p;
    *state = std::move(s);
  } catch (const std::exception& e) {
    return Status::Corruption(std::string("a field is missing or wrong: ") + e.what());
  }
  return Status::OK();
}

bool IsSearchStore(const std::string& dir) {
  std::error_code ec;
  return std::filesystem::is_regular_file(std::filesystem::path(dir) / kSearchDocument, ec);
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
  bool running = false;
  return ReadSearchStatus(dir, params, &state, &running);
}

Status ReadSearchStatus(const std::string& dir, SearchParams* params, ReformSearchState* state,
                        bool* running) {
  if (Status s = ReadDocument(dir, params, state); !s.ok()) return s;
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

bool SearchStore::exists() const { return IsSearchStore(dir_); }

Status SearchStore::Load(SearchParams* params, ReformSearchState* state) const {
  return ReadDocument(dir_, params, state);
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
