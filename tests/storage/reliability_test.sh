#!/usr/bin/env bash
# Reliability of the frontier store against an unlucky operator (issue 12):
#  1. a crash between a level's commit and the drop --keep asks for, for every
#     --keep, resumed by a plain `resume` (the policy is the store's);
#  2. kills in the first milliseconds of a run (the store's creation);
#  3. a refused run leaves every file of the store as it was;
#  4. a store whose CURRENT file was lost is refused, not overwritten;
#  5. verify sees a damaged table-file footer and checks the level in progress;
#  6. a MANIFEST cut short never reads as an older state (issue 42, A3);
#  7. a run killed 150-300 ms after its start reads as interrupted, never as
#     stopped where --until-level would stop it (A5);
#  8. a directory of other files is "not an eulerdeck store", exit 2, and
#     stays as it was (A8);
#  9. whatever damage verify finds in a table file, resume refuses too
#     (exit 1, one line) before writing (A4);
# 10. a byte flipped in a table file of a count --removed store or a count
#     store: status, list and export --progress either report the damage
#     (exit 1, one line) or show the store as it is, never an older state
#     (issue 51, A1);
# 11. a reform-search store given to verify, export, inspect, count and run
#     is named as one, with the commands that read it (A4);
# 12. export to a full standard output says so once (A5).
# (Disk full, concurrent readers and power cuts have their own tests.)
# Usage: reliability_test.sh BUILD_DIR [--long]
set -u
E="$1/eulerdeck"
LONG=0
[ "${2:-}" = "--long" ] && LONG=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
GAME=(--game mousetrap --ranks 9)

# levels_of STORE: "level entries blocks stored_bytes checksum kept" per line.
levels_of() {
  "$E" status --store "$1" --json | python3 -c '
import json, sys
j = json.load(sys.stdin)
assert j["complete"], "store is not complete"
print("keep", j["keep"])
for l in j["levels"]:
    print(l["level"], l["winning_sub_decks"], l["blocks"], l["stored_bytes"], l["checksum"], l["kept"])'
}

# files_of STORE: every file's name, size and modification time.
files_of() { (cd "$1" && find . -type f -printf '%p %s %T@\n' | sort); }

# 1. Killed right after a commit, before the drop of the level below.
for keep in all last none; do
  "$E" run "${GAME[@]}" --store "$tmp/ref-$keep" --keep "$keep" >/dev/null 2>&1
  ref=$(levels_of "$tmp/ref-$keep")
  for at in 1 4 8; do
    store="$tmp/commit-$keep-$at"
    { (EULERDECK_CRASH_AT="after-commit:$at" exec "$E" run "${GAME[@]}" --store "$store" \
        --keep "$keep" --checkpoint-seconds 0 >/dev/null 2>&1); } 2>/dev/null
    "$E" resume --store "$store" >/dev/null 2>"$tmp/err" || { echo "FAIL (after-commit:$at, --keep $keep): resume: $(cat "$tmp/err")"; fail=1; continue; }
    got=$(levels_of "$store" 2>&1)
    if [ "$got" != "$ref" ]; then
      echo "FAIL (after-commit:$at, --keep $keep): differs from an uninterrupted run"
      diff <(echo "$ref") <(echo "$got") | head -4; fail=1
    fi
    "$E" verify --store "$store" >/dev/null 2>&1 || { echo "FAIL (after-commit:$at, --keep $keep): verify"; fail=1; }
  done
done
# A policy given to resume becomes the store's, and is said on stderr.
"$E" resume --store "$tmp/commit-all-1" --keep last >/dev/null 2>"$tmp/err"
if ! grep -q "policy changes from all to last" "$tmp/err" || [ "$(levels_of "$tmp/commit-all-1")" != "$(levels_of "$tmp/ref-last")" ]; then
  echo "FAIL (resume --keep last on an all store): $(cat "$tmp/err")"; fail=1
fi

