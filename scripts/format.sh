#!/usr/bin/env bash
# The whole tree in the project's style (.clang-format: Google, 100 columns).
#   scripts/format.sh           reformat every C++ file in place
#   scripts/format.sh --check   change nothing; fail listing what is off
# CI runs the check (a ctest test, `format`).
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.cc' '*.h')
if [ "${1:-}" = "--check" ]; then
  clang-format --dry-run --Werror "${files[@]}"
  echo "format: ${#files[@]} files clean"
else
  clang-format -i "${files[@]}"
fi
