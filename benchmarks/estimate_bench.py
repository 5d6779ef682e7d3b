#!/usr/bin/env python3
"""The variance reductions of `eulerdeck estimate`, and estimate against
`cardlab mc`, measured in one run (issue 18; docs/performance.md §17).

Part 1: on exactly known cases, each sampling mode with the same nominal
work (samples x width descents), one thread. A mode's cost of precision is
its squared relative standard error times its seconds (both from the same
run; with i.i.d. samples the product does not depend on the samples taken),
turned into the seconds to a 95% half-width of 1%, and compared with plain
Knuth sampling (one uniform descent, 6 exact levels) as a ratio.

Part 2: the seconds to a 1% half-width on one thread, by `estimate`
(default width) and by forward Monte Carlo (`cardlab mc`: its rate measured
here, its variance p(1-p)/N, p from the estimate), on cells of Bersani
2010's Tables 4 and 5 marked [MC], and on hlm cells where no forward game
has been seen to win (there: the games it would need).

Usage: benchmarks/estimate_bench.py BUILD_DIR [--quick]
"""
import json
import subprocess
import sys

Z = 1.959964
TARGET = 0.01  # the relative 95% half-width compared


def run(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def estimate(build, game, m, s, samples, width, lookahead=True, seed=1):
    cmd = [f"{build}/eulerdeck", "estimate", "--game", game, "--ranks", str(m), "--suits",
           str(s), "--samples", str(samples), "--width", str(width), "--seed", str(seed),
           "--threads", "1", "--json", "-q"]
    if not lookahead:
        cmd.append("--no-lookahead")
    j = run(cmd)
    w = j["winning_decks"]
    rel = w["std_error"] / w["estimate"] if w["estimate"] > 0 else float("inf")
    return j, rel, j["seconds"]


def seconds_to_target(rel, seconds):
    return rel * rel * seconds / (TARGET / Z) ** 2


def part1(build, quick):
    cases = [("hlm", 7, 4), ("hlm", 12, 2), ("hlm", 15, 2), ("mousetrap", 14, 1),
             ("modular", 5, 3), ("mousetrap", 6, 3)]
    budget = 100000 if quick else 400000
    modes = [("plain Knuth", 1, False), ("lookahead", 1, True), ("width 10", 10, True),
             ("width 100", 100, True), ("width 1000", 1000, True)]
    print(f"### Part 1: seconds to a 95% half-width of 1%, one thread "
          f"({budget} descents of work per mode)\n")
    print("| case | " + " | ".join(m[0] for m in modes) + " | best ratio to plain |")
    print("|---|" + "---|" * (len(modes) + 1))
    for game, m, s in cases:
        cells, base, best = [], None, None
        for name, width, look in modes:
            _, rel, sec = estimate(build, game, m, s, max(20, budget // width), width, look)
            t = seconds_to_target(rel, sec) if rel != float("inf") else float("inf")
            base = t if base is None else base
            best = t if best is None else min(best, t)
            cells.append(f"{t:.3g}")
        print(f"| {game} m={m} s={s} | " + " | ".join(cells) + f" | {base / best:.3g}x |")
    print()


def part2(build, quick):
    cases = [("mousetrap", 13, 2), ("mousetrap", 11, 3), ("mousetrap", 8, 4),
             ("mousetrap", 11, 4), ("modular", 9, 2), ("modular", 13, 4), ("hlm", 15, 2),
             ("hlm", 13, 4)]
    mc_decks = 2000000 if quick else 20000000
    print("### Part 2: seconds to a 95% half-width of 1%, one thread: estimate "
          "(width 1000) against cardlab mc\n")
    print("| case | p (estimate) | estimate s | cardlab mc decks/s | cardlab mc s (decks) "
          "| ratio mc / estimate |")
    print("|---|---|---|---|---|---|")
    for game, m, s in cases:
        j, rel, sec = estimate(build, game, m, s, 50 if quick else 200, 1000)
        p = j["probability"]["estimate"]
        if p <= 0:
            print(f"| {game} m={m} s={s} | 0 (no sample won) | | | | |")
            continue
        t_est = seconds_to_target(rel, sec)
        mc = run([f"{build}/cardlab", "mc", "--game", game, "--ranks", str(m), "--suits",
                  str(s), "--decks", str(mc_decks if game != "hlm" else mc_decks // 10),
                  "--threads", "1", "--json", "-q"])
        decks = int(mc["decks_played"])
        rate = decks / mc["seconds"]
        need = Z * Z * (1 - p) / (p * TARGET * TARGET)
        t_mc = need / rate
        print(f"| {game} m={m} s={s} | {p:.4g} | {t_est:.3g} | {rate:.3g} | "
              f"{t_mc:.3g} ({need:.2g}) | {t_mc / t_est:.3g} |")
    print()


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    build, quick = sys.argv[1], "--quick" in sys.argv
    part1(build, quick)
    part2(build, quick)


if __name__ == "__main__":
    main()
