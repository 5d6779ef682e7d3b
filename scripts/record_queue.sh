#!/usr/bin/env bash
# The record runs of docs/results.md, one after another, each twice (A: 2 threads,
# default split; B: mpirun -np 2 x 1 thread, split one level above A's: its
# --subtrees is the size of the level above A's split). Idempotent:
# run it again after any interruption and every store continues where it
# stands (count --store on an existing store resumes it); finished jobs are
# skipped. Start (after copying build/eulerdeck to $R/bin/eulerdeck):
#   nohup nice -n 10 scripts/record_queue.sh >> /var/tmp/eulerdeck-runs/queue.out 2>&1 &
# Then scripts/record_results.py $R collects what both runs finished.
# With arguments, only the jobs so named run (e.g. `record_queue.sh mousetrap-s4-m6`):
# a machine handed back fresh has lost results/, and the values already in
# docs/results.md need not be computed a third time.
# A machine handed back fresh also loses the stores: with EULERDECK_PROGRESS
# set to a directory of progress documents (`eulerdeck export --progress`,
# NAME-A.json, with the run's session lines in NAME-A.sessions), a missing
# store is first made again from its document (`eulerdeck import`) and
# resumed from there (docs/cluster.md, "Moving a count").
# A job whose arguments hold --removed is a forward count of the decks by
# cards removed (`count --removed --store`, docs/removed.md; issue 43): run A
# on 2 threads at the default split (3 removals deep), run B under mpirun -np
# 2 x 1 thread at --split 4; stores, results, sessions and progress documents
# as a count job's.
# EULERDECK_RUNS (default /var/tmp/eulerdeck-runs) moves everything
# elsewhere, e.g. to try the queue on a test job (named, they run; unnamed,
# never): EULERDECK_RUNS=/tmp/q EULERDECK=build/eulerdeck \
#   scripts/record_queue.sh removed-mousetrap-s1-m11
set -u
ONLY=("$@")
PROGRESS=${EULERDECK_PROGRESS:-}
# The recorded results (docs/data beside the progress documents): a job whose
# result is there (NAME.csv of a count, NAME.json of a stored run) is done,
# and is not run again on a machine handed back fresh.
DATA=${PROGRESS:+$(dirname "$PROGRESS")}
R=${EULERDECK_RUNS:-/var/tmp/eulerdeck-runs}
# A copy of the binary, so that rebuilding the tree never changes a running job.
E=${EULERDECK:-$R/bin/eulerdeck}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
log() { echo "$(date -u +%FT%TZ) $*" >> "$R/queue.log"; }
# To stop the queue: pkill -TERM -f record_queue.sh (or queue.sh, the copy
# it runs from) and pkill -TERM -f "eulerdeck count": the count commits what
# it finished and the next start resumes it (an `eulerdeck import` stopped
# on the way leaves no store, and the next start imports again).
# A queue stopped so (or by Ctrl-C) writes its session's last beat as it
# exits, so that the session's wall time loses nothing.
BEAT="" SESS=""
trap '[ -n "$BEAT" ] && kill "$BEAT" 2>/dev/null; [ -n "$SESS" ] && sed -i "\$s/ .*/ $(date +%s)/" "$SESS"' EXIT

# The store's kind: "removed" when the job's arguments hold --removed.
kind_of() {
  local a
  for a in "$@"; do [ "$a" = --removed ] && { echo removed; return; }; done
  echo count
}

