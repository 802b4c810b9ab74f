# Finds GLPK, the linear-programming kit (Debian: libglpk-dev; it ships no pkg-config file).
# Defines GLPK::glpk. The tracer's heterogeneous area bound solves its linear program with it,
# as StarPU's own starpu_bound does.
find_path(GLPK_INCLUDE_DIR glpk.h)
find_library(GLPK_LIBRARY glpk)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(GLPK
  REQUIRED_VARS GLPK_LIBRARY GLPK_INCLUDE_DIR
  REASON_FAILURE_MESSAGE "GLPK not found: run scripts/setup.sh (Debian package libglpk-dev)")
if(GLPK_FOUND AND NOT TARGET GLPK::glpk)
  add_library(GLPK::glpk UNKNOWN IMPORTED)
  set_target_properties(GLPK::glpk PROPERTIES
    IMPORTED_LOCATION "${GLPK_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${GLPK_INCLUDE_DIR}")
endif()
mark_as_advanced(GLPK_INCLUDE_DIR GLPK_LIBRARY)
