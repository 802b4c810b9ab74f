# Run by CTest (cmake -P): fails when the run folder's library, or a library it links, links
# anything above it (a reader, analysis, the run's figures). The run folder is the bottom of the
# dependency order; a link upwards would let it drift back above the readers.
#   LINKS    the libraries linked by the run folder's library and by those below it, '|'-separated
#   ALLOWED  what they may link, '|'-separated
cmake_policy(SET CMP0057 NEW) # if(IN_LIST)
string(REPLACE "|" ";" links "${LINKS}")
string(REPLACE "|" ";" allowed "${ALLOWED}")
list(REMOVE_DUPLICATES links)
set(above "")
foreach(lib IN LISTS links)
  if(NOT lib IN_LIST allowed)
    list(APPEND above "${lib}")
  endif()
endforeach()
if(above)
  message(FATAL_ERROR "starscope_run_folder links ${above}, which is above it (it may link only ${allowed})")
endif()
message(STATUS "starscope_run_folder links only ${links}")
