#!/usr/bin/env bash
# End-to-end checks of the command-line contract: results on stdout, one line
# on stderr and exit status 2 for bad input, --help everywhere.
# Usage: cli_test.sh BUILD_DIR
set -u
bin="$1"
fail=0
skipped=""  # checks that could not run here: the test then exits 77 (skipped)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect_bad DESCRIPTION ARGS...: exit 2, nothing on stdout, one line on stderr.
expect_bad() {
  local what="$1"; shift
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  local lines
  lines=$(wc -l <"$tmp/err")
  if [ "$rc" -ne 2 ] || [ -s "$tmp/out" ] || [ "$lines" -ne 1 ]; then
    echo "FAIL ($what): rc=$rc stdout=$(wc -c <"$tmp/out")B stderr lines=$lines: $*"
    cat "$tmp/err"
    fail=1
  fi
}

# expect_ok DESCRIPTION PATTERN ARGS...: exit 0 and stdout matches PATTERN.
expect_ok() {
  local what="$1" pattern="$2"; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" -ne 0 ] || ! grep -Eq -- "$pattern" "$tmp/out"; then
    echo "FAIL ($what): rc=$rc, stdout does not match '$pattern': $*"
    cat "$tmp/out" "$tmp/err"
    fail=1
  fi
}

E="$bin/eulerdeck"
C="$bin/cardlab"

expect_ok "help" "play" "$E" --help
for cmd in play reform rebuild best reform-stats reform-search estimate oeis brute count run resume status inspect export import verify list; do
  expect_ok "$cmd --help" "usage: eulerdeck $cmd" "$E" "$cmd" --help
done
expect_ok "count --removed --help" "usage: eulerdeck count --removed" "$E" count --removed --help
expect_ok "cardlab help" "usage: cardlab" "$C" --help
# Every help text fits an 80-column terminal.
for args in "$E" "$E play" "$E reform" "$E rebuild" "$E best" "$E reform-stats" "$E reform-search" "$E estimate" "$E oeis" "$E brute" "$E count" "$E count --removed" "$E run" "$E resume" "$E status" \
            "$E inspect" "$E export" "$E import" "$E verify" "$E list" "$C" "$C mc" "$C memory" "$C memory solitaire" \
            "$C memory terminating" "$C memory combinatorial" "$C dundee" "$C dundee greedy" \
            "$C dundee advance" "$C dundee optimal-bids"; do
  # shellcheck disable=SC2086
  wide=$($args --help | awk 'length($0) > 80')
  [ -z "$wide" ] || { echo "FAIL ($args --help wider than 80 columns): $wide"; fail=1; }
done

expect_ok "play json" '^\{"command":"eulerdeck play",.*"outcome":"win".*"reformed_deck":\[1,4,2,3\]' \
  "$E" play --game mousetrap --ranks 4 --deck "1 4 3 2" --json
expect_ok "play commas" "outcome +dead-end" "$E" play --game modular --ranks 4 --deck 4,3,2,1
# A deck without a reformed deck has no reformed_deck field (not null).
expect_ok "play hlm json" '"outcome":"loss"' "$E" play --game hlm --ranks 4 --deck "2 1 3 4" --json
grep -q 'reformed_deck\|null' "$tmp/out" && { echo "FAIL (play hlm json): $(cat "$tmp/out")"; fail=1; }
expect_ok "rebuild cayley" "^deck   1 6 2 4 5 3 7 8$" "$E" rebuild --game mousetrap --ranks 8 --identity
# An order from a file, one value per line (orders too long for an argument).
seq 1 8 > "$tmp/order8"
expect_ok "rebuild order-file" "^deck   1 6 2 4 5 3 7 8$" "$E" rebuild --game mousetrap --ranks 8 --order-file "$tmp/order8"
# Seven modular decks remove 1..6 in order: --max 7 lists them all, --max 3 says more exist.
expect_ok "rebuild max all" "^decks  7 \(all of them\)" "$E" rebuild --game modular --ranks 6 --identity --max 7
expect_ok "rebuild max more" "^decks  3 \(more exist" "$E" rebuild --game modular --ranks 6 --identity --max 3
# Bersani 2010, Table 3, m = 10: best score 39 by the one deck below.
expect_ok "best" "^deck +10 1 6 2 7 3 8 5 9 4$" "$E" best --game hlm --ranks 10 --show 5
# OEIS A007712(10) = 64330 decks of 10 cards reformable exactly once (published).
expect_ok "reform-stats" "^ +1 +64,330 +65,503$" "$E" reform-stats --game mousetrap --ranks 10
# Modular, 9 cards: the longest sequence ending on a cycle has 13 decks
# (every deck classified).
expect_ok "reform-search" "^length +13 distinct decks, ends on a cycle" \
  "$E" reform-search --game modular --ranks 9
# hlm has one root (the final burned 2): counted exactly below it, the
# estimate is the exact count, 76,823 decks for m = 12 s = 2 (Bersani 2010
# Table 2), with no error.
expect_ok "estimate" "^winning decks  76823 \+- 0%" \
  "$E" estimate --game hlm --ranks 12 --suits 2 --exact-levels 23 --samples 10
# OEIS A007710, n = 10 (published).
expect_ok "oeis" "^10 886837$" "$E" oeis A007710 --to 10
expect_ok "reform" "length +52 distinct decks" \
  "$E" reform --game modular --ranks 13 --deck "6 2 5 11 1 8 13 12 7 9 10 3 4"
expect_ok "brute" "winning decks +1$" "$E" brute --game hlm --ranks 6 --suits 2
expect_ok "brute json" '^\{"command":"eulerdeck brute",.*"winning_decks":"147"' \
  "$E" brute --game mousetrap --ranks 4 --suits 2 --json
"$E" brute --game mousetrap --ranks 5 --csv "$tmp/b.csv" >/dev/null 2>&1
grep -q "^mousetrap,5,1,win,1,15$" "$tmp/b.csv" || { echo "FAIL (brute csv)"; fail=1; }
# Bersani 2010, Table 2: hlm s=2 m=10.
expect_ok "count" "winning decks +656$" "$E" count --game hlm --ranks 10 --suits 2
# OEIS A028305, row 8: the decks removing exactly 1 card (A007710(8)).
expect_ok "count removed" "^ +1 +9,949$" "$E" count --removed --game mousetrap --ranks 8
expect_ok "count verify" "verified +1,812 winning decks" \
  "$E" count --game mousetrap --ranks 8 --verify-leaves
# --gpu (issue 45): without a plugin, one line and exit 2; through the host
# stand-in of the plugin (the same kernel body on threads), the same counts
# (Bersani 2010, Table 2; OEIS A007709(9)), in memory and in a store.
expect_bad "count gpu no plugin" \
  env EULERDECK_GPU_PLUGIN="$tmp/none.so" "$E" count --game hlm --ranks 10 --suits 2 --gpu
[ -e "$tmp/gpu-store" ] && { echo "FAIL (count gpu no plugin): a store was made"; fail=1; }
expect_bad "count gpu no plugin, store" env EULERDECK_GPU_PLUGIN="$tmp/none.so" \
  "$E" count --game hlm --ranks 10 --suits 2 --gpu --store "$tmp/gpu-store"
[ -e "$tmp/gpu-store" ] && { echo "FAIL (count gpu no plugin): a store was made"; fail=1; }
expect_ok "count gpu host" "winning decks +656$" \
  env EULERDECK_GPU_PLUGIN=host "$E" count --game hlm --ranks 10 --suits 2 --gpu
expect_ok "count gpu host store" "winning decks +9,978$" env EULERDECK_GPU_PLUGIN=host \
  "$E" count --game mousetrap --ranks 9 --gpu --store "$tmp/gpu-store" --threads 1

# A new stored run's forecast (issue 18): hlm 13x4, the French deck, is
# refused without --force (exit 2, one line, nothing created); mousetrap 12's
# forecast of the store's disk is within a factor of 2 of its size once built.
"$E" run --game hlm --ranks 13 --suits 4 --store "$tmp/french" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] || [ -s "$tmp/out" ] || [ -e "$tmp/french" ] ||
   ! grep -q "^eulerdeck run: forecast .* years on .*: --force to start anyway (\`eulerdeck estimate\` estimates it in seconds)$" "$tmp/err"; then
  echo "FAIL (run forecast refusal): rc=$rc: $(cat "$tmp/err")"; fail=1
fi
"$E" run --game mousetrap --ranks 12 --store "$tmp/fc12" --threads 1 >/dev/null 2>"$tmp/err"
python3 - "$tmp/err" "$(du -sb "$tmp/fc12" | cut -f1)" <<'PY' || fail=1
import re, sys
line = open(sys.argv[1]).read().splitlines()[0]
m = re.search(r"~([0-9.]+) (B|KiB|MiB|GiB) of disk", line)
if not m:
    sys.exit(f"FAIL (run forecast): no disk in: {line}")
scale = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}[m.group(2)]
forecast, real = float(m.group(1)) * scale, int(sys.argv[2])
if not 0.5 * real <= forecast <= 2 * real:
    sys.exit(f"FAIL (run forecast): {forecast:.0f} bytes forecast, {real} on disk")
PY

