#!/usr/bin/env bash
# The b-files of docs/data/bfiles/ and the drafts' in docs/data/bfiles/drafts/
# (docs/oeis.md; ctest label slow): a prefix of each, the first K terms for a
# K that takes seconds, computed again and compared byte for byte, with the
# two comment lines that name the sequence and its statistic. The terms past
# K are checked elsewhere: A007710 and A028306 against the rook polynomial
# (tests/oeis/sequences_slow_test.cc), the record terms by their two runs
# (docs/results.md).
# Usage: bfiles_test.sh BUILD_DIR SOURCE_DIR
set -u
E="$1/eulerdeck"
D="$2/docs/data/bfiles"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
checked=0

# compare NAME FILE GOT: GOT's lines are the first lines of FILE's terms.
compare() {
  local n
  n=$(wc -l <"$3")
  grep -v '^#' "$2" | head -n "$n" >"$tmp/want"
  if [ "$n" -eq 0 ] || ! cmp -s "$tmp/want" "$3"; then
    echo "FAIL ($1): the first $n terms differ:"; diff "$tmp/want" "$3" | head -5; fail=1
  fi
  checked=$((checked + 1))
}

# oeis ID TO: eulerdeck oeis ID --to TO against b<ID>.txt.
oeis() {
  local file="$D/b${1#A}.txt"
  [ -f "$file" ] || { echo "FAIL ($1): no $file"; fail=1; return; }
  "$E" oeis "$1" --to "$2" -q >"$tmp/out" 2>"$tmp/err" || { echo "FAIL ($1): $(cat "$tmp/err")"; fail=1; return; }
  if ! cmp -s <(head -2 "$tmp/out") <(head -2 "$file"); then
    echo "FAIL ($1): the header differs:"; diff <(head -2 "$tmp/out") <(head -2 "$file"); fail=1
  fi
  grep -v '^#' "$tmp/out" >"$tmp/got"
  compare "$1" "$file" "$tmp/got"
}
oeis A007709 12
oeis A007710 22
oeis A007711 12
oeis A028305 12
oeis A028306 21

# draft GAME SUITS FIRST TO: eulerdeck count's winning decks against the
# draft's b-file.
draft() {
  local file="$D/drafts/b-$1-s$2.txt"
  [ -f "$file" ] || { echo "FAIL ($1 s=$2): no $file"; fail=1; return; }
  "$E" count --game "$1" --suits "$2" --ranks "$3..$4" --json -q 2>"$tmp/err" |
    python3 -c 'import json, sys
for line in sys.stdin:
    j = json.loads(line)
    print(j["ranks"], j["winning_decks"])' >"$tmp/got" || { echo "FAIL ($1 s=$2): $(cat "$tmp/err")"; fail=1; return; }
  compare "$1 s=$2" "$file" "$tmp/got"
}
draft mousetrap 2 1 6
draft mousetrap 3 1 5
draft mousetrap 4 1 4
draft modular 1 1 10
draft modular 2 1 5
draft modular 3 1 4
draft modular 4 1 3
draft hlm 2 2 12
draft hlm 3 2 7
draft hlm 4 2 5

# Every b-file is checked here: a new one needs a line above.
files=$(find "$D" -name 'b*.txt' | wc -l)
[ "$files" -eq "$checked" ] || { echo "FAIL: $files b-files, $checked checked"; fail=1; }
[ "$fail" -eq 0 ] && echo "bfiles: $checked b-files, a prefix of each computed again: OK"
exit "$fail"
