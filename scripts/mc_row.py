"""Formats one `cardlab mc --json` result as a markdown row (scripts/mc_tables.sh).

usage: mc_row.py estimate PRINTED COMMAND < json
       mc_row.py best PRINTED COMMAND < json
"""
import json
import sys
from math import floor, log10


def round_sig(x, n):
    return 0.0 if x == 0 else round(x, -int(floor(log10(abs(x)))) + (n - 1))


def main():
    kind, printed, cmd = sys.argv[1], sys.argv[2], sys.argv[3]
    j = json.load(sys.stdin)
    if kind == "estimate":
        w = j["win_probability"]
        p = float(printed)
        # Agreement within the printed precision: same value at the printed
        # number of significant digits.
        digits = len(printed.split(".")[1].lstrip("0")) if "." in printed else 1
        agrees = round_sig(w["estimate"], digits) == round_sig(p, digits)
        inside = w["low95"] <= p <= w["high95"]
        print(f"| {j['game']} | {j['ranks']} | {j['suits']} | {printed} | {w['estimate']:.4g} | "
              f"[{w['low95']:.4g}, {w['high95']:.4g}] | {'yes' if agrees else 'no'} | "
              f"{'yes' if inside else 'no'} | `{cmd}` |")
    else:
        b = j["best_score"]
        deck = " ".join(map(str, b["deck"]))
        print(f"| {j['ranks']} | {j['suits']} | {printed} | {b['score']}/{b['of']} | {j['decks_played']} | "
              f"{deck} | `{cmd}` |")


main()
