#!/usr/bin/env bash
# The device check of the GPU worker (issue 45, part 3), run once on a machine
# with an NVIDIA GPU, nvcc and CMake but none of the project's Debian
# packages. Prepare it here with scripts/gpu_bundle.sh (the eulerdeck binary
# and its libraries in .gpu-bundle/), carry .gpu-bundle, and run from the
# repository root:
#
#   bash scripts/gpu_check.sh            (writes to $OUT, or /tmp/gpu_check)
#
# Steps, each reported and timed; a failing step does not stop the next:
#   1. the machine: nvidia-smi, nvcc, glibc
#   2. the plugin, built by nvcc alone from the walk's headers (-arch=sm_90,
#      -Xptxas -v): registers, stack frame and spills per kernel
#      (tests/gpu/ptxas_check.py: the warp kernels must have no stack frame)
#   3. the carried binary starts; --gpu finds the plugin and the device;
#      without a plugin it says so in one line and exits 2; the kernel's
#      grid (blocks per SM) from its timing line ($EULERDECK_GPU_TIMING)
#   4. every published count (tests/support/published.h: OEIS A007709 to
#      n = 15, Bersani 2010 Tables 2, 4, 5) counted with --gpu: PASS/FAIL
#   5. mousetrap 13, hlm s=2 m=13 and modular 11: the GPU's levels equal
#      the CPU's, one by one
#   6. a GPU count in a store, interrupted (SIGINT), exported, imported and
#      resumed on the CPU: its levels equal the CPU count's
#   7. speed: the warp kernel, the old kernel (EULERDECK_GPU_KERNEL=old) and
#      the CPU count on every core, on mousetrap 15 and hlm s=2 m=15; the
#      warp kernel alone on mousetrap 16 and hlm s=2 m=16: sub-decks per
#      second, the ratios, and the tail (the last block's cycles against
#      the median block's, clock64)
# Output under $OUT (at most 9 files): summary.md, gpu_check.log,
# plugin_build.log, ptxas.txt, published.tsv, levels.tsv, rates.tsv,
# resume.log.
# Budget: under 6 minutes on one H100/H200 with 16 cores (GPU_CHECK_BUDGET,
# default 345 s); steps 4 and 7 skip what would pass it.
# For a dry run of the script itself on a machine without a GPU:
#   GPU_CHECK_PLUGIN=host GPU_CHECK_MAX_SECONDS=0.5 GPU_CHECK_RESUME="mousetrap 11" \
#   GPU_CHECK_LEVELS="mousetrap 10 1;hlm 8 2;modular 9 1" \
#   GPU_CHECK_COMPARE="mousetrap 11 1;hlm 9 2" GPU_CHECK_NEW="mousetrap 12 1" \
#   GPU_CHECK_SKIP_BUILD=1 GPU_CHECK_BUDGET=300 bash scripts/gpu_check.sh
# (the host stand-in of the plugin: the same kernels' bodies on the CPU's
# threads; no timing lines).
set -u
cd "$(dirname "$0")/.." || exit 2
OUT=${OUT:-/tmp/gpu_check}
mkdir -p "$OUT"
LOG=$OUT/gpu_check.log
SUMMARY=$OUT/summary.md
: >"$LOG"
START=$(date +%s)
BUDGET=${GPU_CHECK_BUDGET:-345} # seconds for everything, the build included
CORES=$(nproc)
WORK=$(mktemp -d /tmp/gpu_check.XXXXXX)

log() { echo "[$(($(date +%s) - START))s] $*" | tee -a "$LOG"; }
left() { echo $((BUDGET - ($(date +%s) - START))); }
summary() { echo "$*" >>"$SUMMARY"; }
{
  echo "# GPU check of eulerdeck ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
  echo
  echo "commit of the carried binary: $(cat .gpu-bundle/COMMIT 2>/dev/null || echo unknown);" \
    "tree: $(git rev-parse HEAD 2>/dev/null || echo 'not a git checkout')"
  echo
} >"$SUMMARY"

