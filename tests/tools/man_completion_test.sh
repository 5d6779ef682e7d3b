#!/usr/bin/env bash
# The man pages and the bash completion the build generates (build/share/),
# and `eulerdeck list` over stores in every state it can see without a
# running writer.
# Usage: man_completion_test.sh BUILD_DIR
set -u
build="$1"
E="$build/eulerdeck"
C="$build/cardlab"
share="$build/share"
fail=0
skipped=""  # checks that could not run here: the test then exits 77 (skipped)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL: $*"; fail=1; }

# The words a help text lists under "commands:", "models:", "questions:" or "modes:".
subcommands() {
  "$@" --help | awk '/^(commands|models|questions|modes):$/ { s = 1; next }
                     s && !/^  / { s = 0 }
                     s && /^  [a-z]/ { print $1 }'
}

# ---- man pages: present, rendered without warnings, every command in them
if ! command -v help2man >/dev/null; then
  echo "help2man missing: the man pages are not built, not checked"
  skipped="the man pages (no help2man)"
else
  for tool in eulerdeck cardlab; do
    page="$share/man/man1/$tool.1"
    [ -s "$page" ] || { bad "no man page $page"; continue; }
    [ "$page" -nt "$build/$tool" ] || bad "$page is older than $build/$tool"
    MANWIDTH=80 man --warnings -l "$page" >"$tmp/$tool.txt" 2>"$tmp/$tool.err" ||
      bad "man -l $page failed: $(head -1 "$tmp/$tool.err")"
    [ -s "$tmp/$tool.err" ] && bad "man -l $page warns: $(head -3 "$tmp/$tool.err")"
    wide=$(awk 'length($0) > 80' "$tmp/$tool.txt" | head -1)
    [ -z "$wide" ] || bad "$tool.1 wider than 80 columns: $wide"
    for command in $(subcommands "$build/$tool"); do
      grep -q "^   $tool $command\$" "$tmp/$tool.txt" || bad "$tool.1 has no section '$tool $command'"
      for mode in $(subcommands "$build/$tool" "$command"); do
        grep -q "^   $tool $command $mode\$" "$tmp/$tool.txt" ||
          bad "$tool.1 has no section '$tool $command $mode'"
      done
    done
    grep -q "^SYNOPSIS" "$tmp/$tool.txt" || bad "$tool.1 has no SYNOPSIS"
  done
  # The footer names the tool and its version, whole, beside the date (it
  # once read "eulerdeck 0.1.0 (commit e5b328d83November 2026"); EXIT
  # STATUS lists 130, 141 and 143, the signals' statuses (issue 42, B4).
  for tool in eulerdeck cardlab; do
    version=$("$build/$tool" --version | awk '{ print $2 }')
    tail -1 "$tmp/$tool.txt" | grep -Eq "^$tool $version +[A-Z][a-z]+ [0-9]{4} +${tool^^}\(1\)$" ||
      bad "$tool.1 footer: '$(tail -1 "$tmp/$tool.txt")'"
    for status in 0 1 2 130 141 143; do
      sed -n '/^EXIT STATUS/,/^SEE ALSO/p' "$tmp/$tool.txt" | grep -q "^       $status\b" ||
        bad "$tool.1 EXIT STATUS lacks $status"
    done
  done
  grep -q -- "--checkpoint-seconds" "$tmp/eulerdeck.txt" || bad "eulerdeck.1 lacks run's options"
  grep -q -- "--plot-j" "$tmp/cardlab.txt" || bad "cardlab.1 lacks memory terminating's options"
fi

