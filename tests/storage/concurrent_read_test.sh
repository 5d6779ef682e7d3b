#!/usr/bin/env bash
# Readers while a run writes (issue 12, item 5): status, inspect, export and
# verify against a store that a run rewrites as fast as it can (checkpoints
# after every input block, a 16 MiB budget, so flushes, compactions and file
# deletions never stop). Every read must succeed: the writer's deletions are
# not damage, and verify must find what it reads consistent (the level in
# progress included, up to its checkpoint).
# Usage: concurrent_read_test.sh BUILD_DIR [--long]
set -u
E="$1/eulerdeck"
READS=500
RANKS=11
[ "${2:-}" = "--long" ] && READS=3000 && RANKS=12
tmp=$(mktemp -d)
writer=0
trap '[ "$writer" -ne 0 ] && kill "$writer" 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0
errors=0
. "$(dirname "$0")/../support/wait_for.sh"

start_writer() {  # a new store each time, so the run is always writing
  rm -rf "$tmp/s"
  "$E" run --game mousetrap --ranks "$RANKS" --store "$tmp/s" --threads 1 --checkpoint-seconds 0 \
    --memory-budget 16MiB >/dev/null 2>"$tmp/writer.err" &
  writer=$!
  # The readers start once the store exists (a writer that ended first is
  # seen by the loop below).
  wait_for "$writer" [ -e "$tmp/s/CURRENT" ]
}

reads=0
writes=0
start_writer
# Also bounded by wall time (4 min, 50 with --long), with at least 100
# reads: every read is a new process, and a slow machine must not reach
# ctest's timeout.
LIMIT=$([ "${2:-}" = "--long" ] && echo 3000 || echo 240)
while [ "$reads" -lt "$READS" ] && { [ "$reads" -lt 100 ] || [ "$SECONDS" -lt "$LIMIT" ]; }; do
  if ! kill -0 "$writer" 2>/dev/null; then
    wait "$writer" || { echo "FAIL: the writer failed: $(cat "$tmp/writer.err")"; fail=1; break; }
    writes=$((writes + 1))
    start_writer
  fi
  level=$(( RANDOM % 9 + 1 ))
  case $(( reads % 10 )) in
    0|5) args=(status --store "$tmp/s" --json) ;;
    1|6) args=(inspect --store "$tmp/s" --level "$level" --limit 50) ;;
    2|7) args=(export --store "$tmp/s" --counts "$tmp/counts.csv" --partial) ;;
    3|8) args=(export --store "$tmp/s" --level "$level" --decks "$tmp/decks.csv") ;;
    4) args=(verify --store "$tmp/s") ;;
    9) args=(status --store "$tmp/s") ;;
  esac
  "$E" "${args[@]}" >/dev/null 2>"$tmp/err"
  rc=$?
  # inspect/export of a level not committed yet is the user's error (2),
  # correctly said; anything else must succeed.
  if [ "$rc" -ne 0 ] && ! { [ "$rc" -eq 2 ] && grep -q "not committed\|is not kept\|is not in the store" "$tmp/err"; }; then
    errors=$((errors + 1))
    echo "FAIL (read $reads: ${args[0]}): rc=$rc $(head -c 300 "$tmp/err")"
    fail=1
  fi
  reads=$((reads + 1))
done
kill "$writer" 2>/dev/null; wait "$writer" 2>/dev/null; writer=0
echo "concurrent_read_test: $reads reads during $((writes + 1)) runs, $errors errors"
exit "$fail"
