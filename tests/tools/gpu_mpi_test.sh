#!/usr/bin/env bash
# count --gpu beside MPI (issue 56, A4), on machines without a GPU: the GPU
# worker's host stand-in ($EULERDECK_GPU_PLUGIN=host: the plugin's C
# interface and kernel body on the CPU's threads) and test plugins that find
# no GPU (tests/gpu/no_device_plugin.cc) or are of the first interface
# version (gpu_abi.h).
#
# Without MPI: a plugin of another interface version is refused in one line,
# exit 2, nothing written. Under mpirun -np 2 (skipped, 77, in a build
# without MPI): every rank opens a device (each says which on rank 0's
# stderr), and the count with --store, without it, and with CPU threads
# beside rank 0's device, equals the plain count level by level; a rank
# that finds no GPU (rank 0, or rank 1 alone) or has an old plugin refuses
# the job in one line from rank 0, exit 2, before any store is made.
# Usage: gpu_mpi_test.sh BUILD_DIR MPI_BUILT
set -u
E="$1/eulerdeck"
NODEV="$1/tests/libeulerdeck_gpu_nodevice.so"
ABI1="$1/tests/libeulerdeck_gpu_abi1.so"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
CPU="; without --gpu the count runs on the CPU (see docs/gpu.md)"

levels() {
  python3 -c 'import json,sys; print(" ".join(json.loads(sys.stdin.readline())["levels"]))'
}

# refused NAME STORE WANT CMD...: exit 2, and standard error holds exactly
# one line from eulerdeck, WANT, and no store was made. (mpirun may add its
# own note that a rank exited nonzero: only eulerdeck's lines are counted.)
refused() {
  local name=$1 store=$2 want=$3 rc
  shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  local ours
  ours=$(grep -c '^eulerdeck' "$tmp/err")
  if [ "$rc" -ne 2 ] || [ "$ours" -ne 1 ] || ! grep -qxF -- "$want" "$tmp/err"; then
    echo "FAIL ($name): rc=$rc, $ours lines of eulerdeck's; want:"; echo "$want"
    echo "-- got:"; cat "$tmp/err"; fail=1
    return
  fi
  if [ -e "$store" ]; then
    echo "FAIL ($name): $store was made"; fail=1
    return
  fi
  [ -s "$tmp/out" ] && { echo "FAIL ($name): output on stdout: $(head -2 "$tmp/out")"; fail=1; return; }
  echo "ok   $name"
}

# A plugin of the first interface version: refused before it is called.
refused "old plugin" "$tmp/old" \
  "eulerdeck count: --gpu: the GPU plugin $ABI1 has interface version 1, this eulerdeck needs 2 (rebuild it)$CPU" \
  env EULERDECK_GPU_PLUGIN="$ABI1" "$E" count --game hlm --ranks 10 --suits 2 --gpu --store "$tmp/old"

[ "${2:-OFF}" = "ON" ] || { echo "skip: built without MPI (-DEULERDECK_MPI=OFF)"; exit 77; }
command -v mpirun >/dev/null || { echo "FAIL: built with MPI, but no mpirun on PATH"; exit 1; }
# As root (CI, containers) Open MPI wants to be told; more ranks than cores
# are fine for a test.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPI=(mpirun --oversubscribe)

# check NAME WINNING ARGS...: mpirun -np 2 count --gpu on the host stand-in,
# with --store (the GPU alone on rank 0, then with a CPU thread beside it)
# and without, level by level against the plain count.
check() {
  local name=$1 winning=$2 ref got
  shift 2
  ref=$("$E" count "$@" --threads 2 --json -q 2>/dev/null | levels)
  # The reference itself: its winning decks are the published count.
  if [ "${ref##* }" != "$winning" ]; then
    echo "FAIL ($name): the plain count gives '${ref##* }' winning decks, not $winning"; fail=1
    return
  fi
  got=$(EULERDECK_GPU_PLUGIN=host "${MPI[@]}" -np 2 "$E" count "$@" --gpu --store "$tmp/$name" \
    --subtrees 300 --batch-seconds 0.01 --json 2>"$tmp/err" | levels)
  if [ "$got" != "$ref" ]; then
    echo "FAIL ($name, np 2, --gpu --store): '$got', expected '$ref' ($(head -3 "$tmp/err"))"; fail=1
  fi
  # Each rank's device on rank 0's stderr, rank 0's first.
  local lines
  lines=$(grep '^gpu  ' "$tmp/err" | sed 's/ [0-9]* threads$/ T threads/')
  local want="gpu            rank 0 of 2 (local rank 0): the host stand-in of the GPU walk, T threads
gpu            rank 1 of 2 (local rank 1): the host stand-in of the GPU walk, T threads"
  if [ "$lines" != "$want" ]; then
    echo "FAIL ($name, np 2, --gpu: the devices' lines):"; echo "$lines"; fail=1
  fi
  got=$(EULERDECK_GPU_PLUGIN=host "${MPI[@]}" -np 2 "$E" count "$@" --gpu --threads 1 \
    --store "$tmp/$name-cpu" --subtrees 300 --batch-seconds 0.01 --json -q 2>"$tmp/err" | levels)
  if [ "$got" != "$ref" ]; then
    echo "FAIL ($name, np 2, --gpu --threads 1 --store): '$got', expected '$ref' ($(head -3 "$tmp/err"))"
    fail=1
  fi
  got=$(EULERDECK_GPU_PLUGIN=host "${MPI[@]}" -np 2 "$E" count "$@" --gpu --json -q \
    2>"$tmp/err" | levels)
  if [ "$got" != "$ref" ]; then
    echo "FAIL ($name, np 2, --gpu, no --store): '$got', expected '$ref' ($(head -3 "$tmp/err"))"
    fail=1
  fi
  echo "ok   $name: np 2 --gpu with --store, with a CPU thread beside, and without --store equal the plain count"
}

