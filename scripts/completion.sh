#!/usr/bin/env bash
# Writes the bash completion of one of the tools (eulerdeck, cardlab) from its
# help texts, so that it never drifts from them. The build runs it
# (tools/CMakeLists.txt):  scripts/completion.sh build/eulerdeck > eulerdeck
# It completes the subcommands and sub-modes (the words listed under
# "commands:", "models:", "questions:", "modes:"), each one's long options, the values
# of an option whose help lists them ("mousetrap | modular | ..." or
# "--keep all|last|none" in the usage), directories after an option shown
# as DIR and files after one shown as FILE; options the usage names beside
# the table (count --removed); after a positional ANUMBER (oeis), the
# A-numbers its --list says are computed.
set -euo pipefail
bin="$1"
tool=$(basename "$bin")
fn="_${tool//[^a-zA-Z0-9]/_}"

subcommands() {
  "$bin" "$@" --help | awk '/^(commands|models|questions|modes):$/ { s = 1; next }
                            s && !/^  / { s = 0 }
                            s && /^  [a-z]/ { print $1 }'
}

# One line per option of "tool WORDS...": the option, then what follows it:
# nothing (a flag), @arg (a value not completed), @file, @dir or the values.
options() {
  "$bin" "$@" --help | awk '
    !body && /^$/ { body = 1 }
    !body {  # the usage and description: --opt a|b|c, --opt FILE, --opt DIR
      for (i = 1; i < NF; ++i) {
        o = $i; v = $(i + 1); sub(/^\[/, "", o); gsub(/[][]/, "", v)
        if (o !~ /^--[a-z]/) continue
        if (v ~ /^[a-z0-9-]+(\|[a-z0-9-]+)+$/) { gsub(/\|/, " ", v); hint[o] = v }
        else if (v ~ /FILE/) hint[o] = "@file"
        else if (v ~ /^DIR/) hint[o] = "@dir"
      }
      if (/^usage: /) for (i = 1; i <= NF; ++i) if ($i ~ /^(DIR|FILE)\.\.\.$|^ANUMBER$/) positional = $i
      # An option the usage names but the table does not (count --removed,
      # a mode with its own help): completed as a flag.
      for (i = 1; i <= NF; ++i) {
        o = $i; sub(/^\[/, "", o); sub(/\]$/, "", o)
        if (o ~ /^--[a-z][a-z0-9-]*$/) in_usage[o] = 1
      }
    }
    body && /^  (-[a-zA-Z] \[ )?--[a-z]/ {  # the options table
      line = $0; sub(/^  (-[a-zA-Z] \[ )?/, "", line)
      split(line, f, " "); o = f[1]
      desc = line; sub(/^--[a-z0-9-]+( \])?( arg( \(=[^)]*\))?)? */, "", desc)
      kind = ""
      if (line ~ /^--[a-z0-9-]+ arg/) kind = "@arg"
      if (kind != "" && desc ~ /^[a-z0-9-]+( \| [a-z0-9-]+)+$/) { kind = desc; gsub(/ \| /, " ", kind) }
      if (kind != "" && desc ~ /^[a-z0-9-]+(, [a-z0-9-]+)+$/) { kind = desc; gsub(/, /, " ", kind) }
      if (kind == "@arg" && (o in hint)) kind = hint[o]
      print o, kind
      listed[o] = 1
    }
    END {
      for (o in in_usage) if (!(o in listed) && o != "--help") print o
      if (positional ~ /^DIR/) print "@words @dir"
      else if (positional == "ANUMBER") print "@words @anumber"
      else if (positional != "") print "@words @file"
    }'
}

# The values of a positional ANUMBER (eulerdeck oeis): the sequences that
# "tool WORDS... --list" says are computed.
anumbers() { "$bin" "$@" --list | awk '$2 == "computed" { print $1 }' | tr '\n' ' ' | sed 's/ $//'; }

# Keys: the command so far ("eulerdeck count"), then the option for args.
declare -A subs opts args
walk() {
  local key="$tool${*:+ $*}" words option kind sub
  words=$(subcommands "$@" | tr '\n' ' ')
  if [ -n "$words" ]; then subs[$key]="${words% }"; fi
  opts[$key]=""
  while read -r option kind; do
    if [ "$option" != @words ]; then opts[$key]+="${opts[$key]:+ }$option"; fi
    if [ "$kind" = @anumber ]; then kind=$(anumbers "$@"); fi
    if [ -n "$kind" ]; then args["$key $option"]="$kind"; fi
  done < <(if [ $# -gt 0 ]; then options "$@"; fi)
  # The top level and the commands made only of sub-modes have no table.
  if [ -z "${opts[$key]}" ]; then opts[$key]="--help"; fi
  if [ $# -eq 0 ]; then opts[$key]="--help --version"; fi
  for sub in $words; do walk "$@" "$sub"; done
}
walk

# An associative array as a bash declaration, keys sorted.
dump() {
  local -n a="$1"
  local k
  echo "${fn}_$1=("
  while IFS= read -r k; do
    if [[ "$k${a[$k]}" =~ ^[a-zA-Z0-9@\ ._-]*$ ]]; then
      printf '  ["%s"]="%s"\n' "$k" "${a[$k]}"
    else
      printf '  [%q]=%q\n' "$k" "${a[$k]}"
    fi
  done < <(printf '%s\n' "${!a[@]}" | sort)
  echo ")"
}

cat <<EOF
# bash completion for $tool: generated from its --help texts by
# scripts/completion.sh at build time; do not edit.
declare -gA ${fn}_subs ${fn}_opts ${fn}_args
$(dump subs)
$(dump opts)
$(dump args)

# Completes the word at COMP_CWORD: a subcommand or sub-mode, an option's
# value (after "--opt" or "--opt="), or an option of the command so far.
$fn() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev="" path=$tool i=1
  while (( i < COMP_CWORD )) && [[ " \${${fn}_subs[\$path]-} " == *" \${COMP_WORDS[i]} "* ]]; do
    path+=" \${COMP_WORDS[i]}"
    (( ++i ))
  done
  if (( i == COMP_CWORD )) && [[ -n \${${fn}_subs[\$path]-} && \$cur != -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "\${${fn}_subs[\$path]}" -- "\$cur")
    return
  fi
  (( COMP_CWORD > 1 )) && prev=\${COMP_WORDS[COMP_CWORD-1]}
  if [[ \$cur == = ]]; then
    cur=""
  elif [[ \$prev == = ]]; then
    prev=\${COMP_WORDS[COMP_CWORD-2]}
  fi
  local kind=\${${fn}_args["\$path \$prev"]-}
  if [[ -z \$kind && \$cur != -* ]]; then kind=\${${fn}_args["\$path @words"]-}; fi
  case \$kind in
    @file) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "\$cur") ;;
    @dir) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- "\$cur") ;;
    @arg) COMPREPLY=() ;;
    ?*) mapfile -t COMPREPLY < <(compgen -W "\$kind" -- "\$cur") ;;
    *) mapfile -t COMPREPLY < <(compgen -W "\${${fn}_opts[\$path]-}" -- "\$cur") ;;
  esac
}
complete -F $fn $tool
EOF
