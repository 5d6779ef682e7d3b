#!/usr/bin/env bash
# Starts the record queue (scripts/record_queue.sh) in the background, as a
# session begins: copies build/eulerdeck and the queue to $R (so that a
# rebuild never changes a running job) and runs the queue under nohup nice,
# with docs/data/progress for the stores a machine handed back fresh lost
# (they are imported, then resumed). Refuses to start a second queue.
#   scripts/record_start.sh [JOB...]   default: the jobs docs/results.md awaits
set -euo pipefail
cd "$(dirname "$0")/.."
src=$(pwd)
R=${EULERDECK_RUNS:-/var/tmp/eulerdeck-runs}
[ -x build/eulerdeck ] || { echo "record_start: no build/eulerdeck (build first: scripts/test.sh)" >&2; exit 2; }
# The queue takes $R/queue.lock (flock) for as long as it runs; a queue
# started before it did shows in the process list as ./queue.sh.
mkdir -p "$R"
if ! flock -n "$R/queue.lock" true || pgrep -f '(^|[ /])queue\.sh( |$)' >/dev/null; then
  echo "record_start: a queue already runs in $R" >&2
  exit 2
fi
jobs=("$@")
[ ${#jobs[@]} -gt 0 ] || jobs=(mousetrap-s4-m6 mousetrap-s2-m10)
mkdir -p "$R/bin"
bin="eulerdeck-$(git rev-parse --short HEAD)"
[ -e "$R/bin/$bin" ] || cp build/eulerdeck "$R/bin/$bin"
ln -sfn "$bin" "$R/bin/eulerdeck"
cp scripts/record_queue.sh "$R/queue.sh"
cd "$R"
EULERDECK_PROGRESS="$src/docs/data/progress" nohup nice -n 10 ./queue.sh "${jobs[@]}" >> queue.out 2>&1 &
echo "record_start: queue started (pid $!, $bin) for ${jobs[*]}; log $R/queue.log"
