#!/usr/bin/env bash
# The main job: sets everything up, builds, then records a short training run (a few batches
# of the CNN on MNIST, traced with FxT, then a quick test on 1,000 images) with two strategies
# into runs/:
#   runs/single-naive     one batch arena (a full barrier at every batch) + naive loader
#   runs/double-advanced  two batch arenas + the non-blocking prefetching loader
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/scripts/lib/common.sh"
source "$root/scripts/lib/build.sh"
cd "$root"

"$root/scripts/setup.sh"
run_step "build (default preset)" configure_and_build default

starscope="$root/build/default/workloads/starscope"
batches=${STARSCOPE_DEMO_BATCHES:-40}
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
