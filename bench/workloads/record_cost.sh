#!/usr/bin/env bash
# What tracing costs `starscope record`: the same run traced (FxT on) and with --no-trace,
# alternating within each repetition (the order swaps every repetition, so a machine getting
# busier does not favour one side), and prints the medians of
#   - the process's wall time (start to exit: StarPU's start, the training, the trace written
#     at shutdown and record's check of it) and run.json's train time,
#   - its CPU time (user + system, children included): on a machine shared with other work
#     the wall times also measure the wait for a core, the CPU time only the work done,
#   - its peak memory: the maximum resident size of the record process and its children
#     (wait4's ru_maxrss, through /usr/bin/time) and the peak of their anonymous memory
#     (RssAnon summed over the process tree, sampled every 0.1 s), which leaves out the
#     MNIST files record maps,
#   - the trace written, FxT's buffer and how often FxT flushed it during the run,
# and the ratios traced / untraced and peak memory / trace written.
#
#   bench/workloads/record_cost.sh [--build DIR] [--reps N] [--keep DIR] [--rep K --figures FILE]
#                                  [-- RECORD_OPTIONS...]
#
# --build DIR (or STARSCOPE_BUILD=DIR): the build whose cli/starscope runs (default
#   build/default).
# --reps N: repetitions, each one traced and one untraced run (default 5).
# --keep DIR: record into DIR (traced-K, untraced-K) and keep the folders; default: a temporary
#   folder, removed at the end.
# --rep K --figures FILE: one repetition numbered K whose figures are appended to FILE (lines
#   "key<TAB>K<TAB>value"), for bench/run_all.sh, which alternates these runs with others.
# RECORD_OPTIONS: passed to both runs (default: --arenas double --loader advanced, one epoch).
#
# Example: bench/workloads/record_cost.sh --build build/rel --reps 5 -- --arenas double --loader advanced --batches 300
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${STARSCOPE_BUILD:-$root/build/default}"
reps=5
keep=""
rep=""
figures=""
usage() {
  echo "usage: bench/workloads/record_cost.sh [--build DIR] [--reps N] [--keep DIR] [--rep K --figures FILE] [-- RECORD_OPTIONS...]" >&2
  exit 2
}
while [ $# -gt 0 ]; do
  case "$1" in
    --build) [ $# -ge 2 ] || usage; build="$2"; shift ;;
    --reps) [ $# -ge 2 ] || usage; reps="$2"; shift ;;
    --keep) [ $# -ge 2 ] || usage; keep="$2"; shift ;;
    --rep) [ $# -ge 2 ] || usage; rep="$2"; shift ;;
    --figures) [ $# -ge 2 ] || usage; figures="$2"; shift ;;
    --) shift; break ;;
    -h|--help) sed -n '2,28p' "$0"; exit 0 ;;
    *) echo "record_cost: unknown option $1" >&2; usage ;;
  esac
  shift