# Results that cannot be written (a full disk; /dev/full) are an error, not
# a silent exit 0: exit 1 and a line naming standard output.
expect_full() {
  local what="$1"; shift
  "$@" >/dev/full 2>"$tmp/err"
  local rc=$?
  if [ "$rc" -ne 1 ] || ! grep -q "could not write the results to standard output" "$tmp/err"; then
    echo "FAIL ($what to /dev/full): rc=$rc: $*"; cat "$tmp/err"; fail=1
  fi
}
expect_full "play" "$E" play --game mousetrap --ranks 4 --deck "1 4 3 2"
expect_full "brute" "$E" brute --game mousetrap --ranks 5
expect_full "count" "$E" count --game mousetrap --ranks 8 --json
expect_full "count --removed" "$E" count --removed --game mousetrap --ranks 8
expect_full "mc" "$C" mc --game hlm --ranks 5 --decks 1000
expect_full "memory solitaire" "$C" memory solitaire --n 50
expect_full "dundee greedy" "$C" dundee greedy --deck "4^3"
expect_full "reform" "$E" reform --game mousetrap --ranks 4 --deck "1 4 3 2" --list
expect_full "rebuild" "$E" rebuild --game mousetrap --ranks 8 --identity
expect_full "best" "$E" best --game hlm --ranks 8 --show 1
expect_full "reform-stats" "$E" reform-stats --game modular --ranks 7
expect_full "reform-search" "$E" reform-search --game modular --ranks 8
expect_full "estimate" "$E" estimate --game mousetrap --ranks 9 --samples 1000
expect_full "oeis" "$E" oeis A007709 --to 8
expect_full "memory terminating" "$C" memory terminating --n 6
expect_full "memory combinatorial" "$C" memory combinatorial --order "1a 2a 1b 2b"
expect_full "dundee advance" "$C" dundee advance --deck "4^3" --bids "1,1,1"
expect_full "dundee optimal-bids" "$C" dundee optimal-bids --deck "4^3"
expect_full "run" "$E" run --game mousetrap --ranks 6 --store "$tmp/full6"
expect_full "status" "$E" status --store "$tmp/full6"
expect_full "inspect" "$E" inspect --store "$tmp/full6" --level 6
expect_full "verify" "$E" verify --store "$tmp/full6"

# Output files appear only when complete: on a full disk the command exits 1
# with one line naming the file and leaves neither the file nor its .partial.
# Needs a tiny tmpfs (root); reported as skipped where mount is refused.
small="$tmp/small"
mkdir -p "$small"
if mount -t tmpfs -o size=8k tmpfs "$small" 2>/dev/null; then
  "$E" run --game mousetrap --ranks 8 --store "$tmp/m8" >/dev/null 2>&1
  expect_diskfull() {
    local what="$1" file="$2"; shift 2
    "$@" >/dev/null 2>"$tmp/err"
    local rc=$?
    if [ "$rc" -ne 1 ] || ! grep -q "could not write '$file'" "$tmp/err" ||
       [ -e "$file" ] || [ -e "$file.partial" ]; then
      echo "FAIL ($what on a full disk): rc=$rc: $*"; cat "$tmp/err"; ls -la "$small"; fail=1
    fi
  }
  expect_diskfull "export --decks" "$small/d.csv" \
    "$E" export --store "$tmp/m8" --level 8 --decks "$small/d.csv"
  expect_diskfull "memory solitaire --csv" "$small/s.csv" \
    "$C" memory solitaire --n 2000 --float --csv "$small/s.csv"
  # Small results need a device that is full already.
  dd if=/dev/zero of="$small/filler" bs=1k >/dev/null 2>&1
  expect_diskfull "export --counts" "$small/c.csv" \
    "$E" export --store "$tmp/m8" --counts "$small/c.csv"
  expect_diskfull "brute --csv" "$small/b.csv" \
    "$E" brute --game hlm --ranks 4 --suits 2 --csv "$small/b.csv"
  expect_diskfull "count --csv" "$small/n.csv" \
    "$E" count --game mousetrap --ranks 9 --csv "$small/n.csv"
  expect_diskfull "mc --csv" "$small/mc.csv" \
    "$C" mc --game hlm --ranks 5 --decks 1000 --csv "$small/mc.csv"
  expect_diskfull "memory terminating --csv" "$small/t.csv" \
    "$C" memory terminating --n 120 --csv "$small/t.csv"
  expect_diskfull "dundee optimal-bids --csv" "$small/o.csv" \
    "$C" dundee optimal-bids --values 3 --max-cards 9 --csv "$small/o.csv"
  umount "$small"
else
  echo "cli_test: full-disk checks skipped (cannot mount a tmpfs here)"
  skipped="$skipped the full-disk checks (no tmpfs mount);"
fi
"$E" count --game mousetrap --ranks 6 --csv "$tmp/c.csv" >/dev/null 2>&1
{ [ -s "$tmp/c.csv" ] && [ ! -e "$tmp/c.csv.partial" ]; } || { echo "FAIL (count csv)"; fail=1; }

expect_bad "empty --csv" "$E" brute --game mousetrap --ranks 4 --csv ""
# --version: the project's version and commit, on stdout, exit 0.
for tool in "$E" "$C"; do
  out=$("$tool" --version)
  echo "$out" | grep -Eq "^(eulerdeck|cardlab) [0-9]+\.[0-9]+\.[0-9]+ \(commit ([0-9a-f]{12}|unknown)\)$" ||
    { echo "FAIL (--version): $out"; fail=1; }
