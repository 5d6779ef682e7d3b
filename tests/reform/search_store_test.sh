#!/usr/bin/env bash
# The long reform search (issue 44): `reform-search --store DIR`.
# - kill -9 while it searches, then `eulerdeck resume --store DIR`: the best
#   at the end is at least as good as the one checkpointed before the kill,
#   and replays to its length with `eulerdeck reform`;
# - Ctrl-C and SIGTERM: exit 130 / 143, the best so far printed, the store
#   resumable;
# - refusals (another game, another seed, a store in use): one line, exit 2,
#   the document unchanged; a damaged document: one line, exit 1 (damage);
# - with --mpi (its own ctest entry, reform_search_store_mpi), only this:
#   mpirun -np 2 gives a valid best deck; skipped (exit 77) in a build
#   without MPI or without mpirun on PATH.
# Usage: search_store_test.sh BUILD_DIR MPI_BUILT(ON|OFF) [--mpi]
set -u
E="$1/eulerdeck"
MPI_BUILT="${2:-OFF}"
tmp=$(mktemp -d)
pid=0
trap '[ "$pid" -gt 0 ] && kill -9 "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0
game=(--game modular --ranks 13)

# The best of a store's document: "cyclic length deck".
best_of() {
  python3 -c '
import json, sys
j = json.load(open(sys.argv[1] + "/reform-search.json"))
b = j["best"]
print("cyclic" if b["score"]["cyclic"] else "dead-end", b["score"]["length"], b["deck"])' "$1"
}
# True when $1's document has a best (a checkpoint with a deck was written).
has_best() {
  [ -s "$1/reform-search.json" ] && python3 -c '
import json, sys
sys.exit(0 if json.load(open(sys.argv[1] + "/reform-search.json"))["best"] else 1)' "$1" 2>/dev/null
}
# wait_for PID TEST...: TEST until it succeeds while PID lives.
. "$(dirname "$0")/../support/wait_for.sh"
# The length the deck "$2" of game "$1..." replays to, by `eulerdeck reform`.
replays_to() {
  "$E" reform "${game[@]}" --deck "$1" --json | python3 -c '
import json, sys; print(json.load(sys.stdin)["length"])'
}

if [ "${3:-}" = --mpi ]; then
  [ "$MPI_BUILT" = ON ] || { echo "SKIPPED mpirun: built without MPI"; exit 77; }
  command -v mpirun >/dev/null || { echo "SKIPPED mpirun: no mpirun on PATH"; exit 77; }
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  got=$(mpirun --oversubscribe -np 2 "$E" reform-search "${game[@]}" --seconds 4 --threads 1 \
    --store "$tmp/mpi" --json -q 2>"$tmp/err" |
    python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["length"], " ".join(map(str, j["deck"])))')
  len=${got%% *}
  deck=${got#* }
  if [ -z "$got" ] || [ "$(replays_to "$deck")" != "$len" ] || [ "$len" -lt 100 ]; then
    echo "FAIL (mpirun -np 2): '$got' ($(head -3 "$tmp/err"))"; fail=1
  else
    echo "ok   mpirun -np 2: best $len, replays"
  fi
  exit $fail
fi

# kill -9, three times, then resume to the end.
store="$tmp/kill"
for k in 1 2 3; do
  "$E" reform-search "${game[@]}" --seconds 12 --threads 2 --store "$store" \
    --checkpoint-seconds 0.2 -q >/dev/null 2>&1 &
  pid=$!
  wait_for "$pid" has_best "$store"
  sleep 1
  kill -9 "$pid"
  wait "$pid" 2>/dev/null
  pid=0
  before=$(best_of "$store")
done
"$E" status --store "$store" | grep -q "^state      interrupted: .*continue with .eulerdeck resume --store $store." ||
  { echo "FAIL (kill -9): status: $("$E" status --store "$store" 2>&1 | sed -n 4p)"; fail=1; }
out=$("$E" resume --store "$store" -q --threads 2 2>"$tmp/err")
rc=$?
after=$(best_of "$store")
read -r c1 l1 _ <<<"$before"
read -r c2 l2 d2 <<<"$after"
if [ "$rc" -ne 0 ] || [ "$c2" != cyclic ] || [ "$l2" -lt "$l1" ]; then
  echo "FAIL (kill -9): rc $rc, before '$before', after '$after' ($(head -2 "$tmp/err"))"; fail=1
fi
[ "$(replays_to "$d2")" = "$l2" ] || { echo "FAIL (kill -9): the best deck does not replay to $l2"; fail=1; }
if ! echo "$out" | grep -q "finished"; then
  echo "FAIL (kill -9): the resumed search did not say it finished: '$out'"; fail=1
fi
restarts=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]+"/reform-search.json"))["restarts"])' "$store")
[ "$restarts" -ge 3 ] || { echo "FAIL (kill -9): $restarts restarts recorded, expected >= 3"; fail=1; }
[ "$("$E" status --store "$store" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["state"])')" = finished ] ||
  { echo "FAIL (kill -9): status --json does not say finished"; fail=1; }
echo "ok   kill -9 three times, resumed: best $l2 (was $l1 before the last kill), replays"

