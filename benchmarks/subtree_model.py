#!/usr/bin/env python3
"""The scaling model of the distributed count (docs/cluster.md), from a count
store's measured subtree sizes: `eulerdeck status --store DIR --json | python3
subtree_model.py LABEL`.

A subtree's cost is proportional to its sub-decks (the walk's rate is nearly
constant). With W the whole work, S the largest subtree and P*T threads, the
count cannot end before B + max(W / (P*T), S) plus the batch latency, B
being the build of the levels down to the split on rank 0; batches are
sized to ~2 s per thread and shrink at the end, so the tail is about one
batch. The histogram gives sizes to a factor of 2: each bucket is taken at
its geometric middle, 1.41 * 2^b."""
import json
import sys

label = sys.argv[1] if len(sys.argv) > 1 else ""
j = json.load(sys.stdin)
c = j["count"]
sizes = c["subtree_sizes_log2"]
secs = c["worker_seconds"]
n_sub = sum(n for _, n in sizes)
work = sum(n * 1.41 * 2**b for b, n in sizes)
largest_b = max(b for b, _ in sizes)
largest = 1.41 * 2**largest_b
# Rank 0 builds the levels down to the split alone (the serial part).
build = sum(l["seconds"] for l in j["levels"] if l["level"] <= c["split_level"])
rate = work / secs if secs > 0 else float("nan")  # sub-decks per second per thread
top = sorted(((1.41 * 2**b, n) for b, n in sizes), reverse=True)
# the share of the work in the largest 1% of subtrees
k = max(1, n_sub // 100)
acc = 0.0
left = k
for size, n in top:
    t = min(n, left)
    acc += t * size
    left -= t
    if left == 0:
        break
print(f"{label}: {n_sub} subtrees at level {c['split_level']}, "
      f"{work:.3g} sub-decks (histogram), {secs:.1f} s of worker time, "
      f"{rate:.3g} sub-decks/s per thread; split levels built in {build:.2f} s")
print("  sizes (log2 bucket: subtrees): " + ", ".join(f"{b}:{n}" for b, n in sizes))
print(f"  largest subtree ~2^{largest_b} sub-decks = {largest / rate:.3g} s on one thread; "
      f"the largest 1% hold {100 * acc / work:.1f}% of the work")
for ranks in (2, 64, 1024):
    threads = ranks * 2
    ideal = secs / threads
    bound = build + max(ideal, largest / rate)
    per_thread = n_sub / threads
    print(f"  {ranks:5d} ranks x 2 threads: {per_thread:9.1f} subtrees per thread, ideal "
          f"{ideal:9.3g} s, largest subtree {largest / rate:8.3g} s -> efficiency <= "
          f"{ideal / bound:5.2f}")
