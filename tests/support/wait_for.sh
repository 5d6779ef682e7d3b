# Sourced by the shell tests. wait_for PID TEST...: runs TEST every 10 ms
# until it succeeds or process PID has ended, for at most ~10 s. A test
# that times a signal or a second command must time it from a point the
# process has reached, not from its start: on a loaded machine starting up
# and creating a store can take longer than any fixed sleep (in CI, all 25
# random kills of kill_resume once landed before the store existed).
wait_for() {
  local pid=$1
  shift
  for _ in $(seq 1 1000); do
    "$@" && return 0
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.01
  done
  return 1
}
