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
# The forward counts by cards removed (`count --removed --store`, jobs
# removed-GAME-sS-mM) too: their file is docs/data/removed-GAME-sS-mM.csv
# (both runs' rows), skipped only where it says the two runs agree.
# EULERDECK_RUNS, EULERDECK_PROGRESS (the documents' directory, default
# docs/data/progress) and EULERDECK_DATA (default docs/data) move them, e.g.
# to try the queue in a scratch directory.
set -euo pipefail
cd "$(dirname "$0")/.."
R=${EULERDECK_RUNS:-/var/tmp/eulerdeck-runs}
E=${EULERDECK:-build/eulerdeck}
out=${EULERDECK_PROGRESS:-docs/data/progress}
data=${EULERDECK_DATA:-docs/data}
mkdir -p "$out"
for store in "$R"/stores/*; do
  [ -d "$store" ] || continue
  name=$(basename "$store")
  # A reform search (record_queue.sh's `search` jobs): its documents as they
  # are, one per category of a contest.
  case "$name" in
    reform-*)
      find "$store" -name reform-search.json | while read -r doc; do
        rel=${doc#"$store"/}
        mkdir -p "$out/$name/$(dirname "$rel")"
        cp "$doc" "$out/$name/$rel"
      done
      continue
      ;;
  esac
  csv="$data/${name%-[AB]}.csv"
  if [ -e "$csv" ]; then
    # A removed job's file holds both runs and an "agree" column: a
    # disagreement keeps its progress saved.
    case "$name" in
      removed-*) grep -q ',no$' "$csv" || continue ;;
      *) continue ;;
    esac
  fi
  state=$("$E" status --store "$store" --json | python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["kind"], j["state"])')
  case "$state" in
    count\ * | removed\ *)
      "$E" export --store "$store" --progress "$out/$name.json" || echo "record_save: $name: nothing to save yet" >&2
      [ -s "$R/sessions/$name" ] && cp "$R/sessions/$name" "$out/$name.sessions"
      ;;
  esac
done
