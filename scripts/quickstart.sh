#!/usr/bin/env bash
# Quick start, command 1: install the dependencies (Debian 12 packages), build
# Release into ./build, and run the main job on its built-in default.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)"
echo
echo "== eulerdeck count --game mousetrap --ranks 12  (OEIS A007709, n = 12: 3674670)"
./build/eulerdeck count --game mousetrap --ranks 12
