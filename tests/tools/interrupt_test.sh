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
. "$(dirname "$0")/../support/wait_for.sh"

levels_of() {
  "$E" status --store "$1" --json | python3 -c '
import json, sys
j = json.load(sys.stdin)
assert j["complete"] and j["state"] == "complete", j["state"]
for l in j["levels"]:
    print(l["level"], l["winning_sub_decks"], l["blocks"], l["stored_bytes"], l["checksum"])'
}
state_of() { "$E" status --store "$1" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["state"])'; }

"$E" run "${GAME[@]}" --store "$tmp/ref" >/dev/null 2>&1
REF=$(levels_of "$tmp/ref")

# start STORE: a run in the background, observed once it is past level 9.
start() {
  "$E" run "${GAME[@]}" --store "$1" --threads 1 --checkpoint-seconds 1 >/dev/null 2>"$tmp/err" &
  pid=$!
  wait_for "$pid" past_level_9 "$1" && return 0
  echo "FAIL: the run never showed live progress past level 9"; fail=1
}
past_level_9() { "$E" status --store "$1" --json 2>/dev/null | grep -q '"live":{[^}]*"level":1[0-2]'; }

for sig in INT TERM; do
  store="$tmp/s-$sig"
  start "$store"
  text=$("$E" status --store "$store")
  if ! echo "$text" | grep -q "^state      running (pid $pid, since .*): levels\? 1[0-2]\(-1[0-2]\)\? of 12, input block"; then
    echo "FAIL ($sig): status of a running run: $(echo "$text" | grep state)"; fail=1
  fi
  kill -"$sig" "$pid"
  wait "$pid"; rc=$?; pid=0
  want=$([ "$sig" = INT ] && echo 130 || echo 143)
  if [ "$rc" -ne "$want" ] ||
     ! grep -q "^eulerdeck run: interrupted during levels\? 1[0-2]\(-1[0-2]\)\? at input block [0-9]* of [0-9]* (checkpoint saved); continue with \`eulerdeck resume --store $store\`$" "$tmp/err"; then
    echo "FAIL (SIG$sig): rc=$rc $(grep -v '^run:' "$tmp/err")"; fail=1
  fi
  [ "$(state_of "$store")" = interrupted ] || { echo "FAIL (SIG$sig): state $(state_of "$store")"; fail=1; }
  "$E" status --store "$store" | grep -q "^state      interrupted during levels\? 1[0-2]\(-1[0-2]\)\?, last checkpoint .* ago; continue with" ||
    { echo "FAIL (SIG$sig): status text: $("$E" status --store "$store" | grep state)"; fail=1; }
  # The live file stays as the trace of a run that ended short (status's
  # "interrupted" even between two levels); the run that finishes removes it.
  [ -e "$store/LIVE" ] || { echo "FAIL (SIG$sig): no LIVE left as the trace"; fail=1; }
  "$E" resume --store "$store" >/dev/null 2>&1 || { echo "FAIL (SIG$sig): resume"; fail=1; }
  [ -e "$store/LIVE" ] && { echo "FAIL (SIG$sig): LIVE left after the run finished"; fail=1; }
  [ "$(levels_of "$store" 2>&1)" = "$REF" ] || { echo "FAIL (SIG$sig): the resumed store differs"; fail=1; }
done

# kill -9: no message, but status knows it is not running.
store="$tmp/s-KILL"
start "$store"
kill -9 "$pid"; wait "$pid" 2>/dev/null; pid=0
[ "$(state_of "$store")" = interrupted ] || { echo "FAIL (SIGKILL): state $(state_of "$store")"; fail=1; }

