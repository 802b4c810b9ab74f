#!/usr/bin/env bash
# What each FxT event set costs the CNN: one epoch recorded traced with record's default event
# set, traced with --events all, and untraced (--no-trace), the three alternating within each
# repetition (the order rotates, so a machine getting busier favours none), on the StarPU the
# build uses. Prints per run and as medians [min-max]: run.json's train time, the peak resident
# memory of the record process (/usr/bin/time -f %M), the trace size, whether FxT flushed its
# buffer during the run (StarPU's "flushing trace" line, and the flush interval starscope's
# stats find in the trace), and the ratios against the untraced run. On StarPU 1.3, which
# records every event, the two traced runs record the same set (record says so).
#
#   bench/workloads/tracing_cost.sh [--build DIR] [--reps N] [--keep DIR] [-- RECORD_OPTIONS...]
#
# --build DIR (or STARSCOPE_BUILD=DIR): the build whose cli/starscope runs (default build/default).
# --reps N: repetitions, each one run of every kind (default 5).
# --keep DIR: record into DIR and keep it (default: a temporary folder, removed at the end).
# RECORD_OPTIONS: given to every run (default: --arenas double --loader advanced --epochs 1).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${STARSCOPE_BUILD:-$root/build/default}"
reps=5
keep=""
usage() { echo "usage: bench/workloads/tracing_cost.sh [--build DIR] [--reps N] [--keep DIR] [-- RECORD_OPTIONS...]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --reps) reps="$2"; shift 2 ;;
    --keep) keep="$2"; shift 2 ;;
    --) shift; break ;;
    *) usage ;;
  esac
done
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || { echo "tracing_cost: --reps: a positive count (got '$reps')" >&2; exit 2; }
starscope="$build/cli/starscope"
[ -x "$starscope" ] || { echo "tracing_cost: --build: no $starscope (build the starscope target)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "tracing_cost: /usr/bin/time is needed for the peak memory" >&2; exit 2; }
options=("$@")
[ ${#options[@]} -gt 0 ] || options=(--arenas double --loader advanced --epochs 1)

if [ -n "$keep" ]; then
  work="$keep"; mkdir -p "$work"
else
  work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
fi
tsv="$work/figures.tsv"
: > "$tsv"

kinds=(default all untraced)
for ((k = 1; k <= reps; k++)); do
  for ((i = 0; i < 3; i++)); do
    kind="${kinds[$(((i + k) % 3))]}"
    dir="$work/$kind-$k"
    rm -rf "$dir"
    case "$kind" in
      default) extra=() ;;
      all) extra=(--events all) ;;
      untraced) extra=(--no-trace) ;;
    esac
    /usr/bin/time -f '%M' -o "$dir.rss" "$starscope" record "${options[@]}" "${extra[@]}" --out "$dir" > "$dir.log" 2>&1 \
      || { echo "tracing_cost: record failed ($kind, repetition $k): see $dir.log" >&2; cat "$dir.log" >&2; exit 1; }
    bytes=0
    flushNs=0
    if [ "$kind" != untraced ]; then
      bytes=$(cat "$dir"/prof_file_* | wc -c)
      flushNs=$("$starscope" stats --json "$dir" 2>/dev/null \
        | python3 -c 'import json,sys; print(json.load(sys.stdin)["summary"]["barriers"].get("trace_flush_ns", 0))')
    fi
    python3 - "$dir/run.json" "$kind" "$k" "$(tail -1 "$dir.rss")" "$bytes" \
      "$(grep -c 'flushing trace' "$dir.log" || true)" "$flushNs" >> "$tsv" <<'PY'
import json, sys
path, kind, k, rss, size, flushes, flushNs = sys.argv[1:]
run = json.load(open(path))
events = run.get("starpu", {}).get("fxt", {}).get("events", "-") if kind != "untraced" else "-"
print("\t".join([kind, k, str(run["train_time_s"]), rss, size, flushes, flushNs, events]))
PY
  done
done

python3 - "$tsv" "$starscope" "${options[*]}" <<'PY'
import statistics, sys
tsv, starscope, options = sys.argv[1:]
rows = [line.rstrip("\n").split("\t") for line in open(tsv)]
print(f"tracing_cost: {starscope} record {options}")
print("kind\trep\ttrain_s\tpeak_rss_kb\ttrace_bytes\tflush_lines\tflush_ns_in_trace\tevents")
for r in rows:
    print("\t".join(r))
def col(kind, i):
    return [float(r[i]) for r in rows if r[0] == kind]
def fmt(values, f):
    return f"{f(statistics.median(values))} [{f(min(values))}-{f(max(values))}]"
base = {"train": statistics.median(col("untraced", 2)), "rss": statistics.median(col("untraced", 3))}
# The runs of one repetition ran one after the other: their ratio is less exposed to the
# machine's drift than the ratio of the medians.
def paired(kind):
    train = {r[1]: float(r[2]) for r in rows if r[0] == kind}
    untraced = {r[1]: float(r[2]) for r in rows if r[0] == "untraced"}
    return statistics.median(train[k] / untraced[k] for k in train)
print(f"\nmedians of {len(col('untraced', 2))} runs each [min-max]; x untraced: the ratio of the medians,"
      " then the median of each repetition's ratio; tracing memory: the peak RSS over the untraced"
      " run's, against the trace written:")
print("| run | events | train time s | x untraced | x untraced, paired | peak RSS MiB | tracing memory / trace | trace MB | mid-run flush |")
print("|---|---|---:|---:|---:|---:|---:|---:|---|")
for kind in ("untraced", "default", "all"):
    events = next((r[7] for r in rows if r[0] == kind), "-")
    train, rss, size = col(kind, 2), col(kind, 3), col(kind, 4)
    flushed = sum(1 for r in rows if r[0] == kind and (int(r[5]) > 0 or int(r[6]) > 0))
    traced = kind != "untraced"
    memory = (statistics.median(rss) - base["rss"]) * 1024 / statistics.median(size) if traced else 0
    print(f"| {kind} | {events} | {fmt(train, lambda v: f'{v:.3f}')} | "
          f"{statistics.median(train) / base['train']:.3f} | {paired(kind):.3f} | "
          f"{fmt(rss, lambda v: f'{v / 1024:.1f}')} | {f'{memory:.2f}x' if traced else '-'} | "
          f"{fmt(size, lambda v: f'{v / 1e6:.2f}') if traced else '-'} | "
          f"{f'{flushed} of {len(train)} runs' if traced else '-'} |")
PY