# ---- bash completion: call the completion function as bash would
# complete_words TOOL WORDS...: the candidates for the last of WORDS (the
# command line, the tool's name first), sorted, on one line.
complete_words() {
  local tool="$1"
  shift
  bash -c 'source "$1"; fn="_$2"; shift 2; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1));
           "$fn"; if ((${#COMPREPLY[@]})); then printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "; fi' \
    _ "$share/bash-completion/completions/$tool" "$tool" "$@"
}
# expect_completion "EXPECTED" TOOL WORDS...
expect_completion() {
  local expected="$1" got
  shift
  got=$(complete_words "$@")
  [ "$got" = "$expected" ] || bad "completing '$*': '$got', expected '$expected'"
}
for tool in eulerdeck cardlab; do
  f="$share/bash-completion/completions/$tool"
  [ -s "$f" ] || bad "no completion $f"
  [ "$f" -nt "$build/$tool" ] || bad "$f is older than $build/$tool"
  bash -n "$f" || bad "$f is not valid bash"
done
# count's games: those of the top help that count takes (not "no count/run").
games=$("$E" --help | awk '/^games/ { s = 1; next } s && /^  [a-z]/ && !/no count\/run/ { print $1 }' |
  sort | tr '\n' ' ')
expect_completion "count " eulerdeck eulerdeck co
expect_completion "--game " eulerdeck eulerdeck count --ga
expect_completion "$games" eulerdeck eulerdeck count --game ""
expect_completion "$games" eulerdeck eulerdeck count --game = ""
expect_completion "all last none " eulerdeck eulerdeck run --keep ""
expect_completion "--help --version " eulerdeck eulerdeck --
expect_completion "$(subcommands "$E" | sort | tr '\n' ' ')" eulerdeck eulerdeck ""
expect_completion "combinatorial solitaire terminating " cardlab cardlab memory ""
expect_completion "advance greedy optimal-bids " cardlab cardlab dundee ""
expect_completion "--plot --plot-j " cardlab cardlab memory terminating --plo
expect_completion "standard " cardlab cardlab memory solitaire --variant st
expect_completion "" eulerdeck eulerdeck count --ranks ""
# The mode count's usage names (issue 42, B4), and the computed A-numbers
# after oeis, from its --list.
expect_completion "--removed " eulerdeck eulerdeck count --rem
expect_completion "A007709 A007710 A007711 A007712 " eulerdeck eulerdeck oeis A0077
expect_completion "$("$E" oeis --list | awk '$2 == "computed" { print $1 }' | sort | tr '\n' ' ')" eulerdeck eulerdeck oeis ""
mkdir -p "$tmp/dirs/store-a" "$tmp/dirs/store-b"
touch "$tmp/dirs/file.csv"
expect_completion "$tmp/dirs/store-a $tmp/dirs/store-b " eulerdeck eulerdeck status --store "$tmp/dirs/st"
expect_completion "$tmp/dirs/file.csv " eulerdeck eulerdeck count --csv "$tmp/dirs/fi"
expect_completion "$tmp/dirs/store-a $tmp/dirs/store-b " eulerdeck eulerdeck list "$tmp/dirs/s"
expect_completion "--depth " eulerdeck eulerdeck list "$tmp" --dep

# ---- eulerdeck list: a complete store, a killed one, one stopped between
# levels, nested at several depths; a directory that is not a store.
s="$tmp/stores"
mkdir -p "$s/not-a-store/sub"
"$E" run --game mousetrap --ranks 6 --store "$s/done" -q >/dev/null 2>&1 || bad "run done"
"$E" run --game hlm --ranks 5 --suits 2 --store "$s/deep/er/stopped" --until-level 4 -q \
  >/dev/null 2>&1 || bad "run stopped"
"$E" run --game mousetrap --ranks 14 --store "$s/killed" --checkpoint-seconds 1 -q >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do
  [ -f "$s/killed/LIVE" ] && break
  sleep 0.1
done
sleep 1
kill -9 "$pid"
wait "$pid" 2>/dev/null
"$E" list "$s" >"$tmp/list.txt" 2>"$tmp/list.err" || bad "list exit $?: $(cat "$tmp/list.err")"
grep -Eq "^$s/done +run +mousetrap +6x1 +complete +levels 6/6 +84 " "$tmp/list.txt" || bad "list: done: $(cat "$tmp/list.txt")"
grep -Eq "^$s/killed +run +mousetrap +14x1 +interrupted " "$tmp/list.txt" || bad "list: killed: $(cat "$tmp/list.txt")"
grep -Eq "^$s/deep/er/stopped +run +hlm +5x2 +stopped +levels 4/10 " "$tmp/list.txt" || bad "list: stopped: $(cat "$tmp/list.txt")"
[ "$(wc -l <"$tmp/list.txt")" -eq 4 ] || bad "list: not 3 stores and a header: $(cat "$tmp/list.txt")"
"$E" list "$s" --depth 1 | grep -q "stopped" && bad "list --depth 1 went deeper"
"$E" list "$s" --json >"$tmp/list.json" || bad "list --json"
python3 - "$tmp/list.json" "$s" <<'EOF' || bad "list --json: $(cat "$tmp/list.json")"
import json, sys
j = json.load(open(sys.argv[1]))
stores = {x["store"]: x for x in j["stores"]}
s = sys.argv[2]
assert list(j)[0] == "command" and j["command"] == "eulerdeck list", j
assert stores[s + "/done"]["state"] == "complete" and stores[s + "/done"]["winning_decks"] == "84"
assert stores[s + "/killed"]["state"] == "interrupted" and "winning_decks" not in stores[s + "/killed"]
assert stores[s + "/deep/er/stopped"]["committed_level"] == 4
assert len(stores) == 3
EOF
"$E" list "$s" --csv - | grep -q "^mousetrap,6,1,$s/done,6,complete,6,,84," || bad "list --csv -"
ls -la "$s/done" >"$tmp/before"
"$E" list "$s/done" >/dev/null
ls -la "$s/done" >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" || bad "list changed a store's files"
# Errors: a missing directory is bad input; no store is not an error.
"$E" list "$tmp/nowhere" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] || bad "list of a missing dir"
"$E" list "$s/not-a-store" >"$tmp/out" 2>"$tmp/err" || bad "list of no store: exit $?"
[ ! -s "$tmp/out" ] && grep -q "no store" "$tmp/err" || bad "list of no store: $(cat "$tmp/out" "$tmp/err")"

[ "$fail" -eq 0 ] && [ -n "$skipped" ] && { echo "man_completion: SKIPPED $skipped; the other checks passed"; exit 77; }
[ "$fail" -eq 0 ] && echo "man_completion: all checks passed"
exit "$fail"