# count, brute and cardlab mc (issue 13): SIGINT/SIGTERM stop them at a
# consistent point with one line saying how far they got and the command to
# run (count and brute are not resumable), exit 130/143; mc prints its
# estimate so far, exactly what --decks N gives for the N decks it played.
C="$1/cardlab"
# interrupt SIG SECONDS CMD...: runs CMD, sends SIG SECONDS after CMD
# catches it; sets rc, $tmp/out and $tmp/err. (The SECONDS count from the
# handler, not from the start: a signal before it would kill the job, or,
# SIGINT to a background job, be ignored, however slow the machine.)
interrupt() {
  local sig="$1" after="$2"; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err" &
  pid=$!
  # (A job that ended or never caught it still gets the signal: rc shows it.)
  wait_for "$pid" catches "$pid" "$(basename "$1" | cut -c1-15)" "$sig"
  sleep "$after"
  kill -"$sig" "$pid"
  wait "$pid"; rc=$?; pid=0
}
# catches PID NAME SIG: process PID runs NAME (until the exec it is bash,
# which catches SIGTERM itself) and has its handler for SIG installed.
catches() {
  local bit=$(( 1 << ($(kill -l "$3") - 1) )) caught
  [ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$2" ] &&
    caught=$(sed -n 's/^SigCgt:\t*//p' "/proc/$1/status" 2>/dev/null) &&
    [ -n "$caught" ] && (( 0x$caught & bit ))
}
# same_as WHAT N DROP CMD...: what the interrupted job printed ($tmp/out),
# less the lines DROP matches, is what CMD prints: the same job asked for
# exactly the N units (decks, samples) it had done.
same_as() {
  local what="$1" n="$2" drop="$3"
  shift 3
  if [ -z "$n" ] || [ "$n" -eq 0 ]; then
    echo "FAIL ($what): nothing done: $(cat "$tmp/out")"; fail=1; return
  fi
  "$@" 2>/dev/null | grep -v "$drop" >"$tmp/same"
  grep -v "$drop" "$tmp/out" | diff -q - "$tmp/same" >/dev/null ||
    { echo "FAIL ($what): the results are not those of the job asked for $n"; fail=1; }
}
expect_stop() {  # expect_stop WHAT WANT_RC PATTERN: rc and the last stderr line
  if [ "$rc" -ne "$2" ] || ! tail -1 "$tmp/err" | grep -Eq -- "$3"; then
    echo "FAIL ($1): rc=$rc $(tail -1 "$tmp/err")"; fail=1
  fi
}

interrupt INT 1 "$E" count --game mousetrap --ranks 14 --threads 1
expect_stop "count SIGINT" 130 '^eulerdeck count: interrupted after [0-9,]+ of [0-9,]+ subtrees \([0-9.]+%\); without --store a count is not resumable, run again: `eulerdeck count --game mousetrap --ranks 14 --threads 1`$'
[ -s "$tmp/out" ] && { echo "FAIL (count SIGINT): printed a result"; fail=1; }

# A range: the sizes done are printed (valid JSON lines), the rest is named.
interrupt TERM 1 "$E" count --game mousetrap --ranks 10..14 --threads 1 --json
expect_stop "count range SIGTERM" 143 '^eulerdeck count: --ranks 1[0-4]: interrupted after .*; without --store a count is not resumable, run again: `eulerdeck count --game mousetrap --ranks 1[0-4]\.\.14 --threads 1 --json`$'
at=$(tail -1 "$tmp/err" | sed -n 's/^eulerdeck count: --ranks \([0-9]*\):.*/\1/p')
python3 -c '
import json, sys
ranks = [json.loads(l)["ranks"] for l in open(sys.argv[1])]
assert ranks == list(range(10, int(sys.argv[2]))), ranks' "$tmp/out" "${at:-0}" ||
  { echo "FAIL (count range SIGTERM): the sizes printed before ${at:-?}"; fail=1; }

interrupt INT 1 "$E" brute --game mousetrap --ranks 12
expect_stop "brute SIGINT" 130 '^eulerdeck brute: interrupted after [0-9]+ of 479001600 decks \([0-9.]+%\); brute force is not resumable, run again: `eulerdeck brute --game mousetrap --ranks 12`$'
[ -s "$tmp/out" ] && { echo "FAIL (brute SIGINT): printed a result"; fail=1; }
interrupt TERM 1 "$E" brute --game mousetrap --ranks 12 --csv "$tmp/brute.csv"
expect_stop "brute SIGTERM" 143 '^eulerdeck brute: interrupted after'
[ -e "$tmp/brute.csv" ] || [ -e "$tmp/brute.csv.partial" ] &&
  { echo "FAIL (brute SIGTERM): left a CSV file"; fail=1; }

# mc --until-ci with an unreachable target: Ctrl-C prints the estimate so
# far, the same as --decks N.
MC=(mc --game mousetrap --ranks 12 --until-ci 0.0000001)
interrupt INT 1 "$C" "${MC[@]}"
expect_stop "mc SIGINT" 130 '^cardlab mc: interrupted after [0-9]+ decks; the results printed are those of decks 0\.\.[0-9]+ of seed 1 \(what --decks [0-9]+ gives\)$'
n=$(sed -n 's/^decks played  *\([0-9,]*\) (seed 1)$/\1/p' "$tmp/out" | tr -d ,)
grep -q "^stop  *interrupted$" "$tmp/out" && grep -q "^win  *[0-9,]* decks, p = " "$tmp/out" ||
  { echo "FAIL (mc SIGINT): no estimate printed: $(cat "$tmp/out")"; fail=1; }
same_as "mc SIGINT" "$n" "^stop " "$C" mc --game mousetrap --ranks 12 --decks "$n"
interrupt TERM 1 "$C" "${MC[@]}" --json --csv "$tmp/mc.csv"
expect_stop "mc SIGTERM" 143 '^cardlab mc: interrupted after [0-9]+ decks'
grep -q '"stop_reason":"interrupted"' "$tmp/out" && [ "$(wc -l <"$tmp/out")" -eq 1 ] ||
  { echo "FAIL (mc SIGTERM): JSON $(cat "$tmp/out")"; fail=1; }
grep -q "^mousetrap,12,1,win,1," "$tmp/mc.csv" || { echo "FAIL (mc SIGTERM): CSV of the decks played"; fail=1; }

# estimate (a width-1000 sample of hlm 13x4 takes tens of milliseconds):
# Ctrl-C prints the estimate of the samples drawn, exactly what --samples N
# gives for those N; SIGTERM the same as JSON, marked interrupted.
EST=(estimate --game hlm --ranks 13 --suits 4 --samples 1000000)
interrupt INT 2 "$E" "${EST[@]}"
expect_stop "estimate SIGINT" 130 '^eulerdeck estimate: interrupted after [0-9]+ samples; the results printed are those of samples 0\.\.[0-9]+ of seed 1 \(what --samples [0-9]+ gives\); an estimate is not resumable$'
n=$(sed -n 's/^samples  *\([0-9]*\) of width .*/\1/p' "$tmp/out")
grep -q "^stop  *interrupted" "$tmp/out" && grep -q "^winning decks  *[0-9.e+]* +- " "$tmp/out" ||
  { echo "FAIL (estimate SIGINT): no estimate printed: $(cat "$tmp/out")"; fail=1; }
same_as "estimate SIGINT" "$n" "^stop \|^time " "$E" "${EST[@]:0:7}" --samples "$n"
interrupt TERM 2 "$E" "${EST[@]}" --json --csv "$tmp/est.csv"
expect_stop "estimate SIGTERM" 143 '^eulerdeck estimate: interrupted after [0-9]+ samples'
python3 -c '
import json, sys
j = json.loads(open(sys.argv[1]).read())
assert j["interrupted"] is True and int(j["samples"]) > 0, j' "$tmp/out" ||
  { echo "FAIL (estimate SIGTERM): JSON $(cat "$tmp/out")"; fail=1; }
grep -q "^hlm,13,4,52," "$tmp/est.csv" || { echo "FAIL (estimate SIGTERM): CSV of the samples drawn"; fail=1; }

# cardlab memory solitaire (issue 42, B1): Ctrl-C stops after the row under
# way and prints the results of the rows done, exactly what --n for the last
# of them gives; SIGTERM the same as JSON and CSV. (Exact n = 8000 takes
# minutes; n of a thousand or two is reached in a second. Small enough that
# a survey that ignores the signal ends in minutes rather than hangs.)
SOL=(memory solitaire --n 8000 --every 500)
interrupt INT 1 "$C" "${SOL[@]}"
expect_stop "memory solitaire SIGINT" 130 '^cardlab memory solitaire: interrupted after n = [0-9]+ of 8000; the results are those of n = 1\.\.[0-9]+ \(what --n [0-9]+ gives\)$'
[ "$(grep -vc '^solitaire: ' "$tmp/err")" -eq 1 ] ||
  { echo "FAIL (memory solitaire SIGINT): not one line: $(cat "$tmp/err")"; fail=1; }
n=$(tail -1 "$tmp/err" | sed -n 's/.*(what --n \([0-9]*\) gives)$/\1/p')
grep -q "^limit  lim e(n,0)/n in " "$tmp/out" ||
  { echo "FAIL (memory solitaire SIGINT): no results printed: $(cat "$tmp/out")"; fail=1; }
same_as "memory solitaire SIGINT" "$n" "^$" "$C" "${SOL[@]:0:2}" --n "$n" --every 500
interrupt TERM 1 "$C" "${SOL[@]}" --json --csv "$tmp/sol.csv"
expect_stop "memory solitaire SIGTERM" 143 '^cardlab memory solitaire: interrupted after n = [0-9]+ of 8000; the results are those of n = 1\.\.[0-9]+'
n=$(tail -1 "$tmp/err" | sed -n 's/.*(what --n \([0-9]*\) gives)$/\1/p')
python3 -c '
import json, sys
j = json.loads(open(sys.argv[1]).read())
assert j["n"] == int(sys.argv[2]) and j["rows"][-1]["n"] == j["n"], (j["n"], sys.argv[2])' "$tmp/out" "${n:-0}" ||
  { echo "FAIL (memory solitaire SIGTERM): JSON $(head -c 300 "$tmp/out")"; fail=1; }
tail -1 "$tmp/sol.csv" | grep -q "^standard,0,${n:-x}," ||
  { echo "FAIL (memory solitaire SIGTERM): CSV does not end at n = $n"; fail=1; }

# eulerdeck oeis (issue 42, B1): Ctrl-C keeps the terms finished. The b-file
# holds exactly them (its terms are those of a b-file computed to the last
# of them), marked interrupted; standard output likewise gets the terms done.
# (A007709(14) takes tens of seconds on one thread.)
OE=(oeis A007709 --to 16 --threads 1)
interrupt INT 2 "$E" "${OE[@]}" --bfile "$tmp/b.txt"
expect_stop "oeis SIGINT" 130 "^eulerdeck oeis: interrupted during n = [0-9]+ of 1\.\.16; the terms of n = 1\.\.[0-9]+ are written to $tmp/b\.txt; not resumable, run again: \`eulerdeck oeis A007709 --to 16 --threads 1 --bfile $tmp/b\.txt\`\$"
[ "$(grep -vc '^oeis A007709: \|^forecast ' "$tmp/err")" -eq 1 ] ||
  { echo "FAIL (oeis SIGINT): not one line: $(cat "$tmp/err")"; fail=1; }
k=$(tail -1 "$tmp/err" | sed -n 's/.*the terms of n = 1\.\.\([0-9]*\) are written.*/\1/p')
"$E" oeis A007709 --to "${k:-1}" -q 2>/dev/null | grep -v '^#' >"$tmp/b-ref.txt"
if [ -z "$k" ] || [ "$k" -lt 1 ] || ! grep -v '^#' "$tmp/b.txt" | diff -q - "$tmp/b-ref.txt" >/dev/null ||
   ! grep -q "^# Interrupted during n = $((k + 1)): the terms of n = 1\.\.$k only\.$" "$tmp/b.txt"; then
  echo "FAIL (oeis SIGINT): the b-file is not the terms of n = 1..$k: $(cat "$tmp/b.txt" 2>&1)"; fail=1
fi
[ -e "$tmp/b.txt.partial" ] && { echo "FAIL (oeis SIGINT): left b.txt.partial"; fail=1; }
interrupt TERM 2 "$E" "${OE[@]}"
expect_stop "oeis SIGTERM" 143 '^eulerdeck oeis: interrupted during n = [0-9]+ of 1\.\.16; the terms of n = 1\.\.[0-9]+ are written; not resumable'
k=$(tail -1 "$tmp/err" | sed -n 's/.*the terms of n = 1\.\.\([0-9]*\) are written.*/\1/p')
"$E" oeis A007709 --to "${k:-1}" -q 2>/dev/null | grep -v '^#' >"$tmp/b-ref.txt"
[ -n "$k" ] && grep -v '^#' "$tmp/out" | diff -q - "$tmp/b-ref.txt" >/dev/null ||
  { echo "FAIL (oeis SIGTERM): standard output is not the terms of n = 1..$k"; fail=1; }

# eulerdeck verify (issue 42, B1): Ctrl-C (SIGTERM) stops it with one line
# saying how far it read, exit 130 (143); it writes nothing, so the store's
# files are as they were.
vfiles() { (cd "$1" && find . -type f ! -name LOG -printf '%p %s %T@\n' | sort); }
before=$(vfiles "$tmp/s-INT")
for sig in INT TERM; do
  interrupt "$sig" 0.3 "$E" verify --store "$tmp/s-INT"
  want=$([ "$sig" = INT ] && echo 130 || echo 143)
  expect_stop "verify SIG$sig" "$want" '^eulerdeck verify: interrupted after reading .* of .* \([0-9.]+%\), no fault found so far; verify writes nothing: run it again to check the whole store$'
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || { echo "FAIL (verify SIG$sig): not one line: $(cat "$tmp/err")"; fail=1; }
  [ -s "$tmp/out" ] && { echo "FAIL (verify SIG$sig): printed a result"; fail=1; }
done
[ "$(vfiles "$tmp/s-INT")" = "$before" ] || { echo "FAIL (verify): the store's files changed"; fail=1; }

# cardlab memory terminating (issue 42, B1): Ctrl-C stops after the row n
# under way and reports the rows done, exactly what --n for the last of them
# gives; SIGTERM the same as JSON and CSV. (Exact --n 500 takes minutes; a
# hundred rows are done in a second.)
TM=(memory terminating --n 500)
interrupt INT 0.5 "$C" "${TM[@]}"
expect_stop "memory terminating SIGINT" 130 '^cardlab memory terminating: interrupted after n = [0-9]+ of 500; the results are those of n = 1\.\.[0-9]+ \(what --n [0-9]+ gives\)$'
[ "$(grep -vc '^terminating: ' "$tmp/err")" -eq 1 ] ||
  { echo "FAIL (memory terminating SIGINT): not one line: $(cat "$tmp/err")"; fail=1; }
n=$(tail -1 "$tmp/err" | sed -n 's/.*(what --n \([0-9]*\) gives)$/\1/p')
grep -q "^closed forms j <= 4: " "$tmp/out" ||
  { echo "FAIL (memory terminating SIGINT): no results printed: $(cat "$tmp/out")"; fail=1; }
same_as "memory terminating SIGINT" "$n" "^$" "$C" memory terminating --n "${n:-0}"
interrupt TERM 0.5 "$C" "${TM[@]}" --json --csv "$tmp/tm.csv"
expect_stop "memory terminating SIGTERM" 143 '^cardlab memory terminating: interrupted after n = [0-9]+ of 500; the results are those of n = 1\.\.[0-9]+'
n=$(tail -1 "$tmp/err" | sed -n 's/.*(what --n \([0-9]*\) gives)$/\1/p')
python3 -c '
import json, sys
j = json.loads(open(sys.argv[1]).read())
assert j["n"] == int(sys.argv[2]) and len(j["moves"]) == j["n"] + 1, (j["n"], sys.argv[2])' "$tmp/out" "${n:-0}" ||
  { echo "FAIL (memory terminating SIGTERM): JSON $(head -c 300 "$tmp/out")"; fail=1; }
tail -1 "$tmp/tm.csv" | grep -q "^${n:-x},${n:-x}," ||
  { echo "FAIL (memory terminating SIGTERM): CSV does not end at n = $n"; fail=1; }

# cardlab memory combinatorial --random (issue 42, B1): Ctrl-C prints the
# check of the orders done, exactly what --random for their number gives.
CM=(memory combinatorial --random 100000000 --pairs 40)
interrupt INT 1 "$C" "${CM[@]}"
expect_stop "memory combinatorial SIGINT" 130 '^cardlab memory combinatorial: interrupted after [0-9]+ of 100000000 orders; the results are those of the first [0-9]+ orders of seed 1 \(what --random [0-9]+ gives\)$'
[ "$(grep -vc '^combinatorial: ' "$tmp/err")" -eq 1 ] ||
  { echo "FAIL (memory combinatorial SIGINT): not one line: $(cat "$tmp/err")"; fail=1; }
n=$(tail -1 "$tmp/err" | sed -n 's/.*(what --random \([0-9]*\) gives)$/\1/p')
same_as "memory combinatorial SIGINT" "$n" "^$" "$C" memory combinatorial --random "${n:-0}" --pairs 40
interrupt TERM 1 "$C" "${CM[@]}" --json
expect_stop "memory combinatorial SIGTERM" 143 '^cardlab memory combinatorial: interrupted after [0-9]+ of 100000000 orders'
n=$(tail -1 "$tmp/err" | sed -n 's/.*(what --random \([0-9]*\) gives)$/\1/p')
same_as "memory combinatorial SIGTERM" "$n" "^$" "$C" memory combinatorial --random "${n:-0}" --pairs 40 --json

# cardlab dundee (issue 42, B1): the Monte Carlo of greedy and advance stops
# on Ctrl-C with the deals played, exactly what --mc for their number gives
# (the time line aside); optimal-bids keeps the rows done, each complete.
DG=(dundee greedy --deck 4^13 --mc 10000000000)
interrupt INT 1 "$C" "${DG[@]}"
expect_stop "dundee greedy SIGINT" 130 '^cardlab dundee greedy: interrupted after [0-9]+ of 10000000000 deals; the results are those of the deals played \(what --mc [0-9]+ gives\)$'
[ "$(grep -vc '^greedy: \|^time ' "$tmp/err")" -eq 1 ] ||
  { echo "FAIL (dundee greedy SIGINT): not one line: $(cat "$tmp/err")"; fail=1; }
n=$(tail -1 "$tmp/err" | sed -n 's/.*(what --mc \([0-9]*\) gives)$/\1/p')
grep -q "^monte carlo ${n:-x} deals: " "$tmp/out" ||
  { echo "FAIL (dundee greedy SIGINT): no Monte Carlo printed: $(cat "$tmp/out")"; fail=1; }
same_as "dundee greedy SIGINT" "$n" "^$" "$C" dundee greedy --deck 4^13 --mc "${n:-0}"
interrupt TERM 1 "$C" dundee advance --deck 4^13 --bids 4^13 --mc 10000000000 --json
expect_stop "dundee advance SIGTERM" 143 '^cardlab dundee advance: interrupted after [0-9]+ of 10000000000 deals; the results are those of the deals played \(what --mc [0-9]+ gives\)$'
n=$(tail -1 "$tmp/err" | sed -n 's/.*(what --mc \([0-9]*\) gives)$/\1/p')
python3 -c '
import json, sys
j = json.loads(open(sys.argv[1]).read())
assert j["monte_carlo"]["deals_played"] == sys.argv[2], j' "$tmp/out" "${n:-0}" ||
  { echo "FAIL (dundee advance SIGTERM): JSON $(head -c 300 "$tmp/out")"; fail=1; }
OB=(dundee optimal-bids --values 4 --max-cards 60 --rounds-all)
interrupt INT 1 "$C" "${OB[@]}"
expect_stop "dundee optimal-bids SIGINT" 130 '^cardlab dundee optimal-bids: interrupted after [0-9,]+ rows of [0-9,]+ \(the last: deck [0-9,]+, m = [0-9]+\); the rows printed are the table.s first [0-9,]+, each complete \(those of the decks of at most [0-9]+ cards are what --max-cards [0-9]+ gives\)$'
k=$(tail -1 "$tmp/err" | sed -n 's/.*what --max-cards \([0-9]*\) gives)$/\1/p')
"$C" dundee optimal-bids --values 4 --max-cards "${k:-4}" --rounds-all 2>/dev/null >"$tmp/ob-ref"
python3 -c '
import sys
got = open(sys.argv[1]).read().splitlines()
ref = open(sys.argv[2]).read().splitlines()
assert len(ref) > 1 and got[:len(ref)] == ref, (len(got), len(ref))
assert all(int(l.split()[1]) > int(sys.argv[3]) for l in got[len(ref):]), "rows past --max-cards"' \
  "$tmp/out" "$tmp/ob-ref" "${k:-0}" ||
  { echo "FAIL (dundee optimal-bids SIGINT): the rows are not those of --max-cards $k and more"; fail=1; }
interrupt TERM 1 "$C" "${OB[@]}" --csv "$tmp/ob.csv"
expect_stop "dundee optimal-bids SIGTERM" 143 '^cardlab dundee optimal-bids: interrupted after [0-9,]+ rows of [0-9,]+'
r=$(tail -1 "$tmp/err" | sed -n 's/.*interrupted after \([0-9,]*\) rows.*/\1/p' | tr -d ,)
[ "$(wc -l <"$tmp/ob.csv")" -eq $((${r:-0} + 1)) ] && [ "${r:-0}" -gt 0 ] ||
  { echo "FAIL (dundee optimal-bids SIGTERM): the CSV does not hold the $r rows done"; fail=1; }

# eulerdeck rebuild (issue 42, B1): quadratic, 2*10^5 cards take minutes.
# Ctrl-C during the search: one line, nothing printed (only replayed decks
# are); SIGTERM likewise.
RB=(rebuild --game mousetrap --ranks 200000 --identity)
for sig in INT TERM; do
  interrupt "$sig" 1 "$E" "${RB[@]}"
  want=$([ "$sig" = INT ] && echo 130 || echo 143)
  expect_stop "rebuild SIG$sig" "$want" '^eulerdeck rebuild: interrupted during the search after [0-9,]+ cards put back, 0 decks found; nothing printed \(a deck is printed once replayed\); not resumable$'
  [ "$(grep -vc '^rebuild: ' "$tmp/err")" -eq 1 ] ||
    { echo "FAIL (rebuild SIG$sig): not one line: $(cat "$tmp/err")"; fail=1; }
  [ -s "$tmp/out" ] && { echo "FAIL (rebuild SIG$sig): printed a result"; fail=1; }
done

[ "$fail" -eq 0 ] && echo "interrupt_test: all checks passed"
exit "$fail"