job() {  # job NAME ARGS...
  local name=$1; shift
  if [ ${#ONLY[@]} -gt 0 ] && [[ " ${ONLY[*]} " != *" $name "* ]]; then return 0; fi
  if [ -n "$DATA" ] && [ -s "$DATA/$name.csv" ] && ! ls "$R/stores/$name-"? >/dev/null 2>&1; then
    log "skip $name: recorded in $DATA/$name.csv"; return 0
  fi
  local kind
  kind=$(kind_of "$@")
  for variant in A B; do
    local out="$R/results/$name-$variant.json"
    [ -s "$out" ] && continue
    local store="$R/stores/$name-$variant"
    if [ -n "$PROGRESS" ] && [ ! -e "$store" ] && [ -s "$PROGRESS/$name-$variant.json" ]; then
      mkdir -p "$R/sessions"
      if "$E" import --progress "$PROGRESS/$name-$variant.json" --store "$store" >> "$R/queue.log" 2>> "$R/queue.err"; then
        log "imported $name-$variant from $PROGRESS/$name-$variant.json"
        [ -s "$PROGRESS/$name-$variant.sessions" ] && cp "$PROGRESS/$name-$variant.sessions" "$R/sessions/$name-$variant"
      else
        log "import of $name-$variant failed"; exit 1
      fi
    fi
    local cmd
    if [ "$kind" = removed ] && [ "$variant" = A ]; then
      # count --removed has no forecast, so no --force; the default split
      # (3 removals deep).
      cmd=("$E" count "$@" --store "$store" --threads 2 --json -q)
    elif [ "$kind" = removed ]; then
      # Another split than A's: 4 removals deep (other tasks, other order).
      cmd=(mpirun --oversubscribe -np 2 "$E" count "$@" --store "$store" --split 4 --threads 1 --json -q)
    elif [ "$variant" = A ]; then
      # --force: an unattended queue must not stop on a forecast of more
      # than a day (a loaded machine slows the rate the forecast measures);
      # binaries from before the forecast do not know the option.
      local force=()
      "$E" count --help 2>&1 | grep -q -- --force && force=(--force)
      cmd=("$E" count "$@" --store "$store" --threads 2 "${force[@]}" --json -q)
    else
      # Another split than A's: the first level with at least as many
      # sub-decks as the level above A's split (so B splits there or
      # higher), or, if A split at level 1, one more than A's split level.
      local target
      target=$("$E" status --store "$R/stores/$name-A" --json | python3 -c '
import json, sys
j = json.load(sys.stdin)
d = j["count"]["split_level"]
n = {l["level"]: int(l["winning_sub_decks"]) for l in j["levels"]}
print(n[d - 1] if d > 1 else n[d] + 1)')
      cmd=(mpirun --oversubscribe -np 2 "$E" count "$@" --store "$store" --subtrees "$target" --threads 1 --json -q)
    fi
    # A store whose every subtree is counted (a finished run's store made
    # again from its progress document, or a count killed after its last
    # batch) only sums its batches: that is no session of the run.
    local counted=0
    # (A removed store: every task of its plan counted.)
    if [ -e "$store" ] && "$E" status --store "$store" --json 2>/dev/null | python3 -c '
import json, sys
j = json.load(sys.stdin)
if j.get("kind") == "removed":
    c = j["removed_count"]
    sys.exit(0 if c["tasks"] > 0 and c["tasks_counted"] == c["tasks"] else 1)
c = j["count"]
sys.exit(0 if c["subtrees"] > 0 and c["subtrees_counted"] == c["subtrees"] else 1)'; then
      counted=1
    fi
    local t0=$(date +%s.%N)
    mkdir -p "$R/sessions"
    local sess="$R/sessions/$name-$variant"
    local beat=""
    if [ "$counted" = 1 ]; then
      log "finish $name-$variant (every $([ "$kind" = removed ] && echo task || echo subtree) counted already; no session): ${cmd[*]}"
    else
      log "start $name-$variant: ${cmd[*]}"
      # The wall time of every session, even one killed with the machine:
      # "start last-beat" lines, the last rewritten every 30 s.
      echo "${t0%.*} ${t0%.*}" >> "$sess"
      # (Without the queue's lock: a beat left over from a killed queue
      # must not keep the next one from starting.)
      ( while sleep 30; do sed -i "\$s/ .*/ $(date +%s)/" "$sess"; done ) 9>&- &
      beat=$!
      BEAT=$beat SESS=$sess
    fi
    local rc=0
    "${cmd[@]}" > "$out.partial" 2>> "$R/queue.err" || rc=$?
    # The session's last beat, once and for all (no session: no beat).
    if [ -n "$beat" ]; then
      kill "$beat" 2>/dev/null
      sed -i "\$s/ .*/ $(date +%s)/" "$sess"
      BEAT="" SESS=""
    fi
    if [ "$rc" -eq 0 ]; then
      mv "$out.partial" "$out"
      # The winning decks (a removed count: its last column, and the total
      # of its row, the decks).
      log "done  $name-$variant in $(python3 -c "print(round($(date +%s.%N)-$t0,1))") s: $(python3 -c "
import json
j = json.load(open('$out'))
r = j.get('removed')
print(j['winning_decks'] if r is None else
      f'{r[-1]} (last column of {len(r)}; total {sum(int(x) for x in r)} decks)')")"
    else
      log "stop  $name-$variant after $(python3 -c "print(round($(date +%s.%N)-$t0,1))") s (rc $rc)"
      exit 1
    fi
  done
}

# run_logged NAME OUT CMD...: runs CMD (its JSON to OUT once it succeeds),
# logging its start, and its end with its time and, for a reform search, its
# best (a contest: its score); a failure stops the queue.
run_logged() {
  local name=$1 out=$2
  shift 2
  local t0=$(date +%s.%N) rc=0
  log "start $name: $*"
  "$@" > "$out.partial" 2>> "$R/queue.err" || rc=$?
  local took=$(python3 -c "print(round($(date +%s.%N)-$t0,1))")
  if [ "$rc" -ne 0 ]; then
    log "stop  $name after $took s (rc $rc)"
    exit 1
  fi
  mv "$out.partial" "$out"
  log "done  $name in $took s$(python3 -c "
import json, sys
j = json.load(open(sys.argv[1]))
if j.get('contest'):
    print(f': score {j[\"score\"]:.3f} of {2 * j[\"categories\"]}')
elif 'length' in j:
    print(f': length {j[\"length\"]} ({\"cyclic\" if j[\"cyclic\"] else \"dead-end\"})')
" "$out")"
}

# search NAME ARGS...: one run of `eulerdeck reform-search ARGS --store` on 2
# threads (issue 44: a search is not repeated with another split; its best
# deck is checked by replaying it). The store's documents (reform-search.json,
# one per category of a --contest) are its progress: record_save.sh copies
# them to $PROGRESS/NAME/, and a machine handed back fresh starts from there.
search() {
  local name=$1; shift
  if [ ${#ONLY[@]} -gt 0 ] && [[ " ${ONLY[*]} " != *" $name "* ]]; then return 0; fi
  local out="$R/results/$name.json"
  [ -s "$out" ] && return 0
  local store="$R/stores/$name"
  if [ -n "$PROGRESS" ] && [ ! -e "$store" ] && [ -d "$PROGRESS/$name" ]; then
    mkdir -p "$store" && cp -r "$PROGRESS/$name/." "$store/" &&
      log "restored $name from $PROGRESS/$name"
  fi
  run_logged "$name" "$out" "$E" reform-search "$@" --store "$store" --threads 2 --json -q
}

# rstats NAME ARGS...: the reform statistics `eulerdeck reform-stats ARGS
# --store` (issue 44, part 3), twice: A at the default split, B at
# --subtrees 30000 (as scripts/reform_queue.sh's variants), 2 threads each.
# Their stores are count stores: record_save.sh exports their progress
# documents as a count's, and a missing store is imported from one.
rstats() {
  local name=$1; shift
  if [ ${#ONLY[@]} -gt 0 ] && [[ " ${ONLY[*]} " != *" $name "* ]]; then return 0; fi
  for variant in A B; do
    local out="$R/results/$name-$variant.json"
    [ -s "$out" ] && continue
    local store="$R/stores/$name-$variant"
    if [ -n "$PROGRESS" ] && [ ! -e "$store" ] && [ -s "$PROGRESS/$name-$variant.json" ]; then
      "$E" import --progress "$PROGRESS/$name-$variant.json" --store "$store" >> "$R/queue.log" 2>> "$R/queue.err" &&
        log "imported $name-$variant from $PROGRESS/$name-$variant.json"
    fi
    local extra=()
    [ "$variant" = B ] && extra=(--subtrees 30000)
    run_logged "$name-$variant" "$out" \
      "$E" reform-stats "$@" --store "$store" "${extra[@]}" --threads 2 --json -q
  done
}

# stored NAME ARGS...: one stored run, `eulerdeck run ARGS --store` (every
# level of winning sub-decks kept in the frontier store, docs/storage_format.md),
# on 2 threads, --force (an unattended queue must not stop on a forecast of
# more than a day). Resumable as the others: started again on its store, `run`
# continues from its last checkpoint, and it refuses to start a pass that
# would not fit on the disk (CheckFreeSpace). It has no progress document:
# `export --progress` is a count store's, and a run's progress is its levels
# (tens of GB), so record_save.sh skips it (its kind is neither count nor
# removed) and a machine handed back fresh starts it over. Its result,
# results/NAME.json, is the store's status (`run --json`); NAME has no -A/-B,
# so record_results.py, which pairs runs A and B of a count, leaves it alone.
stored() {
  local name=$1; shift
  if [ ${#ONLY[@]} -gt 0 ] && [[ " ${ONLY[*]} " != *" $name "* ]]; then return 0; fi
  local out="$R/results/$name.json"
  [ -s "$out" ] && return 0
  if [ -n "$DATA" ] && [ -s "$DATA/$name.json" ] && [ ! -e "$R/stores/$name" ]; then
    log "skip $name: recorded in $DATA/$name.json"; return 0
  fi
  run_logged "$name" "$out" "$E" run "$@" --store "$R/stores/$name" --threads 2 --force --json -q
}

mkdir -p "$R/results" "$R/stores"
# One queue at a time: a second would be refused by the store's lock, but
# only after adding a session line of its own to the running job's.
exec 9>"$R/queue.lock"
if ! flock -n 9; then
  echo "record_queue: another queue runs in $R" >&2
  exit 2
fi
log "queue start (pid $$, binary $(readlink -f "$E"))"
# Shortest first, bold cells of issue 14 before the others. The times are
# one run's, on 2 threads: the first eight from smaller sizes, the rest from
# `count`'s forecast (docs/estimates.md) with the machine otherwise idle
# (2026-11-24).
job mousetrap-s2-m9 --game mousetrap --ranks 9 --suits 2      # ~8 min
job hlm-s2-m16 --game hlm --ranks 16 --suits 2                # ~23 min
job modular-s1-m14 --game modular --ranks 14                  # ~29 min
job mousetrap-s1-m16 --game mousetrap --ranks 16              # ~31 min (published)
job modular-s2-m8 --game modular --ranks 8 --suits 2          # ~32 min
job mousetrap-s3-m7 --game mousetrap --ranks 7 --suits 3      # ~33 min
job hlm-s3-m10 --game hlm --ranks 10 --suits 3                # ~40 min
job modular-s3-m6 --game modular --ranks 6 --suits 3          # ~48 min
job modular-s4-m5 --game modular --ranks 5 --suits 4          # ~79 min
job modular-s1-m15 --game modular --ranks 15                  # ~2.7 h
job mousetrap-s1-m17 --game mousetrap --ranks 17              # ~4.0 h
job hlm-s4-m8 --game hlm --ranks 8 --suits 4                  # ~6.3 h
# Forward modular n = 14 (issue 43): both runs finished (docs/results.md);
# their progress documents stay in docs/data/progress, so the job is a no-op
# where its results are kept.
job removed-modular-s1-m14 --removed --game modular --ranks 14       # ~0.6-1.2 h idle (2-4 h loaded)
# The reform-search contest (issue 44, part 4): every category 20 minutes on
# 2 threads (~8.5 h); the long basins of modular 17 and 19 after the reform
# statistics of modular 13 (part 3).
# Then the reform statistics of modular 13, whose proven optimum the
# search's test needs (both runs started on a device: docs/data/progress).
search reform-contest --contest --seconds 1200                      # ~8.5 h
rstats rstats-modular-13 --game modular --ranks 13                  # ~6 h a run
search reform-search-modular-17 --game modular --ranks 17 --hours 4 # 4 h
search reform-search-modular-19 --game modular --ranks 19 --hours 4 # 4 h
job mousetrap-s4-m6 --game mousetrap --ranks 6 --suits 4      # ~3.4 h
job mousetrap-s2-m10 --game mousetrap --ranks 10 --suits 2    # ~7.2 h
# The forward counts of issue 43, part 2 (count --removed, by cards removed),
# after the backward ones; one run's forecast (docs/results.md, "Forward runs
# queued (issue 43)").
job removed-mousetrap-s1-m16 --removed --game mousetrap --ranks 16   # ~0.5-0.8 h idle (1.6-2.5 h loaded)
job removed-mousetrap-s1-m17 --removed --game mousetrap --ranks 17   # A: ~26 h idle at 114a1a0 (19 h left at 707 tasks), B ~13 h
job removed-modular-s1-m15 --removed --game modular --ranks 15       # ~9-28 h idle (31-94 h loaded)
# The reform statistics of mousetrap 17 (issue 44, part 3: A007712(17),
# A055459(17), A067950(17) and the longest sequence): n = 16 took about
# 4 h of one core a run, 17 about ten times that.
rstats rstats-mousetrap-17 --game mousetrap --ranks 17               # ~20 h a run on 2 threads
# The stored run of hlm s = 2 m = 16 (issue 57): every level of the tree whose
# last level holds the 7,067,807,427 winning decks of docs/results.md. Its
# forecast (2026-11-28, docs/performance.md beside the modular 13 table):
# ~6.5e10 sub-decks (95%: 4.5e10 .. 8.4e10), ~48 GiB of disk, ~8.9 h on 2
# threads; 79 GiB were free.
stored run-hlm-s2-m16 --game hlm --ranks 16 --suits 2 --memory-budget 256MiB   # ~9 h
# Modular 14 stored in full (issue 57, item 5: the largest stored run these
# disks hold): 8.02e10 sub-decks (docs/data/modular-s1-m14.csv), about
# 60-65 GB at modular 13's bytes an entry, with 79 GB free. Refused by the
# extrapolation's free-space check before 3d1ae8b (124 GiB asked for levels
# 12-14); now the forecast of the levels decides (docs/performance.md).
# Ran 2026-11-29 (26 min 30 s, 58.6 GB): docs/data/run-modular-s1-m14.json.
stored run-modular-s1-m14 --game modular --ranks 14 --memory-budget 256MiB   # ~27 min
# Test jobs of seconds, to try the queue (kill, resume, export, import,
# record_results.py) in a scratch EULERDECK_RUNS: they run only when named.
if [ ${#ONLY[@]} -gt 0 ]; then
  job removed-mousetrap-s1-m11 --removed --game mousetrap --ranks 11   # seconds
  job removed-mousetrap-s1-m14 --removed --game mousetrap --ranks 14   # a minute or two
  job removed-modular-s1-m10 --removed --game modular --ranks 10
  job mousetrap-s1-m9 --game mousetrap --ranks 9
  search reform-search-test --game modular --ranks 12 --seconds 4
  rstats rstats-modular-9 --game modular --ranks 9
  stored run-mousetrap-s1-m9 --game mousetrap --ranks 9 --memory-budget 64MiB
fi
log "queue finished"
