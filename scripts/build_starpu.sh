#!/usr/bin/env bash
# Builds StarPU with FxT tracing and StarPU-MPI (against Debian's OpenMPI) into the project-local
# prefix .deps/starpu-VERSION-fxt:
#   build_starpu.sh                   1.3.10 from Debian's source package (Debian's own binary
#                                     package is built without FxT)
#   build_starpu.sh --source TARBALL  a StarPU release tarball (starpu-X.Y.Z.tar.gz with
#                                     ./configure in it), e.g. 1.4.12 for the tests' second leg
#   build_starpu.sh --source TARBALL --simgrid
#                                     the same release built against SimGrid into
#                                     .deps/starpu-VERSION-simgrid: simulated CUDA GPUs whose task
#                                     and transfer times come from performance models, for the
#                                     tests' GPU leg (no MPI: StarPU-MPI needs SMPI under SimGrid)
#
# The prefix is relocatable (pkg-config files use ${pcfiledir}, binaries an $ORIGIN run path),
# so one build is cached in $STARSCOPE_CACHE_DIR and reused by any clone on this machine. A
# stamp of version + flags + compiler decides whether a prefix or the cache can be reused.
# The build runs in a temporary folder; the prefix is replaced only after a successful build.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

tarball=
simgrid=false
while [ $# -gt 0 ]; do
  case "$1" in
    --source) [ $# -ge 2 ] || die "build_starpu.sh: --source needs a tarball path"; tarball=$2; shift 2 ;;
    --simgrid) simgrid=true; shift ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) die "build_starpu.sh: unknown option '$1' (known: --source TARBALL, --simgrid)" ;;
  esac
done
# Debian's 1.3.10 predates the simulated GPU machines the GPU tests record on.
! $simgrid || [ -n "$tarball" ] || die "build_starpu.sh: --simgrid needs --source TARBALL (a 1.4 release)"

# --enable-blocking-drivers: an idle worker sleeps until a task comes instead of polling on its
# core (StarPU's default), which on a small machine takes the core the main thread needs to
# submit the tasks: on 2 cores double+advanced was then no faster than single+naive.
# --enable-maxcpus: StarPU's default is the build host's core count rounded up to a power of two
# (2 on a small machine), which caps STARPU_NCPU and makes starpu_fxt_tool abort on the traces
# of bigger machines.
configure_flags=(
  --with-fxt --enable-blocking-drivers --enable-maxcpus=64
  --enable-mpi --disable-opencl --disable-cuda --disable-fortran --disable-build-doc
  --disable-build-examples --disable-build-tests --disable-socl --disable-starpufft
  --disable-starpurm --disable-glpk --disable-hdf5 --disable-openmp
)
jobs=$(nproc 2>/dev/null || echo 2)
# A few of StarPU's own example programs (both series have them), installed into the prefix's
# bin/ as starpu_example_NAME: the tests read their traces, which nobody here wrote.
# cholesky_implicit and sgemm stop and restart FxT profiling around what they measure.
examples=(cholesky/cholesky_implicit mult/sgemm lu/lu_implicit_example_float)
# StarPU-MPI's own programs (both series), installed as starpu_mpi_example_NAME: their traces have
# one prof file per rank with messages between ranks. ring passes a token around the ranks,
# stencil5 exchanges neighbour data each iteration, mm distributes a matrix product.
mpi_examples=(examples/stencil/stencil5 examples/matrix_mult/mm tests/ring)
variant=fxt
if $simgrid; then
  # SimGrid runs the real runtime on simulated time; the CPU and GPU counts come from the
  # modelled machine, so the caps must allow the largest one StarPU ships (24 CPUs, 8 GPUs).
  # Blocking drivers are SimGrid's only mode.
  variant=simgrid
  configure_flags=(
    --enable-simgrid --with-fxt --enable-maxcpus=32 --enable-maxcudadev=8
    --disable-mpi --disable-opencl --disable-fortran --disable-build-doc
    --disable-build-examples --disable-build-tests --disable-socl --disable-starpufft
    --disable-starpurm --disable-glpk --disable-hdf5 --disable-openmp
  )
  mpi_examples=()
fi

stamp_text() { # SOURCE_IDENTITY (Debian version, or tarball name + sha256)
  printf 'starpu=%s\nflags=%s\ncc=%s\nmpicc=%s\nexamples=%s\nmpi_examples=%s\nlayout=relocatable-1\n' \
    "$1" "${configure_flags[*]}" "$(cc --version | head -n 1)" "$(mpicc --showme:version 2>&1 | head -n 1)" \
    "${examples[*]}" "${mpi_examples[*]}"
  ! $simgrid || printf 'simgrid=%s\n' "$(pkg-config --modversion simgrid 2>&1)"
}