done
die() { echo "record_cost: $*" >&2; exit 1; }
options=("$@")
[ ${#options[@]} -gt 0 ] || options=(--arenas double --loader advanced)
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || die "--reps: '$reps' is not a count of at least 1"
if [ -n "$rep" ] || [ -n "$figures" ]; then
  [ -n "$rep" ] && [ -n "$figures" ] || die "--rep and --figures go together"
  [[ "$rep" =~ ^[1-9][0-9]*$ ]] || die "--rep: '$rep' is not a repetition number of at least 1"
fi
[ -d "$build" ] || die "no build folder $build (--build DIR or STARSCOPE_BUILD)"
starscope="$(cd "$build" && pwd)/cli/starscope"
[ -x "$starscope" ] || die "no $starscope: build the starscope target"
[ -x /usr/bin/time ] || die "no /usr/bin/time (Debian package time)"

if [ -n "$keep" ]; then
  mkdir -p "$keep" && work="$(cd "$keep" && pwd)"
else
  work="$(mktemp -d "${TMPDIR:-/tmp}/starscope-record-cost.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
fi
own="$work/record_cost.tsv"
[ -n "$rep" ] || : > "$own"
tsv="${figures:-$own}"

json() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."): d=d[k]
print(d)' "$1" "$2"; }

# The anonymous resident memory of a process and all its descendants, in kB.
tree_anon_kb() {
  local pids=("$1") i=0 total=0 kb
  while [ "$i" -lt "${#pids[@]}" ]; do
    local p="${pids[$i]}"
    for t in /proc/"$p"/task/*/children; do
      # The list ends without a newline, so read fails at its end even when it read it.
      local kids=()
      [ -r "$t" ] || continue # the process ended meanwhile
      read -r -a kids < "$t" 2>/dev/null || true
      pids+=("${kids[@]}")
    done
    kb=$(sed -n 's/^RssAnon:\s*\([0-9]*\) kB/\1/p' "/proc/$p/status" 2>/dev/null || true)
    total=$((total + ${kb:-0}))
    i=$((i + 1))
  done
  echo "$total"
}

# One record run into $1 (traced or untraced by $2); its figures go to the TSV as <key>_$2.
run() {
  local out="$1" kind="$2" k="$3"
  local extra=()
  [ "$kind" = untraced ] && extra=(--no-trace)
  rm -rf "$out"
  local t0 t1
  t0=$(date +%s.%N)
  /usr/bin/time -v -o "$out.time" "$starscope" record --out "$out" --force "${options[@]}" "${extra[@]}" \
    > "$out.log" 2>&1 &
  local pid=$! peak=0 now
  while kill -0 "$pid" 2>/dev/null; do
    now=$(tree_anon_kb "$pid")
    [ "$now" -gt "$peak" ] && peak=$now
    sleep 0.1
  done
  wait "$pid" || die "record ($kind) failed: $(tail -n 5 "$out.log")"
  t1=$(date +%s.%N)
  local trace=0 buffer=0
  if [ "$kind" = traced ]; then
    trace=$(du -cb "$out"/prof_file_* | tail -n1 | cut -f1)
    buffer=$(json "$out/run.json" starpu.fxt.buffer_size_mb)
  fi
  {
    printf 'process_%s\t%s\t%s\n' "$kind" "$k" "$(echo "$t1 - $t0" | bc -l)"
    printf 'train_%s\t%s\t%s\n' "$kind" "$k" "$(json "$out/run.json" train_time_s)"
    printf 'wall_%s\t%s\t%s\n' "$kind" "$k" "$(json "$out/run.json" wall_time_s)"
    printf 'cpu_%s\t%s\t%s\n' "$kind" "$k" "$(awk -F': ' '/(User|System) time \(seconds\)/ {t += $2} END {print t}' "$out.time")"
    printf 'rss_%s\t%s\t%s\n' "$kind" "$k" "$(sed -n 's/^\s*Maximum resident set size (kbytes): //p' "$out.time")"
    printf 'anon_%s\t%s\t%s\n' "$kind" "$k" "$peak"
    if [ "$kind" = traced ]; then
      printf 'trace_bytes\t%s\t%s\n' "$k" "$trace"
      printf 'buffer_mb\t%s\t%s\n' "$k" "$buffer"
      printf 'flushes\t%s\t%s\n' "$k" "$(grep -c 'flushing trace' "$out.log" || true)"
    fi
  } >> "$tsv"
}

one_rep() {
  local k="$1"
  if [ $((k % 2)) = 1 ]; then
    run "$work/traced-$k" traced "$k"; run "$work/untraced-$k" untraced "$k"
  else
    run "$work/untraced-$k" untraced "$k"; run "$work/traced-$k" traced "$k"
  fi
  echo "record_cost repetition $k: $(grep -P "^(process|train|cpu|rss|anon)_(un)?traced\t$k\t|^(trace_bytes|flushes)\t$k\t" "$tsv" \
    | awk '{printf "%s=%s ", $1, $3}')"
}

if [ -n "$rep" ]; then
  one_rep "$rep"
  exit 0
fi

echo "record_cost: $starscope record ${options[*]}, traced and --no-trace, $reps repetitions, in $work"
for ((k = 1; k <= reps; ++k)); do
  one_rep "$k"
  # The folders of all but the last repetition only take space.
  if [ "$k" -lt "$reps" ] && [ -z "$keep" ]; then rm -rf "$work/traced-$k" "$work/untraced-$k"; fi
done

python3 - "$own" <<'EOF'
import statistics, sys
from collections import defaultdict
runs = defaultdict(dict)
for line in open(sys.argv[1]):
    key, rep, value = line.rstrip("\n").split("\t")
    runs[key][int(rep)] = float(value)
med = lambda key: statistics.median(runs[key].values())
span = lambda key, f: f"[{f(min(runs[key].values()))}-{f(max(runs[key].values()))}]"
n = len(runs["process_traced"])
print(f"\nmedians of {n} runs each, traced vs untraced (alternating), [min-max]:")
for key, label in (("process", "process wall"), ("wall", "run.json wall"), ("train", "train time"),
                   ("cpu", "CPU time")):
    t, u = med(f"{key}_traced"), med(f"{key}_untraced")
    ratios = [runs[f"{key}_traced"][r] / runs[f"{key}_untraced"][r] for r in runs[f"{key}_traced"]]
    print(f"  {label:14s} {t:8.2f} s vs {u:8.2f} s   ratio {t / u:.3f} ({100 * (t / u - 1):+.1f} %); "
          f"per repetition {min(ratios):.3f}-{max(ratios):.3f}")
mb = lambda kb: kb / 1024
trace = med("trace_bytes") / 2**20
for key, label in (("rss", "peak RSS"), ("anon", "peak anon")):
    t, u = mb(med(f"{key}_traced")), mb(med(f"{key}_untraced"))
    print(f"  {label:14s} {t:8.1f} MB vs {u:6.1f} MB  +{t - u:.1f} MB; traced / trace {t / trace:.2f}x, "
          f"(traced - untraced) / trace {(t - u) / trace:.2f}x  {span(f'{key}_traced', lambda v: f'{mb(v):.0f}')} MB traced")
print(f"  trace written  {trace:8.1f} MB, FxT buffer {med('buffer_mb'):.0f} MB, "
      f"flushes during the run {med('flushes'):.0f} {span('flushes', lambda v: f'{v:.0f}')}")
EOF
