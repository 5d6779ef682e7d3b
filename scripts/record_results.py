#!/usr/bin/env python3
"""Collects finished record runs for docs/results.md.

usage: scripts/record_results.py RUNS_DIR [--data docs/data]

RUNS_DIR is laid out as scripts/record_queue.sh makes it: results/NAME-A.json
and NAME-B.json (the `eulerdeck count --json` line of each of the two
independent runs), stores/NAME-A and NAME-B (their count stores), sessions/
NAME-A and NAME-B ("start last-beat" Unix times, one line per session).

For every NAME whose two runs are both finished, checks that they agree on
every level, writes DATA/NAME.csv (the per-level counts, the columns of
`eulerdeck count --csv`) and prints one markdown row for docs/results.md:
the value, both runs' split, wall time over all sessions and worker time,
and "two splits of one method" as what confirms it (docs/results.md's
"confirmed by": the reason no second method reaches, or the second method
once one does, is written there by hand).
Names with one run finished or two runs that disagree are reported on stderr
and exit status is 1 for a disagreement.
"""
import json
import os
import subprocess
import sys


def wall(path):
    """Seconds over every session of one run, and the number of sessions."""
    total, sessions = 0, 0
    if os.path.exists(path):
        for line in open(path):
            parts = line.split()
            if len(parts) == 2:
                total += int(parts[1]) - int(parts[0])
                sessions += 1
    return total, sessions


def duration(seconds):
    h, rest = divmod(int(round(seconds)), 3600)
    m, s = divmod(rest, 60)
    return f"{h}h{m:02d}m" if h else f"{m}m{s:02d}s"


def store_count(eulerdeck, store):
    out = subprocess.run([eulerdeck, "status", "--store", store, "--json"], capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out)["count"]


def main():
    runs = sys.argv[1]
    data = "docs/data"
    if "--data" in sys.argv:
        data = sys.argv[sys.argv.index("--data") + 1]
    eulerdeck = os.environ.get("EULERDECK", os.path.join(runs, "bin", "eulerdeck"))
    results = os.path.join(runs, "results")
    names = sorted({f[:-7] for f in os.listdir(results) if f.endswith(("-A.json", "-B.json"))})
    status = 0
    print("| game | s | m | cards | winning decks | probability | run A | run B | confirmed by |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in names:
        paths = [os.path.join(results, f"{name}-{v}.json") for v in "AB"]
        if not all(os.path.exists(p) and os.path.getsize(p) > 0 for p in paths):
            print(f"{name}: only one run finished", file=sys.stderr)
            continue
        a, b = (json.loads(open(p).readline()) for p in paths)
        if a["levels"] != b["levels"]:
            print(f"{name}: THE TWO RUNS DISAGREE: {a['levels']} vs {b['levels']}",
                  file=sys.stderr)
            status = 1
            continue
        os.makedirs(data, exist_ok=True)
        with open(os.path.join(data, f"{name}.csv"), "w") as f:
            f.write("game,ranks,suits,level,winning_sub_decks\n")
            for k, v in enumerate(a["levels"], start=1):
                f.write(f"{a['game']},{a['ranks']},{a['suits']},{k},{v}\n")
        cells = []
        counts = [store_count(eulerdeck, os.path.join(runs, "stores", f"{name}-{v}"))
                  for v in "AB"]
        if counts[0]["split_level"] == counts[1]["split_level"]:
            print(f"{name}: both runs split at level {counts[0]['split_level']}: not "
                  f"independent enough", file=sys.stderr)
            status = 1
            continue
        for v, c in zip("AB", counts):
            secs, sessions = wall(os.path.join(runs, "sessions", f"{name}-{v}"))
            how = "2 threads" if v == "A" else "mpirun -np 2 x 1 thread"
            cells.append(f"{how}, split at level {c['split_level']} ({c['subtrees']} subtrees), "
                         f"wall {duration(secs)} in {sessions} session(s), "
                         f"{duration(c['worker_seconds'])} of worker time")
        print(f"| {a['game']} | {a['suits']} | {a['ranks']} | {a['cards']} | "
              f"{int(a['winning_decks']):,} | {a['probability_decimal']:.6g} | "
              f"{cells[0]} | {cells[1]} | two splits of one method |")
    return status


if __name__ == "__main__":
    sys.exit(main())
