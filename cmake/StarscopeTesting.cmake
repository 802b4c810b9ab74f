include(GoogleTest)

# starscope_add_test(NAME LABEL label SOURCES src... LIBS lib... [ENVIRONMENT var=value...])
# One GoogleTest executable, linked against the libraries under test (never recompiling their
# sources), discovered by CTest at test time and labelled per module (ctest -L <label>).
function(starscope_add_test name)
  cmake_parse_arguments(ARG "" "LABEL;TIMEOUT" "SOURCES;LIBS;ENVIRONMENT" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} starscope_test_support GTest::gtest_main)
  starscope_set_warnings(${name})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  gtest_discover_tests(${name}
    DISCOVERY_MODE PRE_TEST
    PROPERTIES LABELS "${ARG_LABEL}" TIMEOUT ${ARG_TIMEOUT}
               ENVIRONMENT "QT_QPA_PLATFORM=offscreen;STARPU_SILENT=1;${ARG_ENVIRONMENT}")
endfunction()
