#!/usr/bin/env python3
"""Estimates for every cell of Bersani 2010's Tables 1, 2, 4 and 5 (issue 18).

Runs `eulerdeck estimate` on each cell (hlm s = 2..4, m = 2..13, and s = 2
m = 14, 15 of Table 2; mousetrap s = 1 m = 2..15 and s = 2..4 m = 2..13,
Table 4; modular s = 1..4 m = 2..13, Table 5) with --until-rel and a cap on
the samples, one JSON line per cell in RUNS/estimates.jsonl (a cell already
there is not run again, so the script resumes after an interruption), then
prints the markdown table of docs/estimates.md and writes the CSV.

Usage: EULERDECK=build/eulerdeck scripts/estimate_table.py RUNS
           [--until-rel 0.01] [--samples 1000] [--samples-modular 100]
           [--threads 2] [--csv FILE]
       scripts/estimate_table.py --from-csv docs/data/estimates.csv [--csv FILE]
The second form runs nothing: it remakes the table (and the CSV) from a CSV
this script wrote, with EXACT as it stands now, so that a newly settled
count reaches the table without sampling again (the runs' JSON lines live
outside the tree and do not outlive the machine). "covered" is then judged
on the CSV's 95% bounds, rounded to six digits.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import time

# Exact winning decks: Bersani 2010 Tables 2, 4 and 5 (mousetrap s = 1 is
# OEIS A007709); "erratum": docs/errata.md (two enumerations and a forward
# replay of every deck disagree with the printed value); "results":
# docs/results.md (two record runs of `eulerdeck count`; modular s = 4
# m = 4: its removed-cards table, two splits and brute force agreeing, as
# Table 5's cell for it is unreadable in the paper's text we have).
PAPER = "Bersani 2010"
EXACT = {}
def _add(game, s, values, source=PAPER):
    for m, v in values.items():
        EXACT[(game, m, s)] = (v, source)
_add("hlm", 2, {2: 3, 3: 0, 4: 0, 5: 0, 6: 1, 7: 7, 8: 8, 9: 105, 10: 656, 11: 6745,
                12: 76823, 13: 986994, 15: 320152788})
_add("hlm", 2, {14: 17156400}, "erratum")
_add("hlm", 3, {2: 4, 3: 4, 4: 9, 5: 63, 6: 1177, 7: 36144, 8: 1677968, 9: 127255522})
_add("hlm", 3, {10: 14569821371}, "results")
_add("hlm", 4, {2: 15, 3: 5, 4: 229, 5: 10568, 6: 1212483})
_add("hlm", 4, {7: 396847883}, "erratum")
_add("hlm", 4, {8: 199593049751}, "results")
_add("mousetrap", 1, {2: 1, 3: 2, 4: 6, 5: 15, 6: 84, 7: 330, 8: 1812, 9: 9978, 10: 65503,
                      11: 449719, 12: 3674670, 13: 28886593, 14: 266242729,
                      15: 2527701273})
_add("mousetrap", 2, {2: 3, 3: 12, 4: 147, 5: 2322, 6: 71629, 7: 2214258, 8: 118228868})
_add("mousetrap", 2, {9: 6597279578}, "results")
_add("mousetrap", 3, {2: 4, 3: 90, 4: 5232, 5: 476042, 6: 111660352})
_add("mousetrap", 3, {7: 29323906176}, "results")
_add("mousetrap", 4, {2: 15, 3: 675, 4: 210069, 5: 119375881})
_add("modular", 1, {2: 1, 3: 4, 4: 9, 5: 76, 6: 190, 7: 3186, 8: 11351, 9: 132684,
                    10: 884371, 11: 25232230, 12: 50436488, 13: 3936227868})
_add("modular", 2, {2: 5, 3: 60, 4: 1182, 5: 63063, 6: 1797350, 7: 364572156})
_add("modular", 2, {8: 19422284840}, "results")
_add("modular", 3, {2: 19, 3: 1081, 4: 173053, 5: 86636303})
_add("modular", 3, {6: 31057071932}, "results")
_add("modular", 4, {2: 69, 3: 22898})
_add("modular", 4, {4: 29642185}, "results")
_add("modular", 4, {5: 151061205032}, "results")

# The paper's Monte Carlo probabilities ([MC] in Tables 4 and 5), as printed.
MC = {
    ("mousetrap", 6, 4): "~0.000070", ("mousetrap", 7, 3): "~0.00016",
    ("mousetrap", 7, 4): "~0.0000081", ("mousetrap", 8, 3): "~0.000046",
    ("mousetrap", 8, 4): "~0.0000015", ("mousetrap", 9, 2): "~0.00053",
    ("mousetrap", 9, 3): "~0.000010", ("mousetrap", 9, 4): "~0.0000002",
    ("mousetrap", 10, 2): "~0.00022", ("mousetrap", 10, 3): "~0.0000026",
    ("mousetrap", 10, 4): "~0.00000003", ("mousetrap", 11, 2): "~0.000083",
    ("mousetrap", 11, 3): "~0.0000006", ("mousetrap", 11, 4): "2e-9 .. 6e-9",
    ("mousetrap", 12, 2): "~0.000036", ("mousetrap", 12, 3): "~0.000000084",
    ("mousetrap", 12, 4): "under investigation", ("mousetrap", 13, 2): "~0.000013",
    ("mousetrap", 13, 3): "3e-8 .. 5e-8", ("mousetrap", 13, 4): "under investigation",
    ("modular", 5, 4): "~0.49", ("modular", 6, 3): "~0.23", ("modular", 6, 4): "~0.22",
    ("modular", 7, 3): "~0.49", ("modular", 7, 4): "~0.46",
}
for s, ps in ((2, "0.24 0.31 0.20 0.53 0.085 0.53"), (3, "0.22 0.28 0.18 0.48 0.077 0.48"),
              (4, "0.21 0.27 0.18 0.45 0.073 0.45")):
    for m, p in zip(range(8, 14), ps.split()):
        MC[("modular", m, s)] = "~" + p


def cells():
    for s in (2, 3, 4):
        for m in range(2, 14 if s > 2 else 16):
            yield ("hlm", m, s)
    for m in range(2, 16):
        yield ("mousetrap", m, 1)
    for s in (2, 3, 4):
        for m in range(2, 14):
            yield ("mousetrap", m, s)
    for s in (1, 2, 3, 4):
        for m in range(2, 14):
            yield ("modular", m, s)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="?")
    ap.add_argument("--from-csv")
    ap.add_argument("--until-rel", default="0.01")
    ap.add_argument("--samples", default="1000")
    ap.add_argument("--samples-modular", default="100")
    ap.add_argument("--threads", default="2")
    ap.add_argument("--seed", default="1")
    ap.add_argument("--csv")
    a = ap.parse_args()
    if (a.runs is None) == (a.from_csv is None):
        ap.error("give either RUNS or --from-csv FILE")
    done = read_csv(a.from_csv) if a.from_csv else sample(a)
    write_table(done, a.csv)


def read_csv(path):
    """The cells of a CSV written by this script, as sample() returns them."""
    done = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            cell = (r["game"], int(r["ranks"]), int(r["suits"]))
            est = float(r["estimate"])
            # The CSV keeps the half width relative to the estimate; the
            # standard error follows from it exactly as write_table made it.
            se = float(r["rel_half_width"]) * est / 1.959964
            done[cell] = {"samples": int(r["samples"]), "width": int(r["width"]),
                          "seconds": float(r["seconds"]),
                          "winning_decks": {"estimate": est, "low": float(r["low95"]),
                                            "high": float(r["high95"]), "std_error": se,
                                            "ess": float(r["ess"])},
                          "probability": {"estimate": float(r["probability"])}}
    missing = [c for c in cells() if c not in done]
    if missing:
        sys.exit(f"{path}: no row for {missing[0]}")
    return done


def sample(a):
    """Runs every cell not yet in RUNS/estimates.jsonl; returns them all."""
    exe = os.environ.get("EULERDECK", "build/eulerdeck")
    path = os.path.join(a.runs, "estimates.jsonl")
    done = {}
    if os.path.exists(path):
        for line in open(path):
            j = json.loads(line)
            done[(j["game"], j["ranks"], j["suits"])] = j
    for cell in cells():
        if cell in done:
            continue
        g, m, s = cell
        # Modular from 16 cards: wins are common (P ~ 0.1-0.6, forward Monte
        # Carlo's easy case) and the tree is bushy, so a sample costs minutes
        # to 1%: a few percent is enough beside cardlab mc's ±0.05%.
        samples = a.samples_modular if g == "modular" and m * s >= 16 else a.samples
        cmd = [exe, "estimate", "--game", g, "--ranks", str(m), "--suits", str(s),
               "--until-rel", a.until_rel, "--samples", samples, "--seed", a.seed,
               "--threads", a.threads, "--json", "-q"]
        start = time.time()
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"{' '.join(cmd)}: exit {out.returncode}: {out.stderr.strip()}")
        j = json.loads(out.stdout)
        j["wall_seconds"] = time.time() - start
        j["command"] = " ".join(cmd[1:])
        with open(path, "a") as f:
            f.write(json.dumps(j) + "\n")
        done[cell] = j
        print(f"{g} m={m} s={s}: {j['winning_decks']['estimate']:.4g} "
              f"({j['seconds']:.1f} s)", file=sys.stderr, flush=True)
    return done


def write_table(done, csv_path):
    rows = []
    for cell in cells():
        j = done[cell]
        g, m, s = cell
        w, p = j["winning_decks"], j["probability"]
        exact, source = EXACT.get(cell, (None, ""))
        covered = "" if exact is None else ("yes" if w["low"] <= exact <= w["high"] else "NO")
        rel = 0 if w["estimate"] == 0 else 1.959964 * w["std_error"] / w["estimate"]
        rows.append(dict(game=g, ranks=m, suits=s, samples=j["samples"], width=j["width"],
                         estimate=f"{w['estimate']:.6g}", low95=f"{w['low']:.6g}",
                         high95=f"{w['high']:.6g}", rel_half_width=f"{rel:.4g}",
                         ess=f"{w['ess']:.4g}", probability=f"{p['estimate']:.6g}",
                         exact="" if exact is None else str(exact), exact_source=source,
                         covered=covered, paper_mc=MC.get(cell, ""),
                         seconds=f"{j['seconds']:.1f}"))
    if csv_path:
        with open(csv_path, "w", newline="") as f:
            wr = csv.DictWriter(f, fieldnames=list(rows[0].keys()), lineterminator="\n")
            wr.writeheader()
            wr.writerows(rows)
    print("| game | s | m | winning decks (estimate) | 95% | probability | exact | covered "
          "| paper [MC] | samples | s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        # Every sample alike: the population held the whole tree (exact),
        # or no sample reached a winning deck (no proof that none exists).
        if float(r["estimate"]) == 0:
            half = "none reached"
        elif float(r["rel_half_width"]) == 0:
            half = "exact"
        else:
            half = f"±{100 * float(r['rel_half_width']):.2g}%"
        exact = f"{int(r['exact']):,}" if r["exact"] else "—"
        if r["exact_source"] and r["exact_source"] != PAPER:
            exact += f" ({r['exact_source']})"
        print(f"| {r['game']} | {r['suits']} | {r['ranks']} | {r['estimate']} | {half} | "
              f"{r['probability']} | {exact} | {r['covered'] or '—'} | {r['paper_mc'] or '—'} "
              f"| {r['samples']} | {r['seconds']} |")


if __name__ == "__main__":
    main()
