#!/usr/bin/env bash
# `starscope stats PROF` against `starpu_fxt_tool -i PROF` on the same FxT prof files, whole
# processes, alternating, RUNS (default 5) of each per file: each run's wall time and CPU time
# (perf stat's task-clock when perf is there, which waiting for a core on a shared machine does
# not inflate), then per file the medians, the ratio of the medians and starscope's GB/s
# (file size / median wall time). bench/run_all.sh measures the same row among the others;
# this measures it alone, on prof files you already have.
#
#   bench/tracer/stats_vs_fxt_tool.sh [--build DIR] [--runs N] PROF_FILE...
#
# STARSCOPE_READ_THREADS=N in the environment is passed on (1: one reading thread; 2: two).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${STARSCOPE_BUILD:-$root/build/default}"
runs=5
die() { echo "stats_vs_fxt_tool: $*" >&2; exit 1; }
usage() { echo "usage: bench/tracer/stats_vs_fxt_tool.sh [--build DIR] [--runs N] PROF_FILE..." >&2; exit 2; }
files=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) [ $# -ge 2 ] || usage; build="$2"; shift ;;
    --runs) [ $# -ge 2 ] || usage; runs="$2"; shift ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    -*) echo "stats_vs_fxt_tool: unknown option $1" >&2; usage ;;
    *) files+=("$1") ;;
  esac
  shift
done
[ ${#files[@]} -gt 0 ] || usage
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || die "--runs: '$runs' is not a count of at least 1"
[ -d "$build" ] || die "no build folder $build (--build DIR or STARSCOPE_BUILD)"
starscope="$build/cli/starscope"
[ -x "$starscope" ] || die "no $starscope: build the starscope target"
# The starpu_fxt_tool of the StarPU this build links (cmake/FindStarPU.cmake's STARPU_PREFIX).
prefix="$(sed -n 's/^STARPU_PREFIX:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null | head -n1)"
fxt_tool="${prefix:-$root/.deps/starpu-1.3.10-fxt}/bin/starpu_fxt_tool"
[ -x "$fxt_tool" ] || die "no starpu_fxt_tool ($fxt_tool): run scripts/setup.sh"
for f in "${files[@]}"; do [ -f "$f" ] || die "no prof file $f"; done
have_perf=0
if command -v perf > /dev/null && perf stat -e task-clock true > /dev/null 2>&1; then have_perf=1; fi

work="$(mktemp -d "${TMPDIR:-/tmp}/starscope-stats-bench.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# Runs a command, its output thrown away; prints "WALL_S CPU_MS" (CPU "-" without perf). With
# perf the wall time is perf's own, from the command's start to its end: timing perf as well
# added its start-up, about 20 ms, to every run.
measure() {
  local s e
  if [ "$have_perf" = 1 ]; then
    perf stat -e task-clock -o "$work/stat" "$@" > /dev/null 2> "$work/err" || die "failed: $* ($(tail -n 3 "$work/err"))"
    awk '/task-clock/ {c = $1} /seconds time elapsed/ {w = $1} END {gsub(",", "", c); printf "%s %.2f\n", w, c}' "$work/stat"
  else
    s=$(date +%s.%N)
    "$@" > /dev/null 2> "$work/err" || die "failed: $* ($(tail -n 3 "$work/err"))"
    e=$(date +%s.%N)
    echo "$(echo "$e - $s" | bc -l) -"
  fi
}
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

for prof in "${files[@]}"; do
  prof="$(cd "$(dirname "$prof")" && pwd)/$(basename "$prof")"
  size=$(stat -c %s "$prof")
  : > "$work/ours"; : > "$work/tool"
  mkdir -p "$work/tool_out"
  for ((r = 1; r <= runs; ++r)); do
    ours=$(measure "$starscope" stats "$prof")
    tool=$(cd "$work/tool_out" && measure "$fxt_tool" -i "$prof")
    echo "$ours" >> "$work/ours"; echo "$tool" >> "$work/tool"
    printf 'run %d: stats %.4f s (cpu %s ms)  starpu_fxt_tool %.3f s (cpu %s ms)\n' "$r" $ours $tool
  done
  ow=$(cut -d' ' -f1 "$work/ours" | median); tw=$(cut -d' ' -f1 "$work/tool" | median)
  oc="-"; tc="-"
  if [ "$have_perf" = 1 ]; then oc=$(cut -d' ' -f2 "$work/ours" | median); tc=$(cut -d' ' -f2 "$work/tool" | median); fi
  printf '%s (%.1f MB), medians of %d: stats %.4f s (cpu %s ms), starpu_fxt_tool %.3f s (cpu %s ms): %.1fx wall, %.2f GB/s\n' \
    "$prof" "$(echo "$size / 1000000" | bc -l)" "$runs" "$ow" "$oc" "$tw" "$tc" "$(echo "$tw / $ow" | bc -l)" \
    "$(echo "$size / 1000000000 / $ow" | bc -l)"
done
