#!/usr/bin/env bash
# The strategy rows of issue 16's table for one or more builds, every run recorded by `starscope
# record` as a user would: single+naive against double+advanced, alternating within each
# repetition (and between the builds given), traced. Per build and strategy it prints the medians
# and [min-max] of the barrier share (job-wide barriers / makespan, from `stats --json`; in
# parentheses the median part of it while FxT wrote its full buffer, the tracing's cost), area
# bound / makespan and the train time (run.json's train_time_s), the ratio of the train times and
# in how many repetitions double+advanced was faster, then the rows as a markdown table.
#
#   bench/workloads/strategies.sh [--reps N] [--batches B] [--keep DIR]
#                                 [--build LABEL=DIR]... [-- RECORD_OPTIONS...]
#
# --build 'LABEL=DIR [OPTIONS...]': a build folder with cli/starscope (default:
#   build/default, labelled by its folder name), and record options for its runs only (words
#   NAME=VALUE among them go into those runs' environment instead); give several to compare
#   them (e.g. before=build/a after=build/b, 'w1=build/a --workers 1' or
#   'nobind=build/a STARPU_WORKERS_NOBIND=1'): one repetition runs every build's two
#   strategies before the next repetition starts.
# --reps N: repetitions (default 6; the issue's table wants at least 5).
# --batches B: batches per run (default 0: one whole epoch, 937 batches of 64).
# --keep DIR: record into DIR and keep it (default: a temporary folder, removed at the end).
# RECORD_OPTIONS after -- go to every record (e.g. -- --workers 2 --chunk 16); by default each
# run gets record's defaults, which is what this measures.
#
# Every figure comes from a whole `record` on a machine that others may share: quote the medians
# and the ratios, which hold up better than any single run. A 1-epoch repetition of one build
# takes 1 to 2 s of training per strategy on an idle 2-core machine and up to 40 s on a loaded one.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
reps=6
batches=0
keep=""
labels=()
builds=()
build_options=()
usage() {
  echo "usage: bench/workloads/strategies.sh [--reps N] [--batches B] [--keep DIR] [--build LABEL=DIR]... [-- RECORD_OPTIONS...]" >&2
  exit 2
}
die() { echo "strategies: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
  case "$1" in
    --reps) [ $# -ge 2 ] || usage; reps="$2"; shift ;;
    --batches) [ $# -ge 2 ] || usage; batches="$2"; shift ;;
    --keep) [ $# -ge 2 ] || usage; keep="$2"; shift ;;
    --build)
      [ $# -ge 2 ] || usage
      read -r spec options <<< "$2"
      case "$spec" in
        *=*) labels+=("${spec%%=*}"); builds+=("${spec#*=}") ;;
        *) labels+=("$(basename "$spec")"); builds+=("$spec") ;;
      esac
      build_options+=("${options:-}")
      shift ;;
    --) shift; break ;;
    -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
    *) echo "strategies: unknown option $1" >&2; usage ;;
  esac
  shift
