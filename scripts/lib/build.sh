# configure_and_build PRESET: configures and builds a CMake preset. Warnings are errors in CI.
# Sourced after common.sh.
configure_and_build() {
  local preset=$1
  local werror=OFF
  [ "${CI:-}" = true ] && werror=ON
  STARSCOPE_WERROR=$werror cmake --preset "$preset" >/dev/null \
    || die "cmake configure (preset $preset) failed"
  cmake --build --preset "$preset" -j"$(nproc)" || die "build (preset $preset) failed"
}
