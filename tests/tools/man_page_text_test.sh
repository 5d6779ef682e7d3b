#!/usr/bin/env bash
# The man pages read as the help texts do (issue 58, B2), rendered by
# `man -l` in a UTF-8 locale:
# - every command of the top help ("commands:") starts its own line in
#   DESCRIPTION, never run into one paragraph with the next (help2man makes
#   a tagged paragraph only of a name followed by two blanks or more);
# - the help texts' non-ASCII characters (§, ↑, ↓, ⇕) arrive as themselves,
#   never as help2man's "??" for a character its locale cannot write.
# Usage: man_page_text_test.sh BUILD_DIR
set -u
build="$1"
share="$build/share"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL: $*"; fail=1; }

# The words a help text lists under "commands:", "models:", "questions:" or
# "modes:" (as scripts/man_include.sh finds the sections of the page).
subcommands() {
  "$@" --help | awk '/^(commands|models|questions|modes):$/ { s = 1; next }
                     s && !/^  / { s = 0 }
                     s && /^  [a-z]/ { print $1 }'
}
# helps TOOL WORDS...: the help of TOOL WORDS and of everything below it.
helps() {
  "$@" --help
  local sub
  for sub in $(subcommands "$@"); do helps "$@" "$sub"; done
}

if ! command -v help2man >/dev/null || ! command -v man >/dev/null; then
  echo "man_page_text_test: help2man or man missing: the man pages are not built"
  exit 77
fi
export LC_ALL=C.UTF-8 MANWIDTH=80
for tool in eulerdeck cardlab; do
  page="$share/man/man1/$tool.1"
  [ -s "$page" ] || { bad "no man page $page"; continue; }
  man -l "$page" >"$tmp/$tool.txt" 2>/dev/null || bad "man -l $page failed"
  # No "??" anywhere: help2man writes one for each byte it cannot convert.
  if grep -n '??' "$tmp/$tool.txt" >"$tmp/q"; then
    bad "$tool.1 has '??' (a character lost): $(head -2 "$tmp/q")"
  fi
  # Each non-ASCII character of the help texts is in the page as itself.
  helps "$build/$tool" >"$tmp/$tool.help"
  for ch in $(grep -o -P '[^\x00-\x7f]' "$tmp/$tool.help" | sort -u); do
    grep -q -F "$ch" "$tmp/$tool.txt" || bad "$tool.1 lacks '$ch', which its help texts hold"
  done
  # DESCRIPTION: each command of the top help starts a line of its own.
  sed -n '/^DESCRIPTION/,/^[A-Z]/p' "$tmp/$tool.txt" >"$tmp/$tool.desc"
  for command in $(subcommands "$build/$tool"); do
    grep -qE "^ +$command( |\$)" "$tmp/$tool.desc" ||
      bad "$tool.1: '$command' does not start a line of DESCRIPTION (run into the one before?)"
  done
done
# The characters this test is about are there to be checked (Alfthan's
# arrows in cardlab memory combinatorial, Bersani's § in eulerdeck count).
grep -q '⇕' "$tmp/cardlab.help" 2>/dev/null || bad "cardlab's help holds no ⇕ (test out of date?)"
grep -q '§' "$tmp/eulerdeck.help" 2>/dev/null || bad "eulerdeck's help holds no § (test out of date?)"
[ "$fail" = 0 ] && echo "man_page_text_test: ok"
exit "$fail"
