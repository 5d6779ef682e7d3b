#!/usr/bin/env bash
# The contest's Ctrl-C says how to go on at every moment (issue 58, B3).
# `reform-search --contest` runs 30 categories in turn; a Ctrl-C (SIGINT)
# must leave on stderr the line that says how to continue, with exit 130:
# - while the first category classifies every deck;
# - between categories (right after a category's entry is printed);
# - twice, the second before the search reaches a consistent point (a step
#   of the search can take many seconds; the second one ends the process at
#   once, and must still say what is kept);
# and `status` of the contest store names `reform-search --submission`,
# which `status --submission` points to.
# The commands run through a wrapper that restores SIGINT's default: a
# background job of a non-interactive shell starts with SIGINT ignored,
# and a test of that process would miss what a terminal's Ctrl-C does.
# Usage: contest_interrupt_test.sh BUILD_DIR
set -u
E="$1/eulerdeck"
tmp=$(mktemp -d)
pid=0
trap '[ "$pid" -ne 0 ] && kill -9 "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
# sigdfl COMMAND...: COMMAND with SIGINT and SIGTERM at their defaults.
# (exec: the background job's process itself becomes the command.)
sigdfl() {
  exec python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
signal.signal(signal.SIGTERM, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$@"
}
# wait_until SECONDS COMMAND...: polls COMMAND every 0.05 s until it
# succeeds (0) or SECONDS pass (1), or the process $pid ends (1).
wait_until() {
  local limit=$1; shift
  local end=$((SECONDS + limit))
  while [ "$SECONDS" -lt "$end" ]; do
    "$@" && return 0
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.05
  done
  return 1
}
entries() {  # (no output file yet: none)
  local n
  n=$(grep -c '^[a-z]* *[0-9]* .* [0-9]\.[0-9][0-9][0-9]  ' "$tmp/out" 2>/dev/null)
  [ "${n:-0}" -ge "$1" ]
}
started() { [ -s "$tmp/err" ]; }

# start NAME: the contest in the background, stored in $tmp/NAME, 0.2 s a
# category (the exhaustive sizes take what classifying takes).
start() {
  store="$tmp/$1"
  rm -f "$tmp/out" "$tmp/err"  # (what the waits read: this run's only)
  sigdfl "$E" reform-search --contest --seconds 0.2 --threads 1 --store "$store" \
    >"$tmp/out" 2>"$tmp/err" &
  pid=$!
}
# stopped NAME: waits for the process; exit 130 and, on stderr, the line
# that says how to continue this store.
stopped() {
  wait "$pid"
  local rc=$?
  pid=0
  [ "$rc" -eq 130 ] || { bad "$1: exit $rc, not 130: $(tail -2 "$tmp/err")"; return; }
  grep -Fq "continue with \`eulerdeck resume --store $store\`" "$tmp/err" ||
    bad "$1: no line says how to continue: $(tail -3 "$tmp/err")"
}

# 1. While the first category (mousetrap 10) classifies every deck.
start classifying
wait_until 60 started || bad "classifying: no progress on stderr"
kill -INT "$pid"
stopped classifying
tail -1 "$tmp/err" | grep -Eq "^eulerdeck reform-search: interrupted after [0-9]+ of 30 categories; continue with \`eulerdeck resume --store $store\`$" ||
  bad "classifying: the last line: $(tail -1 "$tmp/err")"

# 2. Between categories: as soon as the first entry is printed.
start between
wait_until 120 entries 1 || bad "between: no entry printed"
kill -INT "$pid"
stopped between
tail -1 "$tmp/err" | grep -Eq "^eulerdeck reform-search: interrupted after [0-9]+ of 30 categories; continue with" ||
  bad "between: the last line: $(tail -1 "$tmp/err")"
# The store then continues: status says so, and names --submission.
"$E" status --store "$store" >"$tmp/status" 2>&1 || bad "status of the contest: $(cat "$tmp/status")"
grep -q "^state      interrupted: .*continue with \`eulerdeck resume --store $store\`" "$tmp/status" ||
  bad "status: $(grep state "$tmp/status")"
grep -Fq "eulerdeck reform-search --submission --store $store" "$tmp/status" ||
  bad "status does not name reform-search --submission: $(tail -2 "$tmp/status")"
"$E" status --submission --store "$store" >"$tmp/out2" 2>"$tmp/err2"
rc=$?
[ "$rc" -eq 2 ] && [ ! -s "$tmp/out2" ] && grep -q "reform-search --submission --store" "$tmp/err2" ||
  bad "status --submission: exit $rc, $(cat "$tmp/err2")"

# 3. Twice: the first Ctrl-C says at once how to go on; the second ends the
# process at once, and says what is kept.
start twice
wait_until 60 started || bad "twice: no progress on stderr"
kill -INT "$pid"
wait_until 10 grep -q "Ctrl-C again stops at once" "$tmp/err" ||
  bad "twice: the first Ctrl-C was not acknowledged: $(tail -2 "$tmp/err")"
kill -INT "$pid" 2>/dev/null  # (it may have stopped already: then stopped() checks its line)
stopped twice

# 4. Twice inside one long step: modular n = 19 starts by following the
# sorted deck's sequence, 73,449 decks long (a second or two, without a look
# at the stop flag); the second Ctrl-C arrives inside it and ends the
# process at once, with the line of what is kept. The search writes nothing
# on stderr before its end, so the wait is for its store (there within
# milliseconds), and its budget is long enough that it cannot end by itself
# first (with 0.2 s it did: the whole search took 1.9 s, CI failed on it).
store="$tmp/m19"
rm -f "$tmp/out" "$tmp/err"
sigdfl "$E" reform-search --game modular --ranks 19 --seconds 30 --threads 1 --store "$store" \
  >"$tmp/out" 2>"$tmp/err" &
pid=$!
wait_until 60 test -s "$store/reform-search.json" || bad "m19: no store"
sleep 0.2
kill -INT "$pid"
wait_until 10 grep -q "Ctrl-C again stops at once" "$tmp/err" ||
  bad "m19: the first Ctrl-C was not acknowledged: $(tail -2 "$tmp/err")"
kill -INT "$pid" 2>/dev/null
stopped m19
if grep -q "stopped at once" "$tmp/err"; then
  grep -Fxq "eulerdeck reform-search: stopped at once, the last checkpoints kept; continue with \`eulerdeck resume --store $store\`" "$tmp/err" ||
    bad "m19: the line of the second Ctrl-C: $(tail -1 "$tmp/err")"
fi

[ "$fail" -eq 0 ] && echo "contest_interrupt_test: ok"
exit "$fail"
