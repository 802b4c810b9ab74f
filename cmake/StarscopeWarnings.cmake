# starscope_set_warnings(TARGET): the project's warning set; errors when
# STARSCOPE_WARNINGS_AS_ERRORS is on (CI).
function(starscope_set_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
      -Wold-style-cast -Wcast-align -Woverloaded-virtual -Wconversion -Wsign-conversion
      -Wnull-dereference -Wimplicit-fallthrough>)
  if(STARSCOPE_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
  endif()
endfunction()
