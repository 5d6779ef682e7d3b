#!/usr/bin/env bash
# The progress display in a real terminal (issue 13): a stored run in a tmux
# pane of 80x24. The progress line fits the width (nothing wraps) and shows
# "level k/n" and a known ETA; Ctrl-C stops the run with the message and the
# `resume` hint, exit 130, and status says "interrupted"; a resumed run
# draws its line again, and status run beside it says "running" with live
# progress. Skipped (77) without tmux. About 8 seconds.
# Usage: tmux_test.sh BUILD_DIR
set -u
unset TMUX  # (when the tests themselves run in tmux)
E="$1/eulerdeck"
command -v tmux >/dev/null || { echo "tmux_test: no tmux, skipped"; exit 77; }
tmp=$(mktemp -d)
# A private server (its own socket, in the temporary directory, so that it
# goes with it), which neither sees nor disturbs the user's tmux sessions.
T=(tmux -S "$tmp/tmux.socket" -f /dev/null)
trap '"${T[@]}" kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0
session=
store="$tmp/store"
# Big enough that no level is done before Ctrl-C, on any machine.
# Long enough (about a minute on one thread) that Ctrl-C always lands in the
# middle of a level, however fast the stored run gets; both runs are
# interrupted long before the end.
N=14
GAME=(--game mousetrap --ranks $N --threads 1)

# The pane as the user sees it, wrapped lines joined (-J: a line wider than
# the pane comes back as one long line), trailing blanks dropped.
pane() { "${T[@]}" capture-pane -p -J -t "$session" 2>/dev/null | sed 's/ *$//' | grep -v '^$'; }
indent() { sed 's/^/  | /'; }
# wait_for REGEX [TRIES]: polls the pane every 0.1 s until a line matches.
wait_for() {
  for _ in $(seq 1 "${2:-300}"); do
    pane | grep -Eq "$1" && return 0
    "${T[@]}" has-session -t "$session" 2>/dev/null || break
    sleep 0.1
  done
  echo "FAIL: the pane never showed /$1/:"; pane | indent
  fail=1
  return 1
}
# The bar: "run [###...] 12% level 9/13 77/200 input blocks 2.87M entries/s ... ETA 1m00s".
BAR="^(run|resume) .*level [0-9]+/$N .*ETA [0-9]+[hms]"
# check_bar: the line is there and, a few redraws later, still on one row
# (redrawn in place: a line that wrapped would leave a trail of rows), and
# no row reaches the pane's width (a full row may wrap at the next
# character; tmux gives a wrapped row back as 80 columns, or joined, wider).
check_bar() {
  wait_for "$BAR" || return
  sleep 1.2
  local text
  text=$(pane)
  # (The forecast a new run prints first is a line of its own, written once:
  # the terminal may wrap it.)
  if [ "$(echo "$text" | grep -Ec "^$1 ")" -ne 1 ] || echo "$text" | grep -v '^forecast ' | awk 'length($0) >= 80 { bad = 1 } END { exit !bad }'; then
    echo "FAIL ($1): the progress line wraps or is not redrawn in place:"
    echo "$text" | awk '{ printf "  | %3d %s\n", length($0), $0 }'
    fail=1
  fi
}
# start_pane NAME COMMAND...: runs the command in a new session NAME of
# 80x24 (by a script, so no long command line is echoed), then prints its
# exit status. bash catches SIGINT (a handler, which the command does not
# inherit) only to go on to the echo after Ctrl-C. (A new session each time:
# killing the last one would stop the server while the next one starts.)
start_pane() {
  session=$1
  shift
  {
    echo 'trap : INT'
    printf '%q ' "$@"
    printf '\necho "EXIT=$?"\nsleep 600\n'
  } >"$tmp/$session.sh"
  "${T[@]}" new-session -d -s "$session" -x 80 -y 24 "bash $tmp/$session.sh"
}

