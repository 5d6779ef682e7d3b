#!/usr/bin/env bash
# The resumable count against the plain one, and MPI against threads, in one
# run on one machine (docs/performance.md, section 8; docs/cluster.md):
#  1. checkpoint overhead: `count --store` (2 threads, default split and
#     checkpoints) vs `count` (2 threads), alternated REPS times per case;
#  2. MPI efficiency: `mpirun -np 2 count --store --threads 1` vs one process
#     of 1 thread (and of 2 threads), same store options;
#  3. the subtree costs of the stores of (1): the size histogram and what it
#     implies for many ranks.
# Prints ratios of medians. Usage: count_store_bench.sh BUILD_DIR [REPS] [--long]
# --long: section 1 only, on counts of half a minute to two minutes
# (hlm m=7 s=4, mousetrap m=15), where the fixed cost of the store no
# longer shows and the proportional one is what is left.
# Needs the machine to itself (pause other jobs with kill -STOP).
set -u
E="$1/eulerdeck"
REPS=${2:-3}
LONG=0
[ "${3:-}" = "--long" ] && LONG=1
tmp=$(mktemp -d /var/tmp/eulerdeck-bench-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

secs() {  # secs CMD...: wall seconds of CMD (its output discarded)
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >/dev/null 2>&1 || { echo "FAILED: $*" >&2; exit 1; }
  t1=$(date +%s.%N)
  python3 -c "print(f'{$t1 - $t0:.3f}')"
}
median() { python3 -c 'import statistics,sys; print(f"{statistics.median(map(float, sys.argv[1:])):.3f}")' "$@"; }
ratio() { python3 -c "print(f'{$1 / $2:.3f}')"; }

echo "# 1. checkpoint overhead: count --store vs count, 2 threads, median of $REPS"
printf '%-26s %10s %10s %8s %9s %8s\n' case count store ratio subtrees split
CASES=("mousetrap 14 1" "modular 12 1" "hlm 13 2" "mousetrap 8 2")
((LONG)) && CASES=("hlm 7 4" "mousetrap 15 1")
for c in "${CASES[@]}"; do
  read -r g m s <<<"$c"
  plain=() stored=()
  for ((i = 0; i < REPS; i++)); do
    plain+=("$(secs "$E" count --game "$g" --ranks "$m" --suits "$s" --threads 2 -q)")
    rm -rf "$tmp/$g$m$s"
    stored+=("$(secs "$E" count --game "$g" --ranks "$m" --suits "$s" --threads 2 -q --store "$tmp/$g$m$s")")
  done
  p=$(median "${plain[@]}"); q=$(median "${stored[@]}")
  info=$("$E" status --store "$tmp/$g$m$s" --json | python3 -c 'import json,sys; c=json.load(sys.stdin)["count"]; print(c["subtrees"], c["split_level"])')
  printf '%-26s %10s %10s %8s %9s %8s\n' "$g m=$m s=$s" "$p" "$q" "$(ratio "$q" "$p")" $info
done
((LONG)) && exit 0

echo
echo "# 2. MPI on this machine: np 2 x 1 thread vs 1 process, --store, median of $REPS"
printf '%-26s %10s %10s %10s %11s\n' case "1x1 thr" "1x2 thr" "np2x1 thr" "efficiency"
for c in "mousetrap 14 1" "modular 12 1"; do
  read -r g m s <<<"$c"
  one=() two=() mpi=()
  for ((i = 0; i < REPS; i++)); do
    rm -rf "$tmp/a" "$tmp/b" "$tmp/c"
    one+=("$(secs "$E" count --game "$g" --ranks "$m" --suits "$s" --threads 1 -q --store "$tmp/a")")
    two+=("$(secs "$E" count --game "$g" --ranks "$m" --suits "$s" --threads 2 -q --store "$tmp/b")")
    mpi+=("$(secs mpirun --oversubscribe -np 2 "$E" count --game "$g" --ranks "$m" --suits "$s" --threads 1 -q --store "$tmp/c")")
  done
  a=$(median "${one[@]}"); b=$(median "${two[@]}"); d=$(median "${mpi[@]}")
  printf '%-26s %10s %10s %10s %11s\n' "$g m=$m s=$s" "$a" "$b" "$d" "$(python3 -c "print(f'{$a / (2 * $d):.2f}')")"
done

echo
echo "# 3. subtree costs (from the stores of section 1)"
for c in "${CASES[@]}"; do
  read -r g m s <<<"$c"
  "$E" status --store "$tmp/$g$m$s" --json | python3 "$(dirname "$0")/subtree_model.py" "$g m=$m s=$s"
done
