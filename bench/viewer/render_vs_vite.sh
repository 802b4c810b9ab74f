#!/usr/bin/env bash
# Headless picture of a recorded 64,000-task StarPU trace: starscope-viewer --render (from the
# raw FxT prof_file, and from the same paje.trace ViTE reads) against
# `xvfb-run -a vite -f paje.trace -e out.svg`. Runs alternate, RUNS (default 5) each; prints
# the medians and the ratios. ViTE is installed on demand with apt-get (root only), otherwise
# its part is skipped with a message.
#
#   bench/viewer/render_vs_vite.sh [BUILD_DIR] [RUNS]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$(cd "${1:-$root/build/default}" && pwd)" || { echo "render_vs_vite: no build folder ${1:-$root/build/default}" >&2; exit 1; }
runs="${2:-5}"
viewer="$build/viewer/starscope-viewer"
sample="$build/tests/tracer/starscope_tracer_sample_program"
fxt_tool="$root/.deps/starpu-1.3.10-fxt/bin/starpu_fxt_tool"
work="$build/bench/viewer/vite64k"

die() { echo "render_vs_vite: $*" >&2; exit 1; }
[ -x "$viewer" ] || die "no $viewer: build the starscope-viewer target first"
[ -x "$sample" ] || die "no $sample: build the starscope_tracer_sample_program target first"
[ -x "$fxt_tool" ] || die "no $fxt_tool: run scripts/setup.sh"

# 64 batches of 1000 tasks of 20 us on 2 CPU workers: 64,000 tasks, with batch markers and a
# starpu_task_wait_for_all() barrier between batches.
prof="$(ls "$work"/prof_file_* 2>/dev/null | head -n1 || true)"
if [ -z "$prof" ] || [ ! -s "$work/paje.trace" ]; then
  rm -rf "$work" && mkdir -p "$work"
  echo "recording a 64,000-task trace into $work ..."
  # A buffer large enough that FxT does not flush (and perturb the run) while recording.
  STARPU_TRACE_BUFFER_SIZE=512 "$sample" "$work" --epochs 1 --batches 64 --tasks 1000 --task-us 20 --load-us 1500 --ncpu 2 --chains 8 \
    > "$work/record.log" 2>&1 || die "recording failed: $(tail -n 5 "$work/record.log")"
  prof="$(ls "$work"/prof_file_* | head -n1)"
  (cd "$work" && "$fxt_tool" -i "$prof" > fxt_tool.log 2>&1) || die "starpu_fxt_tool failed: see $work/fxt_tool.log"
fi
tasks=$(grep -c -P '\tWS\tsample_spin\t' "$work/paje.trace" || true)
echo "trace: $prof ($(du -h "$prof" | cut -f1)), paje.trace $(du -h "$work/paje.trace" | cut -f1), $tasks executed tasks"

have_vite=1
if ! command -v vite >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    echo "installing ViTE (Debian package vite) ..."
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends vite > "$work/apt.log" 2>&1 \
      || { apt-get update > /dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends vite > "$work/apt.log" 2>&1; } \
      || have_vite=0
  else
    have_vite=0
  fi
  [ "$have_vite" = 1 ] || echo "ViTE is not installed and cannot be installed here (needs root and apt): skipping its runs"
fi

now() { date +%s.%N; }
elapsed() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.3f}')" "$1" "$2"; }
ours_prof=(); ours_paje=(); vite_times=()
for ((i = 1; i <= runs; ++i)); do
  t0=$(now); QT_QPA_PLATFORM=offscreen "$viewer" --render "$work/ours_prof.png" "$prof" 2> "$work/ours.log" \
    || die "starscope-viewer failed: $(cat "$work/ours.log")"; t1=$(now)
  ours_prof+=("$(elapsed "$t0" "$t1")")
  t0=$(now); QT_QPA_PLATFORM=offscreen "$viewer" --render "$work/ours_paje.png" "$work/paje.trace" 2> "$work/ours.log" \
    || die "starscope-viewer failed: $(cat "$work/ours.log")"; t1=$(now)
  ours_paje+=("$(elapsed "$t0" "$t1")")
  if [ "$have_vite" = 1 ]; then
    rm -f "$work/vite.svg"
    t0=$(now); (cd "$work" && xvfb-run -a vite -f paje.trace -e vite.svg > vite.log 2>&1) || true; t1=$(now)
    [ -s "$work/vite.svg" ] || die "ViTE wrote no picture: see $work/vite.log"
    vite_times+=("$(elapsed "$t0" "$t1")")
  fi
  echo "run $i: starscope prof_file ${ours_prof[-1]} s, starscope paje.trace ${ours_paje[-1]} s${vite_times:+, vite ${vite_times[-1]} s}"
done

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
m_prof=$(median "${ours_prof[@]}")
m_paje=$(median "${ours_paje[@]}")
echo "median starscope-viewer --render (prof_file):   $m_prof s"
echo "median starscope-viewer --render (paje.trace):  $m_paje s"
if [ "$have_vite" = 1 ]; then
  m_vite=$(median "${vite_times[@]}")
  echo "median xvfb-run vite -f paje.trace -e out.svg:  $m_vite s"
  python3 -c "import sys; v,a,b=map(float,sys.argv[1:]); print(f'ratio vite / starscope: {v/a:.1f}x from prof_file, {v/b:.1f}x from paje.trace (target >= 10x)')" "$m_vite" "$m_prof" "$m_paje"
fi
echo "pictures: $work/ours_prof.png $work/ours_paje.png${vite_times:+ $work/vite.svg}"
