#!/usr/bin/env bash
# Interrupting a stored run, and what status says about it (issue 13): a
# running run is "running" with live progress; Ctrl-C (SIGINT) or SIGTERM
# stops it at a consistent point with one line that names the command to
# continue, exit 130/143; status then says "interrupted"; resume finishes the
# identical store. A run killed with -9 is "interrupted" too.
# Usage: interrupt_test.sh BUILD_DIR
set -u
E="$1/eulerdeck"
tmp=$(mktemp -d)
pid=0
trap '[ "$pid" -ne 0 ] && kill -9 "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0
GAME=(--game mousetrap --ranks 12)

levels_of() {
  "$E" status --store "$1" --json | python3 -c '
import json, sys
j = json.load(sys.stdin)
assert j["complete"] and j["state"] == "complete", j["state"]
for l in j["levels"]:
    print(l["level"], l["entries"], l["blocks"], l["stored_bytes"], l["checksum"])'
}
state_of() { "$E" status --store "$1" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["state"])'; }

"$E" run "${GAME[@]}" --store "$tmp/ref" >/dev/null 2>&1
REF=$(levels_of "$tmp/ref")

# start STORE: a run in the background, observed once it is past level 9.
start() {
  "$E" run "${GAME[@]}" --store "$1" --threads 1 --checkpoint-seconds 1 >/dev/null 2>"$tmp/err" &
  pid=$!
  for _ in $(seq 1 200); do
    "$E" status --store "$1" --json 2>/dev/null | grep -q '"live":{[^}]*"level":1[0-2]' && return 0
    sleep 0.05
  done
  echo "FAIL: the run never showed live progress past level 9"; fail=1
}

for sig in INT TERM; do
  store="$tmp/s-$sig"
  start "$store"
  text=$("$E" status --store "$store")
  if ! echo "$text" | grep -q "^state      running (pid $pid, since .*): level 1[0-2] of 12, input block"; then
    echo "FAIL ($sig): status of a running run: $(echo "$text" | grep state)"; fail=1
  fi
  kill -"$sig" "$pid"
  wait "$pid"; rc=$?; pid=0
  want=$([ "$sig" = INT ] && echo 130 || echo 143)
  if [ "$rc" -ne "$want" ] ||
     ! grep -q "^eulerdeck run: interrupted during level 1[0-2] at input block [0-9]* of [0-9]* (checkpoint saved); continue with \`eulerdeck resume --store $store\`$" "$tmp/err"; then
    echo "FAIL (SIG$sig): rc=$rc $(grep -v '^run:' "$tmp/err")"; fail=1
  fi
  [ "$(state_of "$store")" = interrupted ] || { echo "FAIL (SIG$sig): state $(state_of "$store")"; fail=1; }
  "$E" status --store "$store" | grep -q "^state      interrupted during level 1[0-2], last checkpoint .* ago; continue with" ||
    { echo "FAIL (SIG$sig): status text: $("$E" status --store "$store" | grep state)"; fail=1; }
  [ -e "$store/LIVE" ] && { echo "FAIL (SIG$sig): LIVE left behind"; fail=1; }
  "$E" resume --store "$store" >/dev/null 2>&1 || { echo "FAIL (SIG$sig): resume"; fail=1; }
  [ "$(levels_of "$store" 2>&1)" = "$REF" ] || { echo "FAIL (SIG$sig): the resumed store differs"; fail=1; }
done

# kill -9: no message, but status knows it is not running.
store="$tmp/s-KILL"
start "$store"
kill -9 "$pid"; wait "$pid" 2>/dev/null; pid=0
[ "$(state_of "$store")" = interrupted ] || { echo "FAIL (SIGKILL): state $(state_of "$store")"; fail=1; }

[ "$fail" -eq 0 ] && echo "interrupt_test: all checks passed"
exit "$fail"
