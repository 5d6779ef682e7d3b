#!/usr/bin/env bash
# Starts the record queue (scripts/record_queue.sh) in the background, as a
# session begins: copies build/eulerdeck and the queue to $R (so that a
# rebuild never changes a running job) and runs the queue under nohup nice,
# with docs/data/progress for the stores a machine handed back fresh lost
# (they are imported, then resumed). Refuses to start a second queue.
#   scripts/record_start.sh JOB...   (the names of scripts/record_queue.sh's
#   jobs; none is pending by default, see below)
# EULERDECK_RUNS (default /var/tmp/eulerdeck-runs) and EULERDECK_PROGRESS
# (default docs/data/progress, absolute) move the runs and the documents.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$(pwd)
R=${EULERDECK_RUNS:-/var/tmp/eulerdeck-runs}
[ -x build/eulerdeck ] || { echo "record_start: no build/eulerdeck (build first: scripts/test.sh)" >&2; exit 2; }
# The queue takes $R/queue.lock (flock) for as long as it runs; a queue
# started before it did shows in the process list as ./queue.sh.
# (Only one whose directory is $R: a queue in another EULERDECK_RUNS, e.g. a
# scratch one, is no obstacle.)
jobs=("$@")
# No default since issue 57's runs ended (rows 16 and 17, the stored hlm
# s = 2 m = 16 and modular 14: all recorded in docs/data, which the queue
# skips): the jobs (the contest, the reform statistics and searches, the
# backward counts, removed-modular-s1-m15) run only when named.
if [ ${#jobs[@]} -eq 0 ]; then
  echo "record_start: no job is pending by default; name the jobs to run (scripts/record_queue.sh)" >&2
  exit 2
fi
# A name the queue does not know would run nothing and end the queue at
# once, without a word (a run's store name, e.g. ...-m17-B, is no job's).
for name in "${jobs[@]}"; do
  if ! grep -qE "^ *(job|stored|rstats|search) $name( |$)" scripts/record_queue.sh; then
    echo "record_start: no job '$name' in scripts/record_queue.sh (a job is named without -A/-B)" >&2
    exit 2
  fi
done
mkdir -p "$R"
older=0
for pid in $(pgrep -f '(^|[ /])queue\.sh( |$)'); do
  [ "$(readlink -f "/proc/$pid/cwd" 2>/dev/null)" = "$(readlink -f "$R")" ] && older=1
done
if ! flock -n "$R/queue.lock" true || [ "$older" = 1 ]; then
  echo "record_start: a queue already runs in $R" >&2
  exit 2
fi
mkdir -p "$R/bin"
bin="eulerdeck-$(git rev-parse --short HEAD)"
[ -e "$R/bin/$bin" ] || cp build/eulerdeck "$R/bin/$bin"
ln -sfn "$bin" "$R/bin/eulerdeck"
cp scripts/record_queue.sh "$R/queue.sh"
cd "$R"
EULERDECK_PROGRESS="${EULERDECK_PROGRESS:-$src/docs/data/progress}" nohup nice -n 10 ./queue.sh "${jobs[@]}" >> queue.out 2>&1 &
echo "record_start: queue started (pid $!, $bin) for ${jobs[*]}; log $R/queue.log"