# mid_level: waits until the bar shows the last pass (levels N-2..N, most
# of the run) less than 80% read (so that Ctrl-C lands inside it, well
# before its last blocks, and status can say "interrupted during level k";
# after a commit it would say "stopped"). An earlier pass can end between
# the look and the keys: in CI one did, and Ctrl-C landed after level 11.
mid_level() {
  for _ in $(seq 1 600); do
    pane | grep -E "$BAR" | grep -Eo "level [0-9]+/$N [0-9.]+k?/[0-9.]+k? " | awk -F'[ /]' -v n="$N" '
      function value(s) { return s ~ /k/ ? 1000 * s : s + 0 }  # "1.72k": 1720
      END { exit !(NR == 1 && $2 >= n - 2 && value($4) < 0.8 * value($5)) }' && return 0
    sleep 0.1
  done
  echo "FAIL: the bar never showed the last pass less than 80% read"; fail=1
}

# 1. A run: the bar, then Ctrl-C.
start_pane run "$E" run "${GAME[@]}" --store "$store"
check_bar run
mid_level
"${T[@]}" send-keys -t "$session" C-c
wait_for '^EXIT=' 100
text=$(pane)
echo "$text" | grep -Eq "^eulerdeck run: interrupted during levels? [0-9]+(-[0-9]+)? at input block [0-9]+ of [0-9]+ \(checkpoint saved\); continue with \`eulerdeck resume --store $store\`$" ||
  { echo "FAIL: no interrupt message with the resume hint:"; indent <<<"$text"; fail=1; }
echo "$text" | grep -q '^EXIT=130$' || { echo "FAIL: exit status $(echo "$text" | grep EXIT=)"; fail=1; }
# The line was cleared: nothing of the bar is left on the screen.
echo "$text" | grep -Eq 'ETA|\[#' && { echo "FAIL: the bar was left behind:"; indent <<<"$text"; fail=1; }
"$E" status --store "$store" | grep -q '^state      interrupted during level' ||
  { echo "FAIL: status after Ctrl-C: $("$E" status --store "$store" | grep state)"; fail=1; }

# 2. The run resumed: its bar again (from the stored levels: level k/n and an
# overall ETA at once), and status beside it says "running", live.
start_pane resume "$E" resume --store "$store"
check_bar resume
# The bar keeps its width over redraws (it once took what room the numbers
# left), and its percentage says what it is a percentage of: the work, not
# the counter beside it (issue 42, B3).
widths=
for _ in $(seq 1 8); do
  widths="$widths $(pane | grep -E "$BAR" | grep -Eo '\[[#.]+\]' | awk '{ print length($0) }')"
  sleep 0.5
done
[ -n "${widths// /}" ] && [ "$(echo $widths | tr ' ' '\n' | sort -u | wc -l)" -eq 1 ] ||
  { echo "FAIL: the bar changed width between redraws:$widths"; fail=1; }
pane | grep -E "$BAR" | grep -Eq '\] [0-9]+% of work ' ||
  { echo "FAIL: the bar's percentage does not say it is of the work:"; pane | indent; fail=1; }
live="^state      running \\(pid [0-9]+, since .*\\): levels? [0-9]+(-[0-9]+)? of $N, input block [0-9,]+ of [0-9,]+, .* entries, .* entries/s"
for _ in $(seq 1 100); do
  "$E" status --store "$store" | grep -Eq "$live" && break
  sleep 0.1
done
"$E" status --store "$store" | grep -Eq "$live" ||
  { echo "FAIL: status during a run: $("$E" status --store "$store" | grep state)"; fail=1; }
"${T[@]}" send-keys -t "$session" C-c
wait_for '^EXIT=' 100
pane | grep -q '^EXIT=130$' || { echo "FAIL: resume's exit status $(pane | grep EXIT=)"; fail=1; }

[ "$fail" -eq 0 ] && echo "tmux_test: all checks passed"
exit "$fail"
