#!/usr/bin/env bash
# Record runs on a lent device machine's CPU cores (16 there, 2 here), with
# the binary of scripts/gpu_bundle.sh (carry .gpu-bundle): the reform
# statistics of modular n = 13 twice (issue 44 part 3; A: the default split,
# B: --subtrees 30000, as scripts/reform_queue.sh's variants), then the
# forward count of modular n = 14, run B, resumed from its progress document
# (issue 43). Each run is a store interrupted by SIGINT at its time limit if
# it has not finished; an unfinished store's progress document goes to $OUT,
# so that the queue here (scripts/record_queue.sh, EULERDECK_PROGRESS) or the
# next device session continues it. Run from the repository root:
#   bash scripts/device_records.sh        (limits: RS13_SECONDS, M14_SECONDS)
# Output under $OUT: records.log, reform-modular-13-{A,B}.json (the reform
# statistics, when finished), *.progress.json (unfinished), removed-modular-
# s1-m14-B.json (the rows, when finished).
set -u
cd "$(dirname "$0")/.." || exit 2
OUT=${OUT:-/tmp/device_records}
mkdir -p "$OUT"
LOG=$OUT/records.log
START=$(date +%s)
log() { echo "[$(($(date +%s) - START))s] $*" | tee -a "$LOG"; }
export LD_LIBRARY_PATH=$PWD/.gpu-bundle/lib
E=$PWD/.gpu-bundle/eulerdeck
if ! "$E" count --help >/dev/null 2>&1; then
  export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/.gpu-bundle/fallback
fi
"$E" count --help >/dev/null 2>>"$LOG" || { log "the carried binary does not start"; exit 2; }
log "$(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2); binary $(cat .gpu-bundle/COMMIT)"
W=$(mktemp -d /tmp/records.XXXXXX)

# stored NAME LIMIT RESULT ARGS...: runs ARGS (a command with --store
# $W/NAME) for at most LIMIT seconds; its JSON to RESULT when it finishes,
# else the store's progress document to $OUT/NAME.progress.json.
stored() {
  local name=$1 limit=$2 result=$3
  shift 3
  local t0=$(date +%s)
  timeout -k 20 -s INT "$limit" /usr/bin/time -f "%e s wall, %U s user, %M KB" -o "$W/$name.time" \
    "$E" "$@" --store "$W/$name" --json -q >"$W/$name.json" 2>"$W/$name.err"
  local rc=$?
  log "$name: exit $rc after $(($(date +%s) - t0)) s ($(cat "$W/$name.time" 2>/dev/null | tail -1))"
  if [ "$rc" -eq 0 ]; then
    cp "$W/$name.json" "$result"
  else
    tail -2 "$W/$name.err" | tee -a "$LOG"
    "$E" export --store "$W/$name" --progress "$OUT/$name.progress.json" >>"$LOG" 2>&1 &&
      log "$name: progress document in $OUT/$name.progress.json"
  fi
}

T=${RS13_SECONDS:-200}
stored reform-modular-13-A "$T" "$OUT/reform-modular-13-A.json" \
  reform-stats --game modular --ranks 13 --threads 0
stored reform-modular-13-B "$T" "$OUT/reform-modular-13-B.json" \
  reform-stats --game modular --ranks 13 --threads 0 --subtrees 30000

doc=docs/data/progress/removed-modular-s1-m14-B.json
if [ -s "$doc" ]; then
  "$E" import --progress "$doc" --store "$W/removed-modular-s1-m14-B" >>"$LOG" 2>&1 &&
    stored removed-modular-s1-m14-B "${M14_SECONDS:-120}" "$OUT/removed-modular-s1-m14-B.json" \
      count --removed --game modular --ranks 14 --split 4 --threads 0
fi
log "done"
