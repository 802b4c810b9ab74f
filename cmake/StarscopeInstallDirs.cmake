# Where `cmake --install` puts things (GNUInstallDirs) and how the installed programs find their
# libraries without LD_LIBRARY_PATH. Included before any target exists (targets copy the RPATH
# variables when they are created) and after StarscopeRecorder.cmake (which StarPU is linked). The package itself (exported targets, config files,
# pkg-config) is written after every module, by StarscopeInstall.cmake.
include(GNUInstallDirs)

# An installed program finds starscope's own libraries next to it ($ORIGIN/../lib, whatever
# GNUInstallDirs made of lib), and libraries from outside the system's folders (StarPU from the
# project-local .deps prefix or a user's own, Open MPI's private folder that StarPU's pkg-config
# names) where the build found them: CMake adds every linked folder that is not the system's.
file(RELATIVE_PATH _starscope_bin_to_lib "${CMAKE_INSTALL_FULL_BINDIR}" "${CMAKE_INSTALL_FULL_LIBDIR}")
set(CMAKE_INSTALL_RPATH "$ORIGIN/${_starscope_bin_to_lib}")
set(CMAKE_INSTALL_RPATH_USE_LINK_PATH ON)
# CMake leaves out folders inside the project, and StarPU's default prefix is the project's
# .deps: the targets that link StarPU add its lib folder (STARSCOPE_STARPU_RPATH) to theirs.
set(STARSCOPE_STARPU_RPATH "")
if(STARSCOPE_BUILD_RECORDER)
  set(STARSCOPE_STARPU_RPATH "${StarPU_PREFIX}/lib")
endif()

# starscope_install_library(TARGET): installs a library of the starscope CMake package, exported
# as starscope::<its EXPORT_NAME> (find_package(starscope)). Its headers are installed by the
# module that owns them, under ${CMAKE_INSTALL_INCLUDEDIR}/starscope.
function(starscope_install_library target)
  # A library finds its sibling libraries beside it, not in ../lib.
  set_target_properties(${target} PROPERTIES INSTALL_RPATH "$ORIGIN;${STARSCOPE_STARPU_RPATH}")
  install(TARGETS ${target} EXPORT starscopeTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  set_property(GLOBAL APPEND PROPERTY STARSCOPE_INSTALLED_LIBRARIES ${target})
endfunction()

# starscope_add_man_page(TARGET TEMPLATE [HELPER...]): the section 1 page of the program TARGET, made at build
# time from TEMPLATE (the parts written by hand) and the program's own --help and each of its
# subcommands' --help (cmake/man_page.sh), so that the page lists the options the
# installed program has. HELPER: targets that print part of that help (the recorder that
# `starscope record --help` runs), made again when they change. Installed gzipped into
# ${CMAKE_INSTALL_MANDIR}/man1.
function(starscope_add_man_page target template)
  set(page "${PROJECT_BINARY_DIR}/man/${target}.1")
  file(MAKE_DIRECTORY "${PROJECT_BINARY_DIR}/man")
  # Compressed as Debian ships man pages (gzip -9n: no name or time stamp in the file).
  add_custom_command(OUTPUT "${page}" "${page}.gz"
    COMMAND bash "${PROJECT_SOURCE_DIR}/cmake/man_page.sh" "$<TARGET_FILE:${target}>" ${target}
            ${PROJECT_VERSION} "${template}" "${page}"
    COMMAND gzip -9nkf "${page}"
    DEPENDS ${target} ${ARGN} "${template}" "${PROJECT_SOURCE_DIR}/cmake/man_page.sh"
    COMMENT "Man page ${target}.1 from ${target} --help"
    VERBATIM)
  add_custom_target(${target}_man ALL DEPENDS "${page}" "${page}.gz")
  install(FILES "${page}.gz" DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endfunction()
