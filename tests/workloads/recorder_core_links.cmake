# Run by CTest (cmake -P): fails when the recorder of any program (starscope_recorder_core) links
# the CNN or builds a source of it. The CNN is one user of the recorder; a link the other way
# would put the training's dependencies into every `record -- PROGRAM`.
#   LINKS      the libraries starscope_recorder_core links, '|'-separated
#   SOURCES    its sources, '|'-separated
#   FORBIDDEN  the CNN's libraries, '|'-separated
#   CNN_DIRS   the CNN's source folders under workloads/, '|'-separated
cmake_policy(SET CMP0057 NEW) # if(IN_LIST)
string(REPLACE "|" ";" links "${LINKS}")
string(REPLACE "|" ";" sources "${SOURCES}")
string(REPLACE "|" ";" forbidden "${FORBIDDEN}")
string(REPLACE "|" ";" cnnDirs "${CNN_DIRS}")
set(found "")
foreach(lib IN LISTS links)
  if(lib IN_LIST forbidden)
    list(APPEND found "${lib}")
  endif()
endforeach()
foreach(source IN LISTS sources)
  foreach(dir IN LISTS cnnDirs)
    if(source MATCHES "(^|/)${dir}/")
      list(APPEND found "${source}")
    endif()
  endforeach()
endforeach()
if(found)
  message(FATAL_ERROR "starscope_recorder_core links or builds the CNN's ${found}")
endif()
message(STATUS "starscope_recorder_core links only ${links}")
