// The store of a long reform search (`eulerdeck reform-search --store DIR`,
// engine/reform/search.h): a directory holding
//   reform-search.json  the search's parameters and its state at the last
//                       checkpoint (ReformSearchState: the best deck, the
//                       decks each searcher restarts from, the cycles found,
//                       the improvements), replaced atomically (written
//                       beside, fsync'd, renamed over, the directory
//                       fsync'd), so that a kill -9 or a power cut leaves
//                       either the old checkpoint or the new one;
//   LOCK                flock(2)'d while a search runs in it.
// The document carries an XXH64 checksum ("xxh64", of its canonical dump
// without it), and it is trusted only once its best deck replays to the
// score it records and each of its cycle decks replays onto a cycle:
// anything else is Corruption. From document format 2 (issue 58) the
// checksum is required: a document without it is Corruption. A document of
// format 1 (an older build's) is read as that build read it: its checksum
// checked when it has one, and read without one when those replays hold.
// A search writes its document (the parameters, no best yet) as soon as it
// takes a new store, so that a search stopped at once leaves a store to
// resume; a directory holding only LOCK (an older build's search stopped
// before its first checkpoint) is a search store that was only begun:
// started again, not resumed.
// The document is also the search's progress document: copied into an empty
// directory on another machine, it makes a store that resumes there.
#ifndef EULERDECK_STORAGE_SEARCH_SEARCH_STORE_H_
#define EULERDECK_STORAGE_SEARCH_SEARCH_STORE_H_

#include <memory>
#include <string>

#include "engine/base/status.h"
#include "engine/cards/game.h"
#include "engine/reform/search.h"

namespace eulerdeck::storage {

struct SearchParams {
  GameSpec spec;
  uint64_t seed = 1;
  double seconds = 0;  // the whole search's budget
  uint64_t beam = 20000;
  bool exhaustive = true;
  std::string created;  // UTC, ISO 8601
};

// The file name of the document inside a search store.
extern const char kSearchDocument[];

// True when `dir` holds a search store's document, or is a search store
// that was only begun (LOCK alone: reading it says to start it again).
bool IsSearchStore(const std::string& dir);
// True when `dir` holds a contest's stores (`reform-search --contest
// --store DIR`: one search store per category, named GAME-N).
bool IsContestStore(const std::string& dir);
// The parameters of the search stored in `dir` (without its lock: for
// `eulerdeck resume`, which then runs the search that takes it, and checks
// the document then; here nothing is replayed).
Status ReadSearchParams(const std::string& dir, SearchParams* params);
// The last checkpoint of the search stored in `dir`, and whether a search
// runs in it now (its lock is held), without taking the lock (`status`).
Status ReadSearchStatus(const std::string& dir, SearchParams* params, ReformSearchState* state,
                        bool* running);

class SearchStore {
 public:
  // Opens `dir` (made if missing; it must then be empty or a search store)
  // and takes its lock: InvalidArgument when another process holds it, or
  // when `dir` holds something else.
  static Status Open(const std::string& dir, std::unique_ptr<SearchStore>* store);
  ~SearchStore();
  SearchStore(const SearchStore&) = delete;
  SearchStore& operator=(const SearchStore&) = delete;

  // Whether a checkpoint was written (a search to resume).
  bool exists() const;
  // The last checkpoint: Corruption when it cannot be read, when its
  // checksum does not match, or when its best or a cycle does not replay.
  Status Load(SearchParams* params, ReformSearchState* state) const;
  // Replaces the checkpoint, atomically.
  Status Save(const SearchParams& params, const ReformSearchState& state);

  const std::string& dir() const { return dir_; }

 private:
  SearchStore(std::string dir, int lock_fd) : dir_(std::move(dir)), lock_fd_(lock_fd) {}
  std::string dir_;
  int lock_fd_;
};

// The document's text for a state (with its checksum), and back (the
// checksum, when there is one, and the numbers checked; nothing replayed).
// Exposed for tests.
std::string EncodeSearch(const SearchParams& params, const ReformSearchState& state);
Status DecodeSearch(const std::string& text, SearchParams* params, ReformSearchState* state);

}  // namespace eulerdeck::storage

#endif  // EULERDECK_STORAGE_SEARCH_SEARCH_STORE_H_
