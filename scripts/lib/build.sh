# Build helpers. Sourced after common.sh.

# ccache keys on paths relative to the project, so a clone elsewhere (CI's) reuses the objects
# an earlier build compiled; sanitizer flags are part of the key, so presets never mix.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$starscope_root}"
export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
# The viewer's units include a precompiled header (STARSCOPE_PRECOMPILE_HEADERS): ccache caches
# them only when it may leave the header's macros and __DATE__/__TIME__ to the compiler, else
# it compiles them every time.
export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-pch_defines,time_macros}"

# configure PRESET: configures a CMake preset; warnings are errors in CI.
configure() {
  local preset=$1
  local werror=OFF
  [ "${CI:-}" = true ] && werror=ON
  STARSCOPE_WERROR=$werror cmake --preset "$preset" >/dev/null \
    || die "cmake configure (preset $preset) failed"
}

# configure_and_build PRESET [TARGET...]: configures a preset and builds the targets (all when
# none are named).
configure_and_build() {
  local preset=$1; shift
  configure "$preset"
  local targets=()
  [ $# -gt 0 ] && targets=(--target "$@")
  cmake --build --preset "$preset" -j"$(nproc)" "${targets[@]}" \
    || die "build (preset $preset) failed"
}
