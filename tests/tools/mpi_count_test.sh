#!/usr/bin/env bash
# The count under MPI (storage/transport/count_mpi.h): `mpirun -np P eulerdeck count
# --store` with P = 1, 2, 3 gives the same per-level counts as the plain
# count on one process, in all three games and several sizes; without
# --store too; a job killed under one P resumes under another to the same
# counts, in all three games; the other ranks write nothing on standard
# output.
# Usage: mpi_count_test.sh BUILD_DIR MPI_BUILT [--long]
# Skipped (77) when the build has no MPI; a build with MPI and no mpirun
# fails, so that CI cannot pass without running its MPI case.
set -u
. "$(dirname "$0")/../support/wait_for.sh"
. "$(dirname "$0")/../support/kill_counting.sh"
E="$1/eulerdeck"
[ "${2:-OFF}" = "ON" ] || { echo "skip: built without MPI (-DEULERDECK_MPI=OFF)"; exit 77; }
command -v mpirun >/dev/null || { echo "FAIL: built with MPI, but no mpirun on PATH"; exit 1; }
LONG=0
[ "${3:-}" = "--long" ] && LONG=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# As root (CI, containers) Open MPI wants to be told; more ranks than cores
# are fine for a test.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPI=(mpirun --oversubscribe)

levels() {
  python3 -c 'import json,sys; print(" ".join(json.loads(sys.stdin.readline())["levels"]))'
}

check() {  # check NAME WINNING ARGS...: np 1, 2, 3 with --store, np 2 without, vs the plain count
  local name=$1 winning=$2 ref got np
  shift 2
  ref=$("$E" count "$@" --threads 2 --json -q 2>/dev/null | levels)
  # The reference itself: its winning decks are the published count (an
  # empty or failed reference would make every comparison below vacuous).
  if [ "${ref##* }" != "$winning" ]; then
    echo "FAIL ($name): the plain count gives '${ref##* }' winning decks, not $winning"; fail=1
    return
  fi
  for np in 1 2 3; do
    got=$("${MPI[@]}" -np "$np" "$E" count "$@" --store "$tmp/$name-$np" --subtrees 300 \
      --threads 1 --batch-seconds 0.01 --json -q 2>"$tmp/err" | levels)
    if [ "$got" != "$ref" ]; then
      echo "FAIL ($name, np $np): '$got', expected '$ref' ($(head -3 "$tmp/err"))"; fail=1
    fi
  done
  got=$("${MPI[@]}" -np 2 "$E" count "$@" --threads 1 --json -q 2>"$tmp/err" | levels)
  if [ "$got" != "$ref" ]; then
    echo "FAIL ($name, np 2, no --store): '$got', expected '$ref' ($(head -3 "$tmp/err"))"; fail=1
  fi
  echo "ok   $name: np 1, 2, 3 and without --store equal the plain count"
}

# Winning decks: OEIS A007709 (mousetrap s=1); Bersani 2010, Table 2 (hlm),
# Table 4 (mousetrap s>1) and Table 5 (modular).
check mousetrap10 65503 --game mousetrap --ranks 10
check modular9 132684 --game modular --ranks 9
check hlm11x2 6745 --game hlm --ranks 11 --suits 2
check mousetrap4x3 5232 --game mousetrap --ranks 4 --suits 3
check modular5x2 63063 --game modular --ranks 5 --suits 2
check hlm10x2 656 --game hlm --ranks 10 --suits 2
if ((LONG)); then
  check mousetrap12 3674670 --game mousetrap --ranks 12
  check modular10 884371 --game modular --ranks 10
  check hlm7x3 36144 --game hlm --ranks 7 --suits 3
  check modular4x3 173053 --game modular --ranks 4 --suits 3
fi

# One output, from rank 0: three ranks print one JSON line.
lines=$("${MPI[@]}" -np 3 "$E" count --game mousetrap --ranks 8 --store "$tmp/one" --json -q 2>/dev/null | wc -l)
[ "$lines" -eq 1 ] || { echo "FAIL: np 3 printed $lines lines, not 1"; fail=1; }

