#!/usr/bin/env bash
# Keeps the record runs' progress in the repository, as a session ends: for
# every count store under $R/stores that is not complete, its progress
# document (eulerdeck export --progress) and its session lines go to
# docs/data/progress/NAME.json and NAME.sessions; a complete store's are
# removed (its result is in $R/results). Commit them afterwards.
# record_start.sh (through record_queue.sh) imports them on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
R=${EULERDECK_RUNS:-/var/tmp/eulerdeck-runs}
E=${EULERDECK:-build/eulerdeck}
out=docs/data/progress
mkdir -p "$out"
for store in "$R"/stores/*; do
  [ -d "$store" ] || continue
  name=$(basename "$store")
  state=$("$E" status --store "$store" --json | python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["kind"], j["state"])')
  case "$state" in
    "count complete") rm -f "$out/$name.json" "$out/$name.sessions"; echo "record_save: $name complete" ;;
    count\ *)
      "$E" export --store "$store" --progress "$out/$name.json" || echo "record_save: $name: nothing to save yet" >&2
      [ -s "$R/sessions/$name" ] && cp "$R/sessions/$name" "$out/$name.sessions"
      ;;
  esac
done