# Ctrl-C and SIGTERM. (A background job of a non-interactive shell starts
# with SIGINT ignored; the signal is sent once the search has its handler.)
catches() {  # catches PID SIG: PID has its handler for SIG installed
  local bit=$(( 1 << ($(kill -l "$2") - 1) )) caught
  caught=$(sed -n 's/^SigCgt:\t*//p' "/proc/$1/status" 2>/dev/null) &&
    [ -n "$caught" ] && (( 0x$caught & bit ))
}
for sig in INT TERM; do
  store="$tmp/signal-$sig"
  "$E" reform-search "${game[@]}" --seconds 60 --store "$store" --checkpoint-seconds 0.2 \
    >"$tmp/out" 2>"$tmp/err" &
  pid=$!
  wait_for "$pid" catches "$pid" "$sig" && wait_for "$pid" has_best "$store"
  kill -"$sig" "$pid"
  wait "$pid"; rc=$?; pid=0
  want=$([ "$sig" = INT ] && echo 130 || echo 143)
  if [ "$rc" -ne "$want" ] || ! grep -q "^deck " "$tmp/out" ||
    ! grep -q "resume with the same command" "$tmp/out"; then
    echo "FAIL (SIG$sig): exit $rc, '$(cat "$tmp/out" "$tmp/err")'"; fail=1
  fi
  read -r _ l1 _ <<<"$(best_of "$store")"
  got=$("$E" reform-search "${game[@]}" --seconds 3 --store "$store" --json -q 2>/dev/null |
    python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["length"], j["finished"])')
  [ "${got% *}" -ge "$l1" ] && [ "${got#* }" = True ] ||
    { echo "FAIL (SIG$sig): resumed with a 3 s budget to '$got' (best was $l1)"; fail=1; }
done
echo "ok   Ctrl-C (130) and SIGTERM (143): the best printed, the store resumed"

# Refusals: one line, exit 2, the document unchanged.
store="$tmp/signal-INT"
sum=$(md5sum <"$store/reform-search.json")
refuse() {  # refuse WHAT ARGS...
  local what=$1
  shift
  "$E" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] || [ -s "$tmp/out" ] ||
    [ "$(md5sum <"$store/reform-search.json")" != "$sum" ]; then
    echo "FAIL (refuse $what): exit $rc, '$(cat "$tmp/err")'"; fail=1
  fi
}
refuse "another game" reform-search --game modular --ranks 14 --store "$store"
refuse "another seed" reform-search "${game[@]}" --seed 7 --store "$store"
refuse "--seconds and --hours" reform-search "${game[@]}" --seconds 5 --hours 1 --store "$store"
"$E" reform-search "${game[@]}" --seconds 30 --store "$store" -q >/dev/null 2>&1 &
pid=$!
locked() { ! flock -n "$store/LOCK" true; }
wait_for "$pid" locked || { echo "FAIL (refuse a store in use): the search never took its lock"; fail=1; }
sum=$(md5sum <"$store/reform-search.json")
"$E" reform-search "${game[@]}" --store "$store" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "in use by another process" "$tmp/err" ||
  { echo "FAIL (refuse a store in use): exit $rc, '$(cat "$tmp/err")'"; fail=1; }
kill -9 "$pid"; wait "$pid" 2>/dev/null; pid=0
sum=$(md5sum <"$store/reform-search.json")
mkdir -p "$tmp/other" && echo x >"$tmp/other/file"
"$E" reform-search "${game[@]}" --store "$tmp/other" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ "$(cat "$tmp/other/file")" = x ] ||
  { echo "FAIL (refuse a directory of something else): '$(cat "$tmp/err")'"; fail=1; }
cp "$store/reform-search.json" "$tmp/good.json"
head -c 200 "$tmp/good.json" >"$store/reform-search.json"
sum=$(md5sum <"$store/reform-search.json")
"$E" reform-search "${game[@]}" --store "$store" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -ne 1 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] || [ -s "$tmp/out" ] ||
  [ "$(md5sum <"$store/reform-search.json")" != "$sum" ]; then
  echo "FAIL (a damaged document): exit $rc, '$(cat "$tmp/err")'"; fail=1
fi
echo "ok   refusals: another game, another seed, a store in use: one line, exit 2; a damaged document: exit 1; unchanged"

# A document copied into an empty directory on another machine resumes there.
mkdir -p "$tmp/moved" && cp "$tmp/good.json" "$tmp/moved/reform-search.json"
got=$("$E" reform-search "${game[@]}" --store "$tmp/moved" --json -q 2>/dev/null | python3 -c '
import json,sys; j=json.load(sys.stdin); print(j["restarts"])')
[ -n "$got" ] && [ "$got" -ge 1 ] || { echo "FAIL (moved document): '$got'"; fail=1; }
echo "ok   a document copied to an empty directory resumes"

# A contest in a store, Ctrl-C after its first categories, then `eulerdeck
# resume --store`: every category, each with the contest's time.
contest="$tmp/contest"
"$E" reform-search --contest --seconds 0.3 --threads 2 --store "$contest" >"$tmp/out" 2>"$tmp/err" &
pid=$!
begun() { [ -s "$contest/mousetrap-12/reform-search.json" ]; }
wait_for "$pid" catches "$pid" INT && wait_for "$pid" begun
kill -INT "$pid"
wait "$pid"; rc=$?; pid=0
out=$("$E" resume --store "$contest" --threads 2 2>"$tmp/err2")
rc2=$?
budget=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["budget_seconds"])' "$contest/modular-25/reform-search.json")
if [ "$rc" -ne 130 ] || [ "$rc2" -ne 0 ] || ! echo "$out" | tail -1 | grep -q "(30 categories)$" ||
  [ "$budget" != 0.3 ]; then
  echo "FAIL (contest): exit $rc then $rc2, budget '$budget', '$(echo "$out" | tail -1)' ($(head -2 "$tmp/err2"))"; fail=1
fi
echo "ok   a stored contest interrupted (130) and resumed: 30 categories, 0.3 s each"

exit $fail
