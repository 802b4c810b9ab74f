# Finds StarPU 1.3 or 1.4 built with FxT: from STARPU_PREFIX (a cache variable), else from the
# environment's STARSCOPE_STARPU_PREFIX (a user's own StarPU), else the project-local prefix
# scripts/setup.sh builds (.deps/starpu-1.3.10-fxt). Refuses a StarPU without FxT, so Debian's
# binary package (built without it) is never picked by mistake.
# Defines StarPU::starpu, StarPU_PREFIX, StarPU_VERSION, StarPU_PKG_CONFIG_MODULE (starpu-1.3 or
# starpu-1.4: what starscope's installed package asks for) and StarPU_FXT_TOOL (starpu_fxt_tool);
# when none is usable, StarPU_NOT_FOUND_MESSAGE says why (REQUIRED stops with it).
# Optional component: StarPU-MPI (starpumpi-1.3 / starpumpi-1.4 of the same prefix, with an MPI
# for C): StarPU_MPI_FOUND and StarPU::starpumpi when the prefix was built --enable-mpi.
find_package(PkgConfig REQUIRED)

if(DEFINED ENV{STARSCOPE_STARPU_PREFIX} AND NOT "$ENV{STARSCOPE_STARPU_PREFIX}" STREQUAL "")
  set(_starpu_default_prefix "$ENV{STARSCOPE_STARPU_PREFIX}")
else()
  set(_starpu_default_prefix "${PROJECT_SOURCE_DIR}/.deps/starpu-1.3.10-fxt")
endif()
set(STARPU_PREFIX "${_starpu_default_prefix}" CACHE PATH
    "Prefix of a StarPU 1.3 or 1.4 built with FxT (scripts/setup.sh builds 1.3.10 in .deps/)")
set(_starpu_module "")
foreach(_candidate starpu-1.4 starpu-1.3)
  if(NOT _starpu_module AND EXISTS "${STARPU_PREFIX}/lib/pkgconfig/${_candidate}.pc")
    set(_starpu_module ${_candidate})
  endif()
endforeach()
set(StarPU_NOT_FOUND_MESSAGE "")
if(NOT _starpu_module)
  string(CONCAT StarPU_NOT_FOUND_MESSAGE
      "No StarPU 1.3 or 1.4 in ${STARPU_PREFIX} (no lib/pkgconfig/starpu-1.3.pc or starpu-1.4.pc): run "
      "scripts/setup.sh, or pass -DSTARPU_PREFIX=<prefix of a StarPU built --with-fxt> (or set "
      "STARSCOPE_STARPU_PREFIX)")
endif()
# Only the chosen prefix: a system StarPU must not shadow it.
unset(STARPU_PC_FOUND CACHE)
unset(STARPU_MPI_PC_FOUND CACHE)
if(_starpu_module)
  set(_starpu_saved_pc_path "$ENV{PKG_CONFIG_PATH}")
  set(ENV{PKG_CONFIG_PATH} "${STARPU_PREFIX}/lib/pkgconfig")
  # A prefix of its own: pkg_check_modules(STARPU ...) would overwrite STARPU_PREFIX.
  pkg_check_modules(STARPU_PC QUIET IMPORTED_TARGET GLOBAL ${_starpu_module})
  # StarPU-MPI of the same prefix and series, when StarPU was built with it.
  string(REPLACE "starpu-" "starpumpi-" _starpu_mpi_module "${_starpu_module}")
  if(EXISTS "${STARPU_PREFIX}/lib/pkgconfig/${_starpu_mpi_module}.pc")
    pkg_check_modules(STARPU_MPI_PC QUIET IMPORTED_TARGET GLOBAL ${_starpu_mpi_module})
  endif()
  set(ENV{PKG_CONFIG_PATH} "${_starpu_saved_pc_path}")
endif()

set(_starpu_fxt_ok FALSE)
if(STARPU_PC_FOUND)
  unset(STARPU_CONFIG_HEADER CACHE)  # the prefix may have changed since the last run
  find_file(STARPU_CONFIG_HEADER starpu_config.h PATHS ${STARPU_PC_INCLUDE_DIRS} NO_DEFAULT_PATH)
  if(STARPU_CONFIG_HEADER)
    file(STRINGS "${STARPU_CONFIG_HEADER}" _starpu_fxt_line REGEX "^#define STARPU_USE_FXT 1")
    if(_starpu_fxt_line)
      set(_starpu_fxt_ok TRUE)
    endif()
  endif()
endif()
if(STARPU_PC_FOUND AND NOT _starpu_fxt_ok)
  string(CONCAT StarPU_NOT_FOUND_MESSAGE
      "The StarPU in ${STARPU_PREFIX} was built without FxT (STARPU_USE_FXT is not defined in "
      "${STARPU_CONFIG_HEADER}). starscope needs FxT tracing: run scripts/setup.sh to build StarPU --with-fxt.")
elseif(_starpu_module AND NOT STARPU_PC_FOUND)
  set(StarPU_NOT_FOUND_MESSAGE "pkg-config could not read ${STARPU_PREFIX}/lib/pkgconfig/${_starpu_module}.pc")
endif()
set(StarPU_PREFIX "${STARPU_PREFIX}")
set(StarPU_VERSION "${STARPU_PC_VERSION}")
set(StarPU_PKG_CONFIG_MODULE "${_starpu_module}")
set(StarPU_FXT_TOOL "${STARPU_PREFIX}/bin/starpu_fxt_tool")

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(StarPU
  REQUIRED_VARS STARPU_PC_LINK_LIBRARIES _starpu_fxt_ok
  VERSION_VAR STARPU_PC_VERSION
  REASON_FAILURE_MESSAGE "${StarPU_NOT_FOUND_MESSAGE}")
if(StarPU_FOUND AND NOT TARGET StarPU::starpu)
  # A target of its own rather than an alias, so that starscope's exported targets name
  # StarPU::starpu, which its installed package defines (cmake/starscopeConfig.cmake.in).
  add_library(StarPU::starpu INTERFACE IMPORTED GLOBAL)
  target_link_libraries(StarPU::starpu INTERFACE PkgConfig::STARPU_PC)
endif()

set(StarPU_MPI_FOUND FALSE)
if(StarPU_FOUND AND STARPU_MPI_PC_FOUND)
  # starpu_mpi.h includes mpi.h, which the .pc file does not point to.
  find_package(MPI QUIET COMPONENTS C)
  if(MPI_C_FOUND)
    set(StarPU_MPI_FOUND TRUE)
    if(NOT TARGET StarPU::starpumpi)
      add_library(StarPU::starpumpi INTERFACE IMPORTED GLOBAL)
      target_link_libraries(StarPU::starpumpi INTERFACE PkgConfig::STARPU_MPI_PC MPI::MPI_C)
      # mpi.h included from C++ pulls in the deprecated C++ bindings, which MPI::MPI_C does not
      # link: the C API is all starscope uses.
      target_compile_definitions(StarPU::starpumpi INTERFACE OMPI_SKIP_MPICXX=1 MPICH_SKIP_MPICXX=1)
    endif()
  else()
    message(STATUS "StarPU-MPI found in ${STARPU_PREFIX} but no MPI for C: data-parallel record disabled")
  endif()
endif()
if(StarPU_FOUND)
  if(StarPU_MPI_FOUND)
    message(STATUS "StarPU-MPI: ${_starpu_mpi_module} (data-parallel record --ranks)")
  else()
    message(STATUS "StarPU-MPI: not in ${STARPU_PREFIX} (built without --enable-mpi): record runs one rank")
  endif()
endif()