# mpi_kill NAME WINNING ARGS...: a count killed under np 3, then under np 2
# (mpirun and its ranks; each kill checked to land while the count works,
# tests/support/kill_counting.sh), resumed under np 2 with `resume`: the
# winning decks, and then the levels `count` reads from the store, equal the
# plain count's.
mpi_kill() {
  local name=$1 winning=$2
  shift 2
  local store="$tmp/killed-$name" ref got np attempt=0
  ref=$("$E" count "$@" --threads 2 --json -q 2>/dev/null | levels)
  if [ "${ref##* }" != "$winning" ]; then
    echo "FAIL (killed $name): the plain count gives '${ref##* }' winning decks, not $winning"
    fail=1
    return
  fi
  for np in 3 2; do
    "${MPI[@]}" -np "$np" "$E" count "$@" --store "$store" --subtrees 2000 --threads 1 \
      --checkpoint-seconds 0.05 --batch-seconds 0.02 -q >/dev/null 2>&1 &
    kill_counting "$E" "$store" $! "$attempt" "eulerdeck count $* --store $store" ||
      { fail=1; return; }
    attempt=$((attempt + 1))
  done
  local saved
  saved=$(progress "$E" "$store" | awk '{ print $1 " of " $2 }')
  got=$("${MPI[@]}" -np 2 "$E" resume --store "$store" --threads 1 2>"$tmp/err" |
    sed -n 's/^winning decks  //p' | tr -d ,)
  if [ "$got" != "$winning" ]; then
    echo "FAIL (killed $name under np 3 and 2, resumed under np 2): '$got', expected '$winning' ($(head -3 "$tmp/err"))"
    fail=1
    return
  fi
  got=$("$E" count "$@" --store "$store" --json -q 2>/dev/null | levels)
  if [ "$got" != "$ref" ]; then
    echo "FAIL (killed $name): the resumed store's levels '$got' differ from '$ref'"; fail=1
    return
  fi
  echo "ok   $name: killed under np 3 and np 2 ($saved subtrees committed), resumed under np 2: every level as the plain count's, $winning winning decks"
}
# Winning decks: OEIS A007709(13); Bersani 2010, Table 5 (modular m=12);
# hlm s=2 m=14 as computed here, not as printed in Table 2 (docs/errata.md).
mpi_kill mousetrap13 28886593 --game mousetrap --ranks 13
mpi_kill modular12 50436488 --game modular --ranks 12
mpi_kill hlm14x2 17156400 --game hlm --ranks 14 --suits 2

# Ctrl-C on mpirun (SIGINT; it sends SIGTERM to every rank): rank 0 commits
# what is finished and says how to continue; resuming under np 2 finishes.
store="$tmp/sigint"
"${MPI[@]}" -np 3 "$E" count --game mousetrap --ranks 14 --store "$store" --subtrees 20000 \
  --threads 1 -q >/dev/null 2>"$tmp/err" &
pid=$!
for _ in $(seq 1 100); do
  "$E" status --store "$store" 2>/dev/null | grep -q "^state      running.*counting" && break
  sleep 0.1
done
sleep 2
kill -INT "$pid"
wait "$pid"
if ! grep -qE '^eulerdeck count: interrupted after [1-9][0-9,]* of [0-9,]+ subtrees .*all finished subtrees are saved' "$tmp/err"; then
  echo "FAIL (Ctrl-C under mpirun): '$(head -3 "$tmp/err")'"; fail=1
fi
counted=$("$E" status --store "$store" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["count"]["subtrees_counted"])')
[ "$counted" -gt 0 ] || { echo "FAIL (Ctrl-C under mpirun): nothing was committed"; fail=1; }
got=$("${MPI[@]}" -np 2 "$E" resume --store "$store" --threads 1 2>/dev/null | sed -n 's/^winning decks  //p' | tr -d ,)
# OEIS A007709(14).
if [ "$got" = 266242729 ]; then
  echo "ok   Ctrl-C under mpirun -np 3 after $counted subtrees committed, resumed under np 2: $got"
else
  echo "FAIL (Ctrl-C under mpirun): resumed to '$got', not 266242729"; fail=1
fi
# The subtrees the message named are the split level's sub-decks, the
# first level with at least --subtrees 20000 of them.
subtrees=$(sed -nE 's/^eulerdeck count: interrupted after [0-9,]+ of ([0-9,]+) subtrees.*/\1/p' "$tmp/err" | tr -d ,)
"$E" status --store "$store" --json | python3 -c '
import json, sys
j = json.load(sys.stdin)
d = j["count"]["split_level"]
n = {l["level"]: int(l["winning_sub_decks"]) for l in j["levels"]}
assert n[d] >= 20000 and n[d - 1] < 20000, (d, n)
assert str(n[d]) == sys.argv[1], (n[d], sys.argv[1])' "$subtrees" ||
  { echo "FAIL (Ctrl-C under mpirun): '$subtrees' subtrees is not the split level's size"; fail=1; }
[ "$fail" -eq 0 ] && echo "mpi_count: all passed"
exit "$fail"
