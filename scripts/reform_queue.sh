#!/usr/bin/env bash
# The reform-stats record runs of docs/results.md (issue 17), resumable: each
# keeps its work in a count store (`reform-stats --store`), so running this
# again after any interruption continues every job where it stands; finished
# jobs (their JSON present) are skipped. Two variants, run side by side on one
# thread each so that both finish together:
#   A: the default split;  B: --subtrees 30000 (another split level).
# Usage (after copying build/eulerdeck to $R/bin/eulerdeck-reform):
#   nohup nice -n 10 scripts/reform_queue.sh A >/dev/null 2>&1 &
#   nohup nice -n 10 scripts/reform_queue.sh B >/dev/null 2>&1 &
# Results: $R/reform/<job>-<variant>.json; log: $R/reform/reform-queue.log.
set -u
R=${EULERDECK_RUNS:-/var/tmp/eulerdeck-runs}
E=${EULERDECK:-$R/bin/eulerdeck-reform}
D=$R/reform
v=${1:?variant A or B}
mkdir -p "$D" "$R/stores"
run() {  # run NAME ARGS...
  local name=$1
  shift
  local out=$D/$name-$v.json
  [ -s "$out" ] && return 0
  local extra=()
  [ "$v" = B ] && extra=(--subtrees 30000)
  echo "$(date -u +%FT%TZ) start $name-$v ($(readlink -f "$E"))" >>"$D/reform-queue.log"
  /usr/bin/time -a -f "%e s %M KB" -o "$out.time" "$E" reform-stats "$@" \
    --store "$R/stores/reform-$name-$v" "${extra[@]}" --threads 1 --json -q \
    >"$out.partial" 2>>"$D/err" && mv "$out.partial" "$out"
  echo "$(date -u +%FT%TZ) end $name-$v rc $?" >>"$D/reform-queue.log"
}
run mousetrap-16 --game mousetrap --ranks 16
run modular-12 --game modular --ranks 12
run modular-13 --game modular --ranks 13
run modular-14 --game modular --ranks 14
run mousetrap-17 --game mousetrap --ranks 17
