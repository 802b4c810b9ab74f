#!/usr/bin/env bash
# Writes what `stats`, `barriers`, `compare`, `export` and `convert` print for the project's
# snapshot inputs (tests/data/tracer/*, runs/*) into OUT_DIR, one file per command and input, so
# that a refactoring can be checked byte for byte: run it before and after, then `diff -r`.
# More inputs (a big trace, a user's run) as NAME=INPUT[,INPUT...] after OUT_DIR.
# Usage: scripts/snapshot_outputs.sh STARSCOPE_BINARY OUT_DIR [NAME=INPUT[,INPUT...]...]
set -euo pipefail
if [[ $# -lt 2 ]]; then
    echo "usage: $0 STARSCOPE_BINARY OUT_DIR [NAME=INPUT[,INPUT...]...]" >&2
    exit 2
fi
starscope=$(realpath "$1")
out=$2
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
[[ -x $starscope ]] || { echo "$0: $1 is not an executable" >&2; exit 2; }
mkdir -p "$out"
out=$(realpath "$out")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Runs one command, keeping its standard output, standard error and exit code.
capture() {
    local name=$1
    shift
    local rc=0
    "$@" >"$out/$name.out" 2>"$out/$name.err" || rc=$?
    echo "$rc" >"$out/$name.rc"
}

inputs=()
for dir in "$root"/tests/data/tracer/*/ "$root"/runs/*/; do
    dir=${dir%/}
    [[ -e $dir/prof_file__0 ]] && inputs+=("$dir")
done

# snapshot NAME INPUT...: every command's output for one trace.
snapshot() {
    local name=$1 table
    shift
    local input=("$@")
    capture "$name.stats" "$starscope" stats "${input[@]}"
    capture "$name.stats-json" "$starscope" stats --json "${input[@]}"
    capture "$name.stats-window" "$starscope" stats --from-ms 1 --to-ms 5 "${input[@]}"
    capture "$name.barriers" "$starscope" barriers "${input[@]}"
    capture "$name.barriers-json" "$starscope" barriers --json "${input[@]}"
    capture "$name.barriers-csv" "$starscope" barriers --csv "${input[@]}"
    capture "$name.barriers-10us" "$starscope" barriers --threshold-us 10 "${input[@]}"
    capture "$name.paje" "$starscope" export --format paje -o - "${input[@]}"
    capture "$name.chrome" "$starscope" export --format chrome -o - "${input[@]}"
    for table in spans tasks codelets barriers; do
        capture "$name.csv-$table" "$starscope" export --format csv --table "$table" -o - "${input[@]}"
    done
    # The conversion itself holds its input's path: what it reads back is compared instead.
    capture "$name.convert" "$starscope" convert -o "$work/$name.sstrace" "${input[@]}"
    capture "$name.stats-native" "$starscope" stats "$work/$name.sstrace"
    capture "$name.stats-native-json" "$starscope" stats --json "$work/$name.sstrace"
    capture "$name.chrome-native" "$starscope" export --format chrome -o - "$work/$name.sstrace"
}

for dir in "${inputs[@]}"; do
    # A folder of prof files without run.json is read from its prof files; a run folder as itself.
    mapfile -t input < <(if [[ -e $dir/run.json ]]; then echo "$dir"; else ls "$dir"/prof_file__*; fi)
    snapshot "$(basename "$(dirname "$dir")")-$(basename "$dir")" "${input[@]}"
done
for spec in "$@"; do
    IFS=, read -r -a input <<<"${spec#*=}"
    snapshot "${spec%%=*}" "${input[@]}"
done

for paje in "$root"/tests/data/tracer/paje/*.paje "$root"/tests/data/tracer/small/paje.trace; do
    name=paje-$(basename "$(dirname "$paje")")-$(basename "$paje")
    capture "$name.stats" "$starscope" stats "$paje"
    capture "$name.barriers" "$starscope" barriers "$paje"
    capture "$name.chrome" "$starscope" export --format chrome -o - "$paje"
done

capture compare-runs "$starscope" compare "$root"/runs/single-naive "$root"/runs/double-advanced
capture compare-runs-json "$starscope" compare --json "$root"/runs/single-naive "$root"/runs/double-advanced
capture compare-runs-baseline "$starscope" compare --baseline double+advanced "$root"/runs/single-naive \
    "$root"/runs/double-advanced
# The paths of the inputs and of the conversions appear in some outputs: make them independent
# of the checkout's place and of the temporary folder's name.
grep -rlF -e "$root" -e "$work" "$out" | xargs -r sed -i -e "s|$root|ROOT|g" -e "s|$work|WORK|g"
echo "$(ls "$out" | wc -l) files in $out"