done
record_options=("$@")
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || die "--reps: '$reps' is not a count of at least 1"
[[ "$batches" =~ ^[0-9]+$ ]] || die "--batches: '$batches' is not a batch count (0: one epoch)"
if [ ${#builds[@]} -eq 0 ]; then
  labels=(default); builds=("${STARSCOPE_BUILD:-$root/build/default}"); build_options=("")
fi
for i in "${!builds[@]}"; do
  [ -x "${builds[$i]}/cli/starscope" ] || die "--build ${labels[$i]}=${builds[$i]}: no cli/starscope there (build the starscope target)"
  [[ "${labels[$i]}" =~ ^[A-Za-z0-9._+-]+$ ]] || die "--build: label '${labels[$i]}' may only have letters, digits and . _ + -"
done

if [ -n "$keep" ]; then
  mkdir -p "$keep" && work="$(cd "$keep" && pwd)"
else
  work="$(mktemp -d "${TMPDIR:-/tmp}/starscope-strategies.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
fi
: > "$work/figures.tsv"
echo "strategies: ${labels[*]}, $reps repetitions, $([ "$batches" = 0 ] && echo "1 epoch" || echo "$batches batches")," \
  "record options: ${record_options[*]:-(defaults)}, recording into $work"

strategies=("single naive" "double advanced")
for ((r = 1; r <= reps; ++r)); do
  for i in "${!builds[@]}"; do
    starscope="${builds[$i]}/cli/starscope"
    read -r -a words <<< "${build_options[$i]}"
    own=(); environment=()
    for word in "${words[@]}"; do
      if [[ "$word" =~ ^[A-Z_][A-Z0-9_]*= ]]; then environment+=("$word"); else own+=("$word"); fi
    done
    for strategy in "${strategies[@]}"; do
      read -r arenas loader <<< "$strategy"
      key="${labels[$i]}/$arenas+$loader"
      out="$work/${labels[$i]}-$arenas-$loader-$r"
      env "${environment[@]}" "$starscope" record --out "$out" --force --arenas "$arenas" --loader "$loader" \
        --batches "$batches" --test-images 1000 "${record_options[@]}" "${own[@]}" > "$out.log" 2>&1 \
        || die "record ($key, repetition $r) failed: $(tail -n 5 "$out.log")"
      "$starscope" stats --json "$out" > "$out.stats.json" 2> "$out.stats.log" \
        || die "stats ($key, repetition $r) failed: $(cat "$out.stats.log")"
      python3 - "$out.stats.json" "$out/run.json" "$key" "$r" >> "$work/figures.tsv" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
run = json.load(open(sys.argv[2]))
key, rep = sys.argv[3], sys.argv[4]
print(f"{key}\t{rep}\tbarrier_share\t{s['barriers']['total_ns'] / s['makespan_ns']}")
# The part of it while FxT wrote its full buffer mid-run (stats' "trace flush" cause).
print(f"{key}\t{rep}\tflush_share\t{s['barriers'].get('trace_flush_ns', 0) / s['makespan_ns']}")
print(f"{key}\t{rep}\tarea_bound\t{s['area_bound_ns'] / s['makespan_ns']}")
print(f"{key}\t{rep}\ttrain_s\t{run['train_time_s']}")
print(f"{key}\t{rep}\tworkers\t{run['workers']}")
EOF
      line="$(awk -F'\t' -v k="$key" -v r="$r" '$1 == k && $2 == r {printf "%s=%.4g ", $3, $4}' "$work/figures.tsv")"
      echo "repetition $r $key: $line"
      rm -f "$out"/prof_file_*
    done
  done
done

python3 - "$work/figures.tsv" "$reps" "${labels[@]}" <<'EOF'
import statistics, sys
from collections import defaultdict
runs = defaultdict(lambda: defaultdict(dict))
for line in open(sys.argv[1]):
    key, rep, figure, value = line.rstrip("\n").split("\t")
    runs[key][figure][int(rep)] = float(value)
labels = sys.argv[3:]
def cell(key, figure, fmt):
    v = list(runs[key][figure].values())
    return f"{fmt(statistics.median(v))} [{fmt(min(v))}-{fmt(max(v))}]"
pct = lambda x: f"{100 * x:.1f} %"
print()
print("| build | workers | double+advanced barrier share | double+advanced area bound / makespan "
      "| single+naive barrier share | single+naive area bound / makespan | train time single+naive "
      "| train time double+advanced | ratio (s+n / d+a) | d+a faster |")
print("|---|---|---|---|---|---|---|---|---|---|")
for label in labels:
    sn, da = f"{label}/single+naive", f"{label}/double+advanced"
    t_sn, t_da = runs[sn]["train_s"], runs[da]["train_s"]
    faster = sum(1 for r in t_da if t_da[r] < t_sn[r])
    workers = sorted({int(w) for w in runs[da]["workers"].values()})
    flush = lambda key: f" (trace flush {pct(statistics.median(runs[key]['flush_share'].values()))})"
    print(f"| {label} | {','.join(map(str, workers))} | {cell(da, 'barrier_share', pct)}{flush(da)} "
          f"| {cell(da, 'area_bound', lambda x: f'{x:.2f}')} | {cell(sn, 'barrier_share', pct)}{flush(sn)} "
          f"| {cell(sn, 'area_bound', lambda x: f'{x:.2f}')} | {cell(sn, 'train_s', lambda x: f'{x:.2f} s')} "
          f"| {cell(da, 'train_s', lambda x: f'{x:.2f} s')} "
          f"| {statistics.median(t_sn.values()) / statistics.median(t_da.values()):.2f}x "
          f"| {faster}/{len(t_da)} |")
EOF
