#!/usr/bin/env bash
# The Debian package scripts/package.sh makes: its control fields (dependencies from
# dpkg-shlibdeps, all installed on this machine, no StarPU), then installed by dpkg into an empty
# root of its own (dpkg --root: the machine's own packages are not touched), run from there
# (starscope --version and stats, starscope-viewer --render of the small golden trace, with the
# man pages and desktop files checked), and purged, leaving nothing behind.
#   deb_test.sh PACKAGE_DIR VERSION
# Exits 77 (CTest's skip) when PACKAGE_DIR holds no starscope_VERSION package: this test builds
# nothing itself.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/../../scripts/lib/common.sh"
source "$here/packaging_checks.sh"

[ $# -eq 2 ] || die "usage: deb_test.sh PACKAGE_DIR VERSION"
package_dir=$1 version=$2

debs=()
[ -d "$package_dir" ] && mapfile -t debs < <(find "$package_dir" -maxdepth 1 -name "starscope_${version}*.deb" | sort)
if [ ${#debs[@]} -eq 0 ]; then
  say "SKIPPED: no starscope_${version}*.deb in $package_dir (scripts/package.sh builds it there)"
  exit 77
fi
[ ${#debs[@]} -eq 1 ] || die "several packages in $package_dir: ${debs[*]}"
deb=${debs[0]}
say "package: $deb"

field() { dpkg-deb --field "$deb" "$1"; }
[ "$(field Package)" = starscope ] || die "Package is '$(field Package)'"
[[ $(field Version) == "$version"* ]] || die "Version '$(field Version)' is not the project's $version"
[ "$(field Section)" = devel ] || die "Section is '$(field Section)'"
[ -n "$(field Maintainer)" ] || die "no Maintainer"
[ -n "$(field Description)" ] || die "no Description"
depends=$(field Depends)
for needed in libqt6widgets6 libfxt2 libqcustomplot libc6; do
  [[ $depends == *"$needed"* ]] || die "Depends lacks $needed: $depends"
done
[[ $depends != *starpu* ]] || die "the analysis package depends on StarPU: $depends"
# Every dependency (the first of each set of alternatives) is installed here, so what runs
# below runs against the libraries the package declares.
while read -r name; do
  dpkg-query -W -f='${Status}' "$name" 2>/dev/null | grep -q 'install ok installed' \
    || die "dependency $name is not installed on this machine"
done < <(printf '%s\n' "$depends" | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/:.*//; s/ //g' | grep -v '^$')
say "control fields: Depends: $depends"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/triggers"
touch "$root/var/lib/dpkg/status" "$root/var/lib/dpkg/available"
# The empty root has none of the dependencies checked above, hence --force-depends.
dpkg_root=(dpkg --root="$root" --log="$work/dpkg.log" --force-not-root --force-depends)
"${dpkg_root[@]}" --install "$deb" >"$work/install.log" 2>&1 \
  || { cat "$work/install.log" >&2; die "dpkg --install into $root failed"; }
say "installed into an empty root by dpkg ($(dpkg-deb --contents "$deb" | grep -vc '/$') files)"

check_installed_programs "$root/usr/bin" "$root/usr/lib" "$version" ON "$work"
check_man_pages "$root/usr/share/man/man1" ON
check_desktop_files "$root/usr/share" "$work"

"${dpkg_root[@]}" --purge starscope >"$work/purge.log" 2>&1 \
  || { cat "$work/purge.log" >&2; die "dpkg --purge starscope failed"; }
left=$(find "$root" -mindepth 1 -not -path "$root/var" -not -path "$root/var/*")
[ -z "$left" ] || die "dpkg --purge left files behind: $left"
! "${dpkg_root[@]}" --status starscope >/dev/null 2>&1 || die "dpkg still lists starscope after --purge"
say "purged: nothing left outside dpkg's own database"
say "Debian package test passed"
