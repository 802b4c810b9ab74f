# The Debian package (cpack -G DEB in a build with tests and benchmarks off; scripts/package.sh
# makes it and tests it). The package is the analysis build: `starscope` without record and
# sweep, and the viewer. It needs no StarPU, so every library it links is a Debian package and
# dpkg-shlibdeps declares them all. A recorder build links the StarPU of a private prefix, which
# no Debian package provides; cpack refuses to package it rather than ship programs whose
# run path points into the build machine's folders (docs/install.md says what a full package
# would take).
set(CPACK_PACKAGE_NAME starscope)
set(CPACK_PACKAGE_VENDOR "starscope")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "StarPU trace analyser and Gantt viewer that finds where workers wait")
# Lines of Debian's usual width; CPack indents them for the control file.
string(CONCAT CPACK_PACKAGE_DESCRIPTION
    "starscope reads traces of programs run on the StarPU task runtime (FxT prof\n"
    "files, Paje traces, its own native files) and shows where the workers wait:\n"
    "time per worker and state, the barriers in which no worker executes a task\n"
    "with the batch transition they fall in, StarPU's efficiencies and the\n"
    "critical path. starscope-viewer draws the traces as Gantt charts with the\n"
    "barriers highlighted and compares runs side by side.\n"
    "This package is the analyser and the viewer; recording (starscope record)\n"
    "needs a build with StarPU built with FxT.")
set(STARSCOPE_PACKAGE_MAINTAINER "starscope developers" CACHE STRING
    "The Debian package's Maintainer field (name <address>)")
set(CPACK_PACKAGE_CONTACT "${STARSCOPE_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${STARSCOPE_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# The dependencies from the libraries the programs link (Qt 6, QCustomPlot, libfxt, zlib, ...).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# RelWithDebInfo objects (the ones ccache already holds) stripped of their debug information.
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)
set(CPACK_SOURCE_GENERATOR "")
# Read by cpack itself (cmake/StarscopeCPackCheck.cmake), where it refuses a recorder build;
# cpack sees only the CPACK_ variables.
set(CPACK_STARSCOPE_HAS_RECORDER ${STARSCOPE_BUILD_RECORDER})
set(CPACK_PROJECT_CONFIG_FILE ${PROJECT_SOURCE_DIR}/cmake/StarscopeCPackCheck.cmake)
include(CPack)
