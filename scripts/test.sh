#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh), builds the default preset and runs the whole test
# suite with CTest. Exits with the tests' status; CTest's summary is the last thing printed.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/scripts/lib/common.sh"
source "$root/scripts/lib/build.sh"
cd "$root"

"$root/scripts/setup.sh"
run_step "build (default preset)" configure_and_build default
say "==> tests"
ctest --preset default -j"$(nproc)"
