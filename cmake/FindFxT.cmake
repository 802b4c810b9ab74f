# Finds libfxt (Debian: libfxt-dev) through pkg-config. Defines FxT::fxt.
find_package(PkgConfig REQUIRED)
pkg_check_modules(FXT QUIET IMPORTED_TARGET fxt)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(FxT
  REQUIRED_VARS FXT_LINK_LIBRARIES
  VERSION_VAR FXT_VERSION
  REASON_FAILURE_MESSAGE "libfxt not found through pkg-config 'fxt': run scripts/setup.sh (Debian package libfxt-dev)")
if(FxT_FOUND AND NOT TARGET FxT::fxt)
  add_library(FxT::fxt ALIAS PkgConfig::FXT)
endif()
