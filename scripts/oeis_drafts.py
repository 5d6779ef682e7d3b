#!/usr/bin/env python3
"""Drafts of the OEIS entries the field lacks (docs/oeis.md, "Drafts of new
entries"): the winning decks of Bersani 2010's Tables 2, 4 and 5 with more
than one suit (and modular Mousetrap with one), one sequence per game and
number of suits, indexed by the ranks m. For each, a b-file in the format of
`eulerdeck oeis` and the draft entry, in docs/data/bfiles/drafts/.

The terms up to each family's `counted` size are computed here by `eulerdeck
count` (the backward enumeration; the largest take a few minutes); the
record terms past them are the last level of docs/data/<game>-s<S>-m<M>.csv
(docs/results.md: two runs of count --store each, cut at different levels),
each with a comment line saying so. tests/tools/bfiles_test.sh (ctest label
slow) recomputes a prefix of each b-file.

Usage: scripts/oeis_drafts.py [BUILD_DIR] [GAME-sS ...]   (default: all)
"""
import csv
import json
import math
import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OUT = os.path.join("docs", "data", "bfiles", "drafts")

BERSANI = ('A. M. Bersani, An "eulerian" approach to a class of matching problems, '
           "2010 (Tables 2, 4 and 5).")
GUY = ("R. K. Guy and R. J. Nowakowski, Mousetrap, in: Combinatorics, Paul Erdos is Eighty, "
       "vol. 1, Janos Bolyai Math. Soc., Budapest, 1993, pp. 193-206.")

GAMES = {
    "mousetrap": ("Mousetrap",
                  "the count runs 1..n round the cards left, a card equal to the count is "
                  "removed and the count restarts at 1 on the next card; the deck wins when "
                  "every card is removed, and loses when the count passes n"),
    "modular": ("Modular Mousetrap",
                "as Mousetrap, but the count goes on 1..n, 1..n, ... (modulo n); the deck "
                "loses at a dead end, no card removed in lcm(r, n) counts with r cards left"),
    "hlm": ("He Loves Me, He Loves Me Not",
            "the count runs 1..min(n, r) over the r cards left; a card equal to the count is "
            "stored (scoring its value) and the count restarts, and when nothing matches those "
            "min(n, r) cards are burned; the deck wins when it scores s*n(n+1)/2 - 2, every "
            "card stored but a final 2"),
}

# (game, suits, first m, last m computed here by count, record m's)
FAMILIES = [
    ("mousetrap", 2, 1, 8, [9]),
    ("mousetrap", 3, 1, 6, [7]),
    ("mousetrap", 4, 1, 5, []),
    ("modular", 1, 1, 13, [14, 15]),
    ("modular", 2, 1, 7, [8]),
    ("modular", 3, 1, 5, [6]),
    ("modular", 4, 1, 4, [5]),
    ("hlm", 2, 2, 15, [16]),
    ("hlm", 3, 2, 9, [10]),
    ("hlm", 4, 2, 7, [8]),
]
# What is known to be missing, said in the draft.
PENDING = {
    ("mousetrap", 4): "a(6) is being computed (docs/results.md, \"Not finished yet\")",
    ("modular", 1): ("a(14) differs from the 21487935690 winning decks (\"including cycles\") "
                     "of A. M. Bersani's Mousetrap web page (Sapienza, 2014): a forward count "
                     "by another method (eulerdeck issue 43) is to confirm a(14) and a(15) "
                     "before this entry is submitted"),
}


# Where Bersani 2010 prints another number (docs/errata.md).
ERRATA = {
    ("hlm", 2): ("Bersani 2010 prints 17175636 for a(14); the enumeration gives 17156400, "
                 "and every deck it finds, replayed forward, wins (a literal "
                 "re-implementation of the paper's procedure gives the same)"),
    ("hlm", 4): ("Bersani 2010 prints 411488689 for a(7); the enumeration gives 396847883, "
                 "and every deck it finds, replayed forward, wins (a literal "
                 "re-implementation of the paper's procedure gives the same)"),
}


def counted(build, game, suits, first, last):
    out = subprocess.run(
        [os.path.join(build, "eulerdeck"), "count", "--game", game, "--suits", str(suits),
         "--ranks", f"{first}..{last}", "--json", "-q"],
        check=True, capture_output=True, text=True).stdout
    terms = {}
    for line in out.splitlines():
        j = json.loads(line)
        terms[j["ranks"]] = int(j["winning_decks"])
    return terms