# Winning decks: OEIS A007709(11) (mousetrap s=1); Bersani 2010, Table 2 (hlm).
check mousetrap11 449719 --game mousetrap --ranks 11
check hlm11x2 6745 --game hlm --ranks 11 --suits 2

# Ctrl-C on mpirun (it sends SIGTERM to every rank) while the ranks count
# on their devices: rank 0 commits what is finished and says how to go on;
# the store, resumed on the CPU without MPI, finishes to A007709(13).
store="$tmp/sigint"
EULERDECK_GPU_PLUGIN=host "${MPI[@]}" -np 2 "$E" count --game mousetrap --ranks 13 --gpu \
  --store "$store" --subtrees 2000 --batch-seconds 0.02 --checkpoint-seconds 0.1 -q \
  >/dev/null 2>"$tmp/err" &
pid=$!
for _ in $(seq 1 300); do
  "$E" status --store "$store" 2>/dev/null | grep -q "^state      running.*counting" && break
  sleep 0.1
done
sleep 1
kill -INT "$pid"
wait "$pid"
if ! grep -qE '^eulerdeck count: interrupted after [0-9,]+ of [0-9,]+ subtrees .*all finished subtrees are saved' "$tmp/err"; then
  echo "FAIL (Ctrl-C under mpirun --gpu): '$(head -3 "$tmp/err")'"; fail=1
fi
got=$("$E" resume --store "$store" --threads 2 2>/dev/null | sed -n 's/^winning decks  //p' | tr -d ,)
if [ "$got" = 28886593 ]; then
  echo "ok   Ctrl-C under mpirun -np 2 --gpu, resumed on the CPU: $got"
else
  echo "FAIL (Ctrl-C under mpirun --gpu): resumed to '$got', not 28886593"; fail=1
fi

# No GPU on any rank: rank 0 refuses at once (the others are not asked).
NOGPU="--gpu: no GPU found (no NVIDIA driver: libcuda.so.1 not found)$CPU"
refused "np 2, no GPU" "$tmp/nogpu" \
  "eulerdeck count: MPI rank 0 of 2 (local rank 0): $NOGPU" \
  env EULERDECK_GPU_PLUGIN="$NODEV" "${MPI[@]}" -np 2 "$E" count --game hlm --ranks 10 \
  --suits 2 --gpu --store "$tmp/nogpu"
# Rank 0 has a device, rank 1 none (each rank's environment of its own):
# rank 1 says so to rank 0, which refuses; nobody hangs.
refused "np 2, no GPU on rank 1" "$tmp/nogpu1" \
  "eulerdeck count: MPI rank 1 of 2 (local rank 1): $NOGPU" \
  "${MPI[@]}" -np 1 env EULERDECK_GPU_PLUGIN=host "$E" count --game hlm --ranks 10 --suits 2 \
  --gpu --store "$tmp/nogpu1" : -np 1 env EULERDECK_GPU_PLUGIN="$NODEV" "$E" count
refused "np 2, old plugin on rank 1" "$tmp/old1" \
  "eulerdeck count: MPI rank 1 of 2 (local rank 1): --gpu: the GPU plugin $ABI1 has interface version 1, this eulerdeck needs 2 (rebuild it)$CPU" \
  "${MPI[@]}" -np 1 env EULERDECK_GPU_PLUGIN=host "$E" count --game hlm --ranks 10 --suits 2 \
  --gpu --store "$tmp/old1" : -np 1 env EULERDECK_GPU_PLUGIN="$ABI1" "$E" count
[ "$fail" -eq 0 ] && echo "gpu_mpi: all passed"
exit "$fail"
