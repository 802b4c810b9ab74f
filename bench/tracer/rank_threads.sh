#!/usr/bin/env bash
# A StarPU-MPI job's prof files decoded one after another against each on a thread of its own:
# `starscope stats` of each job given, whole processes, STARSCOPE_READ_THREADS=1 and =N
# alternating, medians of wall time, CPU time and peak memory and the ratio, as a markdown table. The
# parallel reader's size threshold (kParallelRanksMinBytes in tracer/readers/fxt/fxt_reader.cpp)
# comes from these figures.
#
#   bench/tracer/rank_threads.sh [--build DIR] [--runs N] [--threads N] JOB...
#
# JOB: a run folder of several prof_file_* (scripts record them; tests/data/tracer/ranks13 and
# ranks14 are two real 2-rank runs). --threads N: the parallel side (default: the cores).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${STARSCOPE_BUILD:-$root/build/default}"
runs=9
threads="$(nproc)"
jobs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$2"; shift ;;
    --runs) runs="$2"; shift ;;
    --threads) threads="$2"; shift ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) jobs+=("$1") ;;
  esac
  shift
done
[ ${#jobs[@]} -gt 0 ] || { echo "usage: bench/tracer/rank_threads.sh [--build DIR] [--runs N] [--threads N] JOB..." >&2; exit 2; }
cli="$build/cli/starscope"
[ -x "$cli" ] || { echo "rank_threads: no $cli" >&2; exit 1; }
echo "| job | files | MB | one after another s | on $threads threads s | ratio | CPU s (1 / $threads) | peak MB (1 / $threads) |"
echo "|---|---|---|---|---|---|---|---|"
for job in "${jobs[@]}"; do
  # Wall time from perf_counter (/usr/bin/time's 10 ms steps are too coarse for the small jobs),
  # CPU time and peak memory from the child's rusage.
  python3 - "$cli" "$job" "$runs" "$threads" <<'EOF'
import glob, os, statistics, subprocess, sys, time
cli, job, runs, threads = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
files = sorted(glob.glob(os.path.join(job, "prof_file_*")))
mb = sum(os.path.getsize(f) for f in files) / 1e6
figures = {"1": [], threads: []}
for _ in range(runs):
    for t in ("1", threads):
        env = dict(os.environ, STARSCOPE_READ_THREADS=t)
        start = time.perf_counter()
        child = subprocess.Popen([cli, "stats", job], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        if status != 0:
            sys.exit(f"rank_threads: starscope stats {job} failed ({status})")
        figures[t].append((wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024))
def med(t, i):
    return statistics.median(f[i] for f in figures[t])
def spread(t):
    walls = [f[0] for f in figures[t]]
    return f"{med(t, 0):.3f} [{min(walls):.3f}-{max(walls):.3f}]"
print(f"| {job} | {len(files)} | {mb:.1f} | {spread('1')} | {spread(threads)} | {med('1', 0) / med(threads, 0):.2f}x | "
      f"{med('1', 1):.3f} / {med(threads, 1):.3f} | {med('1', 2):.0f} / {med(threads, 2):.0f} |")
EOF
done
echo
echo "medians of $runs alternating runs each (whole processes); load $(cut -d' ' -f1-3 /proc/loadavg), $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')"
