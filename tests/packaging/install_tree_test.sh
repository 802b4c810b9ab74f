#!/usr/bin/env bash
# `cmake --install` of this build into a temporary prefix gives the tree a user expects, whose
# programs run from there without LD_LIBRARY_PATH; with the recorder, a project outside starscope
# (tests/packaging/consumer) finds the installed package with find_package(starscope), links
# starscope::runtime and runs, and the same program builds with pkg-config's starscope.pc.
# Builds nothing of starscope: the build must be complete (ctest runs after the build).
#   install_tree_test.sh BUILD_DIR RECORDER(ON|OFF) VIEWER(ON|OFF) VERSION
# The install folders come from the environment (the build's GNUInstallDirs values): BINDIR,
# LIBDIR, INCLUDEDIR, DATADIR, MANDIR; with the recorder STARPU_PKG_CONFIG_DIR and
# STARPU_PKG_CONFIG_MODULE (StarPU's .pc folder and module) too.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/../../scripts/lib/common.sh"
source "$here/packaging_checks.sh"

[ $# -eq 4 ] || die "usage: install_tree_test.sh BUILD_DIR RECORDER VIEWER VERSION"
build=$1 recorder=$2 viewer=$3 version=$4

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 \
  || { cat "$work/install.log" >&2; die "cmake --install $build failed"; }

expected=(
  "$BINDIR/starscope"
  "$MANDIR/man1/starscope.1.gz"
)
if [ "$viewer" = ON ]; then
  expected+=(
    "$BINDIR/starscope-viewer"
    "$MANDIR/man1/starscope-viewer.1.gz"
    "$DATADIR/applications/starscope-viewer.desktop"
    "$DATADIR/icons/hicolor/scalable/apps/starscope-viewer.svg"
    "$DATADIR/mime/packages/starscope-viewer.xml"
  )
fi
if [ "$recorder" = ON ]; then
  expected+=(
    "$LIBDIR/libstarscope_runtime.so" "$LIBDIR/libstarscope_runtime.so.${version%.*}"
    "$LIBDIR/libstarscope_runtime.so.$version"
    "$LIBDIR/libstarscope_arena.so" "$LIBDIR/libstarscope_arena.so.${version%%.*}"
    "$LIBDIR/libstarscope_arena.so.$version" "$INCLUDEDIR/starscope/arena.h"
    "lib/starscope/libstarscope_fxt_preload.so" "lib/starscope/starscope-recorder"
    "$LIBDIR/cmake/starscope/starscopeConfig.cmake" "$LIBDIR/cmake/starscope/starscopeConfigVersion.cmake"
    "$LIBDIR/cmake/starscope/starscopeTargets.cmake" "$LIBDIR/pkgconfig/starscope.pc"
  )
  for header in arena arena_counters batch_arena_ring error image_loader trace_markers; do
    expected+=("$INCLUDEDIR/starscope/runtime/$header.hpp")
  done
  for header in error markers result; do
    expected+=("$INCLUDEDIR/starscope/common/$header.hpp")
  done
fi
# Every file expected, and nothing else but the per-configuration targets file(s).
actual=$(cd "$prefix" && find . \( -type f -o -type l \) | sed 's|^\./||' \
  | grep -v "^$LIBDIR/cmake/starscope/starscopeTargets-[a-z]*\.cmake$" | sort)
wanted=$(printf '%s\n' "${expected[@]}" | sort)
[ "$actual" = "$wanted" ] || die "installed tree differs from the expected one (< installed, > expected):
$(diff <(printf '%s\n' "$actual") <(printf '%s\n' "$wanted"))"
say "installed tree: ${#expected[@]} files as expected"

check_installed_programs "$prefix/$BINDIR" "$prefix/$LIBDIR" "$version" "$viewer" "$work"
if [ "$recorder" = ON ]; then
  # record and sweep run in the recorder, which the installed front end finds and which finds
  # its libraries (StarPU's among them) from there; the front end loads none of StarPU's.
  missing=$(env -u LD_LIBRARY_PATH ldd "$prefix/lib/starscope/starscope-recorder" | grep 'not found' || true)
  [ -z "$missing" ] || die "the installed recorder does not find its libraries: $missing"
  env -u LD_LIBRARY_PATH "$prefix/$BINDIR/starscope" record --help >"$work/record-help.txt" \
    || die "installed starscope record --help failed"
  grep -q -- '--epochs' "$work/record-help.txt" || die "installed starscope record --help printed: $(cat "$work/record-help.txt")"
  ! env -u LD_LIBRARY_PATH ldd "$prefix/$BINDIR/starscope" | grep -E 'libstarpu|libmpi|libpapi' \
    || die "the installed starscope links the recorder's libraries"
  say "installed recorder: found by starscope record, finds its libraries"
fi
check_man_pages "$prefix/$MANDIR/man1" "$viewer"
[ "$viewer" = ON ] && check_desktop_files "$prefix/$DATADIR" "$work"

if [ "$recorder" = ON ]; then
  say "consumer project with find_package(starscope)"
  cmake -S "$here/consumer" -B "$work/consumer" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_CXX_STANDARD=20 >"$work/consumer.log" 2>&1 \
    || { cat "$work/consumer.log" >&2; die "the consumer project does not configure against $prefix"; }
  cmake --build "$work/consumer" >>"$work/consumer.log" 2>&1 \
    || { cat "$work/consumer.log" >&2; die "the consumer project does not build against $prefix"; }
  output=$(env -u LD_LIBRARY_PATH "$work/consumer/starscope_consumer") || die "the consumer program failed: $output"
  [[ $output == naive*advanced*no-such-loader* ]] || die "the consumer printed: $output"
  say "consumer (CMake): built and ran: $(printf '%s' "$output" | head -n 4 | tr '\n' ' ')"

  say "consumer with pkg-config starscope"
  flags=$(PKG_CONFIG_PATH="$prefix/$LIBDIR/pkgconfig:$STARPU_PKG_CONFIG_DIR" pkg-config --cflags --libs starscope) \
    || die "pkg-config finds no starscope in $prefix/$LIBDIR/pkgconfig"
  # shellcheck disable=SC2086  # the flags are words
  # It links StarPU itself (Requires: starpu-1.3), so it needs StarPU's folder in its run path.
  c++ -std=c++20 "$here/consumer/main.cpp" $flags -Wl,-rpath,"$prefix/$LIBDIR" \
    -Wl,-rpath,"$(PKG_CONFIG_PATH=$STARPU_PKG_CONFIG_DIR pkg-config --variable=libdir "$STARPU_PKG_CONFIG_MODULE")" \
    -o "$work/pc_consumer" || die "the consumer does not build with: $flags"
  [ "$(env -u LD_LIBRARY_PATH "$work/pc_consumer")" = "$output" ] || die "the pkg-config consumer printed otherwise"
  say "consumer (pkg-config): built and ran"
else
  [ ! -e "$prefix/$LIBDIR" ] && [ ! -e "$prefix/$INCLUDEDIR" ] \
    || die "a build without the recorder installed a library or headers"
fi
say "install tree test passed"
