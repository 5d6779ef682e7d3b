#!/usr/bin/env bash
# The tables of decks by cards removed in docs/data/removed-<game>-s<S>.csv
# (docs/results.md, "Decks by cards removed"): every size count --removed
# finishes in seconds. The larger rows (mousetrap 14, 15 and modular 12, 13
# with one suit; modular s=4 m=4, s=3 m=5, s=2 m=7 and hlm s=3 m=6, s=4 m=5) come from two
# runs each with different --split, recorded in docs/results.md; pass their
# JSON lines as arguments to append them.
# Usage: scripts/removed_tables.sh [BUILD_DIR] [RUN.json ...]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true
E="$build/eulerdeck"
table() {  # table GAME SUITS RANKS
  "$E" count --removed --game "$1" --suits "$2" --ranks "$3" --csv "docs/data/removed-$1-s$2.csv"
}
table mousetrap 1 1..13
table mousetrap 2 1..7
table mousetrap 3 1..5
table mousetrap 4 1..4
table modular 1 1..11
table modular 2 1..6
table modular 3 1..4
table modular 4 1..3
table hlm 1 2..13
table hlm 2 2..7
table hlm 3 2..5
table hlm 4 2..4
# Rows from record runs (JSON lines of count --removed --json).
for run in "$@"; do
  python3 - "$run" <<'PY'
import json, sys
j = json.loads(open(sys.argv[1]).readline())
path = f"docs/data/removed-{j['game']}-s{j['suits']}.csv"
rows = open(path).read().splitlines()
key = f"{j['game']},{j['ranks']},{j['suits']},removed,"
if any(r.startswith(key) for r in rows):
    sys.exit(0)
with open(path, "a") as f:
    for i, x in enumerate(j["removed"]):
        f.write(f"{key}{i},{x}\n")
PY
done
