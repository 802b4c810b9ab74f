#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh), then runs the whole test suite:
#   1. every test but the viewer's under ASan+UBSan (preset asan)
#   2. runtime tests under ThreadSanitizer (preset tsan)
#   3. every test, viewer included, in the default preset
# The sanitizer stages come first so CTest's summary of the full run closes the output. Exits
# non-zero when any stage failed.
# Options: --no-sanitizers  only stage 3 (a quick local run)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/scripts/lib/common.sh"
source "$root/scripts/lib/build.sh"
cd "$root"

sanitizers=1
for arg in "$@"; do
  case "$arg" in
    --no-sanitizers) sanitizers=0 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) die "test.sh: unknown option '$arg' (known: --no-sanitizers)" ;;
  esac
done

"$root/scripts/setup.sh"
jobs=$(nproc)
failed=()

if [ $sanitizers = 1 ]; then
  run_step "build (asan preset)" configure_and_build asan \
    tests_foundation tests_common tests_runtime tests_tracer tests_workloads tests_hardening
  say "==> tests under ASan+UBSan (all but the viewer)"
  ctest --preset asan -L 'foundation|common|runtime|tracer|workloads|hardening' -j"$jobs" || failed+=(asan)

  run_step "build (tsan preset)" configure_and_build tsan tests_runtime
  say "==> tests under ThreadSanitizer (runtime)"
  ctest --preset tsan -L runtime -j"$jobs" || failed+=(tsan)
fi

run_step "build (default preset)" configure_and_build default
[ ${#failed[@]} -eq 0 ] || say "==> sanitizer stages FAILED: ${failed[*]} (see above)"
say "==> all tests (default preset)"
status=0
ctest --preset default -j"$jobs" || status=$?
[ ${#failed[@]} -eq 0 ] || status=1
exit $status