# The version of StarPU's source package that apt offers, e.g. 1.3.10+dfsg-2.
source_version() {
  apt-cache showsrc starpu 2>/dev/null | awk '/^Version:/ {print $2; exit}'
}

ensure_deb_src() {
  if [ -z "$(source_version)" ]; then
    [ "$(id -u)" = 0 ] || die "StarPU's source package is not visible to apt and adding deb-src needs root"
    say "enabling Debian source packages (deb-src) for bookworm"
    cat > /etc/apt/sources.list.d/starscope-deb-src.sources <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    apt-get update || die "apt-get update failed after adding deb-src"
  fi
  local v; v=$(source_version)
  [ -n "$v" ] || die "apt has no source package 'starpu' even with deb-src enabled"
  case "$v" in
    "$starpu_version"+*|"$starpu_version"-*) ;;
    *) die "apt offers StarPU source $v, but starscope's FxT reader is pinned to $starpu_version" ;;
  esac
}

prefix_is_current() { # DIR STAMP
  [ -f "$1/.starscope-stamp" ] && [ "$(cat "$1/.starscope-stamp")" = "$2" ] \
    && [ -x "$1/bin/starpu_fxt_tool" ] && compgen -G "$1/lib/pkgconfig/starpu-1.[0-9]*.pc" >/dev/null \
    && [ -x "$1/bin/starpu_example_$(basename "${examples[0]}")" ] \
    && { $simgrid || { compgen -G "$1/lib/pkgconfig/starpumpi-1.[0-9]*.pc" >/dev/null \
                       && [ -x "$1/bin/starpu_mpi_example_$(basename "${mpi_examples[0]}")" ]; }; }
}

# Replaces the prefix with SRC as one rename, so a half-copied prefix is never in place.
install_prefix_from() { # SRC_DIR
  local staging="$starpu_prefix.new.$$"
  rm -rf "$staging"
  mkdir -p "$(dirname "$starpu_prefix")"
  cp -a "$1" "$staging"
  rm -rf "$starpu_prefix"
  mv "$staging" "$starpu_prefix"
}

$simgrid || command -v mpicc >/dev/null \
  || die "mpicc not found: StarPU-MPI needs OpenMPI (apt-get install openmpi-bin libopenmpi-dev, or scripts/install_packages.sh)"

if [ -n "$tarball" ]; then
  [ -f "$tarball" ] || die "StarPU source tarball '$tarball' does not exist or is not a regular file"
  # The build runs in a temporary folder: a path relative to the caller's folder must not change meaning.
  tarball=$(realpath "$tarball")
  version=$(basename "$tarball" | sed -n 's/^starpu-\([0-9][0-9.]*[0-9]\)\.tar\.gz$/\1/p')
  [ -n "$version" ] || die "cannot tell the StarPU version from '$tarball' (expected starpu-X.Y.Z.tar.gz)"
  identity="$version tarball sha256 $(sha256sum "$tarball" | cut -c1-64)"
else
  ensure_deb_src
  version=$starpu_version
  identity=$(source_version)
fi
starpu_prefix="$starscope_root/.deps/starpu-$version-$variant"
stamp=$(stamp_text "$identity")
stamp_hash=$(printf '%s' "$stamp" | sha256sum | cut -c1-16)
cached="$starscope_cache/starpu-$version-$variant-$stamp_hash"

if prefix_is_current "$starpu_prefix" "$stamp"; then
  say "StarPU $identity ($variant) already built in $starpu_prefix (stamp matches): skipping"
  exit 0
fi
if prefix_is_current "$cached" "$stamp"; then
  say "reusing the cached StarPU build from $cached"
  install_prefix_from "$cached"
  exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/starscope-starpu.XXXXXX")
