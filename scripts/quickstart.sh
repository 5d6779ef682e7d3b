#!/usr/bin/env bash
# Quick start, command 1: install the dependencies (Debian 12 packages), build
# Release into ./build, and run the main job on its built-in default.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)"
echo
echo "== eulerdeck run --game mousetrap --ranks 11 --store runs/mousetrap-11"
echo "   (every level of winning sub-decks stored in RocksDB; A007709, n = 11: 449719)"
./build/eulerdeck run --game mousetrap --ranks 11 --store runs/mousetrap-11
