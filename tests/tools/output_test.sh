#!/usr/bin/env bash
# Output files and a closed standard output (issue 42, A.1 and A.2;
# docs/output.md, "Output files" and "A closed standard output").
#
# For every command with a file output, the output named as
# - a private character device (mknod: full, 1,7 and null, 1,3 — never the
#   system's /dev/null or /dev/full): written in place, still a device
#   afterwards; full: exit 1 and one line naming it; null: exit 0;
# - a FIFO with a reader: the reader receives exactly the file's bytes, and
#   the FIFO stays a FIFO;
# - a symbolic link to a regular file: the target gets the results, the link
#   stays a link; a link to the private null device writes the device; a
#   dangling link gets its target created;
# - a directory: exit 2, one line, nothing written, before any work.
# Then a closed standard output (`... | head -1`): exit 141, nothing on
# stderr, no output file left (complete or partial), and a long producer
# stops at once.
# Needs root for mknod; without it the device checks are skipped and the
# test reports itself skipped (77) when everything else passed.
# Usage: output_test.sh BUILD_DIR
set -u
E="$1/eulerdeck"
C="$1/cardlab"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
checks=0

devices=1
if ! mknod -m 666 "$tmp/full" c 1 7 2>/dev/null || ! mknod -m 666 "$tmp/null" c 1 3 2>/dev/null; then
  echo "output_test: device checks skipped (mknod refused: needs root)"
  devices=0
fi
mkfifo "$tmp/fifo"
mkdir "$tmp/dir"

# Stores to export and list: a stored run, a count store (its batches and
# progress), a count --removed store (its distribution).
"$E" run --game mousetrap --ranks 8 --store "$tmp/stores/s8" -q >/dev/null 2>&1 ||
  { echo "FAIL: run for the store to export"; fail=1; }
"$E" count --game hlm --ranks 8 --suits 2 --store "$tmp/stores/c8" --subtrees 50 -q >/dev/null 2>&1 ||
  { echo "FAIL: count --store for the store to export"; fail=1; }
"$E" count --removed --game mousetrap --ranks 8 --store "$tmp/stores/r8" -q >/dev/null 2>&1 ||
  { echo "FAIL: count --removed --store for the store to export"; fail=1; }

# Each case: NAME|COMMAND WITH ITS OUTPUT OPTION LAST (the path follows).
cases=(
  "count-csv|$E count --game mousetrap --ranks 6 --csv"
  "count-bfile|$E count --game mousetrap --ranks 1..7 --bfile"
  "count-removed-csv|$E count --removed --game mousetrap --ranks 6 --csv"
  "brute-csv|$E brute --game mousetrap --ranks 5 --csv"
  "brute-bfile|$E brute --game mousetrap --ranks 1..6 --bfile"
  "best-csv|$E best --game hlm --ranks 6 --csv"
  "reform-stats-csv|$E reform-stats --game modular --ranks 6 --csv"
  "estimate-csv|$E estimate --game mousetrap --ranks 8 --samples 200 --csv"
  "oeis-bfile|$E oeis A007709 --to 8 --bfile"
  "list-csv|$E list $tmp/stores --csv"
  "export-counts|$E export --store $tmp/stores/s8 --counts"
  "export-decks|$E export --store $tmp/stores/s8 --level 8 --decks"
  "export-batches|$E export --store $tmp/stores/c8 --batches"
  "export-progress|$E export --store $tmp/stores/c8 --progress"
  "export-removed-counts|$E export --store $tmp/stores/r8 --counts"
  "mc-csv|$C mc --game hlm --ranks 5 --decks 1000 --csv"
  "memory-solitaire-csv|$C memory solitaire --n 20 --csv"
  "memory-terminating-csv|$C memory terminating --n 8 --csv"
  "dundee-csv|$C dundee optimal-bids --deck 1,1,1 --csv"
)

# run_to TARGET ARGS...: the command with its output at TARGET, quiet;
# stdout to $tmp/out, stderr to $tmp/err, the exit status in $rc.
run_to() {
  local target="$1"; shift
  # shellcheck disable=SC2086
  "$@" "$target" -q >"$tmp/out" 2>"$tmp/err"
  rc=$?
}
# same NAME FILE TARGET: FILE holds the reference output of NAME, the output
# path written as TARGET (b-files name their command line) replaced.
same() {
  sed "s|$3|OUT|g" "$2" | norm "$1" | cmp -s - "$tmp/ref-$1.txt"
}
# norm NAME: NAME's output as compared. list's checkpoint_age_seconds (its
# 11th column: the seconds since each store's last commit) grows from one
# run to the next: blanked.
norm() {
  if [ "$1" = list-csv ]; then awk -F, -v OFS=, 'NR > 1 { $11 = "" } 1'; else cat; fi
}
bad() { echo "FAIL ($1): $2"; sed 's/^/  | /' "$tmp/err"; fail=1; }

