#!/usr/bin/env bash
# A count on the GPU's host stand-in (EULERDECK_GPU_PLUGIN=host: the warp
# machine of engine/gpu/warp_walk.h on the host's threads) in a store,
# stopped by SIGINT once it has committed a batch, then resumed on the CPU:
# its levels equal those of the in-memory CPU count (issue 56). Whether the
# stop falls inside a batch or between two, the store ends the same.
# Usage: store_resume_test.sh BUILD_DIR
set -u
E="$1/eulerdeck"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for size in "mousetrap 12 1" "hlm 13 2"; do
  read -r game m s <<<"$size"
  store="$tmp/${game}_$m"
  EULERDECK_GPU_PLUGIN=host "$E" count --game "$game" --ranks "$m" --suits "$s" --gpu \
    --store "$store" --checkpoint-seconds 0.2 --batch-seconds 0.01 >"$tmp/count.out" 2>&1 &
  pid=$!
  # Interrupted once a batch is committed (status reads the store while it
  # is written), or after 30 s.
  for _ in $(seq 1 300); do
    sleep 0.1
    kill -0 $pid 2>/dev/null || break
    n=$("$E" status --store "$store" --json 2>/dev/null | python3 -c 'import json, sys
try: print(json.load(sys.stdin).get("count", {}).get("subtrees_counted", 0))
except Exception: print(0)')
    [ "${n:-0}" != 0 ] && break
  done
  kill -INT $pid 2>/dev/null
  wait $pid
  rc=$?
  if [ $rc -ne 130 ] && [ $rc -ne 0 ]; then
    echo "FAIL ($size): the interrupted count exited $rc"
    cat "$tmp/count.out"
    fail=1
    continue
  fi
  if [ $rc -eq 130 ]; then
    "$E" resume --store "$store" --threads 2 >"$tmp/resume.out" 2>&1 || {
      echo "FAIL ($size): resume"
      cat "$tmp/resume.out"
      fail=1
      continue
    }
  fi
  "$E" export --store "$store" --counts "$tmp/resumed.csv" &&
    "$E" count --game "$game" --ranks "$m" --suits "$s" --csv "$tmp/cpu.csv" >/dev/null 2>&1
  if ! cut -d, -f1-5 "$tmp/resumed.csv" | cmp -s - "$tmp/cpu.csv"; then
    echo "FAIL ($size): the resumed store's levels differ from the CPU count's (count exit $rc)"
    cut -d, -f1-5 "$tmp/resumed.csv" | diff - "$tmp/cpu.csv"
    fail=1
  else
    echo "ok ($size): count exit $rc, levels equal"
  fi
done
exit $fail
