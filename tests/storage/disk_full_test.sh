#!/usr/bin/env bash
# A full device (issue 12, item 1): a run on a small tmpfs, filled by the run
# itself or by another process, must end within 10 s with one line ("no space
# left on device in DIR; free space and run `eulerdeck resume --store DIR`")
# and exit 1; a resume while the device is still full must do the same; and
# once space is freed, resume must finish a store identical to an
# uninterrupted run's, which verify accepts. A count in a store (issue 42,
# A.4) ends with the same line in `count`'s name, and `resume` of it in its
# own, and resumes to the plain count.
# Needs root (mount); exits 77 (skipped) where tmpfs cannot be mounted.
# Usage: disk_full_test.sh BUILD_DIR [--long]
set -u
. "$(dirname "$0")/../support/wait_for.sh"
E="$1/eulerdeck"
LONG=0
[ "${2:-}" = "--long" ] && LONG=1
tmp=$(mktemp -d)
mnt="$tmp/mnt"
mkdir -p "$mnt"
cleanup() { mountpoint -q "$mnt" && umount "$mnt"; rm -rf "$tmp"; }
trap cleanup EXIT
if ! mount -t tmpfs -o size=4m tmpfs "$mnt" 2>/dev/null; then
  echo "disk_full_test: skipped (cannot mount a tmpfs here)"; exit 77
fi
umount "$mnt"
fail=0
trials=0

# levels_of STORE: one line per level (entries, blocks, bytes, checksum).
levels_of() {
  "$E" status --store "$1" --json | python3 -c '
import json, sys
j = json.load(sys.stdin)
assert j["complete"], "store is not complete"
for l in j["levels"]:
    print(l["level"], l["winning_sub_decks"], l["blocks"], l["stored_bytes"], l["checksum"])'
}

# check_reference WHAT: the store on the tmpfs holds the uninterrupted
# run's levels ($REF), and verify accepts it.
check_reference() {
  if [ "$(levels_of "$mnt/s" 2>&1)" != "$REF" ]; then
    echo "FAIL ($1): the store differs from an uninterrupted run"; fail=1
  elif ! "$E" verify --store "$mnt/s" >/dev/null 2>"$tmp/err"; then
    echo "FAIL ($1): verify: $(cat "$tmp/err")"; fail=1
  fi
}

# check_failure WHAT ERRFILE RC: exit 1, and exactly one line (besides the
# periodic progress lines) saying the device is full and how to go on.
check_failure() {
  local what="$1" err="$2" rc="$3" lines
  lines=$(grep -v '^run:\|^forecast ' "$err")
  if [ "$rc" -eq 124 ]; then echo "FAIL ($what): did not end within 10 s"; fail=1; return; fi
  if [ "$rc" -ne 1 ] || [ "$(echo "$lines" | wc -l)" -ne 1 ] ||
     ! echo "$lines" | grep -q "no space left on device in $mnt/s.*; free space and run \`eulerdeck resume --store $mnt/s\`$"; then
    echo "FAIL ($what): rc=$rc: $lines"; fail=1
  fi
}