done
# An hour-long brute force is not started by default (8.7e10 decks).
"$E" brute --game mousetrap --ranks 14 >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" -ne 2 ] || ! grep -Eq "87,178,291,200 decks, about [0-9hms]+ here \([0-9.]+M decks/s measured\), more than the limit of 10,000,000,000 decks \(use \`eulerdeck count\`, or raise --max-decks\)" "$tmp/err"; then
  echo "FAIL (brute m=14 refused): rc=$rc $(cat "$tmp/err")"; fail=1
fi
expect_bad "empty --store" "$E" status --store ""
expect_bad "size overflow" "$E" run --game mousetrap --ranks 6 --store "$tmp/ov" \
  --memory-budget 17179869200G
[ -e "$tmp/ov" ] && { echo "FAIL (a refused run created its store)"; fail=1; }

"$E" run --game hlm --ranks 4 --suits 2 --store "$tmp/h42" >/dev/null 2>&1
expect_bad "inspect --from longer than the level" \
  "$E" inspect --store "$tmp/h42" --level 3 --from "21212"
expect_ok "inspect --from" "\|" "$E" inspect --store "$tmp/h42" --level 3 --from "2"

# Treize (the fourth game): playable, brute force and Monte Carlo; count, run
# and reform refuse it in one line, writing nothing.
expect_ok "help lists treize" "treize +Treize" "$E" --help
expect_ok "play treize" "outcome +win" "$E" play --game treize --ranks 4 --deck "2 1 4 3"
expect_ok "play treize match" '"outcome":"loss"' \
  "$E" play --game treize --ranks 4 --suits 2 --deck "2 3 3 1 4 2 1 4" --json
expect_ok "brute treize A059074(4)" "winning decks +748,521$" \
  "$E" brute --game treize --ranks 4 --suits 4
expect_ok "mc treize" '"winning_decks":"' "$C" mc --game treize --ranks 13 --suits 4 --decks 10000 --json
expect_bad "count treize" "$E" count --game treize --ranks 5 --csv "$tmp/treize.csv"
[ -e "$tmp/treize.csv" ] && { echo "FAIL (count treize wrote its csv)"; fail=1; }
expect_bad "run treize" "$E" run --game treize --ranks 5 --store "$tmp/treize-store"
[ -e "$tmp/treize-store" ] && { echo "FAIL (run treize created a store)"; fail=1; }
expect_bad "reform treize" "$E" reform --game treize --ranks 4 --deck "2 1 4 3"
expect_bad "unknown game" "$E" play --game frustration --ranks 4 --deck "2 1 4 3"
# Bersani 2010, Table 5: 1182 winning decks of modular s=2 m=4; the levels
# before it as brute force counts them (tests/eulerian/count_test.cc compares
# every level with brute force on all decks of this size).
expect_ok "count json" '"levels":\["4","12","44","99","280","687","1275","1182"\]' \
  "$E" count --game modular --ranks 4 --suits 2 --json
"$E" count --game mousetrap --ranks 5 --csv "$tmp/c.csv" >/dev/null 2>&1
{ [ "$(head -1 "$tmp/c.csv")" = "game,ranks,suits,level,winning_sub_decks" ] &&
  grep -q "^mousetrap,5,1,5,15$" "$tmp/c.csv" && [ "$(wc -l <"$tmp/c.csv")" -eq 6 ]; } ||
  { echo "FAIL (count csv)"; fail=1; }
# Range mode and b-files (docs/output.md): A007709 for n = 1..11, from count
# and from brute; '-' is standard output with nothing else on it.
a007709="1,1,2,6,15,84,330,1812,9978,65503,449719"
got=$("$E" count --game mousetrap --ranks 1..11 --bfile - 2>/dev/null | grep -v '^#' | awk '{print $2}' | paste -sd,)
[ "$got" = "$a007709" ] || { echo "FAIL (count --bfile -): $got"; fail=1; }
"$E" count --game mousetrap --ranks 1..11 --bfile - 2>/dev/null | awk 'NR == 1 && !/^# / { exit 1 } !/^#/ { if ($0 !~ /^[0-9]+ [0-9]+$/ || $1 != ++n) exit 1 }' ||
  { echo "FAIL (count --bfile - format)"; fail=1; }
"$E" brute --game mousetrap --ranks 1..9 --bfile "$tmp/b.txt" >/dev/null 2>&1
[ "$(grep -v '^#' "$tmp/b.txt" | awk '{print $2}' | paste -sd,)" = "1,1,2,6,15,84,330,1812,9978" ] ||
  { echo "FAIL (brute --bfile)"; fail=1; }
expect_ok "count range text" "^ +11 +11 +449,719 " "$E" count --game mousetrap --ranks 9..11
[ "$("$E" count --game hlm --ranks 2..6 --suits 2 --json | wc -l)" -eq 5 ] || { echo "FAIL (count range json)"; fail=1; }
[ "$("$E" count --game mousetrap --ranks 4 --csv - | head -1)" = "game,ranks,suits,level,winning_sub_decks" ] ||
  { echo "FAIL (count --csv -: something else on stdout)"; fail=1; }
[ "$("$E" brute --game hlm --ranks 6 --suits 2 --json 2>/dev/null | grep -o '"winning_decks":"[0-9]*"')" = \
  "$("$E" count --game hlm --ranks 6 --suits 2 --json | grep -o '"winning_decks":"[0-9]*"')" ] ||
  { echo "FAIL (brute and count disagree, hlm 6x2)"; fail=1; }
expect_bad "count: --json with --csv -" "$E" count --game mousetrap --ranks 5 --json --csv -
expect_bad "brute: --csv - and --bfile -" "$E" brute --game mousetrap --ranks 5 --csv - --bfile -
expect_bad "count: empty range" "$E" count --game mousetrap --ranks 5..3
expect_bad "count: bad range" "$E" count --game mousetrap --ranks 1..x
expect_bad "count: range too large" "$E" count --game mousetrap --ranks 60..65
expect_bad "brute: range too large" "$E" brute --game mousetrap --ranks 10..14 --bfile "$tmp/none.txt"
[ -e "$tmp/none.txt" ] && { echo "FAIL (a refused brute wrote its b-file)"; fail=1; }

expect_bad "no command" "$E"
expect_bad "unknown command" "$E" frobnicate
expect_bad "unknown option" "$E" play --game mousetrap --ranks 4 --deck "1 2 3 4" --colour
expect_bad "stray word" "$E" play --game mousetrap --ranks 4 --deck "1 2 3 4" extra
expect_bad "unknown game" "$E" play --game cayley --ranks 4 --deck "1 2 3 4"
expect_bad "missing deck" "$E" play --game mousetrap --ranks 4
expect_bad "wrong multiset" "$E" play --game mousetrap --ranks 4 --deck "1 1 3 4"
expect_bad "value out of range" "$E" play --game mousetrap --ranks 4 --deck "1 2 3 5"
expect_bad "not a number" "$E" play --game mousetrap --ranks 4 --deck "1 2 three 4"
expect_bad "empty deck" "$E" play --game mousetrap --ranks 4 --deck ""
expect_bad "ranks 0" "$E" play --game mousetrap --ranks 0 --deck "1"
expect_bad "suits 0" "$E" brute --game mousetrap --ranks 3 --suits 0
expect_bad "ranks not a number" "$E" brute --game mousetrap --ranks x
expect_bad "too large" "$E" brute --game mousetrap --ranks 100 --suits 100
expect_bad "too many decks" "$E" brute --game hlm --ranks 13 --suits 4
expect_bad "negative threads" "$E" brute --game hlm --ranks 3 --threads -1
expect_bad "unwritable csv" "$E" brute --game hlm --ranks 3 --csv /nonexistent/dir/x.csv
expect_bad "count too many cards" "$E" count --game mousetrap --ranks 65
expect_bad "count too many ranks" "$E" count --game mousetrap --ranks 13 --suits 5
expect_bad "count bad game" "$E" count --game cayley --ranks 5
expect_bad "count bad threads" "$E" count --game hlm --ranks 5 --threads -2
# The store commands.
S="$tmp/store"
expect_ok "run" "state +complete" "$E" run --game hlm --ranks 6 --suits 2 --store "$S" --threads 1
expect_ok "run again: nothing to do" "state +complete" "$E" run --game hlm --ranks 6 --suits 2 --store "$S"
expect_ok "status json" '"complete":true.*\{"level":12,"winning_sub_decks":"1",[^}]*"checksum":"[0-9a-f]{16}"' \
  "$E" status --store "$S" --json
expect_ok "inspect" "^3 1 6 2 5 4 6 3 2 1 5 4  \|  5 3 4 6 6 5 4 3 1 2 1 2$" "$E" inspect --store "$S" --level 12
expect_ok "inspect from" "5 6 3 4 3 1 2 1 2$" "$E" inspect --store "$S" --level 9 --from 3431212 --limit 1
expect_ok "verify" "no fault" "$E" verify --store "$S"
"$E" export --store "$S" --counts "$tmp/counts.csv" && grep -q "^hlm,6,2,12,1," "$tmp/counts.csv" || { echo "FAIL (export counts)"; fail=1; }
"$E" export --store "$S" --level 10 --decks "$tmp/decks.csv" && [ "$(wc -l <"$tmp/decks.csv")" -eq 8 ] || { echo "FAIL (export decks)"; fail=1; }
# "-" is standard output, and then nothing else is printed there.
expect_ok "export counts -" "^game,ranks,suits,level,winning_sub_decks,blocks,stored_bytes,raw_bytes$" \
  "$E" export --store "$S" --counts -
cmp -s "$tmp/out" "$tmp/counts.csv" || { echo "FAIL (export --counts - differs from the file)"; fail=1; }
expect_bad "run: missing store" "$E" run --game hlm --ranks 6 --suits 2
expect_bad "run: other game" "$E" run --game hlm --ranks 7 --suits 2 --store "$S"
# export --counts of a run that has not reached its last level: refused
# (one line, exit 2, no file) unless --partial, which warns (issue 42, B3).
"$E" run --game hlm --ranks 6 --suits 2 --store "$tmp/unfinished" --until-level 4 -q >/dev/null 2>&1
expect_bad "export: counts of an unfinished run" "$E" export --store "$tmp/unfinished" --counts "$tmp/u.csv"
grep -q '^eulerdeck export: the run is not finished: 4 of 12 levels' "$tmp/err" || { echo "FAIL (export: the refusal's line): $(cat "$tmp/err")"; fail=1; }
[ -e "$tmp/u.csv" ] && { echo "FAIL (export: a refused --counts wrote its file)"; fail=1; }
"$E" export --store "$tmp/unfinished" --counts "$tmp/u.csv" --partial 2>"$tmp/err" && [ "$(wc -l <"$tmp/u.csv")" -eq 5 ] &&
  grep -q '^eulerdeck export: warning: the run is not finished: 4 of 12 levels; writing levels 1..4 only$' "$tmp/err" ||
  { echo "FAIL (export --counts --partial): $(cat "$tmp/err")"; fail=1; }
expect_bad "export: --partial without --counts" "$E" export --store "$S" --batches "$tmp/u2.csv" --partial
# --keep last gives the dropped levels' disk back (a compaction of their
# range after each drop): mousetrap m=13 once ended with 88 MB on disk for
# 24 MB of kept level (issue 42, B3). At most twice the kept level's bytes
# (and 4 MiB of RocksDB's own files) remain.
"$E" run --game mousetrap --ranks 13 --store "$tmp/k13" --keep last -q --threads 2 >/dev/null 2>&1 ||
  { echo "FAIL (run --keep last)"; fail=1; }
"$E" status --store "$tmp/k13" --json | python3 -c '
import json, sys
j = json.load(sys.stdin)
kept = sum(l["stored_bytes"] for l in j["levels"] if l["kept"])
assert j["complete"] and kept > 0 and j["disk_bytes"] <= 2 * kept + (4 << 20), (kept, j["disk_bytes"])' ||
  { echo "FAIL (run --keep last: the dropped levels still hold their disk)"; fail=1; }
rm -rf "$tmp/k13"
expect_bad "run: bad keep" "$E" run --game hlm --ranks 6 --suits 2 --store "$tmp/s2" --keep some
expect_bad "run: bad budget" "$E" run --game hlm --ranks 6 --suits 2 --store "$tmp/s2" --memory-budget lots
expect_bad "run: tiny budget" "$E" run --game hlm --ranks 6 --suits 2 --store "$tmp/s2" --memory-budget 1MiB
expect_bad "run: until past n" "$E" run --game hlm --ranks 6 --suits 2 --store "$tmp/s3" --until-level 13
expect_bad "run: too big" "$E" run --game mousetrap --ranks 65 --store "$tmp/s2"
[ -e "$tmp/s2" ] || [ -e "$tmp/s3" ] && { echo "FAIL (bad run input created a store)"; fail=1; }
expect_bad "resume: no store" "$E" resume --store "$tmp/nothing"
[ -e "$tmp/nothing" ] && { echo "FAIL (resume created a store)"; fail=1; }
expect_bad "status: no store" "$E" status --store "$tmp/nothing"
expect_bad "inspect: no level" "$E" inspect --store "$S" --level 13
expect_bad "inspect: bad from" "$E" inspect --store "$S" --level 9 --from 34x1
expect_bad "inspect: impossible from" "$E" inspect --store "$S" --level 9 --from "1 2 13"
expect_ok "inspect: header" "^deck \(top card first\)  \|  string \(removal order\)$" \
  "$E" inspect --store "$S" --level 9 --limit 2
expect_ok "inspect: total" "^\(2 of [0-9]+ entries shown; --limit 0 shows all\)$" \
  "$E" inspect --store "$S" --level 9 --limit 2
expect_ok "inspect --json" '"shown":"2"' "$E" inspect --store "$S" --level 9 --limit 2 --json
expect_bad "export: nothing asked" "$E" export --store "$S"
expect_bad "export: decks without level" "$E" export --store "$S" --decks "$tmp/x.csv"
expect_bad "export: two outputs" "$E" export --store "$S" --counts "$tmp/x.csv" --batches "$tmp/y.csv"
expect_bad "export: batches of a stored run" "$E" export --store "$S" --batches "$tmp/eb.csv"
expect_bad "export: progress of a stored run" "$E" export --store "$S" --progress "$tmp/ep.json"
[ -e "$tmp/x.csv" ] || [ -e "$tmp/y.csv" ] || [ -e "$tmp/eb.csv" ] || [ -e "$tmp/ep.json" ] && { echo "FAIL (a refused export wrote a file)"; fail=1; }
# A count's progress moved to a new store, which resume finishes: hlm s=2
# m=10 has 656 winning decks (Bersani 2010, Table 2).
"$E" count --game hlm --ranks 10 --suits 2 --store "$tmp/cs" --subtrees 50 -q >/dev/null ||
  { echo "FAIL (count --store for export --progress)"; fail=1; }
"$E" export --store "$tmp/cs" --progress "$tmp/p.json" 2>/dev/null && grep -q '"format": "eulerdeck count progress"' "$tmp/p.json" ||
  { echo "FAIL (export --progress)"; fail=1; }
expect_ok "import" "^continue +eulerdeck resume --store $tmp/cs2$" "$E" import --progress "$tmp/p.json" --store "$tmp/cs2"
# The document of a finished count makes a store that reads as complete,
# not "interrupted with N of N" (issue 42, B3) ...
expect_ok "import: a finished count is complete" "^state      complete" "$E" status --store "$tmp/cs2"
expect_ok "import: resume" "^winning decks +656$" "$E" resume --store "$tmp/cs2"
# ... and resume, with nothing to count, shows no rate ("0 sub-decks/s").
grep -q 'nodes/s\|sub-decks/s' "$tmp/err" && { echo "FAIL (import: resume shows a rate of nothing): $(cat "$tmp/err")"; fail=1; }
grep -q '^time .*nothing left to count' "$tmp/err" || { echo "FAIL (import: resume's time line): $(cat "$tmp/err")"; fail=1; }
expect_ok "import: from standard input" "^imported .* 656 winning decks so far" "$E" import --progress - --store "$tmp/cs3" <"$tmp/p.json"
expect_bad "import: existing store" "$E" import --progress "$tmp/p.json" --store "$tmp/cs2"
expect_bad "import: no store" "$E" import --progress "$tmp/p.json"
expect_bad "import: no document" "$E" import --progress "$tmp/none.json" --store "$tmp/cs4"
sed 's/"winning": 656/"winning": 657/' "$tmp/p.json" >"$tmp/p2.json"
expect_bad "import: damaged document" "$E" import --progress "$tmp/p2.json" --store "$tmp/cs4"
expect_bad "import: a CSV" "$E" import --progress "$tmp/counts.csv" --store "$tmp/cs4"
[ -e "$tmp/cs4" ] && { echo "FAIL (a refused import created a store)"; fail=1; }
# list passes over the directory an import builds in (not a store yet).
mkdir "$tmp/lst" && cp -r "$tmp/cs2" "$tmp/lst/whole" && cp -r "$tmp/cs2" "$tmp/lst/.half.importing"
rows=$("$E" list "$tmp/lst" --json | python3 -c 'import json,sys; print(" ".join(r["store"].split("/")[-1] for r in json.load(sys.stdin)["stores"]))' 2>&1)
[ "$rows" = "whole" ] || { echo "FAIL (list of an import's directory): '$rows'"; fail=1; }
expect_bad "verify: no store" "$E" verify --store "$tmp/nothing"

# Results out of every store, scripting, one way of writing numbers (issue
# 51, B3 status/list, B5, B6 list, B7): a stored run, a count, a count
# --removed, each finished.
R51="$tmp/i51"
"$E" count --game mousetrap --ranks 9 --store "$R51/count" -q >/dev/null 2>&1 ||
  { echo "FAIL (issue 51: count --store)"; fail=1; }
"$E" count --removed --game mousetrap --ranks 8 --store "$R51/removed" -q >/dev/null 2>&1 ||
  { echo "FAIL (issue 51: count --removed --store)"; fail=1; }
# run prints the headline (its status), in the text and as --json; so does
# status, of every kind; A007709: 1812 for 8 cards, 9978 for 9.
expect_ok "run: winning decks" "^winning decks 1,812 of 40,320$" \
  "$E" run --game mousetrap --ranks 8 --store "$R51/run" -q
expect_ok "status: run, winning decks" "^winning decks 1,812 of 40,320$" "$E" status --store "$R51/run"
expect_ok "status: count, winning decks" "^winning decks 9,978 of 362,880$" "$E" status --store "$R51/count"
expect_ok "status: removed, winning decks" "^winning decks 1,812 of 40,320$" "$E" status --store "$R51/removed"
expect_ok "status --json: winning_decks" '"kind":"removed","winning_decks":"1812"' \
  "$E" status --store "$R51/removed" --json
# Thousands separators in the tables of status, right-aligned under headers.
expect_ok "status: the levels' table" "^    8      1,812       1 " "$E" status --store "$R51/run"
expect_ok "status: the removed table" "^cards removed   decks$" "$E" status --store "$R51/removed"
expect_ok "status: the removed table's rows" "^            0  14,833$" "$E" status --store "$R51/removed"
# list: the same columns for every kind, the removed count's winning decks.
"$E" list "$R51" >"$tmp/l51.txt" 2>&1
grep -q "^store  *kind  *game  *m x s  *state  *progress  *winning decks  *disk  *checkpoint$" "$tmp/l51.txt" ||
  { echo "FAIL (list: header): $(head -1 "$tmp/l51.txt")"; fail=1; }
grep -Eq "^$R51/count +count +mousetrap +9x1 +complete +levels 9/9 +9,978 " "$tmp/l51.txt" ||
  { echo "FAIL (list: count row): $(cat "$tmp/l51.txt")"; fail=1; }
grep -Eq "^$R51/removed +removed +mousetrap +8x1 +complete +tasks 100% +1,812 " "$tmp/l51.txt" ||
  { echo "FAIL (list: removed row): $(cat "$tmp/l51.txt")"; fail=1; }
grep -Eq "^$R51/run +run +mousetrap +8x1 +complete +levels 8/8 +1,812 " "$tmp/l51.txt" ||
  { echo "FAIL (list: run row): $(cat "$tmp/l51.txt")"; fail=1; }
expect_ok "list --csv: removed" "^mousetrap,8,1,$R51/removed,8,complete,,,1812,[0-9]+,[0-9.e+-]+,removed,,,[0-9]+,[0-9]+$" \
  "$E" list "$R51" --csv -
# export --counts of a finished count --removed: its distribution, as
# count --removed --csv writes it.
"$E" count --removed --game mousetrap --ranks 8 --csv "$tmp/x51-direct.csv" -q >/dev/null 2>&1
expect_ok "export --counts: removed" "^mousetrap,8,1,removed,8,1812$" \
  "$E" export --store "$R51/removed" --counts -
cmp -s "$tmp/out" "$tmp/x51-direct.csv" ||
  { echo "FAIL (export --counts of a removed store is not count --removed --csv)"; fail=1; }
# --json on verify, run, resume, import and export.
expect_ok "verify --json" '^\{"command":"eulerdeck verify","store":"[^"]*/run",.*"levels_checked":8,.*"entries":"9742"' \
  "$E" verify --store "$R51/run" --json
expect_ok "verify --json: removed" '"removed_count":\{"batches":[0-9]+,"tasks_counted":([0-9]+),"tasks":\1,"sum_checked":true\}' \
  "$E" verify --store "$R51/removed" --json
expect_ok "run --json" '^\{"command":"eulerdeck status",.*"state":"complete",.*"winning_decks":"84"' \
  "$E" run --game mousetrap --ranks 6 --store "$R51/run6" --json -q
"$E" run --game mousetrap --ranks 7 --store "$R51/run7" --until-level 4 -q >/dev/null 2>&1
expect_ok "resume --json: a stored run" '^\{"command":"eulerdeck status",.*"winning_decks":"330"' \
  "$E" resume --store "$R51/run7" --json -q
expect_ok "resume --json: a count" '^\{"command":"eulerdeck count",.*"winning_decks":"9978"' \
  "$E" resume --store "$R51/count" --json -q
expect_ok "export --json" '^\{"command":"eulerdeck export",.*"output":"counts","file":"[^"]*x51.csv","rows":"9"\}$' \
  "$E" export --store "$R51/removed" --counts "$tmp/x51.csv" --json
expect_ok "export --progress --json" '"output":"progress",.*"kind":"count","subtrees_done":"([0-9]+)","subtrees":"\1","winning_decks_counted":"9978"' \
  "$E" export --store "$R51/count" --progress "$tmp/p51.json" --json
expect_bad "export --json with -" "$E" export --store "$R51/run" --counts - --json
# import makes the missing parents of --store, as count --store does.
expect_ok "import --json, missing parents" '^\{"command":"eulerdeck import","store":"[^"]*/new/a/b",.*"resume":"eulerdeck resume --store [^"]*/new/a/b"\}$' \
  "$E" import --progress "$tmp/p51.json" --store "$R51/new/a/b" --json
expect_ok "import: the new store" "^winning decks 9,978 of 362,880$" "$E" status --store "$R51/new/a/b"
"$E" export --store "$R51/count" --progress "$tmp/p51b.json" 2>/dev/null ||
  { echo "FAIL (issue 51: export --progress)"; fail=1; }
expect_ok "import: missing parents" "^continue +eulerdeck resume --store $R51/new2/c/d$" \
  "$E" import --progress "$tmp/p51b.json" --store "$R51/new2/c/d"
# The progress line of a resumed count counts the sub-decks of the whole
# count, those of the session before too: never fewer than the store had
# committed when it resumed.
"$E" count --game mousetrap --ranks 14 --store "$R51/c14" --threads 1 --checkpoint-seconds 0.5 -q >/dev/null 2>&1 &
pid51=$!
before51=0
for _ in $(seq 1 600); do
  before51=$("$E" status --store "$R51/c14" --json 2>/dev/null |
    python3 -c 'import json,sys; print(json.load(sys.stdin).get("count", {}).get("sub_decks_counted", 0))' 2>/dev/null || echo 0)
  [ "${before51:-0}" -ge 40000000 ] && break
  sleep 0.1
done
kill -INT "$pid51"; wait "$pid51" 2>/dev/null
before51=$("$E" status --store "$R51/c14" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["count"]["sub_decks_counted"])')
"$E" resume --store "$R51/c14" --threads 1 >/dev/null 2>"$tmp/r51.err" &
pid51=$!
for _ in $(seq 1 300); do grep -q "sub-decks counted" "$tmp/r51.err" && break; sleep 0.1; done
kill -INT "$pid51"; wait "$pid51" 2>/dev/null
shown51=$(grep -o "[0-9.]*[kMGT]* sub-decks counted" "$tmp/r51.err" | head -1 | cut -d' ' -f1)
python3 - "$shown51" "$before51" <<'EOF' || { echo "FAIL (resume's progress line: '$shown51' sub-decks counted, the store had $before51): $(cat "$tmp/r51.err")"; fail=1; }
import sys
shown, before = sys.argv[1], int(sys.argv[2])
scale = {"k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
value = float(shown[:-1]) * scale[shown[-1]] if shown and shown[-1] in scale else float(shown or -1)
# HumanCount rounds to 3 significant digits.
sys.exit(0 if before >= 40000000 and value >= before * 0.995 else 1)
EOF

# Bounds (issue 42, A.3): refused in one line, exit 2, before anything is
# written; a store given is left byte-identical (its files but RocksDB's LOG,
# which a read-only opening writes), a new one never created.
files_of() { (cd "$1" && find . -type f ! -name LOG ! -name 'LOG.*' -exec md5sum {} + | sort); }
# expect_kept DESCRIPTION STORE ARGS...: expect_bad, and STORE's files unchanged.
expect_kept() {
  local what="$1" store="$2"; shift 2
  local before
  before=$(files_of "$store")
  expect_bad "$what" "$@"
  [ "$(files_of "$store")" = "$before" ] || { echo "FAIL ($what): the store's files changed"; fail=1; }
}
many=100000000
expect_bad "--version extra" "$E" --version extra
expect_bad "cardlab --version extra" "$C" --version extra
expect_bad "play: trailing comma" "$E" play --game mousetrap --ranks 4 --deck "1,2,3,4,"
expect_bad "play: doubled comma" "$E" play --game mousetrap --ranks 4 --deck "1,2,,3,4"
expect_bad "count: --threads $many" "$E" count --game mousetrap --ranks 8 --threads "$many"
expect_bad "brute: --threads $many" "$E" brute --game mousetrap --ranks 5 --threads "$many"
expect_bad "best: --threads $many" "$E" best --game hlm --ranks 6 --threads "$many"
expect_bad "reform-stats: --threads $many" "$E" reform-stats --game modular --ranks 6 --threads "$many"
expect_bad "estimate: --threads $many" "$E" estimate --game mousetrap --ranks 8 --threads "$many"
expect_bad "oeis: --threads $many" "$E" oeis A007709 --to 8 --threads "$many"
expect_bad "reform-search: --threads $many" "$E" reform-search --game modular --ranks 8 --threads "$many"
expect_bad "mc: --threads $many" "$C" mc --game hlm --ranks 5 --decks 1000 --threads "$many"
expect_bad "memory solitaire: --threads $many" "$C" memory solitaire --n 20 --threads "$many"
# (Each refusal its own new store, so that none can pass as refused for
# another reason: a store that an earlier one created.)
expect_bad "run: --threads $many" "$E" run --game mousetrap --ranks 8 --store "$tmp/new/r1" --threads "$many"
expect_bad "count --store: --threads $many" "$E" count --game mousetrap --ranks 8 --store "$tmp/new/c1" --threads "$many"
expect_bad "count --store: --subtrees 0" "$E" count --game mousetrap --ranks 8 --store "$tmp/new/c2" --subtrees 0
for t in inf nan -1 -inf; do
  expect_bad "count --store: --checkpoint-seconds $t" "$E" count --game mousetrap --ranks 8 --store "$tmp/new/c$t" --checkpoint-seconds "$t"
  expect_bad "run: --checkpoint-seconds $t" "$E" run --game mousetrap --ranks 8 --store "$tmp/new/r$t" --checkpoint-seconds "$t"
done
expect_bad "count --store: --batch-seconds inf" "$E" count --game mousetrap --ranks 8 --store "$tmp/new/c3" --batch-seconds inf
[ -e "$tmp/new" ] && { echo "FAIL (a refused run or count created its store): $(ls "$tmp/new")"; fail=1; }
expect_bad "import: --threads $many" "$E" import --progress "$tmp/p.json" --store "$tmp/b2" --threads "$many"
[ -e "$tmp/b2" ] && { echo "FAIL (a refused import created its store)"; fail=1; }
# The same refusals on existing stores: a stored run ($S), a count ($tmp/cs2).
expect_kept "run again: --threads $many" "$S" "$E" run --game hlm --ranks 6 --suits 2 --store "$S" --threads "$many"
expect_kept "resume: --threads $many" "$S" "$E" resume --store "$S" --threads "$many"
expect_kept "resume: --checkpoint-seconds inf" "$S" "$E" resume --store "$S" --checkpoint-seconds inf
expect_kept "count again: --threads $many" "$tmp/cs2" "$E" count --game hlm --ranks 10 --suits 2 --store "$tmp/cs2" --threads "$many"
expect_kept "count again: --subtrees 0" "$tmp/cs2" "$E" count --game hlm --ranks 10 --suits 2 --store "$tmp/cs2" --subtrees 0
expect_kept "count again: --checkpoint-seconds inf" "$tmp/cs2" "$E" count --game hlm --ranks 10 --suits 2 --store "$tmp/cs2" --checkpoint-seconds inf
expect_kept "resume a count: --threads $many" "$tmp/cs2" "$E" resume --store "$tmp/cs2" --threads "$many"
expect_kept "resume a count: --checkpoint-seconds inf" "$tmp/cs2" "$E" resume --store "$tmp/cs2" --checkpoint-seconds inf
# resume of a count store speaks as resume (issue 42, A.4).
grep -q "^eulerdeck resume: --checkpoint-seconds must be a finite number of seconds >= 0$" "$tmp/err" ||
  { echo "FAIL (resume of a count store: its errors are resume's): $(cat "$tmp/err")"; fail=1; }
expect_kept "export: --level with --counts" "$S" "$E" export --store "$S" --level 3 --counts "$tmp/lc.csv"
expect_kept "export: --level with --batches" "$tmp/cs2" "$E" export --store "$tmp/cs2" --level 3 --batches "$tmp/lc.csv"
expect_bad "list: --json and --csv" "$E" list "$tmp" --json --csv "$tmp/lc.csv"
[ -e "$tmp/lc.csv" ] && { echo "FAIL (a refused export or list wrote its file)"; fail=1; }
# At the bound, 4 x the cores, a command runs.
cores=$(getconf _NPROCESSORS_ONLN)  # std::thread::hardware_concurrency()
expect_ok "count: --threads 4 x the cores" "winning decks +1,812$" "$E" count --game mousetrap --ranks 8 --threads $((4 * cores))
expect_bad "count: --threads past 4 x the cores" "$E" count --game mousetrap --ranks 8 --threads $((4 * cores + 1))

expect_bad "cardlab unknown" "$C" frobnicate
expect_bad "cardlab mc: no options" "$C" mc
expect_bad "cardlab memory: no model" "$C" memory
expect_bad "cardlab dundee: no question" "$C" dundee
expect_ok "dundee --help" "optimal-bids" "$C" dundee --help
expect_ok "dundee greedy --help" "usage: cardlab dundee greedy" "$C" dundee greedy --help
expect_ok "dundee greedy (1)" "47058584898515020667750825872/174165229296062536531664039375" "$C" dundee greedy --deck "4^13"
expect_ok "dundee greedy unique" "only best ones at every state" "$C" dundee greedy --deck 3,2,2,1
expect_ok "dundee greedy mc" "95% interval .* contains the value" "$C" dundee greedy --deck "4^13" --mc 20000
expect_ok "dundee greedy float" "^greedy +0.27019506183" "$C" dundee greedy --deck "4^13" --float
expect_ok "dundee greedy json" '"equals_greedy":true' "$C" dundee greedy --deck 5,3,2 --json
expect_ok "dundee advance (2)" "4610507544750288132457667562311567997623087869/284025438982318025793544200005777916187500000000" "$C" dundee advance --deck "4^13" --bids "4^13"
expect_ok "dundee advance recursion" "recursion +agrees" "$C" dundee advance --deck 3,2,2 --bids 1,3,3 --recursion
expect_ok "dundee optimal-bids" "\\(0,1,2\\) \\(1,1,1\\)  \\[7 in all\\]" "$C" dundee optimal-bids --deck 1,1,1
expect_ok "dundee optimal-bids table" "\\(4,4,3\\) +11 +11 +19/1155" "$C" dundee optimal-bids --values 3 --max-cards 11
expect_bad "dundee greedy: no deck" "$C" dundee greedy
expect_bad "dundee greedy: bad deck" "$C" dundee greedy --deck "4^x"
expect_bad "dundee greedy: too many rounds" "$C" dundee greedy --deck 2,2 --rounds 5
expect_bad "dundee advance: lengths" "$C" dundee advance --deck 2,2,2 --bids 3,3
expect_bad "dundee advance: too many bids" "$C" dundee advance --deck 2,2 --bids 3,3
expect_bad "dundee optimal-bids: both" "$C" dundee optimal-bids --deck 2,2 --values 3 --max-cards 5
expect_bad "dundee unknown question" "$C" dundee thirteen
expect_bad "dundee greedy: negative mc" "$C" dundee greedy --deck 3,3 --mc -1
expect_bad "dundee greedy: negative rounds" "$C" dundee greedy --deck 4^13 --rounds -5
expect_bad "dundee greedy: huge deck" "$C" dundee greedy --deck "1000^40" --float
expect_bad "dundee greedy: trailing comma" "$C" dundee greedy --deck "4,"
expect_bad "dundee optimal-bids: negative max-bids" "$C" dundee optimal-bids --deck 2,2 --max-bids -1
expect_ok "dundee optimal-bids: count beyond 64 bits" "\\[112186277816662845432 in all\\]" "$C" dundee optimal-bids --deck "1^70" --rounds 35
expect_bad "cardlab mc: negative decks" "$C" mc --game hlm --ranks 4 --decks -1
expect_ok "cardlab memory --help" "solitaire" "$C" memory --help
expect_ok "memory solitaire --help" "usage: cardlab memory solitaire" "$C" memory solitaire --help
expect_ok "memory solitaire exact" "^ +32 +51.126048087418" "$C" memory solitaire --n 32 --fractions
expect_ok "memory solitaire fraction" "7321297670639878154280386/143200930729508511084225" "$C" memory solitaire --n 32 --fractions
expect_ok "memory solitaire observations" "observation 2 .*here 11 <= n <= 300" "$C" memory solitaire --n 300 --every 100
expect_ok "memory solitaire float" "^ +5000 +8068.01689222" "$C" memory solitaire --n 5000 --float --every 5000
expect_ok "memory solitaire json 4" '"id":4,[^}]*"holds_from":3,[^}]*"confirms_paper":true' "$C" memory solitaire --n 40 --variant pairs15 --json
expect_ok "memory solitaire json 5" '"id":5,[^}]*"holds_from":12,[^}]*"confirms_paper":true' "$C" memory solitaire --n 40 --variant pairs15 --json
expect_ok "memory solitaire obs 7 refuted" '"id":7,[^}]*"holds_from":13,[^}]*"confirms_paper":false' "$C" memory solitaire --n 40 --variant pairs20 --json
expect_ok "memory solitaire not reached" "nothing checked" "$C" memory solitaire --n 10
expect_bad "memory solitaire: precision without float" "$C" memory solitaire --n 5 --precision long
expect_bad "memory solitaire: from > n" "$C" memory solitaire --n 5 --from 9
expect_bad "memory solitaire: negative n" "$C" memory solitaire --n -5
expect_bad "memory solitaire: plot without gnuplot" env PATH=/nonexistent "$C" memory solitaire --n 5 --plot "$tmp/nognuplot.svg"
[ -e "$tmp/nognuplot.svg" ] && { echo "FAIL (plot without gnuplot): file created"; fail=1; }
expect_bad "memory solitaire: plot into a missing directory" "$C" memory solitaire --n 5 --plot "$tmp/no/such/dir.svg"
expect_bad "memory terminating: too large" "$C" memory terminating --n 5000 --float
expect_bad "memory terminating: exact too large" "$C" memory terminating --n 600
expect_bad "memory terminating: plot-j beyond n" "$C" memory terminating --n 10 --plot-j 50 --plot "$tmp/pj.svg"
[ -e "$tmp/pj.svg" ] && { echo "FAIL (plot-j beyond n): file created"; fail=1; }
expect_bad "memory combinatorial: negative random" "$C" memory combinatorial --random -1 --pairs 3
expect_bad "memory combinatorial: pairs with order" "$C" memory combinatorial --order "1a 1b" --pairs 3
expect_ok "memory solitaire k" "^ +7 +9.83063973063" "$C" memory solitaire --n 7 --k 2
expect_ok "memory solitaire plot" "limit" "$C" memory solitaire --n 100 --plot "$tmp/sol.svg"
grep -q "<svg" "$tmp/sol.svg" || { echo "FAIL (memory solitaire plot): no SVG written"; fail=1; }
expect_bad "memory solitaire: no n" "$C" memory solitaire
expect_bad "memory solitaire: bad variant" "$C" memory solitaire --n 5 --variant pairs30
expect_bad "memory solitaire: k > n" "$C" memory solitaire --n 5 --k 6
expect_bad "memory solitaire: exact and float" "$C" memory solitaire --n 5 --exact --float
expect_bad "memory solitaire: bad plot" "$C" memory solitaire --n 5 --plot "$tmp/x.pdf"
expect_ok "memory terminating" "^ +9  #10100000#" "$C" memory terminating --n 19
expect_ok "memory terminating conjecture 1" "conjecture 1 .*16 <= n <= 60 \(confirms\)" "$C" memory terminating --n 60
expect_ok "memory terminating float" "closed forms j <= 4: 9995 of 9995" "$C" memory terminating --n 2000 --float --grid 0
expect_ok "memory terminating values" "^4 1 1 2 2" "$C" memory terminating --n 4 --values
expect_ok "memory terminating plot" "conjecture 2" "$C" memory terminating --n 40 --plot "$tmp/tm.png"
[ -s "$tmp/tm.png" ] || { echo "FAIL (memory terminating plot): no PNG written"; fail=1; }
expect_bad "memory terminating: n 0" "$C" memory terminating --n 0
expect_bad "memory terminating: bad plot-j" "$C" memory terminating --n 5 --plot-j 1,x
expect_ok "memory combinatorial" "value +2 \(Left 5, Right 3\)" "$C" memory combinatorial --order "1a 2a 1b 3a 2b 4a 3b 4b 5a 6a 7a 8a 5b 6b 7b 8b"
expect_ok "memory combinatorial random" "agree +500 of 500" "$C" memory combinatorial --random 500 --pairs 20
expect_bad "memory combinatorial: bad order" "$C" memory combinatorial --order "1a 1b 2b"
expect_bad "memory solitaire: --json with --csv -" "$C" memory solitaire --n 5 --json --csv -
expect_bad "dundee optimal-bids: --json with --csv -" "$C" dundee optimal-bids --deck 1,1,1 --json --csv -
expect_ok "memory combinatorial random json" '"agree":true,"agreements":"50"' \
  "$C" memory combinatorial --random 50 --pairs 8 --json

# --plot: level growth (count, status) and Monte Carlo distributions (mc);
# '-' is an SVG on standard output and nothing else; refused before any work.
expect_ok "count plot" "winning decks +449,719" "$E" count --game mousetrap --ranks 11 --plot "$tmp/count.svg"
grep -q "<svg" "$tmp/count.svg" || { echo "FAIL (count plot): no SVG written"; fail=1; }
expect_ok "count plot -" "^<\?xml" "$E" count --game mousetrap --ranks 3..8 --plot - -q
grep -q "level" "$tmp/out" && grep -q "</svg>" "$tmp/out" || { echo "FAIL (count plot -): not an SVG alone"; fail=1; }
expect_bad "count: --json with --plot -" "$E" count --game mousetrap --ranks 5 --json --plot -
expect_bad "count: bad plot name" "$E" count --game mousetrap --ranks 5 --plot "$tmp/x.pdf"
# Seeded (the default seed): the same 4507 wins of 100,000 decks every
# time, near the exact expectation 100,000 x 1812/8! = 4494 (OEIS A007709(8)).
expect_ok "mc plot" "^win +4,507 decks" "$C" mc --game mousetrap --ranks 8 --decks 100000 --plot "$tmp/mc.png"
[ -s "$tmp/mc.png" ] || { echo "FAIL (mc plot): no PNG written"; fail=1; }
expect_bad "mc: plot with --best-only" "$C" mc --game hlm --ranks 5 --decks 1000 --best-only --plot "$tmp/b.svg"
"$E" run --game mousetrap --ranks 7 --store "$tmp/plotstore" -q >/dev/null 2>&1
expect_ok "status plot" "state +complete" "$E" status --store "$tmp/plotstore" --plot "$tmp/status.svg"
grep -q "<svg" "$tmp/status.svg" || { echo "FAIL (status plot): no SVG written"; fail=1; }
expect_ok "status plot -" "</svg>" "$E" status --store "$tmp/plotstore" --plot -
grep -q "state" "$tmp/out" && { echo "FAIL (status plot -): text mixed into the SVG"; fail=1; }
expect_bad "status: --json with --plot -" "$E" status --store "$tmp/plotstore" --json --plot -
# oeis: a job forecast to take more than a day (A007709(20), centuries) is
# refused without --force, as count refuses one: one line, exit 2, no file
# (issue 42, B1; under timeout, since before it the job simply started).
expect_bad "oeis: forecast above a day" timeout 120 "$E" oeis A007709 --to 20 --bfile "$tmp/a20.txt"
grep -q "^eulerdeck oeis: forecast ~.* on [0-9]* threads\? (~.* sub-decks): --force to start anyway (\`eulerdeck estimate\` estimates it in seconds)$" "$tmp/err" ||
  { echo "FAIL (oeis forecast refusal): $(cat "$tmp/err")"; fail=1; }
[ -e "$tmp/a20.txt" ] && { echo "FAIL (oeis forecast refusal): wrote the b-file"; fail=1; }
# Smaller promises of issue 42 (B4). `help CMD` prints CMD's own help, the
# same text as `CMD --help`, in both tools and their sub-commands.
for words in "$E count" "$E count --removed" "$E oeis" "$C mc" "$C memory solitaire" "$C dundee greedy"; do
  set -- $words
  tool=$1; shift
  "$tool" help "$@" >"$tmp/help-a" 2>&1; rc=$?
  "$tool" "$@" --help >"$tmp/help-b" 2>&1
  [ "$rc" -eq 0 ] && grep -q "^usage: $(basename "$tool") $1" "$tmp/help-a" && cmp -s "$tmp/help-a" "$tmp/help-b" ||
    { echo "FAIL (help $*): rc=$rc, not '$* --help': $(head -1 "$tmp/help-a")"; fail=1; }
done
expect_ok "cardlab memory help MODEL" "^usage: cardlab memory terminating" "$C" memory help terminating
expect_bad "help of an unknown command" "$E" help nosuch
# Singular and plural agree ("1 suit", "1 card"), here in a refused deck.
expect_bad "play: a deck one card short" "$E" play --game mousetrap --ranks 4 --deck "1 2 3"
grep -q "deck has 3 cards, expected 4 (4 ranks x 1 suit)$" "$tmp/err" || { echo "FAIL (1 suit): $(cat "$tmp/err")"; fail=1; }
expect_bad "play: one card of a value" "$E" play --game hlm --ranks 2 --suits 2 --deck "1 2 2 2"
grep -q "deck has 1 card of value 1, expected 2$" "$tmp/err" || { echo "FAIL (1 card): $(cat "$tmp/err")"; fail=1; }
# Treize removes no card: brute prints no table of cards removed (all 0).
expect_ok "brute treize" "^cards removed +none in any deck \(treize: a match loses" "$E" brute --game treize --ranks 4 --suits 2
grep -q "^ *1 *0$" "$tmp/out" && { echo "FAIL (brute treize): a table of zeros"; fail=1; }
expect_ok "brute mousetrap removed table" "^cards removed +decks" "$E" brute --game mousetrap --ranks 4
# inspect --from: the README's example; one digit per card with at most 9
# ranks, spaces or commas beyond (unspaced digits refused, with the hint).
"$E" run --game mousetrap --ranks 10 --store "$tmp/from10" -q >/dev/null 2>&1
expect_ok "inspect --from spaced, 10 ranks" "\| +[0-9 ]*6 5 4 1 2$" "$E" inspect --store "$tmp/from10" --level 6 --from "6 5 4 1 2" --limit 1
[ -s "$tmp/err" ] && { echo "FAIL (inspect --from spaced): $(cat "$tmp/err")"; fail=1; }
expect_bad "inspect --from unspaced, 10 ranks" "$E" inspect --store "$tmp/from10" --level 6 --from 431212
grep -q 'with 10 ranks a string needs spaces or commas between its cards (e.g. "4 3 1 2 1 2")$' "$tmp/err" ||
  { echo "FAIL (inspect --from unspaced hint): $(cat "$tmp/err")"; fail=1; }
expect_ok "inspect --from unspaced, 7 ranks" "^deck" "$E" inspect --store "$tmp/plotstore" --level 6 --from 431212 --limit 1
# A plot is an output like any other (issue 42, A7): a write error (here a
# private /dev/full) is exit 1 and one line naming the file, never a 0-byte
# SVG and exit 0.
if mknod -m 666 "$tmp/full.svg" c 1 7 2>/dev/null; then
  for cmd in "$C memory solitaire --n 50" "$C memory terminating --n 20" \
             "$C mc --game mousetrap --ranks 6 --decks 1000" "$E count --game mousetrap --ranks 6" \
             "$E status --store $tmp/plotstore"; do
    # shellcheck disable=SC2086
    $cmd --plot "$tmp/full.svg" >/dev/null 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne 1 ] || ! tail -1 "$tmp/err" | grep -q "^$(echo "$cmd" | sed 's|^[^ ]*/||; s/ -.*//'): could not write '$tmp/full.svg'"; then
      echo "FAIL ($cmd --plot to a full device): rc=$rc $(tail -1 "$tmp/err")"; fail=1
    fi
  done
  [ -c "$tmp/full.svg" ] || { echo "FAIL (--plot to a full device): the device was replaced"; fail=1; }
else
  echo "cli_test: --plot to a full device skipped (mknod needs root)"
  skipped="$skipped --plot to a full device (no mknod);"
fi
# What the plots show (issue 42, B4), read from the SVG: every point and
# error bar off the frame, the axes ending at the data (memory's log axis
# not running on to the next decade); mc's distribution with its Wilson
# intervals as error bars, from 0 cards removed in every game, the line
# broken where no deck removed that many (mousetrap m = 8: none removes 7).
P="$(dirname "$0")/svg_plot_check.py"
"$C" memory solitaire --n 150 --plot "$tmp/sol150.svg" >/dev/null 2>&1
python3 "$P" "$tmp/sol150.svg" || fail=1
"$E" count --game mousetrap --ranks 3..9 --plot "$tmp/levels.svg" -q >/dev/null 2>&1
python3 "$P" "$tmp/levels.svg" || fail=1
"$C" mc --game mousetrap --ranks 8 --decks 3000 --plot "$tmp/mc8.svg" >/dev/null 2>&1
python3 "$P" "$tmp/mc8.svg" --bars --step-gaps || fail=1
for game in mousetrap hlm; do
  "$C" mc --game "$game" --ranks 5 --suits 2 --decks 3000 --plot "$tmp/mc-$game.svg" >/dev/null 2>&1
  python3 "$P" "$tmp/mc-$game.svg" --bars --domain || fail=1
done
python3 - "$tmp/mc-mousetrap.svg" "$tmp/mc-hlm.svg" <<'PY' || { echo "FAIL (mc plots): x axes differ between games"; fail=1; }
import re, sys
# The x tick labels: both axes run over 0..10 cards removed.
ticks = [re.findall(r'text-anchor="middle">\s*<text><tspan[^>]*>\s*([0-9.]+)</tspan>', open(f).read())
         for f in sys.argv[1:]]
assert ticks[0] == ticks[1] and ticks[0][0] == "0", ticks
PY
expect_bad "memory combinatorial: both" "$C" memory combinatorial --order "1a 1b" --random 3 --pairs 2
expect_ok "cardlab mc --help" "usage: cardlab mc" "$C" mc --help
expect_ok "cardlab mc" "95% interval \[" "$C" mc --game mousetrap --ranks 8 --decks 100000
expect_ok "cardlab mc json" '"interval":"Wilson"' "$C" mc --game hlm --ranks 4 --suits 3 --decks 10000 --json
expect_ok "cardlab mc best-only" "best score +22 of 22" "$C" mc --game hlm --ranks 3 --suits 4 --decks 200000 --best-only
expect_ok "cardlab mc until-ci" "^decks played +1,048,576 " "$C" mc --game modular --ranks 5 --decks 100000000 --until-ci 0.001
"$C" mc --game modular --ranks 4 --decks 5000 --csv "$tmp/mc.csv" >/dev/null 2>&1
{ [ "$(head -1 "$tmp/mc.csv")" = "game,ranks,suits,distribution,value,decks,estimate,low95,high95" ] &&
  grep -q "^modular,4,1,win,1," "$tmp/mc.csv"; } || { echo "FAIL (mc csv)"; fail=1; }
expect_ok "cardlab mc until-ci without --decks" "^stop +target_reached \(half-width" \
  "$C" mc --game modular --ranks 5 --until-ci 0.001
expect_ok "cardlab mc until-ci limit" '"decks_played":"2000000","decks_limit":"2000000",.*"stop_reason":"decks_limit"' \
  "$C" mc --game mousetrap --ranks 6 --until-ci 0.0001 --decks 2000000 --json
expect_ok "cardlab mc range" "^ +6 +6 +100,000 " "$C" mc --game mousetrap --ranks 3..6 --decks 100000
[ "$("$C" mc --game modular --ranks 3..6 --decks 1000 --json 2>/dev/null | wc -l)" -eq 4 ] || { echo "FAIL (mc range json)"; fail=1; }
expect_bad "cardlab mc: --json with --csv -" "$C" mc --game hlm --ranks 4 --decks 10 --json --csv -
expect_bad "cardlab mc: neither --decks nor --until-ci" "$C" mc --game hlm --ranks 4
expect_bad "cardlab mc: until-ci with best-only" "$C" mc --game hlm --ranks 4 --until-ci 0.01 --best-only
expect_bad "cardlab mc: zero decks" "$C" mc --game hlm --ranks 4 --decks 0
expect_bad "cardlab mc: bad ci" "$C" mc --game hlm --ranks 4 --decks 10 --until-ci 2
expect_bad "cardlab mc: bad game" "$C" mc --game solitaire --ranks 4 --decks 10
expect_bad "cardlab mc: bad seed" "$C" mc --game hlm --ranks 4 --decks 10 --seed -x

# Issue 51. expect_err DESCRIPTION LINE ARGS...: exit 2, nothing on stdout,
# and stderr exactly LINE.
expect_err() {
  local what="$1" line="$2"; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" -ne 2 ] || [ -s "$tmp/out" ] || [ "$(cat "$tmp/err")" != "$line" ]; then
    echo "FAIL ($what): rc=$rc, want exactly: $line"; cat "$tmp/out" "$tmp/err"; fail=1
  fi
}
# expect_same DESCRIPTION EXPECTED ARGS...: exit 0 and stdout exactly EXPECTED.
expect_same() {
  local what="$1" want="$2"; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" -ne 0 ] || [ "$(cat "$tmp/out")" != "$want" ]; then
    echo "FAIL ($what): rc=$rc; want / got:"; echo "$want"; echo "--"; cat "$tmp/out" "$tmp/err"; fail=1
  fi
}

# B2: --gpu on a machine without a GPU says so (not "driver version is
# insufficient"), that the count runs on the CPU without --gpu, and where to
# read more; the same pointer without a plugin; count --help links docs/gpu.md.
expect_err "count --gpu, no GPU" \
  "eulerdeck count: --gpu: no GPU found (no NVIDIA driver: libcuda.so.1 not found); without --gpu the count runs on the CPU (see docs/gpu.md)" \
  env EULERDECK_GPU_PLUGIN="$bin/tests/libeulerdeck_gpu_nodevice.so" \
  "$E" count --game hlm --ranks 10 --suits 2 --gpu
expect_bad "count --gpu, no plugin" \
  env EULERDECK_GPU_PLUGIN="$tmp/none.so" "$E" count --game hlm --ranks 10 --suits 2 --gpu
grep -q "; without --gpu the count runs on the CPU (see docs/gpu.md)$" "$tmp/err" ||
  { echo "FAIL (count --gpu, no plugin: no pointer to the CPU and docs/gpu.md): $(cat "$tmp/err")"; fail=1; }
expect_ok "count --help links docs/gpu.md" "docs/gpu.md" "$E" count --help

# B3: thousands separators in text for people; plain digits in JSON.
expect_ok "brute: separators" "^total decks    40,320$" "$E" brute --game mousetrap --ranks 8
grep -q "^winning decks  1,812$" "$tmp/out" || { echo "FAIL (brute: separators): $(cat "$tmp/out")"; fail=1; }
grep -q "^outcomes       win 1,812, loss 38,508, dead-end 0$" "$tmp/out" ||
  { echo "FAIL (brute: outcomes with separators): $(grep outcomes "$tmp/out")"; fail=1; }
expect_ok "brute json: plain digits" '"total_decks":"40320"' "$E" brute --game mousetrap --ranks 8 --json
expect_ok "reform: separators" "^length  39,554 distinct decks$" \
  "$E" reform --game modular --ranks 17 --deck "1 17 10 14 7 16 12 3 9 8 4 6 13 2 15 5 11"
# estimate: the 50-digit total of the French deck's hlm, exact and in
# scientific form.
expect_ok "estimate: the total in both forms" \
  " of 92,024,242,230,271,040,357,108,320,801,872,044,844,750,000,000,000 decks \(9\.202e\+49\)$" \
  "$E" estimate --game hlm --ranks 13 --suits 4 --samples 4 --width 10
# reform-stats --ranks A..B: one table, a header over aligned columns.
expect_same "reform-stats range table" "game  mousetrap, 1 suit
decks reformable exactly k times, and those whose sequence ends on a cycle
ranks cards   k=0 k=1 k=2 k=3  cyclic
    1     1     0                   1
    2     2     1                   1
    3     3     4   2               0
    4     4    18   4   2           0
    5     5   105  14   1           0
    6     6   636  72  11   1       0
    7     7 4,710 316  14           0" "$E" reform-stats --game mousetrap --ranks 1..7
# cardlab mc: the interval as two aligned columns under a header.
expect_same "cardlab mc: columns" "quantity value           decks  estimate     95% low      95% high
removed      0             394  0.394        0.364176     0.424636
removed      1             245  0.245        0.219352     0.272599
removed      2             140  0.14         0.119869     0.162887
removed      3             103  0.103        0.0856548    0.123384
removed      5             118  0.118        0.0994516    0.139472" \
  sh -c "'$C' mc --game mousetrap --ranks 5 --decks 1000 | grep '^quantity\|^removed'"

# B6: one word for a sub-deck (count's result as its forecast), one verb
# for hlm's cards (stored, as the rules say).
expect_ok "count: sub-decks visited" "^sub-decks      [0-9,]+ visited$" "$E" count --game hlm --ranks 10 --suits 2
grep -q "nodes" "$tmp/out" "$tmp/err" && { echo "FAIL (count: says nodes): $(cat "$tmp/out" "$tmp/err")"; fail=1; }
expect_ok "play hlm: stored" "^stored    5 3 4 6 6 5 4 3 1 2 1 \(11 of 12 cards\)$" \
  "$E" play --game hlm --ranks 6 --suits 2 --deck 3,1,6,2,5,4,6,3,2,1,5,4
grep -q "^removed" "$tmp/out" && { echo "FAIL (play hlm: says removed)"; fail=1; }

# B8: the small ones.
expect_ok "play --help explains --trace" "CARD/CALLED" "$E" play --help
expect_same "memory solitaire --every 250" "250
500
750
1000" sh -c "'$C' memory solitaire --n 1000 --float --every 250 | awk '/^ +[0-9]+ / {print \$1}'"
expect_same "oeis --bfile: one line" "A007709, n = 1..8: 8 terms written to $tmp/b7709.txt" \
  "$E" oeis A007709 --to 8 --bfile "$tmp/b7709.txt"
# Mousetrap 12's level 5 is kept whole by every sample (width 1000): no
# spread, whatever the rounding of the samples' sums.
expect_ok "estimate: a zero standard error is 0" "^    5          20716            0         20716         20716 " \
  "$E" estimate --game mousetrap --ranks 12 --exact-levels 2 --samples 200
"$E" count --removed --game mousetrap --ranks 6 -q >/dev/null 2>"$tmp/err"
[ -s "$tmp/err" ] && { echo "FAIL (count --removed -q writes on stderr): $(cat "$tmp/err")"; fail=1; }
expect_err "unknown command: did you mean" \
  "eulerdeck: unknown command 'counts' (did you mean count? try 'eulerdeck --help')" "$E" counts
expect_err "cardlab unknown command: did you mean" \
  "cardlab: unknown command 'memroy' (did you mean memory? try 'cardlab --help')" "$C" memroy

[ "$fail" -eq 0 ] && [ -n "$skipped" ] && { echo "cli_test: SKIPPED$skipped the other checks passed"; exit 77; }
[ "$fail" -eq 0 ] && echo "cli_test: all checks passed"
exit "$fail"
