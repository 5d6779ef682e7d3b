#!/usr/bin/env python3
"""The tables of docs/reform-records.md from reform-search runs.

usage: scripts/reform_records.py DIR
         DIR holds <game>-<n>.json (eulerdeck reform-search --json) and,
         beside each, <game>-<n>.time or <game>-<n>.json.time (/usr/bin/time
         -f "%e s wall %U s user ..."). Prints the markdown rows, mousetrap
         then modular, by n.
       scripts/reform_records.py --contest FILE
         FILE is the JSON of `eulerdeck reform-search --contest --json` (the
         record queue's results/reform-contest.json): one row per category,
         with its contest score.
The "proven optimum" column is reform-stats' (docs/results.md, "Reformed
decks"), where every deck was classified.
"""
import json
import os
import sys

# reform-stats, every deck classified (docs/results.md): the contest's best
# length (a cyclic sequence where one exists).
PROVEN = {("mousetrap", 10): 4, ("mousetrap", 11): 5, ("mousetrap", 12): 5,
          ("mousetrap", 13): 5, ("mousetrap", 14): 5, ("mousetrap", 15): 5,
          ("mousetrap", 16): 6, ("modular", 10): 6, ("modular", 11): 203,
          ("modular", 12): 7}

HEADER = ("| game | n | length | ends | pre-period | cycle | method | found after (s) | "
          "searched (s) | CPU s | proven optimum | deck |")


def row(j, cpu="?", score=None):
    game, n = j["game"], j["ranks"]
    ends = "cycle" if j["cyclic"] else "dead-end"
    method = j["method"] + (" (optimum)" if j["optimal"] else "")
    deck = " ".join(map(str, j["deck"]))
    proven = PROVEN.get((game, n), "")
    searched = j.get("search_seconds", j.get("seconds", 0))
    cells = [game, str(n), f"{j['length']:,}", ends, f"{j['preperiod']:,}", f"{j['cycle']:,}",
             method, f"{j['found_seconds']:.1f}", f"{searched:.0f}", cpu, str(proven)]
    if score is not None:
        cells.append(score)
    cells.append(deck)
    return "| " + " | ".join(cells) + " |"


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--contest":
        j = json.load(open(sys.argv[2]))
        print(HEADER.replace(" deck |", " score | deck |"))
        print("|---" * 13 + "|")
        for e in j["entries"]:
            print(row(e, score=f"{e['contest_score']:.3f}"))
        print(f"\nscore {j['score']:.3f} of {2 * j['categories']} ({j['categories']} categories)")
        return
    d = sys.argv[1]
    print(HEADER)
    print("|---" * 12 + "|")
    for game in ("mousetrap", "modular"):
        for n in range(10, 26):
            path = os.path.join(d, f"{game}-{n}.json")
            if not os.path.exists(path) or os.path.getsize(path) == 0:
                continue
            j = json.load(open(path))
            cpu = "?"
            for t in (os.path.join(d, f"{game}-{n}.time"), path + ".time"):
                if os.path.exists(t):
                    parts = open(t).read().split()
                    if "user" in parts:
                        cpu = parts[parts.index("user") - 2]
            print(row(j, cpu))


if __name__ == "__main__":
    main()
