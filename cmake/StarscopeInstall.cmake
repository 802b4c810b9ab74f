# starscope's package for other programs, written after every module has declared what it
# installs (starscope_install_library in cmake/StarscopeInstallDirs.cmake): the exported targets,
# starscopeConfig.cmake and its version file in lib/cmake/starscope, and starscope.pc. A build
# without the recorder has no library and installs none of it (only the programs, their man
# pages and the viewer's desktop files).
get_property(_starscope_libraries GLOBAL PROPERTY STARSCOPE_INSTALLED_LIBRARIES)
if(_starscope_libraries)
  include(CMakePackageConfigHelpers)
  set(_starscope_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/starscope)

  # The header-only pieces the libraries' public headers include (common/error.hpp, ...).
  install(TARGETS starscope_common EXPORT starscopeTargets)
  install(FILES common/error.hpp common/markers.hpp common/result.hpp
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/starscope/common)

  install(EXPORT starscopeTargets NAMESPACE starscope:: DESTINATION ${_starscope_cmake_dir})
  # The same targets for programs built against this build tree, without installing.
  export(EXPORT starscopeTargets NAMESPACE starscope:: FILE ${PROJECT_BINARY_DIR}/starscopeTargets.cmake)

  configure_package_config_file(cmake/starscopeConfig.cmake.in
    ${PROJECT_BINARY_DIR}/package/starscopeConfig.cmake INSTALL_DESTINATION ${_starscope_cmake_dir})
  # Before 1.0 a minor release may break the API: only the same minor version is compatible.
  write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/starscopeConfigVersion.cmake
    COMPATIBILITY SameMinorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/package/starscopeConfig.cmake
    ${PROJECT_BINARY_DIR}/package/starscopeConfigVersion.cmake DESTINATION ${_starscope_cmake_dir})

  # Relocatable: the prefix is found from the .pc file's own folder, as StarPU's are.
  file(RELATIVE_PATH STARSCOPE_PC_TO_PREFIX "${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig" "${CMAKE_INSTALL_PREFIX}")
  string(REGEX REPLACE "/$" "" STARSCOPE_PC_TO_PREFIX "${STARSCOPE_PC_TO_PREFIX}")
  configure_file(cmake/starscope.pc.in ${PROJECT_BINARY_DIR}/package/starscope.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/package/starscope.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()
