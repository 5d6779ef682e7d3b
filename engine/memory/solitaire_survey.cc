#include "engine/memory/solitaire_survey.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace eulerdeck {

namespace {

// The sign of a - b when both carry error bounds: 0 if the bounds overlap.
// In long double whatever the survey's precision (a double difference is
// then exact).
int CertainSign(long double a, long double ea, long double b, long double eb) {
  if (a - b > ea + eb) return 1;
  if (b - a > ea + eb) return -1;
  return 0;
}

void CountEntries(const SolitaireSurveyOptions& o, int n) {
  if (o.entries_done != nullptr) o.entries_done->fetch_add(n + 1, std::memory_order_relaxed);
}

// Records row n as done; whether to go on after it (not once stopped).
bool GoOn(const SolitaireSurveyOptions& o, int n, int* n_done) {
  *n_done = n;
  return !(o.stop != nullptr && o.stop->load(std::memory_order_relaxed));
}

// The exact pass: every comparison decided, so computed = decided. The
// limit's ends are the ratio and the difference at N.
Status ExactPass(const SolitaireSurveyOptions& o, bool limit_wanted, ObservationChecker* checker,
                 SolitaireLimit* limit, int* n_done) {
  const int k = o.k, n_max = o.n_max;
  std::optional<mpq_class> prev_v, prev_d, last_ratio, last_diff;
  Status s = SolitaireExact(o.variant, n_max, o.threads, [&](const SolitaireExactRow& r) {
    CountEntries(o, r.n);
    const bool go_on = GoOn(o, r.n, n_done);
    const mpq_class v = r.Value(k);
    if (r.n >= 1) {
      const mpq_class ratio = v / r.n, d = v - *prev_v;
      if (r.n >= 2) {
        const int signs[kSolitaireSequences] = {sgn(v - *prev_v), sgn(ratio - *prev_v / (r.n - 1)),
                                                sgn(d - *prev_d)};
        checker->Step(r.n, signs, signs, true);
      }
      if (limit_wanted && (r.n == n_max || !go_on)) {
        last_ratio = ratio;
        last_diff = d;
      }
      if (o.on_exact_point) o.on_exact_point(SolitaireExactPoint{r.n, v, ratio, d});
      prev_d = d;
    }
    prev_v = v;
    return go_on;
  });
  // The ends at the last n done (N unless stopped).
  if (s.ok() && limit_wanted && last_ratio && last_diff && *n_done >= 2) {
    limit->found = true;
    limit->exact_low = *last_ratio;
    limit->exact_high = *last_diff;
  }
  return s;
}

// The floating point pass. A step is decided only when the error bounds
// separate the two terms. low_at[n] and high_at[n] (if limit_wanted) are the
// limit's ends at n, moved outwards by their bounds and four roundings.
template <class T>
Status FloatPass(const SolitaireSurveyOptions& o, bool limit_wanted, ObservationChecker* checker,
                 std::vector<long double>* low_at, std::vector<long double>* high_at, int* n_done) {
  const int k = o.k;
  T prev_v = 0, prev_b = 0, prev_d = 0, prev_db = 0;
  if (limit_wanted) {
    low_at->assign(o.n_max + 1, -1);
    high_at->assign(o.n_max + 1, 1e300L);
  }
  return SolitaireFloat<T>(o.variant, o.n_max, [&](const SolitaireFloatRow<T>& r) {
    CountEntries(o, r.n);
    const T v = k <= r.n ? r.value[k] : T(0), b = k <= r.n ? r.bound[k] : T(0);
    if (r.n >= 1) {
      const T ratio = v / r.n, d = v - prev_v, db = b + prev_b;
      if (r.n >= 2) {
        const T prev_ratio = prev_v / (r.n - 1);
        const int computed[kSolitaireSequences] = {CertainSign(v, 0, prev_v, 0),
                                                   CertainSign(ratio, 0, prev_ratio, 0),
                                                   CertainSign(d, 0, prev_d, 0)};
        const int decided[kSolitaireSequences] = {
            CertainSign(v, b, prev_v, prev_b),
            CertainSign(ratio, b / r.n, prev_ratio, prev_b / (r.n - 1)),
            CertainSign(d, db, prev_d, prev_db)};
        checker->Step(r.n, computed, decided, false);
      }
      if (limit_wanted) {
        const T eps = std::numeric_limits<T>::epsilon();
        (*low_at)[r.n] = ratio - b / r.n - 4 * std::abs(ratio) * eps;
        (*high_at)[r.n] = d + db + 4 * std::abs(v) * eps;
      }
      if (o.on_float_point) o.on_float_point(SolitaireFloatPoint{r.n, v, b, ratio, d});
      prev_d = d;
      prev_db = db;
    }
    prev_v = v;
    prev_b = b;
    return GoOn(o, r.n, n_done);
  });
}

}  // namespace

Status SurveySolitaire(const SolitaireSurveyOptions& options, SolitaireSurvey* survey) {
  const int n_max = options.n_max;
  if (n_max < 1 || n_max > (1 << 24)) return Status::InvalidArgument("n must be in 1..16777216");
  if (options.k < 0 || options.k > n_max) return Status::InvalidArgument("k must be in 0..n");
  if (options.threads < 0) return Status::InvalidArgument("threads must be >= 0");
  *survey = SolitaireSurvey();
  const std::vector<SolitaireObservation> observations =
      options.k == 0 ? ObservationsOf(options.variant) : std::vector<SolitaireObservation>();
  ObservationChecker checker(observations);
  // A ratio (increasing) and a difference (decreasing): ObservationsOf.
  const bool limit_wanted = observations.size() == 2;
  // Stopped: the rows done are a survey to N = n_done.
  int& n_done = survey->n_done;
  auto finish = [&](Status s) {
    if (s.ok() && n_done < n_max) {
      s = Status::Cancelled("interrupted after n = " + std::to_string(n_done) + " of " +
                            std::to_string(n_max));
    }
    return s;
  };
  if (options.arithmetic == SolitaireArithmetic::kExact) {
    const Status s = ExactPass(options, limit_wanted, &checker, &survey->limit, &n_done);
    survey->observations = checker.Results(n_done);
    return finish(s);
  }
  std::vector<long double> low_at, high_at;
  const Status s =
      options.arithmetic == SolitaireArithmetic::kLongDouble
          ? FloatPass<long double>(options, limit_wanted, &checker, &low_at, &high_at, &n_done)
          : FloatPass<double>(options, limit_wanted, &checker, &low_at, &high_at, &n_done);
  survey->observations = checker.Results(n_done);
  if (!s.ok() || !limit_wanted || n_done < 2) return finish(s);
  // Each end over the range where its Observation is taken to hold.
  auto start = [](const ObservationCheck& c) {
    return std::max(c.observation.paper_from, c.wrong_way_to);
  };
  SolitaireLimit& limit = survey->limit;
  limit.found = true;
  for (int n = start(survey->observations[0]); n <= n_done; ++n) {
    limit.low = std::max(limit.low, low_at[n]);
  }
  for (int n = std::max(2, start(survey->observations[1])); n <= n_done; ++n) {
    limit.high = std::min(limit.high, high_at[n]);
  }
  return finish(s);
}

}  // namespace eulerdeck
