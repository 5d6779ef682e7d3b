// The OEIS sequences of the field (Bersani 2010 lists them), each matched
// to the game and statistic of this engine that computes it, and computed
// by the engine: `eulerdeck oeis` prints them as b-files.
//
// A sequence's definition is the OEIS %N line; `statistic` says which
// count of eulerdeck is the same number and how the OEIS offset maps onto
// the number of cards. Sequences whose statistic the engine does not
// compute yet are listed with the reason, so that `eulerdeck oeis --list`
// shows the whole field.
#ifndef EULERDECK_ENGINE_OEIS_SEQUENCES_H_
#define EULERDECK_ENGINE_OEIS_SEQUENCES_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/base/status.h"

namespace eulerdeck {

struct OeisSequence {
  const char* id;         // "A007709"
  const char* name;       // the OEIS name (%N)
  int offset;             // the OEIS offset: the index of the first term
  bool triangle;          // read by rows: index = flattened position
  const char* statistic;  // how eulerdeck computes it, or why it does not
  bool computed;          // false: `statistic` says what is missing
  int default_to;         // the largest n (row, for a triangle) by default
  int max_to;             // the largest n accepted
};

// Every sequence Bersani 2010 lists, and A261867, in A-number order.
const std::vector<OeisSequence>& OeisSequences();

// The entry of `id` ("A007709"), or nullptr.
const OeisSequence* FindOeisSequence(const std::string& id);

// One b-file line: the OEIS index and the term (decimal).
struct OeisTerm {
  int64_t index;
  std::string value;
};

// OK when `to` is a last index the sequence can be computed to:
// max(1, offset)..max_to (below the offset there would be no term).
// InvalidArgument naming the range otherwise.
Status CheckOeisTo(const OeisSequence& seq, int to);

struct OeisOptions {
  int threads = 0;  // 0: all cores
  // If set, polled between the terms and by the count under way: once true,
  // OeisTerms() returns Cancelled with the terms of every n finished.
  const std::atomic<bool>* stop = nullptr;
  // If set, progress: the n whose terms are being computed, and the tasks
  // (subtrees) of its count done and in all, reset to 0 at each new n
  // (relaxed; the statistics without tasks leave them at 0).
  std::atomic<int64_t>* index_in_progress = nullptr;
  std::atomic<uint64_t>* tasks_done = nullptr;
  std::atomic<uint64_t>* tasks_total = nullptr;
  // If set, called from the calling thread with the terms of each n as
  // soon as they are all computed (one term, or a triangle's row).
  std::function<void(int64_t n, const std::vector<OeisTerm>& terms)> on_terms;
};

// The terms of `id` from its offset up to n = `to` (for a triangle: rows up
// to n = `to`, flattened). InvalidArgument for an unknown id or a `to`
// CheckOeisTo() refuses; NotSupported for a sequence not computed yet (the message
// says why); Cancelled when *options.stop was set, *terms then holding the
// terms of the n finished (never part of a row).
Status OeisTerms(const std::string& id, int to, const OeisOptions& options,
                 std::vector<OeisTerm>* terms);
// The same without progress.
Status OeisTerms(const std::string& id, int to, int threads, const std::atomic<bool>* stop,
                 std::vector<OeisTerm>* terms);

// What computing `id` up to n = `to` will cost, where a model exists: the
// sequences computed by the backward count (A007709, A007711), each size
// forecast by ForecastCount() (engine/estimate/forecast.h), the largest
// first, until a size adds under 1% of the sum (the terms grow about
// n-fold). The other statistics have no forecast model yet.
struct OeisForecast {
  double seconds = 0;    // on `threads` threads; 0 when too little to time
  double sub_decks = 0;  // the sizes' sub-decks, summed
  int threads = 1;
  int from = 0, to = 0;  // the sizes forecast, n = from..to
};
// NotSupported for a sequence without a model; InvalidArgument as OeisTerms().
Status ForecastOeis(const std::string& id, int to, int threads, double budget_seconds_per_size,
                    OeisForecast* forecast);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_OEIS_SEQUENCES_H_
