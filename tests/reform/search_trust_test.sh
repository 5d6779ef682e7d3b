#!/usr/bin/env bash
# What a reform-search store is trusted with (issue 51):
# - A2: the checkpoint carries a checksum, and its best deck and its cycles
#   are replayed before it is trusted: an edited length, a replaced best
#   deck, a cycle deck on no cycle, an edited field of a checksummed
#   document, a negative `seconds`: one line, exit 1, from both the search
#   and `status`; a document of an older build (no checksum) whose best and
#   cycles replay is read;
# - A3: bad options (--game hlm, --suits 2, --ranks 1) make nothing; a
#   search killed before its first checkpoint leaves a store that `status`
#   reads and the search resumes; a directory holding only LOCK (an older
#   build's such store) is a store begun, started again;
# - B1: Ctrl-C of a stored contest says how far it got and how to continue;
#   the category cut off is a store `status` and `list` show; `status` of
#   the contest sums it up; `--submission` prints its entry, one line a
#   category, each deck replaying to its length;
# - B4: the progress line's ETA never exceeds the budget left;
# - B6: --help and the completion offer reform-search's games only.
# Usage: search_trust_test.sh BUILD_DIR
set -u
E="$1/eulerdeck"
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
pid=0
trap '[ "$pid" -gt 0 ] && kill -9 "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
. "$src/tests/support/wait_for.sh"

# A finished search with a best and its cycles (modular 11 has several).
base="$tmp/base"
"$E" reform-search --game modular --ranks 11 --seconds 1 --threads 1 --store "$base" -q \
  >/dev/null 2>"$tmp/err" || bad "the base search failed: $(cat "$tmp/err")"
doc() { echo "$1/reform-search.json"; }
# edit DIR PYTHON: rewrites DIR's document with PYTHON applied to `j`
# (as an older build's document, format 1 without its checksum, when the
# third argument is "legacy").
edit() {
  local dir="$tmp/$1" code="$2" legacy="${3:-}"
  rm -rf "$dir" && mkdir -p "$dir" && cp "$(doc "$base")" "$(doc "$dir")"
  python3 - "$(doc "$dir")" "$code" "$legacy" <<'EOF'
import json, sys
path, code, legacy = sys.argv[1], sys.argv[2], sys.argv[3]
j = json.load(open(path))
if legacy:  # an older build's document: format 1, no checksum
    j.pop("xxh64", None)
    j["format"] = 1
exec(code)
open(path, "w").write(json.dumps(j, indent=1) + "\n")
EOF
}
# damaged NAME WHAT: the search and `status` on $tmp/NAME: exit 1, one line
# on stderr saying WHAT, nothing on stdout, the document unchanged.
damaged() {
  local dir="$tmp/$1" what="$2" sum rc
  sum=$(md5sum <"$(doc "$dir")")
  for cmd in "reform-search --store $dir --json -q" "status --store $dir"; do
    # shellcheck disable=SC2086
    "$E" $cmd >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne 1 ] || [ -s "$tmp/out" ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] ||
      ! grep -q "$what" "$tmp/err" || [ "$(md5sum <"$(doc "$dir")")" != "$sum" ]; then
      bad "($1) '$cmd': exit $rc, stdout '$(head -c 200 "$tmp/out")', stderr '$(cat "$tmp/err")'"
    fi
  done
}
length=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["best"]["score"]["length"])' "$(doc "$base")")
[ "$length" -ge 2 ] || bad "the base search's best is $length"
# A deck of modular 11 whose sequence is 1 deck long (it loses at once).
dead="2 3 4 5 6 7 8 9 10 11 1"
got=$("$E" reform --game modular --ranks 11 --deck "$dead" --json |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["length"])')
[ "$got" = 1 ] || bad "'$dead' replays to $got, not 1"

edit length 'j["best"]["score"]["length"] = 99999'
damaged length "checksum does not match"
edit length-legacy 'b = j["best"]["score"]; b["preperiod"] += 99999 - b["length"]; b["length"] = 99999' legacy
damaged length-legacy "replays to $length (cyclic"
edit deck-legacy "j['best']['deck'] = '$dead'" legacy
damaged deck-legacy "best deck $dead replays to 1 (dead-end)"
edit cycle-legacy "j['cycles'][0] = '$dead'" legacy
damaged cycle-legacy "cycle deck $dead is on no cycle"
edit followed 'j["decks_followed"] = "7"'
damaged followed "checksum does not match"
edit seconds-legacy 'j["seconds"] = -5.0' legacy
damaged seconds-legacy "a number is negative"
# Issue 58, A2: from format 2 the checksum is required. An edited field
# with the checksum renamed or deleted: damage for the search, `status` and
# `resume` alike.
for how in renamed deleted; do
  for field in 'j["decks_followed"] = "7"' 'j["seconds"] = 12345.0'; do
    if [ "$how" = renamed ]; then code="$field; j[\"xxh65\"] = j.pop(\"xxh64\")"; else code="$field; j.pop(\"xxh64\")"; fi
    name="sum-$how-$(echo "$field" | tr -dc a-z | head -c 8)"
    edit "$name" "$code"
    [ "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["format"])' "$(doc "$tmp/$name")")" = 2 ] ||
      bad "($name) the base document is not of format 2"
    damaged "$name" 'its checksum ("xxh64") is missing'
    sum=$(md5sum <"$(doc "$tmp/$name")")
    "$E" resume --store "$tmp/$name" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ "$rc" -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ] &&
      grep -q 'checksum ("xxh64") is missing' "$tmp/err" &&
      [ "$(md5sum <"$(doc "$tmp/$name")")" = "$sum" ] ||
      bad "($name) resume: exit $rc, '$(cat "$tmp/out" "$tmp/err")'"
  done
