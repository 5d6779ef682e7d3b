#!/usr/bin/env python3
"""The measured cost of a count store's batches, the check of the scaling
model's premise (benchmarks/subtree_model.py, docs/cluster.md) that a
subtree's cost is its sub-decks over a nearly constant rate:
`eulerdeck export --store DIR --batches - | python3 batch_costs.py LABEL`.

Prints the batches' sizes (subtrees), their thread-seconds and their rates
(sub-decks per thread-second) as 5th/50th/95th percentiles and maxima.
thread_seconds is wall time x threads: a batch counted while the machine
was loaded, or while the process was stopped (kill -STOP), shows it, so the
low rates say as much about the machine as about the subtrees. Rates are
taken over batches of at least 0.1 s, below which timing noise dominates."""
import csv
import math
import sys

label = sys.argv[1] if len(sys.argv) > 1 else ""
rows = list(csv.DictReader(sys.stdin))
if not rows:
    sys.exit("batch_costs.py: no batches (not a count store, or none committed yet)")
subtrees = [int(r["subtrees"]) for r in rows]
sub_decks = [int(r["sub_decks"]) for r in rows]
seconds = [float(r["thread_seconds"]) for r in rows]
rates = [d / s for d, s in zip(sub_decks, seconds) if s >= 0.1]


def pct(values, p):
    v = sorted(values)
    return v[int(p * (len(v) - 1))]


def line(name, values, fmt):
    print(f"  {name:<22} p5 {fmt(pct(values, .05))}  p50 {fmt(pct(values, .5))}  "
          f"p95 {fmt(pct(values, .95))}  max {fmt(max(values))}")


print(f"{label}: {len(rows)} batches, {sum(subtrees)} subtrees, {sum(sub_decks):.4g} sub-decks, "
      f"{sum(seconds):.0f} thread-s, {sum(sub_decks) / sum(seconds):.3g} sub-decks/s per thread overall")
line("subtrees per batch", subtrees, lambda x: f"{x:d}")
line("thread-s per batch", seconds, lambda x: f"{x:.2f}")
line("sub-decks per batch", sub_decks, lambda x: f"{x:.3g}")
if rates:
    line("rate (>= 0.1 s)", rates, lambda x: f"{x:.3g}")
    # How much of the spread in time the spread in sub-decks explains: the
    # correlation of their logarithms (1: time exactly proportional).
    pairs = [(math.log(d), math.log(t)) for d, t in zip(sub_decks, seconds) if t >= 0.1 and d > 0]
    if len(pairs) > 2:
        mx = sum(x for x, _ in pairs) / len(pairs)
        my = sum(y for _, y in pairs) / len(pairs)
        sxy = sum((x - mx) * (y - my) for x, y in pairs)
        sxx = sum((x - mx) ** 2 for x, _ in pairs)
        syy = sum((y - my) ** 2 for _, y in pairs)
        print(f"  log sub-decks vs log thread-s (>= 0.1 s): r = {sxy / math.sqrt(sxx * syy):.3f}, "
              f"slope {sxy / sxx:.3f}")