# trial WHAT SIZE CHECKPOINT FILLER: a run on a SIZE tmpfs; FILLER: none,
# burst (another process fills the device at once) or trickle (in about 16 steps).
trial() {
  local what="$1" size="$2" checkpoint="$3" filler="$4" rc
  trials=$((trials + 1))
  mount -t tmpfs -o "size=$size" tmpfs "$mnt" || { echo "FAIL ($what): mount"; fail=1; return; }
  timeout 10 "$E" run "${GAME[@]}" --store "$mnt/s" --threads 1 --checkpoint-seconds "$checkpoint" \
    --memory-budget 16MiB >/dev/null 2>"$tmp/err" &
  local pid=$!
  # The filler's delay counts from the store's creation (a slow start must
  # not let the filler fill the device before the store exists).
  [ "$filler" != none ] && wait_for "$pid" [ -e "$mnt/s/CURRENT" ]
  case "$filler" in
    # Both fill the device well before the run would end (m=12 takes about
    # a second on one thread since issue 15's passes and block format 2).
    burst) sleep "0.$(( RANDOM % 3 + 1 ))"; dd if=/dev/zero of="$mnt/filler" bs=1M >/dev/null 2>&1 ;;
    # (The trickle fills the device in about 16 steps of 20 ms, whatever its size.)
    trickle) sleep 0.1
      for _ in $(seq 1 400); do
        dd if=/dev/zero bs="$((${size%m} * 64))k" count=1 >>"$mnt/filler" 2>/dev/null || break
        sleep 0.02
      done ;;
  esac
  wait "$pid"; rc=$?
  check_failure "$what" "$tmp/err" "$rc"
  # Still full: resume fails the same way, as often as it is tried.
  if [ "$filler" != none ]; then
    for again in 1 2; do
      timeout 10 "$E" resume --store "$mnt/s" --threads 1 --memory-budget 16MiB >/dev/null 2>"$tmp/err"
      check_failure "$what, resume $again while full" "$tmp/err" "$?"
    done
  fi
  rm -f "$mnt/filler"
  mount -o remount,size=512m "$mnt"
  if ! "$E" resume --store "$mnt/s" --threads 2 >/dev/null 2>"$tmp/err"; then
    echo "FAIL ($what): resume after freeing space: $(cat "$tmp/err")"; fail=1
  else
    check_reference "$what"
  fi
  umount "$mnt"
}

# count_trial WHAT SIZE FILLER: a count in a store (issue 42, A.4) on a
# SIZE tmpfs, FILLER none or burst: the same one line as run's, with
# `count`'s name, then `resume`'s while still full, then resumed to
# A007709(13) = 28,886,593 once space is freed.
count_trial() {
  local what="$1" size="$2" filler="$3" rc lines
  trials=$((trials + 1))
  mount -t tmpfs -o "size=$size" tmpfs "$mnt" || { echo "FAIL ($what): mount"; fail=1; return; }
  timeout 30 "$E" count --game mousetrap --ranks 13 --store "$mnt/s" --threads 1 --checkpoint-seconds 0 \
    --memory-budget 16MiB -q >/dev/null 2>"$tmp/err" &
  local pid=$!
  if [ "$filler" = burst ]; then
    wait_for "$pid" [ -e "$mnt/s/CURRENT" ]
    sleep "0.$(( RANDOM % 5 + 3 ))"; dd if=/dev/zero of="$mnt/filler" bs=1M >/dev/null 2>&1
  fi
  wait "$pid"; rc=$?
  for cmd in count resume; do
    lines=$(cat "$tmp/err")
    if [ "$rc" -ne 1 ] || [ "$(echo "$lines" | wc -l)" -ne 1 ] ||
       ! echo "$lines" | grep -q "^eulerdeck $cmd: no space left on device in $mnt/s.*; free space and run \`eulerdeck resume --store $mnt/s\`$"; then
      echo "FAIL ($what, $cmd): rc=$rc: $lines"; fail=1
    fi
    [ "$cmd" = resume ] && break
    # While still full: resume fails the same way, in its own name. (After a
    # burst, what the failed count released may be enough to finish: then
    # it must finish right.)
    timeout 30 "$E" resume --store "$mnt/s" --threads 1 --memory-budget 16MiB -q >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$filler" = burst ] && [ "$rc" -eq 0 ]; then
      grep -q "^winning decks  28,886,593$" "$tmp/out" || { echo "FAIL ($what): resume while full: $(cat "$tmp/out")"; fail=1; }
      break
    fi
  done
  rm -f "$mnt/filler"
  mount -o remount,size=512m "$mnt"
  "$E" resume --store "$mnt/s" --threads 2 -q 2>"$tmp/err" | grep -q "^winning decks  28,886,593$" ||
    { echo "FAIL ($what): resume after freeing space: $(cat "$tmp/err")"; fail=1; }
  umount "$mnt"
}

if [ "$LONG" -eq 0 ]; then
  count_trial "count m=13, 6m" 6m none
  count_trial "count m=13, 24m, burst filler" 24m burst
