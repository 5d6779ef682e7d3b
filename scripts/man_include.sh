#!/usr/bin/env bash
# Writes the help2man --include file of one of the tools (eulerdeck, cardlab):
# a COMMANDS section holding the --help of every subcommand and of every
# sub-mode (cardlab memory solitaire, ...), found in the help texts
# themselves, then EXIT STATUS and SEE ALSO. The build runs it (tools/CMakeLists.txt):
#   scripts/man_include.sh build/eulerdeck > eulerdeck.h2m
#   help2man --include eulerdeck.h2m build/eulerdeck > eulerdeck.1
set -euo pipefail
bin="$1"
tool=$(basename "$bin")

# The words a help text lists under "commands:", "models:", "questions:" or
# "modes:".
subcommands() {
  "$bin" "$@" --help | awk '/^(commands|models|questions|modes):$/ { s = 1; next }
                            s && !/^  / { s = 0 }
                            s && /^  [a-z]/ { print $1 }'
}

# A help text as verbatim roff: trailing blanks dropped; backslashes, hyphens
# and leading dots escaped.
roff() { sed -e 's/ *$//' -e 's/\\/\\e/g' -e 's/-/\\-/g' -e "s/^[.']/\\\\\&&/"; }

# The help of "tool WORDS...", then of each of its sub-modes: verbatim, at
# the left margin, so that its 80 columns (tests/tools/cli_test.sh) fit an
# 80-column terminal.
section() {
  echo ".SS \"$tool $*\""
  echo ".in 0"
  echo ".nf"
  "$bin" "$@" --help | roff
  echo ".fi"
  echo ".in"
  local sub
  for sub in $(subcommands "$@"); do section "$@" "$sub"; done
}

# The synopsis: the top usage line, without help2man's "Usage:" (ours is
# lower case, which it does not take for a synopsis).
echo "[SYNOPSIS]"
"$bin" --help | sed -n 's/^usage: [^ ]* //p' | roff | sed "s/^/.B $tool\n/"
echo ".br"
echo ".B $tool"
echo "\\-\\-help | \\-\\-version"

echo "[COMMANDS]"
echo "Every command takes \\fB\\-\\-help\\fR; these are their help texts."
for command in $(subcommands); do section "$command"; done

other=$([ "$tool" = eulerdeck ] && echo cardlab || echo eulerdeck)
cat <<EOF
[EXIT STATUS]
.TP
.B 0
success;
.TP
.B 1
a check failed (a mismatch, a damaged store, results that could not be written);
.TP
.B 2
bad input: one line on standard error, nothing on standard output.
.TP
.B 141
standard output closed by its reader (\fB| head\fR): the command ends at
once, quietly, and leaves no partial output file (docs/output.md);
.TP
.B 130
interrupted by Ctrl-C (SIGINT): a long job stops at a consistent point,
keeps or prints what it finished and says so in one line on standard error
(a stored run or count: the command that continues it);
.TP
.B 143
the same, stopped by SIGTERM (\fBkill\fR).
[SEE ALSO]
.BR $other (1).
The project's README.md and docs/ (docs/output.md: the JSON and CSV outputs),
installed with the package in /usr/share/doc/eulerdeck/.
EOF
