#!/usr/bin/env bash
# What a newcomer meets in the first hour (issue 58, B4 and B7):
# - `list` gives every store the age of its last checkpoint, not "-";
# - `status` of a finished count store shows the levels below the split
#   (counted, never stored) without "0 blocks 0 B 0.000", which reads as
#   damage;
# - errors point somewhere: an unknown option names the nearest
#   (--stroe -> --store), --store FILE says it is a file, a missing store
#   names `eulerdeck list`, --ranks 99 names `eulerdeck estimate`;
# - the completion offers no game a command refuses (treize to count).
# Usage: first_hour_test.sh BUILD_DIR
set -u
E="$1/eulerdeck"
completion="$1/share/bash-completion/completions/eulerdeck"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# refused NAME PATTERN COMMAND...: exit 2, nothing on stdout, one line on
# stderr matching the extended regex PATTERN.
refused() {
  local name=$1 pattern=$2; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" -ne 2 ] || [ -s "$tmp/out" ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] ||
     ! grep -Eq -e "$pattern" "$tmp/err"; then
    bad "$name: exit $rc, stderr '$(cat "$tmp/err")', stdout $(wc -c <"$tmp/out") bytes"
  fi
}

# ---- B4: list's checkpoint column; status of a finished count store
"$E" count --game mousetrap --ranks 9 --store "$tmp/stores/c9" -q >/dev/null 2>&1 || bad "count --store"
"$E" run --game mousetrap --ranks 8 --store "$tmp/stores/r8" -q >/dev/null 2>&1 || bad "run --store"
"$E" count --removed --game mousetrap --ranks 8 --store "$tmp/stores/x8" -q >/dev/null 2>&1 ||
  bad "count --removed --store"
"$E" list "$tmp/stores" >"$tmp/list" 2>&1 || bad "list: $(cat "$tmp/list")"
for s in c9 r8 x8; do
  grep -Eq "^$tmp/stores/$s .* ([0-9]+[hms])+ ago$" "$tmp/list" ||
    bad "list: no checkpoint age for $s: $(grep "/$s " "$tmp/list")"
done
"$E" list "$tmp/stores" --json | python3 -c '
import json, sys
for s in json.load(sys.stdin)["stores"]:
    assert s["checkpoint_age_seconds"] >= 0, s' || bad "list --json: a store without checkpoint_age_seconds"
"$E" status --store "$tmp/stores/c9" >"$tmp/status" || bad "status of a count store"
# mousetrap 9 (A007709 and its levels): the split at level 3 by default
# (20,000 sub-decks or 6 levels above the last); levels 4-9 counted below it.
if grep -Eq '^ +[0-9]+ +[0-9,]+ +0 +0 B +0\.000' "$tmp/status"; then
  bad "status shows counted levels as empty stored ones: $(grep -E ' 0 B ' "$tmp/status" | head -2)"
fi
grep -Eq '^    9 +9,978 +- +- +- +- +- +no$' "$tmp/status" ||
  bad "status: level 9 not as counted, not stored: $(grep -E '^    9 ' "$tmp/status")"
grep -Eq '^ +levels 4-9: counted in the subtrees below the split, not stored' "$tmp/status" ||
  bad "status: no note on the levels below the split: $(tail -4 "$tmp/status")"

# ---- B7: errors that point somewhere
refused "--stroe" "^eulerdeck status: unrecognised option '--stroe' \(did you mean --store\?\)$" \
  "$E" status --stroe "$tmp/stores/c9"
refused "count --thraeds" "did you mean --threads\?\)$" "$E" count --game mousetrap --ranks 5 --thraeds 2
refused "--store FILE" "^eulerdeck status: '$tmp/list' is a file, not a store \(a store is a directory; \`eulerdeck list $tmp\` lists the stores under $tmp\)$" \
  "$E" status --store "$tmp/list"
refused "missing store" "^eulerdeck status: no store at '$tmp/none': it does not exist \(\`eulerdeck list $tmp\` lists" \
  "$E" status --store "$tmp/none"
refused "resume a missing store" "^eulerdeck resume: no store at '$tmp/none'.*eulerdeck list" \
  "$E" resume --store "$tmp/none"
refused "count --ranks 99" "^eulerdeck count: .* 64 cards, not 99 \(\`eulerdeck estimate\` estimates" \
  "$E" count --game mousetrap --ranks 99
refused "run --ranks 99" "\`eulerdeck estimate\` estimates" "$E" run --game mousetrap --ranks 99 --store "$tmp/r99"
refused "count --ranks 30" "--force to start anyway \(\`eulerdeck estimate\` estimates it in seconds\)$" \
  "$E" count --game mousetrap --ranks 30

# The completion's --game values: what each command takes. treize (no
# card removed: no backward tree, no reform) only where it is played.
if [ -f "$completion" ]; then
  # shellcheck source=/dev/null
  . "$completion"
  for command in count run estimate reform reform-stats reform-search best; do
    values=${_eulerdeck_args["eulerdeck $command --game"]-}
    [ -n "$values" ] || { bad "completion: no --game values for $command"; continue; }
    [[ " $values " == *" treize "* ]] && bad "completion offers treize to $command: $values"
    [ "$values" = @arg ] && continue  # one game (best: hlm), not completed
    for game in $values; do
      # Each value offered is taken: refused, if at all, for another reason
      # than the game (--ranks 0 is refused by every command).
      "$E" "$command" --game "$game" --ranks 0 >/dev/null 2>"$tmp/err"
      grep -qiE "$game.*(not|no |only)|(not|only).*$game" "$tmp/err" &&
        bad "completion offers $game to $command, which refuses it: $(cat "$tmp/err")"
    done
  done
  for command in brute play; do
    [[ " ${_eulerdeck_args["eulerdeck $command --game"]-} " == *" treize "* ]] ||
      bad "completion does not offer treize to $command"
  done
  # treize refused where it is not offered (what the filter stands for).
  refused "count treize" "treize" "$E" count --game treize --ranks 4
fi

[ "$fail" -eq 0 ] && echo "first_hour_test: ok"
exit "$fail"
