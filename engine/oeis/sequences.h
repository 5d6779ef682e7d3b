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

// The terms of `id` from its offset up to n = `to` (for a triangle: rows up
// to n = `to`, flattened). InvalidArgument for an unknown id or a `to`
// CheckOeisTo() refuses; NotSupported for a sequence not computed yet (the message
// says why); Cancelled when *stop was set.
Status OeisTerms(const std::string& id, int to, int threads, const std::atomic<bool>* stop,
                 std::vector<OeisTerm>* terms);

}  // namespace eulerdeck

#endif  // EULERDECK_ENGINE_OEIS_SEQUENCES_H_
