#!/usr/bin/env bash
# The main job: sets everything up, builds, then records a short training run (300 batches
# of the CNN on MNIST, traced with FxT, then a quick test on 1,000 images) with two strategies
# into runs/:
#   runs/single-naive     one batch arena (a full barrier at every batch) + naive loader
#   runs/double-advanced  two batch arenas + the non-blocking prefetching loader
# and compares them: the `starscope compare` table on stdout, plus the viewer's comparison
# (its window when a display exists, else a PNG whose path is printed) when the viewer
# supports --compare. It builds the preset `programs` (the programs, the runtime library and the
# man pages: no tests, no benchmarks), whole, so that `cmake --install build/programs` works
# after it (with only the two programs it runs, the install stopped half-way at the runtime
# library), and gives Qt a private runtime folder when the session has none.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/scripts/lib/common.sh"
source "$root/scripts/lib/build.sh"
cd "$root"

"$root/scripts/setup.sh"
run_step "build starscope, starscope-viewer and the runtime library (programs preset)" \
  configure_and_build programs

# Qt wants XDG_RUNTIME_DIR, a folder of the user's own (0700), and warns without it (a root
# shell or a container has none): one for this run, removed at its end.
if [[ -z ${XDG_RUNTIME_DIR:-} ]]; then
  XDG_RUNTIME_DIR=$(mktemp -d "${TMPDIR:-/tmp}/starscope-runtime.XXXXXX")
  export XDG_RUNTIME_DIR
  trap 'rm -rf "$XDG_RUNTIME_DIR"' EXIT
fi

starscope="$root/build/programs/cli/starscope"
batches=${STARSCOPE_DEMO_BATCHES:-300}
for strategy in single:naive double:advanced; do
  arenas=${strategy%%:*}
  loader=${strategy##*:}
  run_step "record $arenas arenas + $loader loader ($batches batches)" \
    "$starscope" record --arenas "$arenas" --loader "$loader" --batches "$batches" \
      --test-images 1000 --out "$root/runs/$arenas-$loader" --force
done

say ""
say "Recorded runs (FxT trace prof_file_* + run.json in each folder):"
say "  $root/runs/single-naive"
say "  $root/runs/double-advanced"
say ""
say "==> compare (baseline single+naive; medians, deltas vs the baseline)"
"$starscope" compare --baseline single+naive "$root/runs/single-naive" "$root/runs/double-advanced"

viewer="$root/build/programs/viewer/starscope-viewer"
if [[ ! -x $viewer ]]; then
  say "(no $viewer: comparison window skipped)"
  exit 0
fi
# Asked rather than assumed: older viewers have no comparison mode.
if ! QT_QPA_PLATFORM=offscreen "$viewer" --help 2>/dev/null | grep -q -- '--compare'; then
  say "(this starscope-viewer has no --compare: comparison window skipped)"
  exit 0
fi
if [[ -n ${DISPLAY:-} || -n ${WAYLAND_DISPLAY:-} ]]; then
  say "==> comparison window (close it to finish)"
  "$viewer" --compare "$root/runs/single-naive" "$root/runs/double-advanced"
else
  png="$root/runs/comparison.png"
  run_step "render the comparison (no display)" \
    env QT_QPA_PLATFORM=offscreen "$viewer" --compare --render "$png" \
      "$root/runs/single-naive" "$root/runs/double-advanced"
  say "Comparison picture: $png"
  printf '%s\n' "$png"
fi
