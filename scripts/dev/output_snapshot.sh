#!/usr/bin/env bash
# Writes every output the analyser's commands make of some traces into one folder, so that two
# builds (before and after a refactoring) can be compared byte for byte with `diff -r`:
#   scripts/dev/output_snapshot.sh STARSCOPE_BIN OUT_DIR NAME=INPUT[,INPUT...] ...
# Each NAME gets OUT_DIR/NAME/{stats.json,stats.txt,barriers.*,export.*,convert.sstrace.stats.json,
# status}; a command's standard error and exit status are kept too (warnings are output).
set -uo pipefail
[ $# -ge 3 ] || { echo "usage: $0 STARSCOPE_BIN OUT_DIR NAME=INPUT[,INPUT...] ..." >&2; exit 2; }
bin=$1; out=$2; shift 2
mkdir -p "$out"
run() { # NAME FILE CMD...: stdout to FILE, stderr to FILE.err, status appended to NAME/status
  local name=$1 file=$2; shift 2
  "$@" >"$out/$name/$file" 2>"$out/$name/$file.err"
  echo "$file $?" >>"$out/$name/status"
}
for spec in "$@"; do
  name=${spec%%=*}
  IFS=, read -r -a inputs <<<"${spec#*=}"
  mkdir -p "$out/$name"; : >"$out/$name/status"
  run "$name" stats.json "$bin" stats --json "${inputs[@]}"
  run "$name" stats.txt "$bin" stats "${inputs[@]}"
  run "$name" barriers.txt "$bin" barriers "${inputs[@]}"
  run "$name" barriers.json "$bin" barriers --json "${inputs[@]}"
  run "$name" barriers.csv "$bin" barriers --csv "${inputs[@]}"
  run "$name" export.paje "$bin" export --format paje -o - "${inputs[@]}"
  run "$name" export.chrome.json "$bin" export --format chrome -o - "${inputs[@]}"
  for table in spans tasks barriers; do
    run "$name" "export.$table.csv" "$bin" export --format csv --table "$table" -o - "${inputs[@]}"
  done
  tmp=$(mktemp -d)
  run "$name" convert.txt "$bin" convert -o "$tmp/trace.sstrace" "${inputs[@]}"
  [ -f "$tmp/trace.sstrace" ] && cp "$tmp/trace.sstrace" "$out/$name/convert.sstrace"
  [ -f "$tmp/trace.sstrace" ] && run "$name" convert.stats.json "$bin" stats --json "$tmp/trace.sstrace"
  # The temporary folder's name is no output of ours.
  find "$out/$name" -type f ! -name convert.sstrace -exec sed -i "s#$tmp#TMP#g" {} +
  rm -rf "$tmp"
done
