#!/usr/bin/env bash
# Time and peak memory of each step of opening a big StarPU-MPI job (issue 29), whole processes
# (wall time, peak resident memory, peak anonymous memory): synthetic 4-rank jobs (16 workers a
# rank, tasks chained per worker by dependencies, batch markers, messages between the ranks) of
# about 10 M and 100 M spans, and for each:
#   generate (streamed)  starscope-viewer-synth: the job streamed into its native file as it is
#             made (SyntheticJob, tracer::TraceStream: the bytes writeNativeFile writes for
#             makeSyntheticRanksTrace), never whole in memory
#   cat       dd if=FILE of=/dev/null bs=16M: one sequential read of the whole file, the least
#             any tool reading it once pays (from the page cache while the file fits it, else
#             from the disk)
#   read      starscope_tracer_bench --model FILE (reads the file into the model, nothing else),
#             checking every record of its columns and its checksum (no stamp: each run
#             starts without one)
#   reread    the same, once a read has checked the file whole and stamped it
#             (tracer/native/verified_files.hpp): the columns are mapped and nothing checked;
#             stats, render and scroll read so too, as they do once a user has opened a file
#   stats     starscope stats FILE
#   render    starscope-viewer FILE --render OUT.png (offscreen): the viewer's first frame
#   scroll    starscope-viewer-replot-bench --trace FILE --only mid: the median redraw of a
#             1/100 window panned across the job (the "wall s" column is that frame's median;
#             the memory is the whole process's, which read and prepared the job first)
# and prints a markdown table (spans | step | wall s | peak RSS GiB | of it anonymous GiB) of
# medians over the runs. Peak RSS counts the pages of a mapped native file the process read
# (page cache, which the kernel takes back under pressure); the anonymous peak is the
# process's own memory, sampled every 20 ms.
#
#   bench/tracer/scale_steps.sh [--build DIR] [--data DIR] [--sizes "10 100"] [--reps N]
#                               [--big-reps N] [--giant [--giant-force]] [--keep]
#
# --sizes: millions of spans (about: the generator makes whole batches); default "10 100".
# --reps N: runs of each step below 100 M spans (default 3); --big-reps N from 100 M on
#   (default 1: a 100 M step takes minutes).
# --giant: also 1,000 M spans. The generator streams the job in some tens of MiB whatever its
#   size, so what bounds a size is the disk: a job whose file (about 36 bytes a span: 36 GB at
#   1,000 M) does not fit the free space of --data's file system is not attempted, and the table
#   says so with both figures. The steps that read the job map its file (the model's columns are
#   the file's pages, which the kernel takes back under pressure) and hold about 8 bytes a span
#   of their own (lane indexes, the critical path's table): a step whose estimate exceeds the
#   memory available is not attempted either, with both figures. --giant-force attempts both
#   anyway: a write that runs out of disk fails with the message and leaves no file; a read runs
#   with its own memory (prlimit --data: the mapped file is not counted) limited to 90 % of the
#   memory available, so that it fails cleanly (no out-of-memory killer among other processes).
# --data DIR: where the jobs are written (default a temporary folder; they are removed at the
#   end unless --keep: about 3.6 GB per 100 M spans).
#
# The generator, streamed (a21aa5f) at load 2-4 (wall s, [min-max] of the runs / peak RSS),
# against the one it replaces, which made the job in memory and then wrote it (one run each,
# alongside the 1 G job):
#   spans      streamed                          in memory, then written
#   10.2 M     [0.65-1.75] s, 4 runs / 4.8 MiB   2.14 s / 564 MiB
#   102 M      [7.5-13.0] s, 2 runs / 7.2 MiB    15.1 s / 4.37 GiB
#   1,022 M    92.6 s, 1 run / 32.3 MiB          not attempted (about 60 GiB); file 36.2 GB
# (its memory: each rank's batch ends, 8 bytes a batch, 7 MB a rank at 1 G spans, and a few
# buffers of 64 to 256 KiB; the rest of the 1 G job's time is the kernel writing 36 GB.)
#
# Seen at load 1.8-2.1 (this script, --giant, --big-reps 1: one run each from 100 M on, medians of
# 3 at 10 M; wall s / peak RSS GiB / of it anonymous GiB), before (--build of bd15791, whose
# reader copies the file's columns into the model and whose generator builds the job in memory)
# and after (88510a1: the model reads the mapped file where it lies, the job streamed):
#   step      10 M before        10 M after         100 M before       100 M after        1,022 M after
#   generate  1.20 / 0.55 / 0.52 0.55 / 0.01 / 0.00 10.6 / 4.37 / 4.35 4.66 / 0.01 / 0.00 63.0 / 0.03 / 0.03
#   read      0.29 / 0.36 / 0.35 0.21 / 0.17 / 0.02 2.41 / 3.51 / 3.50 1.64 / 1.64 / 0.23 35.8 / 16.3 / 2.29
#   stats     0.56 / 0.40 / 0.40 0.49 / 0.43 / 0.10 4.99 / 3.97 / 3.96 4.53 / 3.97 / 0.69 98.7 / 23.1 / 6.73
#   render    0.66 / 0.43 / 0.41 0.55 / 0.43 / 0.08 4.40 / 3.99 / 3.96 3.88 / 3.99 / 0.68 115 / 23.1 / 6.79
#   scroll    0.106/ 0.42 / 0.40 0.106/ 0.42 / 0.07 0.124/ 3.98 / 3.95 0.126/ 3.98 / 0.68 0.149/ 22.9 / 6.78
# (1,022 M before: not attempted, about 48 GB of memory of its own on a 24 GiB machine. After,
# its 36 GB file does not fit the page cache: each pass over it reads the disk again, so 10x the
# spans of 100 M cost 22x the time of stats.) The peak RSS counts the mapped file's pages the
# process touched: the process's own memory fell 5.7x at 100 M (3.96 -> 0.69 GiB), its peak RSS
# did not. Under load the mapped model gains more time: alternating base and new three times on
# one 102 M job at load 2-3, read 2.90 / 6.46 / 10.4 s -> 1.74 / 1.75 / 2.51 s, stats 6.90 / 8.00
# / 11.0 -> 4.39 / 4.63 / 5.25 s, render 6.49 / 7.61 / 9.77 -> 3.86 / 4.04 / 4.81 s (the
# copy's zeroed pages compete with the page cache for memory; the view takes none).
#
# Letting go of the pages a pass is done with (Column::releaseResident, ReleasingPass; d11a9e6,
# f6c5154): alternating 88510a1's build (base) and the new one 3 times on one 102 M job at load
# about 2 (wall s median / peak RSS GiB / of it anonymous GiB):
#   step     base                 new                  what it took
#   read     1.60 / 1.64 / 0.23   1.66 / 0.24 / 0.23   the task index's two passes let go behind them
#   stats    4.31 / 3.97 / 0.69   4.39 / 2.44 / 0.69   per lane in the range statistics and the idle
#                                                      gaps; after the task passes
#   render   3.78 / 3.99 / 0.69   3.69 / 2.48 / 0.69   per level in the lane index; the document's
#                                                      passes done; span names from the first tasks
# (the page cache keeps the pages: a pass that reads them again maps them again, minor faults).
# Letting go behind the summary's task pass and the critical path's walk as well took the peak of
# stats to 1.99 GiB but its time from 4.99 to 5.62 s (the two passes, on two cores, let go of
# what the other was about to read): not kept. This script at load 2-4 (3033e1e: before the task
# index let go; 1 G also at f6c5154), one run each: 102 M read 2.94 / 1.64 / 0.23, stats 7.34 /
# 2.45 / 0.69, render 5.70 / 2.46 / 0.70, scroll 0.124 / 2.45 / 0.68; 1,022 M read 44.3 / 16.3 /
# 2.30 -> 37.8 / 2.33 / 2.30 (f6c5154), stats 97.0 / 21.8 / 6.94 -> 95.4 / 22.1 / 6.96, render
# 93.6 / 21.4 / 6.41 -> 110 / 19.3 / 6.80, scroll 0.147 -> 0.141. The 1 G peaks of stats and
# the render were not broken down; at 102 M the render's first frame mapped 1.5 GiB of spans
# (the kernel maps 64 KiB around each page a fold reads) and the critical path all the tasks.
#
# Native files checked whole once read without checks (265b4b4: the reread step), the machine
# figures of one kind of worker skipped (068d38d, 2d688ec), the lanes' task index in one pass
# over the tasks (f58a3b8), the FxT reader's small end (30df3ac): this script at 5a6fd85, load
# 0.8-1.7, medians of 3 (wall s / peak RSS GiB / of it anonymous GiB):
#   step     10.2 M               102 M
#   read     0.186 / 0.04 / 0.03  1.59 / 0.33 / 0.31   checked whole, as every read was
#   reread   0.102 / 0.04 / 0.03  0.772 / 0.33 / 0.30  stamped: the columns mapped, none checked
#   stats    0.248 / 0.26 / 0.07  3.08 / 2.45 / 0.69
#   render   0.45 / 0.28 / 0.08   3.14 / 2.46 / 0.68
#   scroll   0.109 / 0.27 / 0.07  0.135 / 2.46 / 0.69   (before f68a633's flat arrow caps)
# Alternating 9fafb97's build and e08fb19's 3 times on one 102 M job (stamped, load 2-3): stats
# 6.74 -> 4.18 s, render 6.12 -> 4.69 s. At 1,022 M (e08fb19, load 3.7-4.4, one run each): read
# 90.1 / 2.33 / 2.30, reread 17.1 / 2.33 / 2.30, stats 92.6 / 20.4 / 6.95, render 95.7 / 18.3 /
# 6.82, scroll 0.133; alternating 9fafb97's and e08fb19's once each (load about 4): stats 163.2
# -> 124.0 s, render 166.1 -> 125.1 s; the stamped read before and after f58a3b8 (alternating
# twice): 36.5, 14.9 -> 16.5, 11.1 s. The file (34 GB) outgrows the page cache: every pass over
# it reads the disk, so 1 G still costs 30-40x 100 M's time, not 10x.
#
# The cat step (one sequential read of the file), arrows drawn with an opaque halo (32b3d25)
# and bundled as they are found (5a349d4), codelet statistics in one pass over the tasks
# (af67527): this script with --giant at 60065c0 (the code of da5522f; load 1.6-1.8) and at
# af67527 (load 1.5-2.0); medians of 3 at 10 M, one run each from 100 M on (wall s / peak RSS
# GiB / of it anonymous GiB):
#   step     10.2 M before       10.2 M after        102 M before        102 M after         1,022 M before      1,022 M after
#   cat      0.063 / 0.02 / 0.02 0.061 / 0.02 / 0.02 0.531 / 0.02 / 0.02 0.467 / 0.02 / 0.02 22.4 / 0.02 / 0.02  22.4 / 0.02 / 0.02
#   read     0.204 / 0.04 / 0.02 0.164 / 0.04 / 0.02 2.14 / 0.33 / 0.31  1.67 / 0.33 / 0.30  36.9 / 3.21 / 3.18  36.1 / 3.21 / 3.16
#   reread   0.123 / 0.04 / 0.03 0.082 / 0.04 / 0.02 0.796 / 0.33 / 0.30 0.831 / 0.33 / 0.31 11.5 / 3.21 / 3.18  19.5 / 3.21 / 3.18
#   stats    0.337 / 0.26 / 0.07 0.227 / 0.29 / 0.11 2.49 / 2.45 / 0.69  2.63 / 2.49 / 0.73  50.2 / 21.6 / 6.96  39.0 / 21.1 / 6.99
#   render   0.53 / 0.28 / 0.08  0.369 / 0.28 / 0.07 3.15 / 2.48 / 0.70  2.94 / 2.46 / 0.69  66.0 / 20.8 / 6.65  56.6 / 20.9 / 6.50
#   scroll   0.0718/ 0.27 / 0.07 0.0217/ 0.27 / 0.07 0.127 / 2.47 / 0.68 0.0363/ 2.45 / 0.68 0.120 / 17.8 / 6.78 0.0603/ 17.7 / 6.78
# Only stats (the codelet pass) and scroll (the arrows) changed between the two builds; the
# other differences are the machine's (single runs from 100 M on). What the levers bought,
# alternating the builds before and after each in one run (medians of 3, 102 M): a redraw at
# 1/100 86.8 -> 35.8 ms and at fit-all 161.9 -> 113.5 ms (opaque halo), fit-all 112.9 -> 75.8 ms
# (bundled as found); stats 2.56 -> 2.29 s (the codelet table 598 -> 529 ms, phases bench).
# At 1,022 M, stats alternating twice: 50.6, 51.1 -> 47.9, 44.6 s (the 39.0 s above was one
# lucky run of the page cache). Then the look for a view's messages from the first that can
# reach it (MessageReach, 76c4431): the 1/100 redraw at 1,022 M (5.5 M messages), alternating
# twice, 57.3, 61.2 -> 45.9, 45.0 ms; at 102 M 37.1 -> 35.4 ms (3 times).
# From 100 M to 1 G the file (3.4 -> 34 GB) outgrows the page cache, and reading it once costs
# 48x, not 10x (the cat step): the steps are bound by the disk from there. stats costs 1.7 cat
# at 1 G against 5.6 at 100 M, the render 2.5 against 6.3: per byte read, no step grows.
#
# Seen on the 2-core machine shared with other engineers' builds (load 3-7: noisy), 102 M
# spans one run, 10 M medians of 3 (wall s / peak RSS GiB):
#   step    10 M before   10 M after    100 M before   100 M after    100 M, file let go
#   read    1.70 / 0.96   0.83 / 0.96   43.4 / 9.56    9.69 / 9.58    10.4 / 4.58
#   stats   3.58 / 0.96   1.36 / 0.96   51.2 / 9.52    16.1 / 9.52    14.2 / 4.65
#   render  2.23 / 1.01   2.40 / 1.01   42.7 / 9.61    15.6 / 9.61    13.2 / 4.88
#   scroll  0.085 / 0.98  0.073 / 0.98  0.142 / 9.60   0.132 / 9.60   0.105 / 4.87
# (before: the code at 1266475; after: the native read's task table searched from its last find,
# lanes' tasks sorted only when unsorted, codelet medians selected, not sorted; file let go: the
# native reader releases the file's pages behind it, 1e46c63, where 10 M read 1.26 / 0.47.) The
# peak was about 100 bytes per span, the model's 36 and the mapped file's 50; with the file let go
# it is about 48: the 3 GB of issue 29 needs the model itself smaller or mapped.
# What stats and the render do after the read, step by step, is what
# build/default/bench/viewer/starscope-viewer-phases-bench --trace FILE times (in one process, after
# one read). Seen at load 4-5, 100 M spans one run each, 10 M medians of 5 (ms), before (be16e10)
# and after the barriers read lane by lane once for the job and its ranks, the codelet table by key
# id with medians counted by buckets, the critical path from the model's table on another core,
# header rows' columns per lane once per frame, the palette per codelet key:
#   step                 10 M before  10 M after  100 M before  100 M after
#   stats after the read    714         260         5 520         2 020
#   render after the read   853         332         5 680         1 450
# (whole processes at 10 M, load 4.7-4.8, medians of 7: stats 1.72 -> 1.36 s, render 1.95 -> 1.41 s
# against a read of 1.12 s; at 100 M, load 4.2-5.2, medians of 3: stats 20.9 -> 16.3 s, render
# 19.6 -> 15.1 s against a read of 12.5 s; peak stats 4.65 -> 4.51 GiB, render 4.88 -> 4.60 GiB.)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${STARSCOPE_BUILD:-$root/build/default}"
data=""
sizes="10 100"
reps=3
bigReps=1
giant=0
force=0
keep=0
usage() {
  echo "usage: bench/tracer/scale_steps.sh [--build DIR] [--data DIR] [--sizes \"10 100\"] [--reps N] [--big-reps N] [--giant] [--keep]" >&2
  exit 2
}
while [ $# -gt 0 ]; do
  case "$1" in
    --build) [ $# -ge 2 ] || usage; build="$2"; shift ;;
    --data) [ $# -ge 2 ] || usage; data="$2"; shift ;;
    --sizes) [ $# -ge 2 ] || usage; sizes="$2"; shift ;;
    --reps) [ $# -ge 2 ] || usage; reps="$2"; shift ;;
    --big-reps) [ $# -ge 2 ] || usage; bigReps="$2"; shift ;;
    --giant) giant=1 ;;
    --giant-force) giant=1; force=1 ;;
    --keep) keep=1 ;;
    -h|--help) sed -n '2,45p' "$0"; exit 0 ;;
    *) echo "scale_steps: unknown option $1" >&2; usage ;;
  esac
  shift
