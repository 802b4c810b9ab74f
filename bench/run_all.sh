#!/usr/bin/env bash
# The performance table of issue 16 in one command: each figure is measured here, with our tool
# and the reference run alternately within each repetition, and printed as a markdown table
# (figure | now | target) of medians, [min-max] and ratios, after the raw figures of every run.
#
#   bench/run_all.sh [--quick] [--build DIR] [--reps N] [--keep DIR] [--scale [--scale-args "ARGS"]]
#
# --build DIR (or STARSCOPE_BUILD=DIR): the build folder whose binaries are measured (default
#   build/default); it needs the targets starscope, starscope_tracer_bench and, for the viewer
#   rows, starscope-viewer (rows whose binary or reference tool is missing say so).
# --quick: 3 repetitions and short runs (100 batches for the 1-epoch figures, 10 epochs of 30
#   batches for the long trace, no 5-epoch trace); the full mode is 5 repetitions on MNIST's
#   whole epoch (937 batches of 64), 10 epochs and 5 epochs.
# --reps N: repetitions (at least 1; the issue's table wants at least 5).
# --keep DIR: record into DIR and keep it (default: a temporary folder, removed at the end).
# --scale (opt-in, issue 29): then the scale table of bench/tracer/scale_steps.sh (read, stats,
#   first frame, scroll redraw and peak memory of synthetic 4-rank jobs of 10 M and 100 M spans:
#   about 15 more minutes and 5 GB of disk on the 2-core machine; it needs the viewer benchmarks'
#   targets too). --scale-args "ARGS" passes ARGS on to it, e.g. "--giant --data DIR".
#
# Runtimes on the 2-core machine, shared with other engineers' builds and runs: --quick 1.5 to
# 2.5 minutes (3 repetitions); the full mode 12.8 minutes with every row, and 18.2 minutes
# without the viewer rows in an earlier run on a busier machine (load average 14), of which the
# 1-epoch repetitions (record_cost's two runs and single+naive) are a third to a half and
# starpu_fxt_tool on the 10-epoch trace (five runs of 20-70 s) most of the rest.
# Every figure is a wall time or a memory high-water mark of a whole process, so a loaded
# machine makes them noisy: the ratios between runs of the same repetition hold up best, and
# the tracing cost is also given in CPU time, which waiting for a core does not inflate.
# The rows and what measures them: barrier share and area bound (`stats --json` of the traced
# 1-epoch run; the part of the barriers in which the main thread had not run again yet after
# what it waited for ended, from bench/workloads/late_resume.py on fxt_print's output), train time of both strategies (their untraced runs), tracing cost and record's
# memory (bench/workloads/record_cost.sh, one repetition at a time between the others), stats
# against starpu_fxt_tool, headless render against ViTE (bench/viewer/render_vs_vite.sh does
# the same alone), the model's bytes per span (bench/tracer's starscope_tracer_bench --model)
# and the viewer's resident memory once it has opened the biggest trace.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${STARSCOPE_BUILD:-$root/build/default}"
quick=0
reps=""
keep=""
scale=0
scale_args=""
usage() { echo "usage: bench/run_all.sh [--quick] [--build DIR] [--reps N] [--keep DIR] [--scale [--scale-args ARGS]]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1 ;;
    --build) [ $# -ge 2 ] || usage; build="$2"; shift ;;
    --reps) [ $# -ge 2 ] || usage; reps="$2"; shift ;;
    --keep) [ $# -ge 2 ] || usage; keep="$2"; shift ;;
    --scale) scale=1 ;;
    --scale-args) [ $# -ge 2 ] || usage; scale_args="$2"; shift ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    *) echo "run_all: unknown option $1" >&2; usage ;;
  esac
  shift
done
die() { echo "run_all: $*" >&2; exit 1; }
[ -d "$build" ] || die "no build folder $build (--build DIR or STARSCOPE_BUILD)"
build="$(cd "$build" && pwd)"
if [ -z "$reps" ]; then reps=$((quick ? 3 : 5)); fi
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || die "--reps: '$reps' is not a count of at least 1"

if [ "$quick" = 1 ]; then
  batches1=(--batches 100 --test-images 1000)  # the "1-epoch" runs
  long=(--epochs 10 --batches 30 --test-images 1000)
  mid=()                                        # no 5-epoch trace
else
  batches1=()
  long=(--epochs 10)
  mid=(--epochs 5)
fi

starscope="$build/cli/starscope"
tracer_bench="$build/bench/tracer/starscope_tracer_bench"
viewer="$build/viewer/starscope-viewer"
[ -x "$starscope" ] || die "no $starscope: build the starscope target"
# The starpu_fxt_tool of the StarPU this build links (cmake/FindStarPU.cmake's STARPU_PREFIX).
prefix="$(sed -n 's/^STARPU_PREFIX:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null | head -n1)"
fxt_tool="${prefix:-$root/.deps/starpu-1.3.10-fxt}/bin/starpu_fxt_tool"
[ -x "$fxt_tool" ] || die "no starpu_fxt_tool ($fxt_tool): run scripts/setup.sh"
[ -x /usr/bin/time ] || die "no /usr/bin/time (Debian package time)"

if [ -n "$keep" ]; then
  mkdir -p "$keep" && work="$(cd "$keep" && pwd)"
else
  work="$(mktemp -d "${TMPDIR:-/tmp}/starscope-bench.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
fi
echo "run_all: build $build, $reps repetitions$([ "$quick" = 1 ] && echo ", quick"), recording into $work"

now() { date +%s.%N; }
# One figure per line into $work/figures.tsv: key, repetition, value.
put() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >> "$work/figures.tsv"; }
: > "$work/figures.tsv"
json() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."): d=d[k]
print(d)' "$1" "$2"; }
maxrss_kb() { sed -n 's/^\s*Maximum resident set size (kbytes): //p' "$1"; }

