# Finds PAPI (Debian: libpapi-dev), including the C++ header of its software-defined events
# (sde_lib.hpp). Defines PAPI::papi and PAPI::sde.
find_path(PAPI_INCLUDE_DIR papi.h)
find_library(PAPI_LIBRARY papi)
find_path(PAPI_SDE_INCLUDE_DIR sde_lib.hpp PATH_SUFFIXES sde_lib)
find_library(PAPI_SDE_LIBRARY sde)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(PAPI
  REQUIRED_VARS PAPI_LIBRARY PAPI_INCLUDE_DIR PAPI_SDE_LIBRARY PAPI_SDE_INCLUDE_DIR
  REASON_FAILURE_MESSAGE "PAPI with sde_lib not found: run scripts/setup.sh (Debian package libpapi-dev)")
if(PAPI_FOUND AND NOT TARGET PAPI::papi)
  add_library(PAPI::papi UNKNOWN IMPORTED)
  set_target_properties(PAPI::papi PROPERTIES IMPORTED_LOCATION "${PAPI_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${PAPI_INCLUDE_DIR}")
  add_library(PAPI::sde UNKNOWN IMPORTED)
  set_target_properties(PAPI::sde PROPERTIES IMPORTED_LOCATION "${PAPI_SDE_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${PAPI_SDE_INCLUDE_DIR}")
endif()