# 2. Kills in the first milliseconds: afterwards there is either no store
# (and `resume` says so) or a store that `resume` finishes; `run` with the
# same arguments always finishes it.
trials=$([ "$LONG" -eq 1 ] && echo 60 || echo 12)
ref=$(levels_of "$tmp/ref-all")
for i in $(seq 1 "$trials"); do
  store="$tmp/early-$i"
  "$E" run "${GAME[@]}" --store "$store" >/dev/null 2>&1 &
  pid=$!
  sleep "0.0$(( RANDOM % 5 ))$(( RANDOM % 10 ))"
  { kill -9 "$pid"; wait "$pid"; } 2>/dev/null
  if [ -e "$store/CURRENT" ]; then
    "$E" resume --store "$store" >/dev/null 2>"$tmp/err" || { echo "FAIL (early kill $i): resume: $(cat "$tmp/err")"; fail=1; continue; }
  else
    "$E" resume --store "$store" >/dev/null 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ]; then echo "FAIL (early kill $i, no store): resume rc=$rc $(cat "$tmp/err")"; fail=1; fi
    "$E" run "${GAME[@]}" --store "$store" >/dev/null 2>"$tmp/err" || { echo "FAIL (early kill $i): run: $(cat "$tmp/err")"; fail=1; continue; }
  fi
  [ "$(levels_of "$store" 2>&1)" = "$ref" ] || { echo "FAIL (early kill $i): differs"; fail=1; }
  if ls -A "$tmp" | grep -q "^\.early-$i\.creating"; then echo "FAIL (early kill $i): creation directory left behind"; fail=1; fi
done

# 3. A refused run (another game, another size) touches nothing.
before=$(files_of "$tmp/ref-all")
for args in "--game hlm --ranks 5 --suits 2" "--game mousetrap --ranks 8" "--game modular --ranks 9"; do
  # shellcheck disable=SC2086
  "$E" run $args --store "$tmp/ref-all" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ "$rc" -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] || [ -s "$tmp/out" ] || [ "$(files_of "$tmp/ref-all")" != "$before" ]; then
    echo "FAIL (refused run $args): rc=$rc $(cat "$tmp/err")"; fail=1
  fi
done

# 4. CURRENT lost: run and resume refuse (exit 1, one line), nothing written.
cp -r "$tmp/ref-all" "$tmp/nocurrent"
rm "$tmp/nocurrent/CURRENT"
before=$(files_of "$tmp/nocurrent")
for cmd in "run ${GAME[*]}" "resume" "status" "verify"; do
  # shellcheck disable=SC2086
  "$E" $cmd --store "$tmp/nocurrent" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ "$rc" -ne 1 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -q "CURRENT file is lost" "$tmp/err" || [ "$(files_of "$tmp/nocurrent")" != "$before" ]; then
    echo "FAIL (lost CURRENT, $cmd): rc=$rc $(cat "$tmp/err")"; fail=1
  fi
done

# 5. verify: every byte of a table file's footer, and the level in progress.
for off in 1 9 13 20 30 43 48; do
  rm -rf "$tmp/footer"; cp -r "$tmp/ref-all" "$tmp/footer"
  python3 - "$(ls -S "$tmp/footer"/*.sst | head -1)" "$off" <<'PY'
import sys
p, off = sys.argv[1], int(sys.argv[2])
b = bytearray(open(p, "rb").read())
b[len(b) - off] ^= 0x01
open(p, "wb").write(bytes(b))
PY
  "$E" verify --store "$tmp/footer" >/dev/null 2>"$tmp/err"
  rc=$?
  if [ "$rc" -ne 1 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ]; then echo "FAIL (footer byte -$off): verify rc=$rc $(cat "$tmp/err")"; fail=1; fi
done
{ (EULERDECK_CRASH_AT=after-checkpoint:5 exec "$E" run --game mousetrap --ranks 10 --store "$tmp/partial" --checkpoint-seconds 0 >/dev/null 2>&1); } 2>/dev/null
if ! "$E" verify --store "$tmp/partial" 2>&1 | grep -q "pass in progress"; then echo "FAIL (verify of the pass in progress)"; fail=1; fi