# `record` of the CNN: the same settings for every run of a row; its own output into DIR.log.
record() {
  local out="$1"; shift
  /usr/bin/time -v -o "$out.time" "$starscope" record --out "$out" --force "$@" > "$out.log" 2>&1 \
    || die "record failed: $(tail -n 5 "$out.log")"
}
trace_bytes() { du -cb "$1"/prof_file_* | tail -n1 | cut -f1; }
prof_of() { ls "$1"/prof_file_* | head -n1; }

# 1-5. Double+advanced traced and untraced (bench/workloads/record_cost.sh, one repetition at a
# time), then single+naive untraced, alternating in each repetition: barrier share and area
# bound (stats of the traced run), train time (the untraced runs), tracing cost in wall time
# and peak memory (traced against untraced, with the trace written).
for ((r = 1; r <= reps; ++r)); do
  "$root/bench/workloads/record_cost.sh" --build "$build" --keep "$work/cost" --rep "$r" --figures "$work/figures.tsv" \
    -- --arenas double --loader advanced "${batches1[@]}" || die "record_cost failed"
  da="$work/cost/traced-$r"; sn="$work/sn-untraced-$r"
  record "$sn" --arenas single --loader naive --no-trace "${batches1[@]}"
  "$starscope" stats --json "$da" > "$da.stats.json" 2> "$da.stats.log" || die "stats failed: $(cat "$da.stats.log")"
  python3 - "$da.stats.json" "$r" >> "$work/figures.tsv" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
print(f"barrier_share\t{sys.argv[2]}\t{s['barriers']['total_ns'] / s['makespan_ns']}")
# The part of it while FxT wrote its full buffer mid-run (stats' "trace flush" cause).
print(f"flush_share\t{sys.argv[2]}\t{s['barriers'].get('trace_flush_ns', 0) / s['makespan_ns']}")
print(f"area_bound\t{sys.argv[2]}\t{s['area_bound_ns'] / s['makespan_ns']}")
EOF
  # The part of it in which the main thread was not running again yet although what it waited
  # for had ended (operating-system scheduling latency; bench/workloads/late_resume.py).
  if command -v fxt_print > /dev/null; then
    late="$(fxt_print -f "$(prof_of "$da")" 2> /dev/null | "$root/bench/workloads/late_resume.py" \
            | sed -n 's/.*late_resume_share=\([0-9.]*\).*/\1/p')"
    put late_resume_share "$r" "$late"
  fi
  put train_sn "$r" "$(json "$sn/run.json" train_time_s)"
  echo "repetition $r: $(grep -P "^(barrier_share|area_bound|train_sn)\t$r\t" "$work/figures.tsv" | awk '{printf "%s=%s ", $1, $3}')"
  # Keep the last traced run as the 1-epoch trace; the others only take space.
  if [ "$r" -lt "$reps" ]; then rm -rf "$da"/prof_file_* "$work/cost/untraced-$r" "$sn"; fi
done
t1="$work/cost/traced-$reps"

