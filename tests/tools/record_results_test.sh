#!/usr/bin/env bash
# scripts/record_results.py on two real count stores of mousetrap m=11 (OEIS
# A007709(11) = 449719): a pair split at different levels gives one row and the
# per-level CSV; a pair split at the same level, or two runs that disagree,
# are refused (exit 1).
# Usage: record_results_test.sh BUILD_DIR SOURCE_DIR
set -u
E="$1/eulerdeck"
S="$2/scripts/record_results.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
R="$tmp/runs"
mkdir -p "$R/results" "$R/stores" "$R/sessions"
run() {  # run NAME VARIANT SUBTREES
  "$E" count --game mousetrap --ranks 11 --store "$R/stores/$1-$2" --subtrees "$3" --json -q \
    >"$R/results/$1-$2.json" 2>/dev/null
  echo "1000 1100" >"$R/sessions/$1-$2"
}
run m11 A 1000
run m11 B 100
out=$(EULERDECK="$E" python3 "$S" "$R" --data "$tmp/data" 2>"$tmp/err")
rc=$?
if [ "$rc" -ne 0 ] || ! echo "$out" | grep -q '^| mousetrap | 1 | 11 | 11 | 449,719 | '; then
  echo "FAIL: rc $rc, '$out', '$(cat "$tmp/err")'"; fail=1
fi
if ! echo "$out" | grep -q 'wall 1m40s in 1 session(s)'; then echo "FAIL: wall time: '$out'"; fail=1; fi
if [ "$(tail -1 "$tmp/data/m11.csv")" != "mousetrap,11,1,11,449719" ] || [ "$(wc -l <"$tmp/data/m11.csv")" -ne 12 ]; then
  echo "FAIL: CSV: $(cat "$tmp/data/m11.csv")"; fail=1
fi
# The same split twice: not independent.
run same A 1000
run same B 1000
EULERDECK="$E" python3 "$S" "$R" --data "$tmp/data" >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" -ne 1 ] || ! grep -q "same: both runs split at level" "$tmp/err"; then
  echo "FAIL (same split): rc $rc, '$(cat "$tmp/err")'"; fail=1
fi
# Runs that disagree.
rm -rf "$R/stores/same-"* "$R/results/same-"*
run bad A 1000
run bad B 100
sed -i 's/"449719"\]/"449720"]/' "$R/results/bad-B.json"
EULERDECK="$E" python3 "$S" "$R" --data "$tmp/data" >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" -ne 1 ] || ! grep -q "bad: THE TWO RUNS DISAGREE" "$tmp/err"; then
  echo "FAIL (disagree): rc $rc, '$(cat "$tmp/err")'"; fail=1
fi
[ "$fail" -eq 0 ] && echo "record_results: all passed"
exit "$fail"