# 6. A MANIFEST cut short at every 20th byte: every reader, verify and resume
# either report the damage (exit 1, one line) or, where the cut lost nothing
# acknowledged, show the store's own levels. Never an older state.
"$E" run --game mousetrap --ranks 9 --store "$tmp/cut" --checkpoint-seconds 0 --until-level 6 >/dev/null 2>&1
levels_json() { "$E" status --store "$1" --json 2>/dev/null | python3 -c '
import json, sys
j = json.load(sys.stdin)
print(j["state"], [(l["level"], l["winning_sub_decks"]) for l in j["levels"]])'; }
whole=$(levels_json "$tmp/cut")
size=$(stat -c %s "$tmp/cut"/MANIFEST-*)
damaged=0
for cut in $(seq 200 20 $((size - 1))); do
  rm -rf "$tmp/cutx"; cp -r "$tmp/cut" "$tmp/cutx"
  truncate -s "$cut" "$tmp/cutx"/MANIFEST-*
  for cmd in status "export --counts - --partial" verify; do
    # shellcheck disable=SC2086
    "$E" $cmd --store "$tmp/cutx" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ]; then
      [ "$cmd" = status ] && damaged=$((damaged + 1))
    elif [ "$rc" -ne 0 ] || [ "$(levels_json "$tmp/cutx")" != "$whole" ]; then
      echo "FAIL (MANIFEST cut at $cut, $cmd): rc=$rc, $(levels_json "$tmp/cutx") $(cat "$tmp/err")"; fail=1
    fi
  done
  "$E" resume --store "$tmp/cutx" >/dev/null 2>"$tmp/err"
  rc=$?
  if [ "$rc" -ne 1 ] && ! { [ "$rc" -eq 0 ] && "$E" verify --store "$tmp/cutx" >/dev/null 2>&1; }; then
    echo "FAIL (MANIFEST cut at $cut, resume): rc=$rc $(cat "$tmp/err")"; fail=1
  fi
done
[ "$damaged" -gt 0 ] || { echo "FAIL (MANIFEST cut): no cut was seen as damage"; fail=1; }

# 7. Kills 150-300 ms after the start: "interrupted" (or "not started"
# when nothing was committed), never "stopped". Mousetrap 13 (about a
# second on 2 threads of a fast machine; mousetrap 12, used before, once
# finished inside 300 ms in CI): a run that ends before its kill must say
# "complete", and tests nothing more.
trials=$([ "$LONG" -eq 1 ] && echo 40 || echo 8)
for i in $(seq 1 "$trials"); do
  store="$tmp/k300-$i"
  "$E" run --game mousetrap --ranks 13 --store "$store" >/dev/null 2>&1 &
  pid=$!
  sleep "0.$(( 15 + RANDOM % 16 ))"
  { kill -9 "$pid"; wait "$pid"; } 2>/dev/null
  rc=$?
  [ -e "$store/CURRENT" ] || continue
  state=$("$E" status --store "$store" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["state"])')
  case "$rc:$state" in
    137:interrupted | "137:not started" | 0:complete) ;;
    *) echo "FAIL (killed at 150-300 ms, trial $i): exit $rc, status says '$state'"; fail=1 ;;
  esac
  rm -rf "$store"
done
# The narrowest such moment, made certain: right after level 1's commit.
{ (EULERDECK_CRASH_AT=level-one-committed:1 exec "$E" run --game mousetrap --ranks 12 --store "$tmp/k1" >/dev/null 2>&1); } 2>/dev/null
state=$("$E" status --store "$tmp/k1" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["state"])')
[ "$state" = interrupted ] || { echo "FAIL (killed right after level 1's commit): status says '$state'"; fail=1; }

# 8. A directory of other files: exit 2, "not an eulerdeck store", untouched.
mkdir "$tmp/other" && echo data >"$tmp/other/notes.txt"
before=$(files_of "$tmp/other")
for cmd in "run ${GAME[*]}" "count ${GAME[*]}" resume status verify "export --counts -"; do
  # shellcheck disable=SC2086
  "$E" $cmd --store "$tmp/other" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ "$rc" -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -q "not an eulerdeck store" "$tmp/err" || [ "$(files_of "$tmp/other")" != "$before" ]; then
    echo "FAIL (not a store, $cmd): rc=$rc $(cat "$tmp/err")"; fail=1
  fi
