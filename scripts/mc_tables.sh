#!/usr/bin/env bash
# Reproduces the [MC] entries of Bersani's Tables 4 and 5 and some of Table
# 1's best hlm scores with cardlab mc, printing markdown rows for
# docs/montecarlo.md. Each row's command is given in full.
#   scripts/mc_tables.sh [BUILD_DIR]
set -euo pipefail
C="${1:-build}/cardlab"

row="$(dirname "$0")/mc_row.py"

estimate() {  # estimate GAME M S DECKS PRINTED
  local cmd="cardlab mc --game $1 --ranks $2 --suits $3 --decks $4 --seed 1"
  "$C" mc --game "$1" --ranks "$2" --suits "$3" --decks "$4" --seed 1 --json 2>/dev/null |
    python3 "$row" estimate "$5" "$cmd"
}

best() {  # best M S DECKS PRINTED_BEST
  local cmd="cardlab mc --game hlm --ranks $1 --suits $2 --decks $3 --seed 1 --best-only"
  "$C" mc --game hlm --ranks "$1" --suits "$2" --decks "$3" --seed 1 --best-only --json 2>/dev/null |
    python3 "$row" best "$4" "$cmd"
}

echo "| game | m | s | printed [MC] | estimate | 95% interval (Wilson) | same at the printed digits | printed value in the interval | command |"
echo "|---|---|---|---|---|---|---|---|---|"
# Table 5 (modular): two significant digits printed; 4 million decks give a
# half-width of about 0.0005.
for entry in 5,4,0.49 6,3,0.23 6,4,0.22 7,3,0.49 7,4,0.46 8,2,0.24 8,3,0.22 8,4,0.21 \
             9,2,0.31 9,3,0.28 9,4,0.27 10,2,0.20 10,3,0.18 10,4,0.18 11,2,0.53 11,3,0.48 \
             11,4,0.45 12,2,0.085 12,3,0.077 12,4,0.073 13,2,0.53 13,3,0.48 13,4,0.45; do
  IFS=, read -r m s p <<<"$entry"
  estimate modular "$m" "$s" 4000000 "$p"
done
# Table 4 (mousetrap): the entries above 1e-5, 10^8 decks each.
for entry in 9,2,0.00053 10,2,0.00022 11,2,0.000083 12,2,0.000036 13,2,0.000013 \
             7,3,0.00016 8,3,0.000046 9,3,0.000010 6,4,0.000070; do
  IFS=, read -r m s p <<<"$entry"
  estimate mousetrap "$m" "$s" 100000000 "$p"
done
echo
echo "| m | s | Table 1 best | best found | decks | a deck reaching it | command |"
echo "|---|---|---|---|---|---|---|"
for entry in 5,3,43 5,4,58 6,2,40 6,3,61 7,2,54; do
  IFS=, read -r m s b <<<"$entry"
  best "$m" "$s" 200000000 "$b"
done