done
# A document cut short (not JSON any more): damage for `resume` too.
rm -rf "$tmp/cut" && mkdir -p "$tmp/cut" && head -c 100 "$(doc "$base")" >"$(doc "$tmp/cut")"
damaged cut "reform-search.json"
"$E" resume --store "$tmp/cut" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ] ||
  bad "(cut) resume: exit $rc, '$(cat "$tmp/out" "$tmp/err")'"
# An older build's document (no checksum) whose best and cycles replay.
edit legacy 'pass' legacy
"$E" status --store "$tmp/legacy" >"$tmp/out" 2>"$tmp/err" &&
  grep -q "^best       $length distinct decks" "$tmp/out" ||
  bad "(legacy) status: '$(cat "$tmp/out" "$tmp/err")'"
"$E" reform-search --store "$tmp/legacy" --json -q >"$tmp/out" 2>"$tmp/err" &&
  [ "$(python3 -c 'import json,sys; print(json.load(sys.stdin)["length"])' <"$tmp/out")" = "$length" ] ||
  bad "(legacy) resume: '$(cat "$tmp/out" "$tmp/err")'"
echo "ok   A2: a checkpoint edited or damaged, or its checksum renamed or deleted: exit 1, one line; an older build's that replays is read"

# A3: bad options make nothing.
for opts in "--game hlm --ranks 5" "--game mousetrap --ranks 8 --suits 2" "--game mousetrap --ranks 1"; do
  # shellcheck disable=SC2086
  "$E" reform-search $opts --seconds 1 --store "$tmp/refused" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ "$rc" -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] || [ -e "$tmp/refused" ]; then
    bad "(A3 $opts) exit $rc, '$(cat "$tmp/err")', $(ls -A "$tmp/refused" 2>&1 | tr '\n' ' ')"
  fi
done
# A contest into a directory of something else, or with --suits: nothing made.
mkdir -p "$tmp/other" && echo x >"$tmp/other/file"
"$E" reform-search --contest --seconds 1 --store "$tmp/other" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] && [ "$(ls -A "$tmp/other")" = file ] ||
  bad "(A3 contest into another directory) exit $rc, '$(cat "$tmp/err")', $(ls -A "$tmp/other" | tr '\n' ' ')"
"$E" reform-search --contest --suits 2 --seconds 1 --store "$tmp/refused" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] && [ ! -e "$tmp/refused" ] || bad "(A3 contest --suits 2) exit $rc, '$(cat "$tmp/err")'"
# Killed before its first checkpoint: a store that status reads and the
# search resumes.
early="$tmp/early"
"$E" reform-search --game modular --ranks 13 --seconds 60 --threads 1 --store "$early" \
  --checkpoint-seconds 1000 -q >/dev/null 2>&1 &
pid=$!
written() { [ -s "$early/reform-search.json" ]; }
wait_for "$pid" written
kill -9 "$pid"
wait "$pid" 2>/dev/null
pid=0
"$E" status --store "$early" >"$tmp/out" 2>"$tmp/err" &&
  grep -q "^state      interrupted: " "$tmp/out" ||
  bad "(A3 killed early) status: '$(cat "$tmp/out" "$tmp/err")'"
"$E" reform-search --store "$early" --seconds 1 --threads 1 -q >"$tmp/out" 2>"$tmp/err" &&
  grep -q "finished" "$tmp/out" || bad "(A3 killed early) resume: '$(cat "$tmp/out" "$tmp/err")'"
# An older build's store begun and stopped: LOCK alone.
mkdir -p "$tmp/begun" && : >"$tmp/begun/LOCK"
"$E" status --store "$tmp/begun" >"$tmp/out" 2>"$tmp/err" &&
  grep -q "^state      begun: .*start it again" "$tmp/out" ||
  bad "(A3 LOCK alone) status: '$(cat "$tmp/out" "$tmp/err")'"
"$E" reform-search --game modular --ranks 11 --seconds 1 --threads 1 --store "$tmp/begun" -q \
  >"$tmp/out" 2>"$tmp/err" && grep -q "finished" "$tmp/out" ||
  bad "(A3 LOCK alone) started again: '$(cat "$tmp/out" "$tmp/err")'"
echo "ok   A3: bad options make nothing; a store killed before its first checkpoint resumes"