done

# 9. A byte flipped in each table file of an interrupted run (--keep all),
# a third of the way in: where verify finds the damage, resume refuses the
# store too, before it writes (it reads every table file whole first).
{ (EULERDECK_CRASH_AT=after-checkpoint:6 exec "$E" run --game mousetrap --ranks 11 --store "$tmp/dmg" --keep all --checkpoint-seconds 0 >/dev/null 2>&1); } 2>/dev/null
refused=0
for f in $(cd "$tmp/dmg" && ls ./*.sst); do
  rm -rf "$tmp/dmgx"; cp -r "$tmp/dmg" "$tmp/dmgx"
  python3 -c '
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
b[len(b) // 3] ^= 0x01
open(p, "wb").write(bytes(b))' "$tmp/dmgx/$f"
  "$E" verify --store "$tmp/dmgx" >/dev/null 2>&1 && continue
  "$E" resume --store "$tmp/dmgx" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ "$rc" -ne 1 ] || [ "$(grep -c . "$tmp/err")" -ne 1 ]; then
    echo "FAIL (damaged $f): verify finds it, resume rc=$rc $(cat "$tmp/err")"; fail=1
  fi
  refused=$((refused + 1))
done
[ "$refused" -gt 0 ] || { echo "FAIL (damaged table files): verify found no damage at all"; fail=1; }

# 10. Flip scan. RocksDB 7.8 lost the error of a damaged table file that an
# iterator entered while it applied range deletions, and the records of the
# rest of that file's level vanished: a removed count read as fewer tasks
# (issue 51, A1). Each reader must now report the damage (exit 1, one line)
# or show the store's own state. Stores of many small table files (a commit
# after every batch); the flips: two in each of up to 16 table files (with
# --long, every file and 12 random places in each), one in a footer's
# padding, which RocksDB does not read.
flip_scan() {  # flip_scan NAME STORE
  python3 - "$E" "$2" "$1" "$LONG" "$tmp/flipx" <<'PY'
import json, os, random, shutil, subprocess, sys
E, S, name, long_, X = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1", sys.argv[5]

def observe(d):
    seen = {}
    for reader, args in (("status", ["status", "--store", d, "--json"]),
                         ("list", ["list", d]),
                         ("export --progress", ["export", "--store", d, "--progress", "-"])):
        r = subprocess.run([E] + args, capture_output=True, text=True)
        if r.returncode == 0:
            out = r.stdout
            if reader == "status":  # all but the path and the bytes on disk
                j = json.loads(out)
                j.pop("store", None)
                j.pop("disk_bytes", None)
                out = json.dumps(j, sort_keys=True)
            if reader == "list":  # all but the path, the disk column and the
                # checkpoint's age (wall time since COMMITTED was written:
                # it grows between two readings of one store)
                words = out.replace(d, "STORE").split()
                words = [w for i, w in enumerate(words)
                         if w != "ago" and not (i + 1 < len(words) and words[i + 1] == "ago")]
                out = " ".join(w for w in words if "iB" not in w)
            seen[reader] = ("ok", out)
        elif r.returncode == 1 and r.stderr.count("\n") == 1:
            seen[reader] = ("damage", None)
        else:
            seen[reader] = ("exit %d, %d lines: %s" % (r.returncode, r.stderr.count("\n"),
                                                      r.stderr.strip()), None)
    return seen

whole = observe(S)
for reader, (kind, _) in whole.items():
    if kind != "ok":
        print("FAIL (flip scan %s): the intact store: %s %s" % (name, reader, kind))
        sys.exit(1)
files = sorted(f for f in os.listdir(S) if f.endswith(".sst"))
rng = random.Random(51)
if not long_ and len(files) > 16:
    files = [files[i * len(files) // 16] for i in range(16)]
flips = []
for f in files:
    size = os.path.getsize(os.path.join(S, f))
    if long_:
        flips += [(f, rng.randrange(size), rng.randrange(8)) for _ in range(12)]
    else:
        flips += [(f, size // 10, 0), (f, size * 3 // 10, 3)]
flips.append((files[0], os.path.getsize(os.path.join(S, files[0])) - 30, 0))
bad = damage = 0
for f, off, bit in flips:
    shutil.rmtree(X, ignore_errors=True)
    shutil.copytree(S, X)
    with open(os.path.join(X, f), "r+b") as fh:
        fh.seek(off)
        b = fh.read(1)
        fh.seek(off)
        fh.write(bytes([b[0] ^ (1 << bit)]))
    for reader, (kind, out) in observe(X).items():
        if kind == "damage":
            damage += 1
        elif kind != "ok" or out != whole[reader][1]:
            bad += 1
            print("FAIL (flip scan %s, %s byte %d bit %d): %s: %s" %
                  (name, f, off, bit, reader, "an older state" if kind == "ok" else kind))
shutil.rmtree(X, ignore_errors=True)
if damage == 0:
    print("FAIL (flip scan %s): no flip was seen as damage" % name)
    bad += 1
print("flip scan %s: %d table files, %d flips x 3 readers: %d damage reports, %d wrong" %
      (name, len(files), len(flips), damage, bad), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}
"$E" count --removed --game mousetrap --ranks 12 --store "$tmp/flip-removed" --threads 1 \
  --checkpoint-seconds 0 --batch-seconds 0.02 -q >/dev/null 2>&1
flip_scan removed "$tmp/flip-removed" || fail=1
"$E" count --game mousetrap --ranks 12 --store "$tmp/flip-count" --subtrees 2000 --threads 1 \
  --checkpoint-seconds 0.05 --batch-seconds 0.01 -q >/dev/null 2>&1
flip_scan count "$tmp/flip-count" || fail=1

# 11. A reform-search store given to the commands of stores of levels and
# counts: exit 2, one line that names it and the commands that read it,
# the store untouched (A4). Before: "not an eulerdeck store (a directory
# of other files)".
"$E" reform-search --game mousetrap --ranks 12 --seconds 1 --threads 1 --store "$tmp/search" \
  -q >/dev/null 2>&1
if [ ! -s "$tmp/search/reform-search.json" ]; then
  echo "FAIL (a reform-search store): reform-search wrote none"; fail=1
else
  before=$(files_of "$tmp/search")
  said="'$tmp/search' is a reform-search store, not a store of levels or counts: use \`eulerdeck status --store $tmp/search\` or \`eulerdeck resume --store $tmp/search\`"
  for cmd in verify "export --counts -" "export --progress -" "inspect --level 1" \
    "count ${GAME[*]}" "count --removed ${GAME[*]}" "run ${GAME[*]}"; do
    # shellcheck disable=SC2086
    "$E" $cmd --store "$tmp/search" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne 2 ] || [ "$(cat "$tmp/err")" != "eulerdeck ${cmd%% *}: $said" ] || [ -s "$tmp/out" ] ||
      [ "$(files_of "$tmp/search")" != "$before" ]; then
      echo "FAIL (a reform-search store, $cmd): rc=$rc $(cat "$tmp/err")"; fail=1
    fi
  done
fi

# 12. Standard output on a full device: export says so once, exit 1 (A5).
# Before: the line twice, from export and again from the tool's last flush.
if [ -w /dev/full ]; then
  for what in --progress --batches; do
    "$E" export --store "$tmp/flip-removed" "$what" - >/dev/full 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne 1 ] || [ "$(grep -c . "$tmp/err")" -ne 1 ] ||
      ! grep -q "^eulerdeck export: could not write the results to standard output" "$tmp/err"; then
      echo "FAIL (export $what - >/dev/full): rc=$rc $(cat "$tmp/err")"; fail=1
    fi
  done
fi

[ "$fail" -eq 0 ] && echo "reliability_test: all checks passed"
exit "$fail"
