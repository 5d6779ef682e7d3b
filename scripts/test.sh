#!/usr/bin/env bash
# Quick start, command 2: build and run the test suite with ctest.
#   scripts/test.sh           the default suite (what CI runs)
#   scripts/test.sh --slow    also the long checks labelled 'slow'
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)"
if [ "${1:-}" = "--slow" ]; then
  ctest --test-dir build --output-on-failure -j "$(nproc)"
else
  ctest --test-dir build --output-on-failure -j "$(nproc)" -LE slow
fi
