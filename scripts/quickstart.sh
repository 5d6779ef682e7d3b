#!/usr/bin/env bash
# Quick start, command 1: install the dependencies (Debian 12 packages), build
# Release into ./build, install it, and run the main job on its built-in
# default.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)"
# Install the binaries, man pages and bash completion: /usr/local as root,
# ~/.local otherwise (README.md, "Installing").
prefix=/usr/local
if [ "$(id -u)" -ne 0 ]; then prefix="$HOME/.local"; fi
cmake --install build --prefix "$prefix" >/dev/null
echo "installed eulerdeck, cardlab, their man pages and completion under $prefix"
echo
echo "== eulerdeck run --game mousetrap --ranks 11 --store runs/mousetrap-11"
echo "   (every level of winning sub-decks stored in RocksDB; A007709, n = 11: 449,719)"
./build/eulerdeck run --game mousetrap --ranks 11 --store runs/mousetrap-11