# 1. The machine.
log "step 1: the machine"
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv 2>&1 | tee -a "$LOG"
nvcc --version 2>&1 | tail -2 | tee -a "$LOG"
ldd --version 2>&1 | head -1 | tee -a "$LOG"
summary "## Machine"
summary '```'
summary "$(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>&1)"
summary "$(nvcc --version 2>&1 | tail -1)"
summary "$(ldd --version 2>&1 | head -1); $CORES CPU cores; $(uname -r)"
summary '```'

# 2. The plugin: nvcc alone (the top-level CMakeLists.txt needs RocksDB & co).
PLUGIN=$PWD/.gpu-build/libeulerdeck_gpu.so
if [[ ${GPU_CHECK_SKIP_BUILD:-0} == 1 ]]; then
  # Dry runs: no plugin built (minutes on a small machine); the warp kernel
  # alone through ptxas (seconds), for the figures.
  log "step 2: plugin build skipped (GPU_CHECK_SKIP_BUILD=1); the warp kernel through ptxas"
  python3 tests/gpu/ptxas_check.py nvcc . 90 "$OUT/plugin_build.log" >"$OUT/ptxas.txt" 2>&1
  rc=$?
  tee -a "$LOG" <"$OUT/ptxas.txt"
  summary "- plugin: not built (dry run); the warp kernel alone through ptxas: $([[ $rc == 0 ]] && echo PASS || echo '**FAIL**')"
  summary '```'
  summary "$(cat "$OUT/ptxas.txt")"
  summary '```'
else
  log "step 2: building the plugin with nvcc -arch=sm_90 -O3"
  mkdir -p .gpu-build
  t0=$(date +%s)
  if nvcc -std=c++17 -O3 -arch=sm_90 -Xcompiler -fPIC -Xptxas -v -shared -I. \
    engine/gpu/gpu_plugin.cu engine/gpu/warp_kernel.cu -o "$PLUGIN" >"$OUT/plugin_build.log" 2>&1; then
    log "plugin built in $(($(date +%s) - t0)) s: $PLUGIN"
    summary "- plugin: built by nvcc in $(($(date +%s) - t0)) s"
    python3 tests/gpu/ptxas_check.py --parse "$OUT/plugin_build.log" >"$OUT/ptxas.txt" 2>&1
    rc=$?
    tee -a "$LOG" <"$OUT/ptxas.txt"
    summary "- kernels (ptxas.txt; the warp kernels must have no stack frame): $([[ $rc == 0 ]] && echo PASS || echo '**FAIL**')"
    summary '```'
    summary "$(cat "$OUT/ptxas.txt")"
    summary '```'
  else
    log "FAIL: the plugin did not build (plugin_build.log)"
    tail -20 "$OUT/plugin_build.log" | tee -a "$LOG"
    summary "- plugin: **FAIL** to build (plugin_build.log)"
  fi
fi
export EULERDECK_GPU_PLUGIN=${GPU_CHECK_PLUGIN:-$PLUGIN}
log "EULERDECK_GPU_PLUGIN=$EULERDECK_GPU_PLUGIN"

# 3. The carried binary.
log "step 3: the carried binary"
ED=$PWD/.gpu-bundle/eulerdeck
export LD_LIBRARY_PATH=$PWD/.gpu-bundle/lib
if ! "$ED" count --help >/dev/null 2>>"$LOG"; then
  log "the binary does not start with the device's C++ runtime; adding the carried one"
  export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/.gpu-bundle/fallback
fi
if "$ED" count --help >/dev/null 2>>"$LOG"; then
  summary "- binary: starts (LD_LIBRARY_PATH=$LD_LIBRARY_PATH)"
else
  log "FAIL: the carried binary does not start"
  summary "- binary: **FAIL**: does not start (gpu_check.log)"
