# Whether this build has the recorder: `starscope record` and `sweep`, the runtime library, the
# workloads, and their tests and benchmarks. They alone need StarPU with FxT and PAPI; the
# analyser and the viewer read traces recorded elsewhere (a cluster) on a machine without them.
#
# STARSCOPE_BUILD_RECORDER is ON by default, and a default turns itself OFF, saying what is left
# out, when StarPU or PAPI is missing (and back ON at a later configure that finds them). Set by
# the user, ON with StarPU or PAPI missing is an error, and OFF searches for neither.
# Sets STARSCOPE_RECORDER_ABSENT_REASON: why this build has no recorder (empty when it has one).

# The value is the default's while the cache holds nothing, or what this file last put there.
if(NOT DEFINED CACHE{STARSCOPE_BUILD_RECORDER})
  set(_starscope_recorder_auto TRUE)
elseif(DEFINED CACHE{STARSCOPE_RECORDER_AUTO_VALUE}
       AND "${STARSCOPE_BUILD_RECORDER}" STREQUAL "${STARSCOPE_RECORDER_AUTO_VALUE}")
  set(_starscope_recorder_auto TRUE)
else()
  set(_starscope_recorder_auto FALSE)
  unset(STARSCOPE_RECORDER_AUTO_VALUE CACHE)
endif()
set(_starscope_recorder_doc
    "Build the recorder (record, sweep, runtime library, workloads): needs StarPU with FxT and PAPI")
option(STARSCOPE_BUILD_RECORDER "${_starscope_recorder_doc}" ON)
set(_starscope_left_out
    "left out: starscope record and sweep, the runtime library, the workloads, their tests and benchmarks")

set(STARSCOPE_RECORDER_ABSENT_REASON "")
if(STARSCOPE_BUILD_RECORDER OR _starscope_recorder_auto)
  find_package(StarPU QUIET)
  # What is missing, short (what `starscope record` says) and with where it was looked for.
  set(_starscope_missing "")
  if(NOT StarPU_FOUND)
    set(_starscope_missing "StarPU with FxT was not found")
    set(_starscope_missing_detail "${StarPU_NOT_FOUND_MESSAGE}")
  else()
    find_package(PAPI QUIET)
    if(NOT PAPI_FOUND)
      set(_starscope_missing "PAPI with sde_lib was not found")
      set(_starscope_missing_detail "Debian package libpapi-dev")
    endif()
  endif()
  if(_starscope_recorder_auto)
    if(_starscope_missing)
      set(_starscope_recorder_value OFF)
      message(WARNING "Recorder OFF: ${_starscope_missing} (${_starscope_missing_detail}).\nThis build is the analyser and the "
                      "viewer only; ${_starscope_left_out}. Configure with -DSTARSCOPE_BUILD_RECORDER=OFF "
                      "(the analysis preset) to say so, or make StarPU and PAPI available and configure again.")
    else()
      set(_starscope_recorder_value ON)
    endif()
    set(STARSCOPE_BUILD_RECORDER ${_starscope_recorder_value} CACHE BOOL "${_starscope_recorder_doc}" FORCE)
    set(STARSCOPE_RECORDER_AUTO_VALUE ${_starscope_recorder_value} CACHE INTERNAL
        "The value STARSCOPE_BUILD_RECORDER took by itself")
  elseif(_starscope_missing)
    message(FATAL_ERROR "STARSCOPE_BUILD_RECORDER is ON but ${_starscope_missing} "
                        "(${_starscope_missing_detail}).\nMake them available "
                        "(scripts/setup.sh), or configure with -DSTARSCOPE_BUILD_RECORDER=OFF (the analysis "
                        "preset) to build the analyser and the viewer without the recorder.")
  endif()
endif()

if(STARSCOPE_BUILD_RECORDER)
  message(STATUS "Recorder: on (StarPU ${StarPU_VERSION} in ${StarPU_PREFIX})")
elseif(_starscope_missing)
  set(STARSCOPE_RECORDER_ABSENT_REASON "${_starscope_missing} when it was configured")
else()
  set(STARSCOPE_RECORDER_ABSENT_REASON "it was configured with -DSTARSCOPE_BUILD_RECORDER=OFF")
  message(STATUS "Recorder: off (STARSCOPE_BUILD_RECORDER=OFF), StarPU and PAPI not searched for; "
                 "${_starscope_left_out}")
endif()
