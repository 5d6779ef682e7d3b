# Sourced by the shell tests of resumable counts, after wait_for.sh.
#
# progress EULERDECK STORE: prints "COUNTED TOTAL COMPLETE" for the count
# store STORE (subtrees committed, subtrees in its split, 1 when it is
# complete); "0 0 0" while there is no store yet.
progress() {
  # awk, not a python start-up (a quarter of a second here), which would
  # let a small count finish between two looks.
  "$1" status --store "$2" 2>/dev/null | awk '
    $1 == "state" { complete = ($2 == "complete") }
    $1 == "subtrees" || $1 == "tasks" { gsub(",", ""); counted = $2; total = $4 }
    END { print counted + 0, total + 0, complete + 0 }'
}

# kill_counting EULERDECK STORE PID ATTEMPT [PATTERN]: SIGKILLs the count
# PID writing STORE at a random moment while it works, and checks that it
# was one: a kill that lands after the count has finished tests nothing.
# Every third attempt dies 0-0.3 s after its start (opening the store,
# splitting, resuming, or counting already); the others 0-0.2 s after they
# have committed subtrees of their own.
# PATTERN (mpirun's ranks): processes matching it are killed too, before
# the store is looked at. Returns 1, with a line naming the store's last
# component, when PID ended before its kill or left the store complete (the
# case is then too small for the kills).
#
# The wait asks `status` only when a new table file has appeared: a reader
# opening the store while a writer commits every few ms retries until the
# files it was told of hold still, up to a second and a half.
kill_counting() {
  local e=$1 store=$2 pid=$3 attempt=$4 pattern=${5:-} rc after
  _kc_e=$e _kc_store=$store _kc_marker="$store.attempt"
  touch "$_kc_marker"
  # What the attempts before left committed, read after their kill (no
  # `status` here, against a writer that is opening the store).
  [ "$store" = "${_kc_last_store:-}" ] || _kc_before=0
  if ((attempt % 3 == 2)); then
    sleep "$(printf '0.%03d' $((RANDOM % 300)))"
  else
    wait_for "$pid" _kc_committed
    sleep "$(printf '0.%03d' $((RANDOM % 200)))"
  fi
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  rc=$?
  if [ -n "$pattern" ]; then
    pkill -9 -f "$pattern" 2>/dev/null
    for _ in $(seq 1 200); do
      pgrep -f "$pattern" >/dev/null || break
      sleep 0.01
    done
  fi
  rm -f "$_kc_marker"
  after=$(progress "$e" "$store")
  _kc_last_store=$store _kc_before=${after%% *}
  if [ "$rc" -ne 137 ] || [ "${after##* }" -ne 0 ]; then
    echo "FAIL (${store##*/}): attempt $attempt ended (exit $rc; subtrees counted, total, complete: $after) before its kill: too small a case"
    return 1
  fi
}
_kc_committed() {
  [ -n "$(find "$_kc_store" -name '*.sst' -newer "$_kc_marker" -print -quit 2>/dev/null)" ] ||
    return 1
  touch "$_kc_marker"
  local p
  p=$(progress "$_kc_e" "$_kc_store")
  [ "${p%% *}" -gt "$_kc_before" ]
}
