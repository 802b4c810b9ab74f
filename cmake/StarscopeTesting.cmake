include(GoogleTest)

# starscope_add_test(NAME LABEL label SOURCES src... LIBS lib... [TIMEOUT seconds])
# One GoogleTest executable, linked against the libraries under test (never recompiling their
# sources), discovered by CTest at test time and labelled per module (ctest -L <label>).
# Its main() (tests/support/test_main.cpp) sets the test environment (offscreen Qt, quiet
# StarPU).
function(starscope_add_test name)
  cmake_parse_arguments(ARG "" "LABEL;TIMEOUT" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} starscope_test_support starscope_test_main)
  starscope_set_warnings(${name})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  gtest_discover_tests(${name}
    DISCOVERY_MODE PRE_TEST
    PROPERTIES LABELS "${ARG_LABEL}" TIMEOUT ${ARG_TIMEOUT})
endfunction()