fi
EULERDECK_GPU_PLUGIN=/nonexistent/libeulerdeck_gpu.so "$ED" count --game mousetrap --ranks 8 --gpu \
  >/dev/null 2>"$WORK/noplugin.err"
rc=$?
log "without a plugin: exit $rc: $(cat "$WORK/noplugin.err")"
if [[ $rc == 2 && $(wc -l <"$WORK/noplugin.err") == 1 ]]; then
  summary "- no plugin: PASS (exit 2, one line: $(cat "$WORK/noplugin.err"))"
else
  summary "- no plugin: **FAIL** (exit $rc: $(head -3 "$WORK/noplugin.err"))"
fi
for size in "mousetrap 12 1" "hlm 12 2" "modular 10 1"; do
  read -r game m s <<<"$size"
  EULERDECK_GPU_TIMING=1 "$ED" count --game "$game" --ranks "$m" --suits "$s" --gpu \
    >/dev/null 2>"$WORK/grid.err"
  grid=$(grep 'eulerdeck gpu: kernel' "$WORK/grid.err" | tail -1 | sed 's/^eulerdeck gpu: //')
  log "grid of $game m=$m s=$s: ${grid:-no timing line (the host stand-in prints none)}"
  summary "- grid, $game m=$m s=$s: ${grid:-none printed}"
done
"$ED" count --game mousetrap --ranks 9 --gpu --json >"$WORK/smoke_gpu.json" 2>"$WORK/smoke.err"
rc=$?
cat "$WORK/smoke.err" >>"$LOG"
DEVICE=$(grep '^gpu ' "$WORK/smoke.err" | sed 's/^gpu *//')
"$ED" count --game mousetrap --ranks 9 --threads "$CORES" --json >"$WORK/smoke_cpu.json" 2>/dev/null
if [[ $rc == 0 ]] && python3 - "$WORK/smoke_gpu.json" "$WORK/smoke_cpu.json" <<'EOF'; then
import json, sys
g, c = (json.load(open(f)) for f in sys.argv[1:3])
sys.exit(0 if g["levels"] == c["levels"] else 1)
EOF
  log "smoke: mousetrap m=9 on the GPU ($DEVICE) equals the CPU, level by level"
  summary "- device: $DEVICE"
  summary "- smoke (mousetrap m=9, levels GPU = CPU): PASS"
else
  log "FAIL: smoke count (exit $rc)"
  summary "- smoke (mousetrap m=9): **FAIL** (exit $rc: $(tail -2 "$WORK/smoke.err" | tr '\n' ' '))"
fi

# One count with --gpu (or on the CPU with "cpu"), its JSON in $WORK/$name.json;
# prints "winning nodes seconds nodes_per_second" or "- - - -".
# Modes: gpu (the default kernel), gpu-old (EULERDECK_GPU_KERNEL=old), cpu.
# Every GPU count asks for the timing line ($WORK/$name.err).
count_json() { # mode game ranks suits timeout name (also $WORK/$name.csv)
  local mode=$1 game=$2 ranks=$3 suits=$4 limit=$5 name=$6 flags envs=(EULERDECK_GPU_TIMING=1)
  if [[ $mode == gpu* ]]; then flags=(--gpu); else flags=(--threads "$CORES" --force); fi
  if [[ $mode == gpu-old ]]; then envs+=(EULERDECK_GPU_KERNEL=old); fi
  if [[ -s $WORK/$name.json ]]; then # counted before in this run
    python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
print(j["winning_decks"], j["nodes"], "%.3f" % j["seconds"], "%.4g" % j["nodes_per_second"])
' "$WORK/$name.json"
    return
  fi
  if ((limit < 1)); then
    echo "- - - - out-of-time"
    return
  fi
  env "${envs[@]}" timeout --signal=INT "$limit" "$ED" count --game "$game" --ranks "$ranks" \
    --suits "$suits" "${flags[@]}" --json --csv "$WORK/$name.csv" >"$WORK/$name.json" \
    2>"$WORK/$name.err"
  local rc=$?
  if [[ $rc != 0 ]]; then
    rm -f "$WORK/$name.json"
    echo "- - - - exit=$rc"
    return
  fi
  python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
print(j["winning_decks"], j["nodes"], "%.3f" % j["seconds"], "%.4g" % j["nodes_per_second"])
' "$WORK/$name.json"
}

