#!/usr/bin/env bash
# Checks what the project's Markdown pages claim about the tree and the programs against the
# tree and the programs themselves, so that a page cannot go on naming a file that moved, a
# preset it forgot or an option that is gone:
# - every repository path a page names (in backticks or as a link target) exists, relative to
#   the repository or to the page's folder (a source file may be named without its extension);
# - every configure preset of CMakePresets.json is in docs/usage.md's table;
# - every option a page gives to `starscope SUBCOMMAND` or `starscope-viewer` is one that the
#   program's --help lists (subcommands whose program this build lacks are skipped, and said).
# Usage: docs_check.sh SOURCE_DIR STARSCOPE [STARSCOPE_VIEWER]
set -uo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 SOURCE_DIR STARSCOPE [STARSCOPE_VIEWER]" >&2
  exit 2
fi
root=$1
starscope=$2
viewer=${3:-}
cd "$root" || exit 2
problems=0
problem() {
  echo "$*" >&2
  problems=$((problems + 1))
}

mapfile -t pages < <(git ls-files '*.md' ':!tests/data/*' 2>/dev/null || find . -name '*.md' -not -path './build/*')
[ ${#pages[@]} -gt 0 ] || { echo "$0: no Markdown page found under $root" >&2; exit 2; }

# 1. Paths. A token counts as a path when it starts with one of the tree's top folders, or with
# a folder beside the page (tracer/README.md names cli/commands.hpp); installed paths
# (include/starscope/arena.h) start with neither.
top='(runtime|workloads|tracer|viewer|cli|common|scripts|tests|bench|docs|cmake|examples|\.ci)/'
exists() {
  local path=$1 base=$2 candidate ext
  for candidate in "$path" "$base/$path"; do
    for ext in "" .cpp .hpp .h .sh; do
      compgen -G "$candidate$ext" >/dev/null && return 0
    done
  done
  return 1
}
for page in "${pages[@]}"; do
  base=$(dirname "$page")
  while IFS= read -r token; do
    path=${token%%[:#]*}
    path=${path%/}
    [[ $path == *[\<\>]* ]] && continue   # a placeholder: tests/<module>/
    [[ $path =~ ^(\./)?$top ]] || [ -d "$base/${path%%/*}" ] || continue
    exists "$path" "$base" || problem "$page: names $token, which does not exist"
  done < <({ grep -oE '`[^` ]+`' "$page" | tr -d '`'; grep -oE '\]\([^) #]+' "$page" | cut -c3-; } |
             grep -E "^(\./)?$top|^[a-z_]+/[a-z_./*-]+\.(cpp|hpp|h|sh|md|json|txt|png|svg)$" | sort -u)
done

# 2. Presets: the usage page's table names each one.
while IFS= read -r preset; do
  grep -qE "\`$preset\`" docs/usage.md || problem "docs/usage.md: its preset table leaves out '$preset' (CMakePresets.json)"
done < <(sed -n '/"configurePresets"/,/"buildPresets"/p' CMakePresets.json |
           grep -oE '"name": *"[^"]+"' | sed 's/.*"\([^"]*\)"$/\1/' | sort -u)

# 3. Options. Lines that run a program (not its messages, "starscope record: ..."), up to
# the `--` after which the options are the recorded program's.
help_of() {
  if [ "$1" = viewer ]; then
    QT_QPA_PLATFORM=offscreen "$viewer" --help 2>/dev/null
  else
    "$starscope" "$1" --help 2>/dev/null
  fi
}
declare -A helps skipped
for page in "${pages[@]}"; do
  while IFS= read -r line; do
    number=${line%%:*}
    # One segment per program named on the line: its options are the ones up to the next.
    while IFS= read -r text; do
      if [[ $text =~ starscope-viewer([^a-z:.-].*)?$ ]]; then
        program=viewer
        [ -n "$viewer" ] || { skipped[viewer]=1; continue; }
        rest=${BASH_REMATCH[1]}
      elif [[ $text =~ starscope\ (record|sweep|stats|barriers|export|convert|compare)([^a-z:].*)?$ ]]; then
        program=${BASH_REMATCH[1]}
        rest=${BASH_REMATCH[2]}
      else
        continue
      fi
      # A command in prose ends at its closing backtick; in a code block, at `--`.
      rest=${rest%%\`*}
      rest=${rest%% -- *}
      if [ -z "${helps[$program]+set}" ]; then
        helps[$program]=$(help_of "$program") || helps[$program]=
      fi
      if [ -z "${helps[$program]}" ]; then
        skipped[$program]=1
        continue
      fi
      for option in $(grep -oE '(^|[ [`(])--[a-z][a-z0-9-]*' <<<"$rest" | grep -oE -- '--[a-z0-9-]+'); do
        grep -qE -- "(^|[ ,])$option([ =,:<]|$)" <<<"${helps[$program]}" ||
          problem "$page:$number: gives $option to '$program', whose --help does not list it"
      done
    done < <(sed 's/starscope/\n&/g' <<<"${line#*:}")
  done < <(grep -nE 'starscope(-viewer| (record|sweep|stats|barriers|export|convert|compare))' "$page")
done
for program in "${!skipped[@]}"; do
  echo "note: options given to '$program' not checked: this build has no such program"
done

if [ $problems -gt 0 ]; then
  echo "$problems claim(s) of the pages do not hold (see above)" >&2
  exit 1
fi
echo "${#pages[@]} pages: their paths, presets and options hold"