# B1: a stored contest, Ctrl-C once its third category is under way. (A
# background job of a non-interactive shell starts with SIGINT ignored: it
# is reset, and the signal sent once the search has its handler.)
catches() {
  local bit=$(( 1 << ($(kill -l "$2") - 1) )) caught
  caught=$(sed -n 's/^SigCgt:\t*//p' "/proc/$1/status" 2>/dev/null) &&
    [ -n "$caught" ] && (( 0x$caught & bit ))
}
contest="$tmp/contest"
(trap - INT; exec "$E" reform-search --contest --seconds 0.3 --threads 1 --store "$contest" \
  --checkpoint-seconds 1000 >"$tmp/out" 2>"$tmp/err") &
pid=$!
third() { [ -s "$contest/mousetrap-12/reform-search.json" ]; }
wait_for "$pid" catches "$pid" INT && wait_for "$pid" third
kill -INT "$pid"
wait "$pid"
rc=$?
pid=0
rows=$(grep -c "^mousetrap " "$tmp/out")
k=$(tail -1 "$tmp/err" | sed -n 's/^eulerdeck reform-search: interrupted after \([0-9]*\) of 30 categories; continue with .eulerdeck resume --store .*$/\1/p')
if [ "$rc" -ne 130 ] || [ -z "$k" ] || [ "$k" -lt 2 ] || [ "$rows" -lt "$k" ] ||
  [ "$rows" -gt $((k + 1)) ]; then
  bad "(B1 Ctrl-C) exit $rc, stderr '$(tail -2 "$tmp/err")', $rows rows"
  k=2
fi
"$E" status --store "$contest/mousetrap-12" >"$tmp/st" 2>&1 ||
  bad "(B1) the category cut off: '$(cat "$tmp/st")'"
"$E" list "$contest" >"$tmp/list" 2>&1
grep -q "mousetrap-12" "$tmp/list" || bad "(B1) list leaves the category cut off out: '$(cat "$tmp/list")'"
"$E" status --store "$contest" >"$tmp/st" 2>"$tmp/err" ||
  bad "(B1) status of the contest: '$(cat "$tmp/err")'"
grep -q "^state      interrupted: $k of 30 categories finished, at most .* left; continue with" "$tmp/st" &&
  [ "$(grep -c "  finished  " "$tmp/st")" = "$k" ] && [ "$(grep -c "  not begun  " "$tmp/st")" = $((29 - k)) ] ||
  bad "(B1) status of the contest: '$(cat "$tmp/st")'"
# The submission: one line a category with a deck, "N GAME DECK", each deck
# replaying to the length `status` shows.
"$E" reform-search --submission --store "$contest" >"$tmp/sub" 2>"$tmp/err"
rc=$?
lines=$(wc -l <"$tmp/sub")
[ "$rc" -eq 0 ] && [ "$lines" -ge "$k" ] && grep -q "have a deck; none yet for .*modular 25$" "$tmp/err" ||
  bad "(B1 submission) exit $rc, $lines lines, '$(cat "$tmp/err")'"
while read -r n game deck; do
  got=$("$E" reform --game "$game" --ranks "$n" --deck "$deck" --json |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["length"])')
  want=$(awk -v g="$game" -v n="$n" '$1 == g && $2 == n { gsub(",", "", $3); print $3 }' "$tmp/st")
  [ -n "$got" ] && [ "$got" = "$want" ] || bad "(B1 submission) $game $n: '$deck' replays to '$got', status says '$want'"
done <"$tmp/sub"
"$E" reform-search --submission --store "$contest" --json 2>/dev/null |
  python3 -c 'import json,sys; j=json.load(sys.stdin); sys.exit(0 if len(j["entries"]) == '"$lines"' else 1)' ||
  bad "(B1 submission --json)"
echo "ok   B1: a contest interrupted says how far it got; status sums it up; the submission replays"

# B4: a 5-second search's ETA, in its first log line (at 2 s), is at most 5 s.
"$E" reform-search --game modular --ranks 14 --seconds 5 --threads 1 >/dev/null 2>"$tmp/err"
eta=$(grep -o "ETA [0-9.]*s$" "$tmp/err" | head -1)
[ -n "$eta" ] && python3 -c 'import sys; sys.exit(0 if float(sys.argv[1][4:-1]) <= 5 else 1)' "$eta" ||
  bad "(B4) the ETA exceeds the budget: '$(head -1 "$tmp/err")'"
grep -q ", best [-0-9]" "$tmp/err" || bad "(B4) the best is not labelled: '$(head -1 "$tmp/err")'"
echo "ok   B4: the ETA is within the budget left"

# B6: the games reform-search takes, in its help and its completion.
"$E" reform-search --help | grep -q "^  --game arg  *mousetrap | modular$" ||
  bad "(B6) --help: '$("$E" reform-search --help | grep -- "--game")'"
bash "$src/scripts/completion.sh" "$E" >"$tmp/completion" 2>"$tmp/err" ||
  bad "(B6) completion.sh failed: $(head -2 "$tmp/err")"
grep -q '"eulerdeck reform-search --game"\]="mousetrap modular"' "$tmp/completion" ||
  bad "(B6) the completion of reform-search --game: '$(grep "reform-search --game" "$tmp/completion")'"
echo "ok   B6: --help and the completion offer mousetrap and modular"
exit $fail