done
die() { echo "scale_steps: $*" >&2; exit 1; }
[[ "$reps" =~ ^[1-9][0-9]*$ && "$bigReps" =~ ^[1-9][0-9]*$ ]] || die "--reps and --big-reps take a count of at least 1"
[ "$giant" = 0 ] || sizes="$sizes 1000"
synth="$build/bench/viewer/starscope-viewer-synth"
replot="$build/bench/viewer/starscope-viewer-replot-bench"
viewer="$build/viewer/starscope-viewer"
reader="$build/bench/tracer/starscope_tracer_bench"
cli="$build/cli/starscope"
for tool in "$synth" "$reader" "$cli"; do
  [ -x "$tool" ] || die "missing $tool (build the benchmarks: cmake --build --preset default)"
done
if [ -z "$data" ]; then
  data="$(mktemp -d "${TMPDIR:-/tmp}/starscope-scale.XXXXXX")"
fi
mkdir -p "$data"
cleanup() {
  if [ "$keep" = 0 ]; then
    rm -f "$data"/job-*.sstrace "$data"/render-*.png
    rm -rf "$data/verified"
  fi
}
trap cleanup EXIT
export QT_QPA_PLATFORM=offscreen

rows=()
# One row: the median wall and the highest peaks of the runs (a step's memory hardly varies).
addRow() { # spans step runs... (each "wall kib anonkib")
  local spans="$1" step="$2"
  shift 2
  rows+=("$(printf '%s\n' "$@" | python3 -c '
import sys, statistics
runs = [l.split() for l in sys.stdin if l.strip()]
walls = sorted(float(r[0]) for r in runs)
peak = max(int(r[1]) for r in runs) / 1024 / 1024
anon = max(int(r[2]) for r in runs) / 1024 / 1024
spread = "" if len(walls) == 1 else " [%.3g-%.3g]" % (walls[0], walls[-1])
print("| %s | %s | %.3g%s (%d run%s) | %.2f | %.2f |" % (sys.argv[1], sys.argv[2], statistics.median(walls), spread,
      len(walls), "" if len(walls) == 1 else "s", peak, anon))
' "$spans" "$step")")
}
# Runs a command; prints "wall kib anonkib" (and its own output to $data/last.out): its wall
# time, its peak resident memory (the kernel's, file pages mapped included) and the peak of its
# anonymous memory (sampled every 20 ms from /proc: what is the process's own, not page cache
# of a mapped file, which the kernel takes back under pressure).
timed() {
  python3 - "$data/last.out" "$data/last.err" "$@" <<'PY'
import os, subprocess, sys, time
out, err, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
def anon_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("RssAnon:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0
with open(out, "w") as o, open(err, "w") as e:
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=o, stderr=e)
    peak_anon = 0
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid != 0:
            break
        peak_anon = max(peak_anon, anon_kib(proc.pid))
        time.sleep(0.02)
    wall = time.monotonic() - start
if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
    sys.exit(1)
print(f"{wall:.3f} {usage.ru_maxrss} {peak_anon}")
PY
  local rc=$?
  if [ $rc != 0 ]; then
    echo "scale_steps: failed: $*" >&2
    tail -5 "$data/last.err" >&2
    return 1
  fi
}

for millions in $sizes; do
  # 4 ranks x 16 workers x batches x 8 tasks x 2 spans (scheduling, executing) + a sleep per
  # worker and batch: 1,088 spans a batch.
  batches=$((millions * 1000000 / 1088))
  [ "$millions" -ge 100 ] && runs=$bigReps || runs=$reps
  job="$data/job-${millions}M.sstrace"
  label="${millions} M"
  echo "== ${millions} M spans: $batches batches, $runs run(s) a step" >&2
  # The file: about 36 bytes a span (a span's 16, a task's 32 for every 2.1 spans, the
  # dependency tables' 8 per task); what its file system has free, of --data's folder.
  needGB=$(((millions * 36 + 999) / 1000))
  freeGB=$(($(df --output=avail -B1 "$data" | tail -1) / 1000000000))
  if [ "$needGB" -gt "$freeGB" ] && [ "$force" = 0 ]; then
    rows+=("| $label | generate (streamed) | not attempted: needs about $needGB GB of disk, $freeGB GB free in $data (--giant-force tries) | - | - |")
    continue
  fi
  if ! gen=$(timed "$synth" "$job" --ranks 4 --workers 16 --batches "$batches" \
      --tasks-per-worker 8 --barrier-us 1000 --jitter 0.3 --dependencies); then
    rows+=("| $label | generate (streamed) | failed: $(tail -1 "$data/last.err" | cut -c1-80) | - | - |")
    rm -f "$job"
    continue
  fi
  label="$(grep -o '[0-9]* spans' "$data/last.out" | awk '{printf "%.1f M", $1 / 1e6}')"
  echo "   $(cat "$data/last.out"), $(du -h "$job" | cut -f1)" >&2
  addRow "$label" "generate (streamed)" "$gen"
  # The reading steps map the job's file (page cache, which the kernel takes back) and hold
  # about 8 bytes a span of their own (see --giant).
  limit=()
  avail=$(awk '/MemAvailable/ {print $2}' /proc/meminfo)   # KiB
  readGiB=$(((millions * 8 + 1023) / 1024))
  if [ $((readGiB * 1024 * 1024)) -gt "$avail" ]; then
    if [ "$force" = 0 ]; then
      for step in cat read reread stats render scroll; do
        rows+=("| $label | $step | not attempted: needs about $readGiB GiB of its own, $((avail / 1024 / 1024)) GiB available (--giant-force tries) | - | - |")
      done
      [ "$keep" = 1 ] || rm -f "$job"
      continue
    fi
    # The data limit counts the process's own memory, not the mapped file.
    limit=(prlimit --data=$((avail * 1024 * 9 / 10)))
    echo "   readers limited to $((avail * 9 / 10 / 1024 / 1024)) GiB of memory of their own" >&2
  fi
  # The stamps of this script's reads, apart from the user's; a file is stamped once it has not
  # changed for a second.
  export STARSCOPE_VERIFIED_FILES="$data/verified"
  sleep 1.1
  for step in cat read reread stats render scroll; do
    results=()
    for ((r = 0; r < runs; r++)); do
      case "$step" in
        cat) out=$(timed dd if="$job" of=/dev/null bs=16M status=none) ;;
        read)
          rm -rf "$STARSCOPE_VERIFIED_FILES"
          out=$(timed "${limit[@]}" "$reader" --model "$job") ;;
        reread) out=$(timed "${limit[@]}" "$reader" --model "$job") ;;
        stats) out=$(timed "${limit[@]}" "$cli" stats "$job") ;;
        render)
          [ -x "$viewer" ] || break
          out=$(timed "${limit[@]}" "$viewer" "$job" --render "$data/render-${millions}M.png") ;;
        scroll)
          [ -x "$replot" ] || break
          out=$(timed "${limit[@]}" "$replot" --trace "$job" --only mid --repeats 10)
          frame=$(awk '/^mid zoom/ {print $4}' "$data/last.out")
          out="$(python3 -c "print(f'{$frame / 1000:.6g}')") ${out#* }" ;;
      esac
      echo "   $step: $out" >&2
      results+=("$out")
    done
    if [ ${#results[@]} -gt 0 ]; then
      addRow "$label" "$step" "${results[@]}"
    else
      rows+=("| $label | $step | n/a (binary missing) | - | - |")
    fi
  done
  [ "$keep" = 1 ] || rm -f "$job"
done

echo
echo "| spans | step | wall s | peak RSS GiB | of it anonymous GiB |"
echo "|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "wall s: median [min-max] of the runs; scroll: the median redraw of one frame (10 frames a run)."
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')"
