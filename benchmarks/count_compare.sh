#!/usr/bin/env bash
# Two builds of eulerdeck on the same counts, in the same run: each case is
# counted ROUNDS times by each binary, alternating (the guest's speed drifts
# by 10-20 % within a minute), and the fastest times are compared. Both
# must print the same per-level counts; a difference is an error (exit 1).
# Usage: benchmarks/count_compare.sh BASELINE_BINARY NEW_BINARY [ROUNDS]
# Cases: CASES="modular:12:1 modular:7:2" (game:ranks:suits); THREADS="1 2"
# (default 2): each case at each thread count.
set -euo pipefail
old=$1 new=$2 rounds=${3:-3}
cases=${CASES:-"modular:12:1 modular:7:2 mousetrap:13:1 hlm:9:3"}
threads_list=${THREADS:-2}
status=0
echo "| case | threads | baseline s | new s | speed-up |"
echo "|---|---|---|---|---|"
for threads in $threads_list; do
for c in $cases; do
  IFS=: read -r game ranks suits <<<"$c"
  best_old=1000000 best_new=1000000 levels_old="" levels_new=""
  for ((r = 0; r < rounds; r++)); do
    for which in old new; do
      bin=${!which}
      start=$(date +%s.%N)
      out=$("$bin" count --game "$game" --ranks "$ranks" --suits "$suits" --threads "$threads" --json -q 2>/dev/null)
      t=$(echo "$(date +%s.%N) - $start" | bc)
      levels=$(echo "$out" | python3 -c 'import json,sys; print(" ".join(json.load(sys.stdin)["levels"]))')
      if [ "$which" = old ]; then
        levels_old=$levels
        best_old=$(echo "if ($t < $best_old) $t else $best_old" | bc)
      else
        levels_new=$levels
        best_new=$(echo "if ($t < $best_new) $t else $best_new" | bc)
      fi
    done
  done
  if [ "$levels_old" != "$levels_new" ]; then
    echo "count_compare: $c: the two builds disagree" >&2
    status=1
  fi
  printf '| %s m=%s s=%s | %s | %.2f | %.2f | %.2fx |\n' "$game" "$ranks" "$suits" "$threads" \
    "$best_old" "$best_new" "$(echo "scale=4; $best_old / $best_new" | bc)"
done
done
exit $status
