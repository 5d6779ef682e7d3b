#!/usr/bin/env bash
# Keeps the record runs' progress in the repository, as a session ends: for
# every count store under $R/stores, its progress document (eulerdeck
# export --progress) and its session lines go to docs/data/progress/NAME.json
# and NAME.sessions. Commit them afterwards. record_start.sh (through
# record_queue.sh) imports them on a fresh machine.
# A finished run's are kept too: a machine handed back fresh loses
# $R/results with the stores, and its document (every batch, so every
# level, the split and the worker time) gives the run's result back in a
# second. They leave docs/data/progress/ when docs/results.md has the
# value (scripts/record_results.py collects it from the stores and writes
# docs/data/GAME-sS-mM.csv): a store whose value has that file is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
R=${EULERDECK_RUNS:-/var/tmp/eulerdeck-runs}
E=${EULERDECK:-build/eulerdeck}
out=docs/data/progress
mkdir -p "$out"
for store in "$R"/stores/*; do
  [ -d "$store" ] || continue
  name=$(basename "$store")
  [ -e "docs/data/${name%-[AB]}.csv" ] && continue
  state=$("$E" status --store "$store" --json | python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["kind"], j["state"])')
  case "$state" in
    count\ *)
      "$E" export --store "$store" --progress "$out/$name.json" || echo "record_save: $name: nothing to save yet" >&2
      [ -s "$R/sessions/$name" ] && cp "$R/sessions/$name" "$out/$name.sessions"
      ;;
  esac
done
