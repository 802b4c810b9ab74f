#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh), then runs the whole test suite:
#   1. every test but the viewer's under ASan+UBSan (preset asan)
#   2. runtime tests under ThreadSanitizer (preset tsan)
#   3. runtime, workload and tracer tests against StarPU 1.4.12 (preset starpu14), built with
#      FxT from ../shared/starpu/starpu-1.4.12.tar.gz (or $STARSCOPE_STARPU14_TARBALL) when that
#      file exists (it always does in CI; elsewhere the stage is skipped with a note); the same
#      release built against SimGrid too (cached), for stage 4's GPU tests
#   4. the analysis-only build (preset analysis: no StarPU, no PAPI, no recorder) and its tests:
#      the tracer, common, hardening and viewer tests that need no StarPU, and the GPU tests
#      (label gpu: StarPU's examples recorded on simulated GPU machines by
#      scripts/record_gpu_traces.sh); built after the default preset's objects, which ccache
#      then serves to it
#   5. the Debian package (scripts/package.sh: the package preset, built from the same objects
#      through ccache, packaged and installed into an empty root), which stage 6's packaging
#      tests check again
#   6. every test, viewer included, in the default preset (StarPU 1.3.10)
# The other stages come first so CTest's summary of the full run closes the output. Exits
# non-zero when any stage failed.
# A test that fails is run a second time at once (ctest --repeat until-pass:2) and passes if it
# passes then: some tests run StarPU programs that deadlock inside StarPU now and then (StarPU-MPI
# with out-of-core swap, about once in 40 runs). Tests that needed the second attempt are listed
# before the last stage. The failed tests of an earlier stage are run once more at the very end,
# with their output, so that the closing summary names them (a log that keeps only its tail
# would otherwise lose them).
# Options: --no-sanitizers  skip stages 1 and 2
#          --no-starpu14    skip stage 3
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/scripts/lib/common.sh"
source "$root/scripts/lib/build.sh"
cd "$root"

sanitizers=1
starpu14=1
for arg in "$@"; do
  case "$arg" in
    --no-sanitizers) sanitizers=0 ;;
    --no-starpu14) starpu14=0 ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) die "test.sh: unknown option '$arg' (known: --no-sanitizers, --no-starpu14)" ;;
  esac
done

"$root/scripts/setup.sh"
jobs=$(nproc)
failed=()
retried=()
reruns=()   # "PRESET STAGE" of each stage whose failed tests run again at the end

# stage_tests STAGE PRESET CTEST-ARGS...: runs a stage's tests; notes the tests that failed
# once (retried), and on failure the stage and the names of its failed tests (the next ctest
# run of the preset overwrites CTest's own list).
stage_tests() {
  local stage=$1 preset=$2 start=$SECONDS; shift 2
  local log="$root/build/$preset/ctest-$stage.log"
  if ! ctest --preset "$preset" -j"$jobs" --repeat until-pass:2 "$@" | tee "$log"; then
    failed+=("$stage")
    reruns+=("$preset $stage")
    cut -d: -f2- "$root/build/$preset/Testing/Temporary/LastTestsFailed.log" \
      > "$root/build/$preset/failed-$stage.txt" 2>/dev/null || true
  fi
  local twice
  twice=$(grep -v '\*\*\*Skipped' "$log" | sed -n 's/^.*Test *#[0-9]*: \([^ ]*\) .*\*\*\*.*$/\1/p' | sort -u | paste -sd' ')
  [ -z "$twice" ] || retried+=("$stage: $twice")
  say "==> tests ($stage): done in $((SECONDS - start)) s"
}

# rerun_failed PRESET STAGE: runs the tests STAGE failed once more, with their output.
rerun_failed() {
  local preset=$1 stage=$2
  local list="$root/build/$preset/failed-$stage.txt"
  [ -s "$list" ] || return 0
  local names
  names=$(sed 's/[][\\.^$*+?(){}|]/\\&/g' "$list" | paste -sd'|')
  say "==> stage $stage failed: $(paste -sd' ' "$list"); once more, with their output"
  ctest --preset "$preset" -R "^($names)\$" --output-on-failure || true
}

if [ $sanitizers = 1 ]; then
  run_step "build (asan preset)" configure_and_build asan \
    tests_foundation tests_common tests_runtime tests_tracer tests_workloads tests_hardening
  say "==> tests under ASan+UBSan (all but the viewer)"
  # The asan test preset sets HWLOC_COMPONENTS=-pci: hwloc's PCI plugin (Debian's
  # libhwloc-plugins, which Open MPI brings) leaks at exit, and LeakSanitizer would fail every
  # test that starts StarPU. StarPU does not need PCI discovery on CPU-only runs.
  # RecordedFlushes records a program whose flushes must fall at given places (inside a task,
  # after StarPU's callback): under ASan's slowdown the places move from run to run (1 failure
  # in 4 runs seen), so those tests run in the default preset only.
  stage_tests asan asan -L 'foundation|common|runtime|tracer|workloads|hardening' -E '^RecordedFlushes\.'

  run_step "build (tsan preset)" configure_and_build tsan tests_runtime
  say "==> tests under ThreadSanitizer (runtime)"
  stage_tests tsan tsan -L runtime
fi

if [ $starpu14 = 1 ]; then
  tarball=${STARSCOPE_STARPU14_TARBALL:-$root/../shared/starpu/starpu-1.4.12.tar.gz}
  if [ -f "$tarball" ]; then
    run_step "StarPU 1.4.12 with FxT" "$root/scripts/build_starpu.sh" --source "$tarball"
    run_step "StarPU 1.4.12 with SimGrid" "$root/scripts/build_starpu.sh" --source "$tarball" --simgrid
    run_step "build (starpu14 preset)" configure_and_build starpu14 tests_runtime tests_workloads tests_tracer
    say "==> runtime, workload and tracer tests against StarPU 1.4.12"
    stage_tests starpu14 starpu14 -L 'runtime|workloads|tracer'
  elif [ "${CI:-}" = true ]; then
    die "CI runs the StarPU 1.4.12 leg, but $tarball does not exist"
  else
    say "==> StarPU 1.4.12 leg skipped: no $tarball (set STARSCOPE_STARPU14_TARBALL)"
  fi
fi

run_step "build (default preset)" configure_and_build default

run_step "build (analysis preset)" configure_and_build analysis
say "==> tests of the analysis-only build (no StarPU, no PAPI)"
stage_tests analysis analysis -LE gpu
# Each records its example on its simulated machine (well under a second), then compares.
say "==> GPU tests on simulated machines (analysis preset)"
stage_tests gpu analysis -L gpu

say "==> Debian package"
bash "$root/scripts/package.sh" >/dev/null || failed+=(package)

[ ${#failed[@]} -eq 0 ] || say "==> earlier stages FAILED: ${failed[*]} (see above)"
for line in "${retried[@]}"; do say "==> failed once, then run again: $line"; done
say "==> all tests (default preset)"
status=0
ctest --preset default -j"$jobs" --repeat until-pass:2 || status=$?
if [ ${#failed[@]} -gt 0 ]; then
  status=1
  for rerun in "${reruns[@]}"; do rerun_failed $rerun; done
fi
exit $status
