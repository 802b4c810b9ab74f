#!/usr/bin/env bash
# Builds starscope's Debian package and tests it:
#   1. configures the `package` preset (build/package: the analyser and the viewer, no recorder,
#      no tests, no benchmarks, prefix /usr) and builds it (ccache serves the objects the other
#      presets compiled);
#   2. cpack -G DEB: build/package/starscope_VERSION_ARCH.deb, its dependencies declared by
#      dpkg-shlibdeps;
#   3. tests/packaging/deb_test.sh on it: installed by dpkg into an empty root, run, purged
#      (the packaging_deb CTest test runs the same check on the package this leaves).
# The package needs no StarPU: docs/install.md says why the recorder is not in it.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/scripts/lib/common.sh"
source "$root/scripts/lib/build.sh"
cd "$root"

case "${1:-}" in
  -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
  "") ;;
  *) die "package.sh: unknown option '$1' (it takes none)" ;;
esac

build=$root/build/package
run_step "build (package preset)" configure_and_build package
# The package of an earlier version must not be the one tested.
rm -f "$build"/starscope_*.deb
run_step "Debian package" cpack --preset package
version=$(sed -n 's/^project(starscope VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt")
[ -n "$version" ] || die "no project version in CMakeLists.txt"
run_step "test the package" bash "$root/tests/packaging/deb_test.sh" "$build" "$version"
deb=$(find "$build" -maxdepth 1 -name "starscope_${version}*.deb")
say "Debian package: $deb"
printf '%s\n' "$deb"
