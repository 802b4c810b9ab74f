# Run by cpack before it packages (CPACK_PROJECT_CONFIG_FILE): the package is the analysis build
# only (cmake/StarscopePackaging.cmake says why).
if(CPACK_STARSCOPE_HAS_RECORDER)
  message(FATAL_ERROR "starscope: this build has the recorder, whose StarPU lives in a private prefix that "
                      "no Debian package provides. Package the analysis build instead: scripts/package.sh "
                      "(or configure with -DSTARSCOPE_BUILD_RECORDER=OFF -DBUILD_TESTING=OFF "
                      "-DSTARSCOPE_BUILD_BENCH=OFF, then cpack -G DEB).")
endif()