def record(game, suits, m):
    path = os.path.join("docs", "data", f"{game}-s{suits}-m{m}.csv")
    with open(path) as f:
        rows = [r for r in csv.DictReader(f) if int(r["level"]) == m * suits]
    assert len(rows) == 1, path
    return int(rows[0]["winning_sub_decks"]), path


def draft(build, game, suits, first, last, records):
    title, rules = GAMES[game]
    terms = counted(build, game, suits, first, last)
    sources = {}
    for m in records:
        terms[m], sources[m] = record(game, suits, m)
    name = (f"Number of winning decks at {title} with n ranks and {suits} suit"
            f"{'s' if suits > 1 else ''}" +
            (f" ({suits}n cards, each value 1..n {['', 'once', 'twice', 'three times', 'four times'][suits]})"
             if suits > 1 else " (n cards)") + ".")
    stem = f"{game}-s{suits}"
    lines = [f"# Draft (no OEIS entry yet): {name}",
             f"# Computed by eulerdeck: {game}, n ranks, {suits} suit{'s' if suits > 1 else ''}: "
             "the winning decks (count, the backward enumeration).",
             f"# Made by: scripts/oeis_drafts.py (n = {first}..{last}: eulerdeck count --game {game} "
             f"--suits {suits} --ranks {first}..{last} --json)"]
    for m in sorted(terms):
        if m in sources:
            lines.append(f"# a({m}): the winning decks of {sources[m]}: two runs of eulerdeck count "
                         "--store, cut at different levels (docs/results.md)")
        lines.append(f"{m} {terms[m]}")
    bfile = os.path.join(OUT, f"b-{stem}.txt")
    with open(bfile, "w") as f:
        f.write("\n".join(lines) + "\n")

    values = [terms[m] for m in sorted(terms)]
    data = ", ".join(str(v) for v in values)
    while len(data) > 260:  # the OEIS data line's limit; the rest is in the b-file
        values.pop()
        data = ", ".join(str(v) for v in values)
    second = next((i + first for i, v in enumerate(values) if abs(v) > 1), first)
    decks = f"(s*n)!/(s!)^n with s = {suits}" if suits > 1 else "n!"
    comments = [
        f"Rules ({title}, {suits} suit{'s' if suits > 1 else ''} of n cards valued 1..n, "
        f"dealt in a circle): {rules}.",
        f"a(n)/N(n), N(n) = {decks} the number of distinct decks, is the probability of winning.",
        "Terms counted by the backward (\"eulerian\") enumeration of Bersani (2010), which builds "
        "every winning deck from the end of the game; "
        f"a({first})..a({max(t for t in terms if t not in sources)}) take at most minutes; "
        + (f"the record term{'s' if len(records) > 1 else ''} "
           f"{', '.join(f'a({m})' for m in records)} took hours and "
           f"{'were' if len(records) > 1 else 'was'} computed twice, with the enumeration cut "
           "at different levels, agreeing on every level. " if records else "")
        + "Every term that Bersani 2010 prints is reproduced (with the errata listed in the "
        "eulerdeck repository's docs/errata.md).",
    ]
    if (game, suits) in ERRATA:
        comments.append(ERRATA[(game, suits)] + ".")
    if (game, suits) in PENDING:
        comments.append(PENDING[(game, suits)] + ".")
    if game == "modular" and suits == 1:
        comments.append("For n prime every deck that is not a derangement wins: a(n) = n! - "
                        "A000166(n) = A002467(n) (Guy and Nowakowski).")
    refs = [BERSANI] + ([GUY] if game != "hlm" else [])
    cross = {"mousetrap": "Cf. A007709 (one suit), A028305.",
             "modular": "Cf. A007709, A002467, A000166.",
             "hlm": "Cf. A007709."}[game]
    entry = [f"%N {name}",
             f"%S {data}",
             *[f"%C {c}" for c in comments],
             *[f"%D {r}" for r in refs],
             f"%H <a href=\"/A??????/b??????.txt\">Table of n, a(n) for n = {first}..{max(terms)}</a> "
             f"(this directory's b-{stem}.txt)",
             f"%Y {cross}",
             f"%K nonn,hard,more",
             f"%O {first},{second}"]
    with open(os.path.join(OUT, f"{stem}.txt"), "w") as f:
        f.write("\n".join(entry) + "\n")
    return bfile


def main():
    os.chdir(ROOT)
    args = sys.argv[1:]
    build = args.pop(0) if args and not args[0].count("-s") else "build"
    os.makedirs(OUT, exist_ok=True)
    for game, suits, first, last, records in FAMILIES:
        if args and f"{game}-s{suits}" not in args:
            continue
        print(draft(build, game, suits, first, last, records), flush=True)


if __name__ == "__main__":
    main()
