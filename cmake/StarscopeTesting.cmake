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
  # tests_<label> builds one module's tests alone (the sanitizer runs use it).
  set_property(GLOBAL APPEND PROPERTY STARSCOPE_TEST_LABELS ${ARG_LABEL})
  set_property(GLOBAL APPEND PROPERTY STARSCOPE_TESTS_${ARG_LABEL} ${name})
  gtest_discover_tests(${name}
    DISCOVERY_MODE PRE_TEST
    PROPERTIES LABELS "${ARG_LABEL}" TIMEOUT ${ARG_TIMEOUT})
endfunction()

# Defines tests_<label> for every label used so far. Called once, after every test folder.
function(starscope_add_test_label_targets)
  get_property(labels GLOBAL PROPERTY STARSCOPE_TEST_LABELS)
  list(REMOVE_DUPLICATES labels)
  foreach(label IN LISTS labels)
    get_property(targets GLOBAL PROPERTY STARSCOPE_TESTS_${label})
    add_custom_target(tests_${label} DEPENDS ${targets})
  endforeach()
endfunction()
