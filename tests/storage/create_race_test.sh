#!/usr/bin/env bash
# Two creators of one new store (issue 42, A2): `count --store D` and
# `count --store D` (and the same with `run`) started together. Exactly one
# creates the store; the other is refused (exit 2, one line) or finds the
# store already made and finishes it; either way one store remains, complete,
# with its parameters, equal to the plain count, and no creation directory is
# left beside it.
# Usage: create_race_test.sh BUILD_DIR [--long]   (--long: 50 trials of each)
set -u
E="$1/eulerdeck"
LONG=0
[ "${2:-}" = "--long" ] && LONG=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
trials=$([ "$LONG" -eq 1 ] && echo 50 || echo 8)

# The levels of a store, from its status (one per line), or a failure.
levels_of() {
  "$E" status --store "$1" --json | python3 -c '
import json, sys
j = json.load(sys.stdin)
assert j["complete"], "not complete"
for l in j["levels"]:
    print(l["level"], l["winning_sub_decks"])'
}

"$E" count --game mousetrap --ranks 11 --store "$tmp/ref-count" -q >/dev/null 2>&1
"$E" run --game mousetrap --ranks 11 --store "$tmp/ref-run" -q >/dev/null 2>&1
for cmd in count run; do
  ref=$(levels_of "$tmp/ref-$cmd") || { echo "FAIL: no reference $cmd"; exit 1; }
  refused=0
  for i in $(seq 1 "$trials"); do
    store="$tmp/$cmd-$i"
    "$E" "$cmd" --game mousetrap --ranks 11 --store "$store" -q >"$tmp/out1" 2>"$tmp/err1" &
    p1=$!
    "$E" "$cmd" --game mousetrap --ranks 11 --store "$store" -q >"$tmp/out2" 2>"$tmp/err2" &
    p2=$!
    wait "$p1"; rc1=$?
    wait "$p2"; rc2=$?
    ok=0
    for n in 1 2; do
      rc=$([ "$n" -eq 1 ] && echo "$rc1" || echo "$rc2")
      if [ "$rc" -eq 0 ]; then
        ok=$((ok + 1))
      elif [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err$n")" -eq 1 ] && [ ! -s "$tmp/out$n" ]; then
        refused=$((refused + 1))
      else
        echo "FAIL ($cmd race $i): creator $n rc=$rc: $(cat "$tmp/err$n")"; fail=1
      fi
    done
    [ "$ok" -ge 1 ] || { echo "FAIL ($cmd race $i): neither creator finished (rc $rc1, $rc2)"; fail=1; }
    got=$(levels_of "$store" 2>&1)
    [ "$got" = "$ref" ] || { echo "FAIL ($cmd race $i): the store is not the plain $cmd's: $got"; fail=1; }
    if ls -A "$tmp" | grep -q "^\.$cmd-$i\.creating"; then
      echo "FAIL ($cmd race $i): a creation directory is left: $(ls -A "$tmp" | grep creating)"; fail=1
    fi
    rm -rf "$store"
  done
  echo "create_race_test: $cmd: $trials races, $refused creators refused"
done

# A creator killed while it builds leaves a directory that the next creator
# removes; a creator at work is never disturbed by another's cleanup.
mkdir "$tmp/.left.creating.AbCdEf" && touch "$tmp/.left.creating.AbCdEf/CURRENT"
"$E" run --game mousetrap --ranks 9 --store "$tmp/left" -q >/dev/null 2>"$tmp/err" || { echo "FAIL (leftover): $(cat "$tmp/err")"; fail=1; }
[ -e "$tmp/.left.creating.AbCdEf" ] && { echo "FAIL (leftover): an abandoned creation directory stays"; fail=1; }

[ "$fail" -eq 0 ] && echo "create_race_test: all checks passed"
exit "$fail"
