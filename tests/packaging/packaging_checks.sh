# Checks of an installed starscope shared by the install tree test and the Debian package test
# (tests/packaging): the programs run from where they were installed, the man pages, the
# viewer's desktop files. Sourced after scripts/lib/common.sh, never run.

packaging_test_data=$(cd "$(dirname "${BASH_SOURCE[0]}")/../data/tracer" && pwd)

# check_installed_programs BIN_DIR LIB_DIR VERSION VIEWER(ON|OFF) WORK_DIR
check_installed_programs() {
  local bin=$1 lib=$2 version=$3 viewer=$4 work=$5 file missing
  for file in "$bin"/* "$lib"/*.so*; do
    [ -f "$file" ] || continue
    missing=$(env -u LD_LIBRARY_PATH ldd "$file" | grep 'not found' || true)
    [ -z "$missing" ] || die "$file does not find its libraries without LD_LIBRARY_PATH: $missing"
    case "$file" in
      "$bin"/*) readelf -d "$file" | grep -Eq 'R(UN)?PATH.*\[\$ORIGIN/' \
                  || die "$file has no run path relative to itself: $(readelf -d "$file" | grep PATH)" ;;
    esac
  done
  local printed
  printed=$(env -u LD_LIBRARY_PATH "$bin/starscope" --version)
  [ "$printed" = "starscope $version" ] || die "installed starscope --version printed '$printed'"
  env -u LD_LIBRARY_PATH "$bin/starscope" stats "$packaging_test_data/small" >"$work/stats.txt" \
    || die "installed starscope stats failed"
  grep -q '^makespan' "$work/stats.txt" || die "installed starscope stats printed no makespan: $(cat "$work/stats.txt")"
  say "installed starscope: --version and stats run"
  [ "$viewer" = ON ] || return 0
  # A session's private runtime folder, as Qt expects one.
  mkdir -m 0700 "$work/xdg-runtime"
  env -u LD_LIBRARY_PATH XDG_RUNTIME_DIR="$work/xdg-runtime" QT_QPA_PLATFORM=offscreen \
    "$bin/starscope-viewer" --render "$work/out.png" "$packaging_test_data/small" 2>"$work/viewer.err" \
    || die "installed starscope-viewer --render failed: $(cat "$work/viewer.err")"
  [ ! -s "$work/viewer.err" ] || die "installed starscope-viewer --render printed: $(cat "$work/viewer.err")"
  [ "$(head -c 8 "$work/out.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] \
    || die "installed starscope-viewer --render wrote no PNG"
  say "installed starscope-viewer: --render wrote a PNG, printed nothing"
}

# check_man_pages MAN1_DIR VIEWER(ON|OFF): the pages hold the generated options and commands,
# and groff (when present) reads them without a warning.
check_man_pages() {
  local man1=$1 viewer=$2 page pages=("$1/starscope.1")
  [ "$viewer" = ON ] && pages+=("$man1/starscope-viewer.1")
  for page in "${pages[@]}"; do
    [ -f "$page" ] || page=$page.gz
    [ -f "$page" ] || die "no man page $page"
    zcat -f "$page" | grep -q '^\.SH OPTIONS' || die "$page has no OPTIONS section"
    zcat -f "$page" | grep -q -- '\\-\\-version' || die "$page does not list --version"
    if command -v groff >/dev/null; then
      local warnings
      warnings=$(zcat -f "$page" | groff -ww -man -z 2>&1)
      [ -z "$warnings" ] || die "groff warns about $page: $warnings"
    fi
  done
  local sub
  for sub in stats barriers export convert compare record sweep; do
    zcat -f "${pages[0]}" | grep -q "^\.SS $sub\$" || die "starscope.1 has no section for '$sub'"
  done
  say "man pages: ${#pages[@]}, with every command"
}

# check_desktop_files DATA_DIR WORK_DIR: the desktop entry is valid (desktop-file-validate, when
# present), and shared-mime-info (with GLib's gio, when present) gives the trace types by name
# and by content.
check_desktop_files() {
  local data=$1 work=$2
  if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate "$data/applications/starscope-viewer.desktop" || die "invalid desktop entry"
  fi
  command -v update-mime-database >/dev/null && command -v gio >/dev/null || {
    say "desktop files: installed (no update-mime-database or gio here to check the types)"
    return 0
  }
  mkdir -p "$work/share/mime/packages" "$work/files"
  cp "$data/mime/packages/starscope-viewer.xml" "$work/share/mime/packages/"
  XDG_DATA_HOME="$work/share" XDG_DATA_DIRS="$work/share:/usr/share" update-mime-database "$work/share/mime" 2>"$work/mime.err" || die "update-mime-database failed: $(cat "$work/mime.err")"
  [ ! -s "$work/mime.err" ] || die "update-mime-database warns: $(cat "$work/mime.err")"
  printf 'SSTRACE\0\1\0\0\0' >"$work/files/run.sstrace"
  printf 'SSTRACE\0\1\0\0\0' >"$work/files/cache"
  cp "$packaging_test_data/small/paje.trace" "$work/files/paje.trace"
  cp "$packaging_test_data/small/paje.trace" "$work/files/converted"
  local file want got
  for file in run.sstrace:application/x-starscope-trace cache:application/x-starscope-trace \
              paje.trace:text/x-paje-trace converted:text/x-paje-trace; do
    want=${file#*:}
    got=$(XDG_DATA_HOME="$work/share" XDG_DATA_DIRS="$work/share:/usr/share" \
          gio info -a standard::content-type "$work/files/${file%%:*}" | awk '/standard::content-type/ {print $2}')
    [ "$got" = "$want" ] || die "${file%%:*} is '$got' for shared-mime-info, not $want"
  done
  say "desktop files: entry valid, .sstrace and Paje traces recognised by name and by content"
}