trap 'rm -rf "$work"' EXIT
say "building StarPU $identity ($variant) in $work (about 5 minutes on 2 cores, 14 with SimGrid)"
(
  cd "$work"
  if [ -n "$tarball" ]; then
    tar -xzf "$tarball" >tar.log 2>&1 || { cat tar.log >&2; die "cannot unpack $tarball"; }
  else
    apt-get source "starpu=$identity" >apt-source.log 2>&1 \
      || { cat apt-source.log >&2; die "apt-get source starpu=$identity failed"; }
  fi
  src=$(find . -maxdepth 1 -type d -name 'starpu-*' | head -n 1)
  [ -n "$src" ] && [ -x "$src/configure" ] || die "no starpu-*/configure in the unpacked source"
  cd "$src"
  # \$$ORIGIN reaches the linker as $ORIGIN through make and libtool: the run path follows the
  # prefix wherever it is copied.
  ./configure --prefix="$starpu_prefix" "${configure_flags[@]}" \
      LDFLAGS='-Wl,-rpath,\$$ORIGIN/../lib' >configure.log 2>&1 \
    || { tail -n 40 configure.log >&2; die "StarPU configure failed (log: $work/$src/configure.log)"; }
  grep -q '^#define STARPU_USE_FXT 1' src/common/config.h include/starpu_config.h 2>/dev/null \
    || die "StarPU configure did not enable FxT (is libfxt-dev installed?)"
  ! grep -q '^#define STARPU_NON_BLOCKING_DRIVERS 1' include/starpu_config.h \
    || die "StarPU configure kept the spinning (non-blocking) drivers despite --enable-blocking-drivers"
  if $simgrid; then
    grep -q '^#define STARPU_SIMGRID 1' src/common/config.h include/starpu_config.h 2>/dev/null \
      || die "StarPU configure did not enable SimGrid (is libsimgrid-dev installed? log: $work/$src/configure.log)"
  else
    grep -q '^#define STARPU_USE_MPI 1' src/common/config.h include/starpu_config.h 2>/dev/null \
      || die "StarPU configure did not enable StarPU-MPI (is libopenmpi-dev installed? log: $work/$src/configure.log)"
  fi
  make -j"$jobs" >make.log 2>&1 \
    || { tail -n 40 make.log >&2; die "StarPU build failed"; }
  make install DESTDIR="$work/stage" >install.log 2>&1 \
    || { tail -n 40 install.log >&2; die "StarPU install failed"; }
  make -C examples -j"$jobs" "${examples[@]}" >examples.log 2>&1 \
    || { tail -n 40 examples.log >&2; die "building StarPU's example programs failed (is libblas-dev installed?)"; }
  for example in "${examples[@]}"; do
    # libtool leaves a wrapper script in place of a program linked to an uninstalled library.
    binary="examples/$(dirname "$example")/.libs/$(basename "$example")"
    [ -f "$binary" ] || binary="examples/$example"
    install -m 755 "$binary" "$work/stage$starpu_prefix/bin/starpu_example_$(basename "$example")"
  done
  for example in ${mpi_examples[@]+"${mpi_examples[@]}"}; do
    # examples/stencil/stencil5: target stencil/stencil5 of mpi/examples/Makefile.
    make -C "mpi/${example%%/*}" -j"$jobs" "${example#*/}" >>mpi-examples.log 2>&1 \
      || { tail -n 40 mpi-examples.log >&2; die "building StarPU-MPI's program mpi/$example failed"; }
    binary="mpi/${example%%/*}/$(dirname "${example#*/}")/.libs/$(basename "$example")"
    [ -f "$binary" ] || binary="mpi/$example"
    install -m 755 "$binary" "$work/stage$starpu_prefix/bin/starpu_mpi_example_$(basename "$example")"
  done
)
built="$work/stage$starpu_prefix"
# Relocatable pkg-config files; libtool archives hard-code paths and nothing here needs them.
sed -i 's|^prefix=.*|prefix=${pcfiledir}/../..|' "$built"/lib/pkgconfig/*.pc
find "$built/lib" -name '*.la' -delete
shopt -s nullglob # the SimGrid variant has no MPI programs
for program in "$built/bin/starpu_fxt_tool" "$built"/bin/starpu_example_* "$built"/bin/starpu_mpi_example_*; do
  readelf -d "$program" | grep -q 'ORIGIN' || die "$program was linked without the relocatable run path"
done
printf '%s' "$stamp" > "$built/.starscope-stamp"

install_prefix_from "$built"
if mkdir -p "$starscope_cache" 2>/dev/null; then
  rm -rf "$cached.tmp" && cp -a "$built" "$cached.tmp" && rm -rf "$cached" && mv "$cached.tmp" "$cached" \
    || say "warning: could not cache the StarPU build in $starscope_cache (not needed)"
fi
say "StarPU $identity ($variant) installed in $starpu_prefix"