for c in "${cases[@]}"; do
  name="${c%%|*}"
  read -r -a cmd <<<"${c#*|}"
  # A regular file, a FIFO, two links, a directory; with devices null, full
  # and a link to null.
  checks=$((checks + 5 + 3 * devices))
  # The reference: a regular file, written as NAME.partial and renamed.
  run_to "$tmp/ref-$name" "${cmd[@]}"
  if [ "$rc" -ne 0 ] || [ ! -s "$tmp/ref-$name" ] || [ -e "$tmp/ref-$name.partial" ]; then
    bad "$name" "to a regular file: rc=$rc"; continue
  fi
  sed "s|$tmp/ref-$name|OUT|g" "$tmp/ref-$name" | norm "$name" >"$tmp/ref-$name.txt"
  lines_ok=$(wc -l <"$tmp/err")

  if [ "$devices" -eq 1 ]; then
    run_to "$tmp/null" "${cmd[@]}"
    [ "$rc" -eq 0 ] || bad "$name" "to a private null device: rc=$rc"
    [ -c "$tmp/null" ] || { bad "$name" "the private null device was replaced: $(ls -l "$tmp/null")"
      rm -f "$tmp/null"; mknod -m 666 "$tmp/null" c 1 3; }
    # One line naming the device; besides it at most the lines a success
    # prints (count's time line), no other error.
    run_to "$tmp/full" "${cmd[@]}"
    if [ "$rc" -ne 1 ] || [ "$(grep -c "could not write '$tmp/full' (No space left on device)" "$tmp/err")" -ne 1 ] ||
       [ "$(grep -vc "could not write" "$tmp/err")" -gt "$lines_ok" ]; then
      bad "$name" "to a private full device: rc=$rc, want 1 and one line naming it"
    fi
    [ -c "$tmp/full" ] || { bad "$name" "the private full device was replaced: $(ls -l "$tmp/full")"
      rm -f "$tmp/full"; mknod -m 666 "$tmp/full" c 1 7; }
    [ -e "$tmp/full.partial" ] || [ -e "$tmp/null.partial" ] && { bad "$name" "a .partial beside a device"; rm -f "$tmp"/*.partial; }
  fi

  # A FIFO with a reader receives the results (the reader gives up after
  # 20 s: a writer that never opens the FIFO must not hang the test).
  timeout 20 cat "$tmp/fifo" >"$tmp/got" &
  reader=$!
  run_to "$tmp/fifo" "${cmd[@]}"
  wait "$reader"; reader_rc=$?
  [ "$rc" -eq 0 ] || bad "$name" "to a FIFO: rc=$rc"
  [ "$reader_rc" -eq 0 ] && same "$name" "$tmp/got" "$tmp/fifo" ||
    bad "$name" "the FIFO's reader did not receive the results (reader rc=$reader_rc, $(wc -c <"$tmp/got") bytes)"
  [ -p "$tmp/fifo" ] || { bad "$name" "the FIFO was replaced: $(ls -l "$tmp/fifo")"; rm -f "$tmp/fifo"; mkfifo "$tmp/fifo"; }

  # A symbolic link to a regular file: followed; the target is replaced
  # whole (written beside it as TARGET.partial), the link stays.
  echo "old contents" >"$tmp/real"
  ln -sfn real "$tmp/link"
  run_to "$tmp/link" "${cmd[@]}"
  if [ "$rc" -ne 0 ] || [ ! -L "$tmp/link" ] || [ "$(readlink "$tmp/link")" != real ] ||
     ! same "$name" "$tmp/real" "$tmp/link" || [ -e "$tmp/real.partial" ] || [ -e "$tmp/link.partial" ]; then
    bad "$name" "to a link to a regular file: rc=$rc, link: $(ls -l "$tmp/link")"
  fi
  rm -f "$tmp/link" "$tmp/real"
  # A dangling link: its target is created.
  ln -s "$tmp/new" "$tmp/dangling"
  run_to "$tmp/dangling" "${cmd[@]}"
  if [ "$rc" -ne 0 ] || [ ! -L "$tmp/dangling" ] || [ ! -f "$tmp/new" ] || ! same "$name" "$tmp/new" "$tmp/dangling"; then
    bad "$name" "to a dangling link: rc=$rc"
  fi
  rm -f "$tmp/dangling" "$tmp/new"
  if [ "$devices" -eq 1 ]; then
    ln -s null "$tmp/nlink"
    run_to "$tmp/nlink" "${cmd[@]}"
    { [ "$rc" -eq 0 ] && [ -L "$tmp/nlink" ] && [ -c "$tmp/null" ]; } ||
      bad "$name" "to a link to the private null device: rc=$rc, $(ls -l "$tmp/null")"
    rm -f "$tmp/nlink"
  fi

  # A directory: refused before any work, one line, exit 2.
  run_to "$tmp/dir" "${cmd[@]}"
  if [ "$rc" -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -q "'$tmp/dir': it is a directory" "$tmp/err" ||
     [ -s "$tmp/out" ] || [ -e "$tmp/dir.partial" ] || [ -n "$(ls -A "$tmp/dir")" ]; then
    bad "$name" "to a directory: rc=$rc, want 2 and one line"; rm -rf "$tmp/dir.partial"
  fi
done

# A FIFO whose reader leaves early is that output's write error: exit 1, one
# line naming it (EPIPE), not a quiet end.
"$E" run --game mousetrap --ranks 11 --store "$tmp/s11" -q >/dev/null 2>&1 ||
  { echo "FAIL: run for the large level"; fail=1; }
timeout 20 head -c 100 "$tmp/fifo" >/dev/null &
reader=$!
timeout 60 "$E" export --store "$tmp/s11" --level 11 --decks "$tmp/fifo" >"$tmp/out" 2>"$tmp/err"
rc=$?
wait "$reader"
checks=$((checks + 1))
if [ "$rc" -ne 1 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] ||
   ! grep -q "^eulerdeck export: could not write '$tmp/fifo' (Broken pipe)$" "$tmp/err"; then
  bad "export to a FIFO whose reader left" "rc=$rc, want 1 and one line"
fi

# A closed standard output: exit 141 (as a shell reports SIGPIPE), nothing
# on stderr, and the producer stops at its next write (the full export
# writes 449,719 lines; a count of 1..16 takes hours): each within 60 s.
# closed NAME ARGS...: ARGS | head -1, checked.
closed() {
  local name="$1"; shift
  checks=$((checks + 1))
  timeout 60 "$@" 2>"$tmp/err" | head -1 >/dev/null
  local rc=${PIPESTATUS[0]}
  if [ "$rc" -ne 141 ] || [ -s "$tmp/err" ]; then bad "$name | head -1" "rc=$rc, want 141 and nothing on stderr"; fi
}
closed "export --decks -" "$E" export --store "$tmp/s11" --level 11 --decks -
closed "inspect --limit 0" "$E" inspect --store "$tmp/s11" --level 11 --limit 0
closed "count 1..16 --json" "$E" count --game mousetrap --ranks 1..16 --json -q
closed "brute 1..13 --json" "$E" brute --game mousetrap --ranks 1..13 --json -q

closed "mc 3..30 --json" "$C" mc --game mousetrap --ranks 3..30 --decks 10000000 --json -q
# A job that writes nothing for hours (a b-file written at the end, one
# large count) ends as soon as its reader does.
silent() {
  local name="$1"; shift
  checks=$((checks + 1))
  timeout 60 "$@" 2>"$tmp/err" | true
  local rc=${PIPESTATUS[0]}
  if [ "$rc" -ne 141 ] || [ -s "$tmp/err" ]; then bad "$name | true" "rc=$rc, want 141 and nothing on stderr"; fi
}
silent "oeis A007709 --to 17" "$E" oeis A007709 --to 17 -q
silent "count --ranks 16" "$E" count --game mousetrap --ranks 16 --force -q
# A file given alongside is left neither complete nor partial.
closed "count 1..16 --json --csv FILE" "$E" count --game mousetrap --ranks 1..16 --json -q --csv "$tmp/beside.csv"
[ -e "$tmp/beside.csv" ] || [ -e "$tmp/beside.csv.partial" ] &&
  { echo "FAIL (closed pipe): the --csv file given alongside was left: $(ls "$tmp" | grep beside)"; fail=1; }
closed "mc 3..30 --json --csv FILE" "$C" mc --game mousetrap --ranks 3..30 --decks 10000000 --json -q --csv "$tmp/beside2.csv"
[ -e "$tmp/beside2.csv" ] || [ -e "$tmp/beside2.csv.partial" ] &&
  { echo "FAIL (closed pipe): mc's --csv file given alongside was left"; fail=1; }

if [ "$fail" -ne 0 ]; then exit 1; fi
if [ "$devices" -eq 0 ]; then
  echo "output_test: $checks checks passed, device checks skipped"; exit 77
fi
echo "output_test: all $checks checks passed (${#cases[@]} file outputs, each to a regular file, devices, a FIFO, links and a directory; closed pipes)"
exit 0