else
  for size in 2m 4m 6m 8m; do count_trial "count m=13, $size" "$size" none; done
  for i in 1 2 3 4 5 6; do count_trial "count m=13, 24m, burst filler $i" 24m burst; done
fi

if [ "$LONG" -eq 0 ]; then
  GAME=(--game mousetrap --ranks 11)   # 11 levels, about 2.5 MB stored
  "$E" run "${GAME[@]}" --store "$tmp/ref" >/dev/null 2>&1
  REF=$(levels_of "$tmp/ref")
  for size in 3m 4m 5m 6m; do
    trial "m=11, $size, checkpoints 0 s" "$size" 0 none
    trial "m=11, $size, checkpoints 30 s" "$size" 30 none
  done
  # Another process filling the device: m = 12 (about a second on one
  # thread), since m = 11 now ends before the filler has started.
  GAME=(--game mousetrap --ranks 12)
  "$E" run "${GAME[@]}" --store "$tmp/ref12" >/dev/null 2>&1
  REF=$(levels_of "$tmp/ref12")
  trial "m=12, 24m, burst filler" 24m 0 burst
  trial "m=12, 8m, trickle filler, checkpoints 30 s" 8m 30 trickle
else
  GAME=(--game mousetrap --ranks 12)   # 12 levels, about 16 MB stored
  "$E" run "${GAME[@]}" --store "$tmp/ref" >/dev/null 2>&1
  REF=$(levels_of "$tmp/ref")
  # With checkpoints every 30 s the store stays smaller (fewer table files
  # for compactions to rewrite): m = 12 fits in 32 MiB then.
  for size in 8m 10m 12m 14m 16m 20m 24m 28m; do
    trial "m=12, $size, checkpoints 0 s" "$size" 0 none
    trial "m=12, $size, checkpoints 30 s" "$size" 30 none
  done
  # Just below what the run needs: since block format 2 (issue 15) m = 12
  # fits in 34 MiB, so 40m and 48m, tried before, now finish.
  for size in 30m 32m; do trial "m=12, $size, checkpoints 0 s" "$size" 0 none; done
  for i in 1 2 3 4; do
    trial "m=12, 64m, burst filler $i" 64m 0 burst
    trial "m=12, 64m, burst filler $i, checkpoints 30 s" 64m 30 burst
    trial "m=12, 64m, trickle filler $i" 64m 0 trickle
    trial "m=12, 64m, trickle filler $i, checkpoints 30 s" 64m 30 trickle
  done
fi

# A pass that the extrapolation from the levels below refuses and the
# forecast admits (RunOptions::level_forecast): mousetrap 12 on 18 MiB, where
# levels 10-12 extrapolated from level 9 ask about 13 MiB of the 12 free
# (the build before refused it so), the forecast of them 10 MiB, and the run
# fits from 16 MiB up. A new run (its own forecast) and a resume from level
# 9 (which samples for one) must finish as the uninterrupted run.
forecast_trial() {
  local what="$1" rc
  trials=$((trials + 1))
  mount -t tmpfs -o size=18m tmpfs "$mnt" || { echo "FAIL ($what): mount"; fail=1; return; }
  if [ "$what" = resume ]; then
    "$E" run "${GAME[@]}" --store "$mnt/s" --threads 1 --until-level 9 -q >/dev/null 2>"$tmp/err" ||
      { echo "FAIL (forecast, $what): run to level 9: $(cat "$tmp/err")"; fail=1; }
    "$E" resume --store "$mnt/s" --threads 1 -q >/dev/null 2>"$tmp/err"
  else
    "$E" run "${GAME[@]}" --store "$mnt/s" --threads 1 -q >/dev/null 2>"$tmp/err"
  fi
  rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "FAIL (forecast, $what): rc=$rc: $(grep -v '^peak RSS' "$tmp/err")"; fail=1
  else
    check_reference "forecast, $what"
  fi
  umount "$mnt"
}
forecast_trial run    # (GAME and REF are mousetrap 12's here)
forecast_trial resume

[ "$fail" -eq 0 ] && echo "disk_full_test: all $trials trials passed"
exit "$fail"
