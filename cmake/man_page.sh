#!/usr/bin/env bash
# Writes a program's section 1 man page at build time: the parts written by hand (TEMPLATE: name,
# description, exit status, environment) around what the built program itself prints for
# --help and for each subcommand's --help, so the page cannot list an option the program lacks
# or miss one it has. Run by the build (cmake/StarscopeInstallDirs.cmake):
#   man_page.sh PROGRAM NAME VERSION TEMPLATE OUTPUT
# TEMPLATE is groff with @VERSION@, and @HELP@ / @COMMANDS@ on lines of their own.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib/common.sh"

[ $# -eq 5 ] || die "usage: man_page.sh PROGRAM NAME VERSION TEMPLATE OUTPUT"
program=$1 name=$2 version=$3 template=$4 output=$5

# The help text as the user sees it: the program's name instead of its path in the build tree.
help_of() {
  local text
  text=$("$program" "$@" --help 2>/dev/null) || return 1
  printf '%s\n' "${text//"$program"/"$name"}"
}

# Help text to groff: "  item   description" lines (CLI11's and Qt's layout, a description
# that does not fit continuing on deeper-indented lines) become tagged paragraphs, unindented
# "Heading:" lines bold headings, other unindented lines paragraphs. Backslashes and minus signs
# are escaped, and every text line starts with \& so that none is read as a request.
to_groff() {
  awk '
    function esc(s) { gsub(/\\/, "\\e", s); gsub(/-/, "\\-", s); return s }
    function flush() {
      if (term != "") { print ".TP"; print "\\&\\fB" esc(term) "\\fR"; if (desc != "") print "\\&" esc(desc) }
      term = ""; desc = ""
    }
    /^[[:space:]]*$/ { flush(); next }
    /^[^ ].*:$/ { flush(); print ".PP"; print "\\&\\fB" esc($0) "\\fR"; next }
    /^  [^ ]/ {
      flush()
      line = substr($0, 3)
      if (match(line, /  +/)) { term = substr(line, 1, RSTART - 1); desc = substr(line, RSTART + RLENGTH) }
      else { term = line }
      next
    }
    /^   / {
      sub(/^ +/, "")
      if (term != "") { desc = (desc == "" ? $0 : desc " " $0) } else { print "\\&" esc($0) }
      next
    }
    { flush(); print ".PP"; print "\\&" esc($0) }
    END { flush() }
  '
}

main_help=$(help_of) || die "'$program --help' failed"
# CLI11 lists subcommands under "Subcommands:", one per line, name first.
subcommands=$(printf '%s\n' "$main_help" \
  | awk '/^Subcommands:$/ { on = 1; next } /^[^ ]/ { on = 0 } on && /^  [^ ]/ { print $1 }')

help_groff=$(printf '%s\n' "$main_help" | to_groff)
commands_groff=
for sub in $subcommands; do
  commands_groff+=".SS $sub"$'\n'
  # A command this build lacks (record and sweep without the recorder) refuses even --help:
  # its page is the line the main help gives it, which says why.
  if sub_help=$(help_of "$sub"); then
    commands_groff+=$(printf '%s\n' "$sub_help" | to_groff)$'\n'
  else
    commands_groff+=$(printf '%s\n' "$main_help" | awk -v sub_name="$sub" '$1 == sub_name' | to_groff)$'\n'
  fi
done

tmp=$(mktemp "$output.XXXXXX")
trap 'rm -f "$tmp"' EXIT
while IFS= read -r line || [ -n "$line" ]; do
  case "$line" in
    @HELP@) printf '%s\n' "$help_groff" ;;
    @COMMANDS@) [ -z "$commands_groff" ] || printf '%s' "$commands_groff" ;;
    *) printf '%s\n' "${line//@VERSION@/$version}" ;;
  esac
done <"$template" >"$tmp"
mv "$tmp" "$output"
trap - EXIT
