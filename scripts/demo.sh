#!/usr/bin/env bash
# The main job: sets everything up, builds, records a traced StarPU run into runs/smoke and
# converts it with starpu_fxt_tool.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/scripts/lib/common.sh"
source "$root/scripts/lib/build.sh"
cd "$root"

"$root/scripts/setup.sh"
run_step "build (default preset)" configure_and_build default
