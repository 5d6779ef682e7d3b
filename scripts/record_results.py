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

The forward counts by cards removed (jobs removed-GAME-sS-mM: `eulerdeck
count --removed --store --json`, issue 43) are collected apart, once both runs
finished: DATA/removed-GAME-sS-mM.csv gets both runs' rows, term by term
(columns game,ranks,suits,distribution,value,decks_a,decks_b,agree: those of
`count --removed --csv` with one decks column per run, and yes/no), written
whether or not they agree; where they agree on every term (and sum to the
number of decks) the row is appended to the table DATA/removed-GAME-sS.csv
(columns of `count --removed --csv`, as scripts/removed_tables.sh appends
record rows; a size already there is left as it is), and a second markdown
table is printed: the row, its last column (the winning decks of mousetrap
and modular), and both runs' split, tasks, wall and worker time. A
disagreement, or two runs at the same split, is reported on stderr and the
exit status is 1.
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


def store_status(eulerdeck, store):
    out = subprocess.run([eulerdeck, "status", "--store", store, "--json"], capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out)


def removed_rows(runs, data, eulerdeck, names):
    """The forward counts by cards removed: CSVs and markdown rows; the exit status."""
    status = 0
    rows = []
    for name in names:
        paths = [os.path.join(results_dir(runs), f"{name}-{v}.json") for v in "AB"]
        if not all(os.path.exists(p) and os.path.getsize(p) > 0 for p in paths):
            print(f"{name}: only one run finished", file=sys.stderr)
            continue
        a, b = (json.loads(open(p).readline()) for p in paths)
        if (a["game"], a["ranks"], a["suits"]) != (b["game"], b["ranks"], b["suits"]):
            print(f"{name}: the two runs count different games", file=sys.stderr)
            status = 1
            continue
        ra, rb = [int(x) for x in a["removed"]], [int(x) for x in b["removed"]]
        total = int(a["total_decks"])
        agree = ra == rb and sum(ra) == total
        os.makedirs(data, exist_ok=True)
        key = f"{a['game']},{a['ranks']},{a['suits']},removed"
        with open(os.path.join(data, f"{name}.csv"), "w") as f:
            f.write("game,ranks,suits,distribution,value,decks_a,decks_b,agree\n")
            for i in range(max(len(ra), len(rb))):
                x = ra[i] if i < len(ra) else ""
                y = rb[i] if i < len(rb) else ""
                f.write(f"{key},{i},{x},{y},{'yes' if x == y else 'no'}\n")
        if not agree:
            print(f"{name}: THE TWO RUNS DISAGREE: {ra} vs {rb} (decks: {total})",
                  file=sys.stderr)
            status = 1
            continue
        stores = [store_status(eulerdeck, os.path.join(runs, "stores", f"{name}-{v}"))
                  ["removed_count"] for v in "AB"]
        if stores[0]["split_depth"] == stores[1]["split_depth"]:
            print(f"{name}: both runs split {stores[0]['split_depth']} removals deep: not "
                  f"independent enough", file=sys.stderr)
            status = 1
            continue
        table = os.path.join(data, f"removed-{a['game']}-s{a['suits']}.csv")
        lines = open(table).read().splitlines() if os.path.exists(table) else []
        if not any(line.startswith(key + ",") for line in lines):
            with open(table, "a") as f:
                if not lines:
                    f.write("game,ranks,suits,distribution,value,decks\n")
                for i, x in enumerate(ra):
                    f.write(f"{key},{i},{x}\n")
        cells = []
        for v, c in zip("AB", stores):
            secs, sessions = wall(os.path.join(runs, "sessions", f"{name}-{v}"))
            how = "2 threads" if v == "A" else "mpirun -np 2 x 1 thread"
            cells.append(f"{how}, split {c['split_depth']} ({c['tasks']} tasks), "
                         f"wall {duration(secs)} in {sessions} session(s), "
                         f"{duration(c['worker_seconds'])} of worker time")
        rows.append(f"| {a['game']} | {a['suits']} | {a['ranks']} | {total:,} | "
                    f"{' '.join(str(x) for x in ra)} | {ra[-1]:,} | {cells[0]} | {cells[1]} |")
    if rows:
        print()
        print("| game | s | m | decks | decks removing exactly 0, 1, ..., n cards | "
              "last column | run A | run B |")
        print("|---|---|---|---|---|---|---|---|")
        for row in rows:
            print(row)
    return status


def results_dir(runs):
    return os.path.join(runs, "results")


def main():
    runs = sys.argv[1]
    data = "docs/data"
    if "--data" in sys.argv:
        data = sys.argv[sys.argv.index("--data") + 1]
    eulerdeck = os.environ.get("EULERDECK", os.path.join(runs, "bin", "eulerdeck"))
    results = os.path.join(runs, "results")
    every = sorted({f[:-7] for f in os.listdir(results) if f.endswith(("-A.json", "-B.json"))})
    # The forward counts by cards removed: another JSON, collected apart.
    removed = [n for n in every if n.startswith("removed-")]
    names = [n for n in every if not n.startswith("removed-")]
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
    return max(status, removed_rows(runs, data, eulerdeck, removed))


if __name__ == "__main__":
    sys.exit(main())
