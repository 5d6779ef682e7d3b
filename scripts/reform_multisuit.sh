#!/usr/bin/env bash
# Reform statistics for every multisuit size `count` does in minutes (issue
# 17): each range once on THREADS threads, as JSON lines (one per size),
# into OUT (the CSV is reform_multisuit_table.py --csv's). Run it twice (1
# and 2 threads: another split of the work) and compare, field by field,
# with scripts/reform_multisuit_table.py.
# Usage: scripts/reform_multisuit.sh EULERDECK OUT THREADS
set -eu
E=$1
OUT=$2
T=$3
mkdir -p "$OUT"
run() {  # run GAME SUITS RANKS
  local name="$1-s$2"
  [ -s "$OUT/$name.json" ] && return 0
  "$E" reform-stats --game "$1" --suits "$2" --ranks "$3" --threads "$T" --json -q \
    >"$OUT/$name.json.partial"
  mv "$OUT/$name.json.partial" "$OUT/$name.json"
}
run mousetrap 2 1..8
run mousetrap 3 1..6
run mousetrap 4 1..5
run modular 2 1..7
run modular 3 1..5
run modular 4 1..4
run hlm 2 2..14
run hlm 3 2..9
run hlm 4 2..7