# 4. Every published count, with --gpu, cheapest first (by the 2-core
# seconds of published.h), while the budget lasts (steps 5-7 keep ~200 s).
log "step 4: the published counts on the GPU"
python3 - tests/support/published.h "${GPU_CHECK_MAX_SECONDS:-100000}" >"$WORK/published.list" <<'EOF'
import re, sys
games = {"M": "mousetrap", "MM": "modular", "H": "hlm"}
rows = re.findall(r'\{"([^"]+)",\s*(MM|M|H),\s*(\d+),\s*(\d+),\s*(\d+),\s*([\d.]+)\}',
                  open(sys.argv[1]).read())
rows.sort(key=lambda r: float(r[5]))
for source, g, m, s, winning, seconds in rows:
    if float(seconds) > float(sys.argv[2]):
        continue
    print(source.replace(" ", "_"), games[g], m, s, winning, seconds)
EOF
printf 'source\tgame\tranks\tsuits\tpublished\tgpu\tverdict\tnodes\tseconds\tnodes_per_second\n' \
  >"$OUT/published.tsv"
pass=0 fail=0 skipped=0
while read -r source game m s published seconds2; do
  if (($(left) < 210)); then
    skipped=$((skipped + 1))
    printf '%s\t%s\t%s\t%s\t%s\t-\tSKIPPED\t-\t-\t-\n' "$source" "$game" "$m" "$s" "$published" \
      >>"$OUT/published.tsv"
    continue
  fi
  limit=$(($(left) - 200))
  read -r winning nodes secs rate extra < <(count_json gpu "$game" "$m" "$s" "$limit" "pub_${game}_${m}_${s}")
  if [[ $winning == "$published" ]]; then
    verdict=PASS pass=$((pass + 1))
  else
    verdict=FAIL fail=$((fail + 1))
    log "FAIL: $game m=$m s=$s: published $published, GPU $winning $extra: $(tail -2 "$WORK/pub_${game}_${m}_${s}.err" | tr '\n' ' ')"
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$source" "$game" "$m" "$s" "$published" \
    "$winning" "$verdict" "$nodes" "$secs" "$rate" >>"$OUT/published.tsv"
  log "$verdict $source $game m=$m s=$s: published $published, GPU $winning ($secs s, $rate nodes/s)"
done <"$WORK/published.list"
summary ""
summary "## Published counts on the GPU (published.tsv)"
summary "$pass PASS, $fail FAIL, $skipped skipped for time"

# 5. Level by level: the GPU's levels against the CPU's.
log "step 5: level by level, the GPU against the CPU"
printf 'game\tranks\tsuits\tlevels\tverdict\tgpu_seconds\tcpu_seconds\n' >"$OUT/levels.tsv"
summary ""
summary "## Level by level (levels.tsv)"
IFS=';' read -r -a level_sizes <<<"${GPU_CHECK_LEVELS:-mousetrap 13 1;hlm 13 2;modular 11 1}"
for size in "${level_sizes[@]}"; do
  read -r game m s <<<"$size"
  read -r gw gn gs grate gx < <(count_json gpu "$game" "$m" "$s" 60 "pub_${game}_${m}_${s}")
  read -r cw cn cs crate cx < <(count_json cpu "$game" "$m" "$s" 60 "cpu_${game}_${m}_${s}")
  verdict=FAIL
  if [[ -s $WORK/pub_${game}_${m}_${s}.csv && -s $WORK/cpu_${game}_${m}_${s}.csv ]] &&
    cmp -s "$WORK/pub_${game}_${m}_${s}.csv" "$WORK/cpu_${game}_${m}_${s}.csv"; then
    verdict=PASS
  fi
  levels=$(($(wc -l <"$WORK/cpu_${game}_${m}_${s}.csv" 2>/dev/null || echo 1) - 1))
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$game" "$m" "$s" "$levels" "$verdict" "$gs" "$cs" \
    >>"$OUT/levels.tsv"
  log "$verdict: $game m=$m s=$s, $levels levels: GPU ($gs s) against CPU ($cs s)"
  summary "- $game m=$m s=$s: $verdict ($levels levels; GPU $gs s, CPU $cs s)"