echo "recording the long traces ..."
t10="$work/long"
record "$t10" --arenas double --loader advanced "${long[@]}"
put rss_t10 0 "$(maxrss_kb "$t10.time")"
put trace_t10 0 "$(trace_bytes "$t10")"
put buffer_t10 0 "$(json "$t10/run.json" starpu.fxt.buffer_size_mb)"
t5=""
if [ ${#mid[@]} -gt 0 ]; then
  t5="$work/mid"
  record "$t5" --arenas double --loader advanced "${mid[@]}"
fi

# 5. `stats` against starpu_fxt_tool, whole processes, alternating, on one prof file.
for name in t1 t10; do
  dir="${!name}"; prof="$(prof_of "$dir")"
  put "size_$name" 0 "$(stat -c %s "$prof")"
  mkdir -p "$dir/tool"
  for ((r = 1; r <= reps; ++r)); do
    t0=$(now); "$starscope" stats "$prof" > /dev/null 2> "$dir/stats.err" || die "stats failed: $(cat "$dir/stats.err")"; t1s=$(now)
    put "stats_$name" "$r" "$(echo "$t1s - $t0" | bc -l)"
    t0=$(now); (cd "$dir/tool" && "$fxt_tool" -i "$prof" > tool.log 2>&1) || die "starpu_fxt_tool failed: see $dir/tool/tool.log"; t1s=$(now)
    put "fxt_tool_$name" "$r" "$(echo "$t1s - $t0" | bc -l)"
    echo "stats vs starpu_fxt_tool on $name, run $r: $(grep -P "^(stats|fxt_tool)_$name\t$r\t" "$work/figures.tsv" | awk '{printf "%s %.3f s  ", $1, $3}')"
  done
  # Only the 1-epoch conversion is kept, for ViTE.
  if [ "$name" = t10 ]; then rm -rf "$dir/tool"; fi
done

# 6. Headless render against ViTE from the same paje.trace, alternating.
render_row() {
  local name="$1" dir="$2"
  [ -x "$viewer" ] || { echo "no $viewer: render row skipped"; return; }
  command -v vite > /dev/null && command -v xvfb-run > /dev/null || { echo "no vite/xvfb-run (apt-get install vite xvfb): render row skipped"; return; }
  if [ ! -s "$dir/tool/paje.trace" ]; then
    mkdir -p "$dir/tool"
    (cd "$dir/tool" && "$fxt_tool" -i "$(prof_of "$dir")" > tool.log 2>&1) || die "starpu_fxt_tool failed: see $dir/tool/tool.log"
  fi
  put "paje_$name" 0 "$(stat -c %s "$dir/tool/paje.trace")"
  for ((r = 1; r <= reps; ++r)); do
    t0=$(now); QT_QPA_PLATFORM=offscreen "$viewer" --render "$dir/ours.png" "$dir/tool/paje.trace" > /dev/null 2> "$dir/render.err" \
      || die "starscope-viewer --render failed: $(cat "$dir/render.err")"; t1s=$(now)
    put "render_$name" "$r" "$(echo "$t1s - $t0" | bc -l)"
    rm -f "$dir/vite.svg"
    t0=$(now); (cd "$dir" && xvfb-run -a vite -f tool/paje.trace -e vite.svg > vite.log 2>&1) || true; t1s=$(now)
    [ -s "$dir/vite.svg" ] || die "ViTE wrote no picture: see $dir/vite.log"
    put "vite_$name" "$r" "$(echo "$t1s - $t0" | bc -l)"
    echo "render vs ViTE on $name, run $r: $(grep -P "^(render|vite)_$name\t$r\t" "$work/figures.tsv" | awk '{printf "%s %.2f s  ", $1, $3}')"
  done
}
render_row t1 "$t1"
[ -n "$t5" ] && render_row t5 "$t5"

# 7-8. The model's bytes per span (tracer_bench --model), and the viewer's memory once it has
# opened the biggest trace the viewer row uses: settled resident size and peak, against the model,
# and the viewer's settled size with no trace, alternating with it.
big="${t5:-$t1}"
put size_big 0 "$(stat -c %s "$(prof_of "$big")")"
if [ -x "$tracer_bench" ]; then
  "$tracer_bench" --model "$(prof_of "$big")" > "$work/model.txt" 2>&1 || die "tracer_bench --model failed: $(cat "$work/model.txt")"
  cat "$work/model.txt"
  put model_bps 0 "$(sed -n 's/.*whole model = \([0-9.]*\) bytes\/span.*/\1/p' "$work/model.txt")"
  put model_mb 0 "$(sed -n 's/.*markers, \([0-9.]*\) MB.*/\1/p' "$work/model.txt")"
else
  echo "no $tracer_bench: model rows skipped"
fi
# The viewer's resident size once settled (it has not moved by more than 1 % for 2 s, polled
# every 0.25 s), with the trace, with none (Qt, its fonts and plugins, QCustomPlot, an empty
# window) and with the tests' 0.5 MB trace (a chart drawn: its paint buffers, the same for any
# trace), alternating; all three are printed. Sets rss and hwm (kB).
viewer_settled() {
  QT_QPA_PLATFORM=offscreen "$viewer" "$@" > "$work/viewer.log" 2>&1 &
  local pid=$! last=0 still=0 i
  for ((i = 0; i < 2400; ++i)); do
    sleep 0.25
    rss=$(sed -n 's/^VmRSS:\s*\([0-9]*\) kB/\1/p' "/proc/$pid/status" 2>/dev/null || true)
    [ -n "$rss" ] || die "the viewer ended: $(cat "$work/viewer.log")"
    if [ "$last" -gt 0 ] && [ $((rss > last ? rss - last : last - rss)) -le $((last / 100)) ]; then
      still=$((still + 1)); [ "$still" -ge 8 ] && break
    else
      still=0
    fi
    last=$rss
  done
  hwm=$(sed -n 's/^VmHWM:\s*\([0-9]*\) kB/\1/p' "/proc/$pid/status")
  kill "$pid"; wait "$pid" 2>/dev/null || true
}
if [ -x "$viewer" ]; then
  for ((r = 1; r <= reps; ++r)); do
    viewer_settled
    put viewer_empty_rss "$r" "$rss"
    viewer_settled "$root/tests/data/viewer/single_naive"
    put viewer_small_rss "$r" "$rss"
    viewer_settled "$big"
    put viewer_rss "$r" "$rss"
    put viewer_hwm "$r" "$hwm"
    echo "viewer on $(basename "$big"), run $r: settled $((rss / 1024)) MB, peak $((hwm / 1024)) MB;" \
      "with no trace $(($(grep -P "^viewer_empty_rss\t$r\t" "$work/figures.tsv" | cut -f3) / 1024)) MB," \
      "with the tests' small trace $(($(grep -P "^viewer_small_rss\t$r\t" "$work/figures.tsv" | cut -f3) / 1024)) MB"
  done
else
  echo "no $viewer: viewer memory row skipped"
fi

python3 - "$work/figures.tsv" "$quick" <<'EOF'
import statistics, sys
from collections import defaultdict
runs = defaultdict(dict)
for line in open(sys.argv[1]):
    key, rep, value = line.rstrip("\n").split("\t")
    if value:
        runs[key][int(rep)] = float(value)
quick = sys.argv[2] == "1"
def med(key): return statistics.median(runs[key].values())
def rng(key, fmt):
    v = runs[key].values()
    return f"({fmt(min(v))}-{fmt(max(v))})"
def has(*keys): return all(runs.get(k) for k in keys)
pct = lambda x: f"{100 * x:.1f} %"
rows = []
n = len(runs["barrier_share"])
one = "100 batches" if quick else "1 epoch"
rows.append((f"double+advanced barrier share of makespan ({one}, {n} runs)",
             f"{pct(med('barrier_share'))} {rng('barrier_share', lambda x: f'{100 * x:.1f}')}"
             + (f", of which trace flush {pct(med('flush_share'))}" if has("flush_share") else "")
             + (f", main thread resuming late {pct(med('late_resume_share'))}" if has("late_resume_share") else ""),
             "<= 2 %"))
rows.append(("double+advanced area bound / makespan",
             f"{med('area_bound'):.2f} {rng('area_bound', lambda x: f'{x:.2f}')}", ">= 0.9"))
da, sn = runs["train_untraced"], runs["train_sn"]
faster = sum(1 for r in da if da[r] < sn[r])
rows.append(("double+advanced vs single+naive train time (untraced)",
             f"{med('train_untraced'):.2f} s vs {med('train_sn'):.2f} s ({med('train_sn') / med('train_untraced'):.2f}x), "
             f"faster in {faster}/{len(da)} repetitions", "clearly faster, every repetition"))
ratio = lambda key: med(f"{key}_traced") / med(f"{key}_untraced") - 1
rows.append(("tracing cost, wall (record vs record --no-trace, same run)",
             f"{100 * ratio('process'):+.1f} % process ({med('process_traced'):.2f} s vs {med('process_untraced'):.2f} s), "
             f"{100 * ratio('train'):+.1f} % train time, {100 * ratio('cpu'):+.1f} % CPU time", "<= 5 %"))
mb = lambda kb: kb / 1024
written = med("trace_bytes") / 2**20
rows.append((f"`record` peak memory ({one}, {written:.1f} MB trace, {med('buffer_mb'):.0f} MB FxT buffer, "
             f"{med('flushes'):.0f} flushes)",
             f"{mb(med('anon_traced')):.0f} MB anon traced vs {mb(med('anon_untraced')):.0f} MB untraced = "
             f"{mb(med('anon_traced')) / written:.2f}x the trace written; max RSS {mb(med('rss_traced')):.0f} MB vs "
             f"{mb(med('rss_untraced')):.0f} MB (+{mb(med('rss_traced') - med('rss_untraced')):.0f} MB = "
             f"{(med('rss_traced') - med('rss_untraced')) / 1024 / written:.2f}x)",
             "<= 2x the trace written"))
if has("rss_t10", "trace_t10"):
    long_mb = runs["trace_t10"][0] / 2**20
    rows.append((f"`record` peak memory, {'10 epochs of 30 batches' if quick else '10 epochs'} ({long_mb:.0f} MB trace, "
                 f"{runs['buffer_t10'][0]:.0f} MB FxT buffer)",
                 f"max RSS {mb(runs['rss_t10'][0]):.0f} MB = {mb(runs['rss_t10'][0]) / long_mb:.2f}x the trace written (one run)",
                 "<= 2x the trace written"))
cells = []
for name in ("t1", "t10"):
    if has(f"stats_{name}", f"fxt_tool_{name}"):
        size = runs[f"size_{name}"][0]
        cells.append(f"{size / 1e6:.1f} MB: {med(f'stats_{name}'):.2f} s vs {med(f'fxt_tool_{name}'):.2f} s = "
                     f"{med(f'fxt_tool_{name}') / med(f'stats_{name}'):.1f}x ({size / 1e9 / med(f'stats_{name}'):.2f} GB/s)")
long = "10 epochs of 30 batches" if quick else "10 epochs"
rows.append((f"`stats` vs `starpu_fxt_tool` whole process ({one} / {long})", "; ".join(cells), ">= 20x, >= 1.5 GB/s"))
cells = []
for name, label in (("t1", one), ("t5", "5 epochs")):
    if has(f"render_{name}", f"vite_{name}"):
        cells.append(f"{label} ({runs[f'paje_{name}'][0] / 1e6:.0f} MB Paje): {med(f'render_{name}'):.2f} s vs "
                     f"{med(f'vite_{name}'):.2f} s = {med(f'vite_{name}') / med(f'render_{name}'):.1f}x")
rows.append(("headless render vs ViTE from Paje", "; ".join(cells) or "not measured (see above)", ">= 10x"))
rows.append(("whole model bytes per span", f"{runs['model_bps'][0]:.1f}" if has("model_bps") else "not measured", "<= 24"))
if has("viewer_rss", "viewer_empty_rss", "viewer_small_rss", "model_mb"):
    model = runs["model_mb"][0] * 1e6 / 2**20
    # Each repetition's settled size with the trace, less the same repetition's without one and
    # with the small trace: what this trace adds to Qt alone and to any chart.
    for base in ("empty", "small"):
        runs[f"viewer_over_{base}"] = {r: runs["viewer_rss"][r] - runs[f"viewer_{base}_rss"][r] for r in runs["viewer_rss"]}
    rows.append((f"viewer memory after opening the {runs['size_big'][0] / 1e6:.0f} MB trace",
                 f"{mb(med('viewer_rss')):.0f} MB settled ({mb(med('viewer_rss')) / model:.2f}x model), "
                 f"{mb(med('viewer_hwm')):.0f} MB peak (model {model:.0f} MB); "
                 f"with no trace {mb(med('viewer_empty_rss')):.0f} MB (Qt, fonts, QCustomPlot, empty window): "
                 f"the trace adds {mb(med('viewer_over_empty')):.0f} MB ({mb(med('viewer_over_empty')) / model:.2f}x model); "
                 f"with the tests' 0.5 MB trace {mb(med('viewer_small_rss')):.0f} MB (a chart drawn): "
                 f"it adds {mb(med('viewer_over_small')):.0f} MB ({mb(med('viewer_over_small')) / model:.2f}x model)",
                 "settled <= 1.3x model"))
else:
    rows.append(("viewer memory after opening the biggest trace", "not measured", "settled <= 1.3x model"))
print()
print("| figure | now | target |")
print("|---|---|---|")
for figure, value, target in rows:
    print(f"| {figure} | {value} | {target} |")
EOF

if [ "$scale" = 1 ]; then
  echo
  echo "run_all: the scale table (bench/tracer/scale_steps.sh $scale_args)"
  # shellcheck disable=SC2086 # the arguments are split on purpose
  "$root/bench/tracer/scale_steps.sh" --build "$build" $scale_args || die "scale_steps failed"
fi
