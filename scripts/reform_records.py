#!/usr/bin/env python3
"""The table of docs/reform-records.md from reform-search runs.

usage: scripts/reform_records.py DIR
  DIR holds <game>-<n>.json (eulerdeck reform-search --json) and, beside
  each, <game>-<n>.json.time ("<wall> s <user> user", /usr/bin/time -f
  "%e s %U user"). Prints the markdown rows, mousetrap then modular, by n.
"""
import json
import os
import sys


def main():
    d = sys.argv[1]
    print("| game | n | length | ends | pre-period | cycle | method | found after | "
          "CPU s | deck |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for game in ("mousetrap", "modular"):
        for n in range(10, 26):
            path = os.path.join(d, f"{game}-{n}.json")
            if not os.path.exists(path):
                continue
            j = json.load(open(path))
            cpu = "?"
            if os.path.exists(path + ".time"):
                parts = open(path + ".time").read().split()
                cpu = parts[2] if len(parts) > 2 else "?"
            ends = "cycle" if j["cyclic"] else "dead-end"
            method = j["method"] + (" (optimum)" if j["optimal"] else "")
            deck = " ".join(map(str, j["deck"]))
            print(f"| {game} | {n} | {j['length']} | {ends} | {j['preperiod']} | {j['cycle']} | "
                  f"{method} | {j['found_after']} | {cpu} | {deck} |")


if __name__ == "__main__":
    main()
