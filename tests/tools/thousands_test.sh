#!/usr/bin/env bash
# One way of writing numbers where people read (issue 58, B1): no line that
# count, export, import, verify, inspect or reform-search prints for people
# (stdout and stderr, not --json, --csv or b-files) holds a number of five
# digits or more without thousands separators ("2946397" where
# "2,946,397" is meant). Digits after a decimal point, inside a word or a
# path, and the ends of a range ("1..11") are not counts; a fraction's
# denominator is ("449,719/39,916,800").
# Usage: thousands_test.sh BUILD_DIR
set -u
E="$1/eulerdeck"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cases=0

# plain FILE: the lines of FILE with a number >= 10,000 written without
# separators (a run of 5+ digits not inside a word, a path, a decimal, a
# version or a hex checksum).
plain() {
  perl -ne 'print if /(?<![\w.\/,:-])\d{5,}(?![\w.:]\d|\w)/ || /(?<=\d\/)\d{5,}/' "$1"
}
# check NAME COMMAND...: runs it (stdout and stderr, each a file) and fails
# on any plain number; also fails when its output holds no number >= 10,000
# at all (the case would check nothing: "--min N" names the least one).
check() {
  local name=$1; shift
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  cases=$((cases + 1))
  cat "$tmp/out" "$tmp/err" >"$tmp/both"
  if [ -n "$(plain "$tmp/both")" ]; then
    echo "FAIL ($name): a number without separators: $(plain "$tmp/both" | head -3)"; fail=1
  fi
  if ! grep -qE '[0-9]{1,3}(,[0-9]{3})+' "$tmp/both"; then
    echo "FAIL ($name): no number >= 1,000 in its output, nothing checked (exit $rc): $(head -5 "$tmp/both")"
    fail=1
  fi
}

# count: the result lines (winning decks, total decks, the level table,
# sub-decks visited, verified ... replayed), a range's table, count --removed.
check "count" "$E" count --game mousetrap --ranks 9 --verify-leaves
check "count range" "$E" count --game mousetrap --ranks 7..9
check "count --removed" "$E" count --removed --game mousetrap --ranks 8
check "count --removed range" "$E" count --removed --game mousetrap --ranks 7..8
check "count --store" "$E" count --game mousetrap --ranks 9 --store "$tmp/c9" --subtrees 20000
# export --progress, import: their summaries (stderr, stdout).
check "export --progress" "$E" export --store "$tmp/c9" --progress "$tmp/c9.json"
check "import" "$E" import --progress "$tmp/c9.json" --store "$tmp/c9b"
# verify, inspect: a stored run's levels and entries.
"$E" run --game mousetrap --ranks 9 --store "$tmp/r9" -q >/dev/null 2>&1 ||
  { echo "FAIL: run --store for verify"; fail=1; }
check "verify" "$E" verify --store "$tmp/r9"
check "inspect" "$E" inspect --store "$tmp/r9" --level 9 --limit 3
# reform-search: length, followed.
check "reform-search" "$E" reform-search --game modular --ranks 12 --seconds 1 --threads 1

# The checker itself: it finds a plain count, and passes the forms above.
printf 'winning decks  2527701273\n' >"$tmp/bad1"
printf 'interrupted after 336157 of 2,946,397 subtrees\n' >"$tmp/bad2"
printf 'probability    449,719/39916800 = 0.0112665\n' >"$tmp/bad3"
for f in bad1 bad2 bad3; do
  [ -n "$(plain "$tmp/$f")" ] || { echo "FAIL: the checker misses $(cat "$tmp/$f")"; fail=1; }
done
printf 'time  1.234567 s, 12345.6k sub-decks/s\nstore  /tmp/x12345/s\n--ranks 1..100000\nplan 00f3a9c2e4b5d6f7\nversion 0.1.0 2026-11-28T10:00:00Z\n' >"$tmp/good"
[ -z "$(plain "$tmp/good")" ] || { echo "FAIL: the checker flags $(plain "$tmp/good")"; fail=1; }

[ "$fail" -eq 0 ] && echo "thousands_test: $cases outputs, every count with separators"
exit "$fail"