done

# 6. Interrupted on the GPU, resumed on the CPU through the progress document.
log "step 6: a GPU count in a store, interrupted, exported, imported, resumed on the CPU"
R=$OUT/resume.log
: >"$R"
S1=$WORK/store_gpu S2=$WORK/store_cpu P=$WORK/progress.json
read -r G M <<<"${GPU_CHECK_RESUME:-mousetrap 14}"
{
  "$ED" count --game $G --ranks $M --gpu --store "$S1" --checkpoint-seconds 0.3 \
    --batch-seconds 0.01 >>"$R" 2>&1 &
  pid=$!
  # Interrupted once its first batches are committed (status reads the
  # store while it is written), or after 60 s.
  for _ in $(seq 1 300); do
    sleep 0.2
    kill -0 $pid 2>/dev/null || break
    done_now=$("$ED" status --store "$S1" --json 2>/dev/null | python3 -c '
import json, sys
try: print(json.load(sys.stdin).get("count", {}).get("subtrees_counted", 0))
except Exception: print(0)' 2>/dev/null)
    if [[ ${done_now:-0} != 0 ]]; then
      echo "interrupting: $done_now subtrees committed"
      break
    fi
  done
  kill -INT $pid 2>/dev/null
  wait $pid
  echo "GPU count exit: $? (130: interrupted; 0: it had finished)"
  "$ED" status --store "$S1"
  "$ED" export --store "$S1" --progress "$P" && echo "exported"
  "$ED" import --progress "$P" --store "$S2" && echo "imported"
  "$ED" resume --store "$S2" --threads "$CORES"
  echo "resume exit: $?"
  "$ED" export --store "$S2" --counts "$WORK/resumed.csv"
} >>"$R" 2>&1
# The CPU's count of the same size.
count_json cpu $G $M 1 120 "rate_cpu_${G}_${M}" >>"$R" 2>&1
cp "$WORK/rate_cpu_${G}_${M}.csv" "$WORK/cpu.csv" 2>/dev/null
cut -d, -f1-5 "$WORK/resumed.csv" >"$WORK/resumed5.csv" 2>/dev/null
if [[ -s $WORK/cpu.csv ]] && cmp -s "$WORK/resumed5.csv" "$WORK/cpu.csv"; then
  how=$(grep -o 'GPU count exit: [0-9]*' "$R")
  log "PASS: $G m=$M interrupted on the GPU ($how), resumed on the CPU: levels equal"
  summary ""
  summary "## Interrupted on the GPU, resumed on the CPU (resume.log)"
  summary "PASS: $G m=$M, $how; the levels of the resumed store equal the CPU count's"
else
  log "FAIL: resumed levels differ from the CPU count's (resume.log)"
  diff "$WORK/resumed5.csv" "$WORK/cpu.csv" >>"$R" 2>&1
  summary ""
  summary "## Interrupted on the GPU, resumed on the CPU (resume.log)"
  summary "**FAIL**: the resumed levels differ from the CPU count's, or a step failed"
fi

# 7. Speed: the warp kernel, the old kernel and every core, the same sizes;
# then the warp kernel alone on larger ones. The tail: the kernel's timing
# line (the last block's cycles over the median block's).
log "step 7: speed: the warp kernel, the old kernel, the CPU on $CORES threads"
printf 'game\tranks\tsuits\tdevice\tnodes\tseconds\tnodes_per_second\twinning\ttail\n' >"$OUT/rates.tsv"
summary ""
summary "## Speed (rates.tsv)"
summary "| size | warp kernel nodes/s | old kernel nodes/s | CPU $CORES threads nodes/s | warp/old | warp/CPU | tail (last/median block) |"
summary "|---|---|---|---|---|---|---|"
tail_of() { # name: last/median of the kernel's timing line(s), the largest
  grep -o 'last/median [0-9.]*' "$WORK/$1.err" 2>/dev/null | awk '{print $2}' | sort -g | tail -1
}
ratio() { python3 -c 'import sys
try: print("%.2f" % (float(sys.argv[1]) / float(sys.argv[2])))
except Exception: print("-")' "$1" "$2"; }
rate_row() { # game m s device name
  read -r w n secs rate x < <(count_json "$4" "$1" "$2" "$3" "$LIMIT" "$5")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$n" "$secs" "$rate" "$w" \
    "$(tail_of "$5")" >>"$OUT/rates.tsv"
  echo "$w $rate $secs"
}
IFS=';' read -r -a compare_sizes <<<"${GPU_CHECK_COMPARE:-mousetrap 15 1;hlm 15 2}"
for size in "${compare_sizes[@]}"; do
  read -r game m s <<<"$size"
  LIMIT=$(($(left) - 20))
  ((LIMIT > 90)) && LIMIT=90
  read -r nw nrate nsecs < <(rate_row "$game" "$m" "$s" gpu "pub_${game}_${m}_${s}")
  LIMIT=$(($(left) - 20))
  ((LIMIT > 90)) && LIMIT=90
  read -r ow orate osecs < <(rate_row "$game" "$m" "$s" gpu-old "rate_old_${game}_${m}_${s}")
  LIMIT=$(($(left) - 20))
  ((LIMIT > 90)) && LIMIT=90
  read -r cw crate csecs < <(rate_row "$game" "$m" "$s" cpu "rate_cpu_${game}_${m}_${s}")
  same=$([[ $nw == "$ow" && $nw == "$cw" && $nw != - ]] && echo yes || echo NO)
  log "$game m=$m s=$s: warp $nrate nodes/s ($nsecs s), old $orate ($osecs s), CPU $crate ($csecs s):" \
    "warp/old x$(ratio "$nrate" "$orate"), warp/CPU x$(ratio "$nrate" "$crate"); same count: $same"
  summary "| $game m=$m s=$s | $nrate ($nsecs s) | $orate ($osecs s) | $crate ($csecs s) |" \
    "$(ratio "$nrate" "$orate") | $(ratio "$nrate" "$crate") | $(tail_of "pub_${game}_${m}_${s}") |"
done
IFS=';' read -r -a new_sizes <<<"${GPU_CHECK_NEW:-mousetrap 16 1;hlm 16 2}"
for size in "${new_sizes[@]}"; do
  read -r game m s <<<"$size"
  LIMIT=$(($(left) - 10))
  ((LIMIT > 120)) && LIMIT=120
  read -r nw nrate nsecs < <(rate_row "$game" "$m" "$s" gpu "pub_${game}_${m}_${s}")
  log "$game m=$m s=$s: warp $nrate nodes/s ($nsecs s), $nw winning"
  summary "| $game m=$m s=$s | $nrate ($nsecs s) | - | - | - | - | $(tail_of "pub_${game}_${m}_${s}") |"
done

log "done in $(($(date +%s) - START)) s"
summary ""
summary "total: $(($(date +%s) - START)) s"
cp "$SUMMARY" "$WORK/summary.copy" 2>/dev/null
cat "$SUMMARY"
rm -rf "$WORK"
