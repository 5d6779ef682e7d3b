#!/usr/bin/env bash
# The b-files of docs/data/bfiles/ (docs/oeis.md, "Terms past the OEIS"):
# every sequence where the project has terms past the OEIS entry, as
# `eulerdeck oeis` writes it, run from the repository root so that its
# "# Made by:" line names the file. Where a term needs a run of hours, the
# b-file stops at the last n computed here and the record runs' terms are
# added after it, each with a comment line saying where it comes from
# (A007709 and A007711, n = 16 and 17: docs/results.md's two runs of
# count --store each, docs/data/mousetrap-s1-m16.csv and -m17.csv; A028305,
# rows 14 to 17: two runs each of count --removed with different --split,
# docs/data/removed-mousetrap-s1.csv).
# tests/tools/bfiles_test.sh (ctest label slow) recomputes a prefix of each.
# Usage: scripts/oeis_bfiles.sh [BUILD_DIR] [ANUMBER ...]  (default: all)
# Times on the 2-core machine of docs/results.md, loaded: A007710 and
# A028306 a few minutes each, A007709 and A007711 a quarter of an hour each,
# A028305 (count --removed to n = 15) about half an hour.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true
E="$build/eulerdeck"
ids=("$@")
[ ${#ids[@]} -gt 0 ] || ids=(A007709 A007710 A007711 A028305 A028306)
out=docs/data/bfiles
mkdir -p "$out"

# record ID FILE N VALUE: append the record term a(N) = VALUE to FILE, with a
# comment line before it.
record() {
  local id=$1 file=$2 n=$3 value=$4 source=$5
  printf '# %s(%s): %s\n%s %s\n' "$id" "$n" "$source" "$n" "$value" >>"$file"
}
# winning N: the winning decks of mousetrap with N cards, the last level of
# docs/data/mousetrap-s1-mN.csv (docs/results.md: two runs that agree on
# every level).
winning() {
  awk -F, -v n="$1" '$1 == "mousetrap" && $2 == n && $3 == 1 && $4 == n { print $5 }' \
    "docs/data/mousetrap-s1-m$1.csv"
}

for id in "${ids[@]}"; do
  file="$out/b${id#A}.txt"
  case $id in
    A007710) "$E" oeis A007710 --to 27 --bfile "$file" 2>/dev/null ;;
    A028306) "$E" oeis A028306 --to 26 --bfile "$file" 2>/dev/null ;;
    A028305)
      "$E" oeis A028305 --to 13 --bfile "$file" 2>/dev/null
      index=$(($(grep -vc '^#' "$file")))  # the next term's index: rows 0..13 hold 105
      for n in 14 15 16 17; do
        printf '# row %s: count --removed, two runs with different --split (docs/results.md, docs/data/removed-mousetrap-s1.csv); eulerdeck oeis A028305 --to %s computes it again\n' "$n" "$n" >>"$file"
        awk -F, -v n="$n" '$1 == "mousetrap" && $2 == n && $3 == 1 && $4 == "removed" { print $5, $6 }' \
          docs/data/removed-mousetrap-s1.csv | sort -n | while read -r k decks; do
          echo "$((index + k)) $decks"
        done >>"$file"
        index=$((index + n + 1))
      done
      ;;
    A007709 | A007711)
      "$E" oeis "$id" --to 15 --bfile "$file" 2>/dev/null
      for n in 16 17; do
        w=$(winning $n)
        [ -n "$w" ] || { echo "no record of mousetrap n = $n in docs/data" >&2; exit 1; }
        if [ "$id" = A007709 ]; then
          v=$w
        else
          v=$(python3 -c "import math, sys; print(math.factorial($n) - int(sys.argv[1]))" "$w")
        fi
        record "$id" "$file" "$n" "$v" \
          "$([ "$id" = A007711 ] && echo "$n! minus ")the winning decks of docs/data/mousetrap-s1-m$n.csv: two runs of eulerdeck count --store, cut at different levels (docs/results.md); eulerdeck oeis $id --to 17 computes it again in about 6 hours on 2 threads"
      done
      ;;
    *) echo "scripts/oeis_bfiles.sh: no b-file for $id" >&2; exit 2 ;;
  esac
  echo "$file"
done
