#!/usr/bin/env python3
"""The multisuit reform statistics (scripts/reform_multisuit.sh) as a table.

Usage: reform_multisuit_table.py RUN_A RUN_B [--csv FILE]

Reads the JSON lines of both runs, requires them to agree field by field
(all but the time), and prints a Markdown table for docs/results.md: per
game, suits and ranks, the winning decks, the decks reformable at least
twice, the most reforms of a dead-end sequence, the cyclic decks, the
cycles by length and the longest sequence with its first deck. With --csv,
also writes every size's distributions in the long form of `reform-stats
--csv` (game,ranks,suits,distribution,value,decks).
"""
import json
import os
import sys


def load(run):
    out = {}
    for name in sorted(os.listdir(run)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(run, name)) as f:
            for line in f:
                j = json.loads(line)
                j.pop("seconds", None)
                out[(j["game"], j["suits"], j["ranks"])] = j
    return out


def main():
    args = sys.argv[1:]
    csv_path = None
    if "--csv" in args:
        i = args.index("--csv")
        csv_path = args[i + 1]
        del args[i:i + 2]
    a, b = load(args[0]), load(args[1])
    if a.keys() != b.keys():
        sys.exit("the runs cover different sizes: %s" % sorted(set(a) ^ set(b)))
    bad = [k for k in a if a[k] != b[k]]
    if bad:
        sys.exit("the runs disagree on %s" % bad)
    order = {"mousetrap": 0, "modular": 1, "hlm": 2}
    keys = sorted(a, key=lambda k: (order[k[0]], k[1], k[2]))
    print("| game | s | m | cards | winning decks | reformable ≥ 2 | most reforms (dead-end) "
          "| cyclic decks | cycles (length: number) | longest sequence | first deck |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    rows = []
    for k in keys:
        j = a[k]
        at_least = j["reformable_at_least"]
        two = at_least[2] if len(at_least) > 2 else j["cyclic_decks"]
        exactly = j["reformable"]
        most = max((i for i in range(1, len(exactly)) if exactly[i] != "0"), default=0)
        cycles = ", ".join("%d: %s" % (c["length"], c["cycles"]) for c in j["cycles"]) or "none"
        ls = j["longest_sequence"]
        cyc = j["longest_cyclic_sequence"]
        longest = "%d" % ls["length"]
        if cyc["length"] == ls["length"] and cyc["length"] > 0:
            longest += " (cycle)"
        deck = " ".join(str(c) for c in ls.get("deck", []))
        print("| %s | %d | %d | %d | %s | %s | %d | %s | %s | %s | %s |" %
              (j["game"], j["suits"], j["ranks"], j["cards"], j["winning_decks"], two, most,
               j["cyclic_decks"], cycles, longest, deck))
        for i, v in enumerate(exactly):
            rows.append((j["game"], j["ranks"], j["suits"], "reformable", i, v))
        for c in j["cyclic_sequences"]:
            rows.append((j["game"], j["ranks"], j["suits"], "cyclic_sequence_length",
                         c["length"], c["decks"]))
        for c in j["cycles"]:
            rows.append((j["game"], j["ranks"], j["suits"], "cycle_length", c["length"],
                         str(int(c["cycles"]) * c["length"])))
    if csv_path:
        with open(csv_path, "w") as f:
            f.write("game,ranks,suits,distribution,value,decks\n")
            for r in rows:
                f.write("%s,%d,%d,%s,%d,%s\n" % r)


if __name__ == "__main__":
    main()
