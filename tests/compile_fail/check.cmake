# Runs one compile-fail case: cmake -DSETTINGS=compile_fail_settings.cmake -DSOURCE=case.cpp -P check.cmake
include(${SETTINGS})  # COMPILER, FLAGS, INCLUDES of the build under test
file(STRINGS ${SOURCE} expect_lines REGEX "^// expect: ")
list(LENGTH expect_lines n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "${SOURCE}: needs exactly one '// expect: REGEX' line")
endif()
string(REGEX REPLACE "^// expect: " "" expect "${expect_lines}")
# Each case is an entry of docs/diagnostics.md, which tools/make_diagnostics_page.py makes
# from these comments (its docstring gives the format).
foreach(field IN ITEMS section title snippet meaning fix)
  file(STRINGS ${SOURCE} field_lines REGEX "^// page-${field}:")
  if(NOT field_lines)
    message(FATAL_ERROR "${SOURCE}: no '// page-${field}:' line (each compile-fail case is an "
      "entry of docs/diagnostics.md; the format is in tools/make_diagnostics_page.py)")
  endif()
endforeach()

set(include_flags)
foreach(dir IN LISTS INCLUDES)
  list(APPEND include_flags -I${dir})
endforeach()

# The page quotes the compilers as a UTF-8 terminal shows them (g++'s quotes are typographic
# there), without colour.
set(ENV{LC_ALL} C.UTF-8)
unset(ENV{GCC_COLORS})
get_filename_component(name ${SOURCE} NAME_WE)

# COMPILERS holds pairs: a tag (the file name its first error line is kept under) and a path.
list(LENGTH COMPILERS n)
math(EXPR last "${n} - 1")
foreach(i RANGE 0 ${last} 2)
  math(EXPR j "${i} + 1")
  list(GET COMPILERS ${i} tag)
  list(GET COMPILERS ${j} compiler)
  file(REMOVE ${LINES_DIR}/${name}.${tag}.txt)
  if(NOT compiler OR NOT EXISTS "${compiler}")
    message(FATAL_ERROR "no ${tag} compiler (g++-12 and clang++-16 are both needed: scripts/dev "
      "setup installs them)")
  endif()
  if(tag STREQUAL "clang")
    set(colour -fno-color-diagnostics)
  else()
    set(colour -fdiagnostics-color=never)
  endif()

  # Both ways of linking the library are seen, each once, with their cost kept low: the first
  # compiler sees the case header-only (the default: every detail/*_impl.hpp, with ONNX's and
  # protobuf's headers, parsed again), the others as a user of retarget::compiled sees it
  # (RETARGET_SEPARATE_COMPILATION: the public headers alone, about a third of the time). The
  # diagnostics live in the public headers, so they are the same either way.
  if(i EQUAL 0)
    set(mode)
  else()
    set(mode -DRETARGET_SEPARATE_COMPILATION)
  endif()

  # The twin: the same file without the mistake compiles cleanly. Once is enough to show it (with
  # the second compiler, linked to retarget::compiled); each compiler must still fail with the
  # one expected error.
  if(i EQUAL 2)
    execute_process(COMMAND ${compiler} ${FLAGS} ${mode} ${colour} ${include_flags} -fsyntax-only
        ${SOURCE}
      RESULT_VARIABLE twin_status ERROR_VARIABLE twin_output OUTPUT_VARIABLE twin_output)
    if(NOT twin_status EQUAL 0)
      message(FATAL_ERROR "the compiling twin of ${SOURCE} does not compile with ${compiler} ${mode}:\n${twin_output}")
    endif()
  endif()

  execute_process(COMMAND ${compiler} ${FLAGS} ${mode} ${colour} ${include_flags} -fsyntax-only
      -DRETARGET_COMPILE_FAIL ${SOURCE}
    RESULT_VARIABLE status ERROR_VARIABLE output OUTPUT_VARIABLE output)
  if(status EQUAL 0)
    message(FATAL_ERROR "${SOURCE} compiled with ${compiler} -DRETARGET_COMPILE_FAIL; it must not")
  endif()

  # The line the page quotes, as it is (semicolons included), paths relative to the tree.
  string(REGEX MATCH "[^\n]*error: [^\n]*" quoted "${output}")
  string(REPLACE "${SOURCE_DIR}/" "" quoted "${quoted}")

  # The diagnostic must be one error, and its line must say what is wrong. Semicolons would
  # split CMake's list of matches, so they are set aside first.
  string(REPLACE ";" "," output "${output}")
  string(REGEX MATCHALL "[^\n]*error: [^\n]*" errors "${output}")
  list(LENGTH errors error_count)
  if(error_count EQUAL 0)
    message(FATAL_ERROR "${compiler} failed without an 'error:' line:\n${output}")
  endif()
  list(GET errors 0 first_error)
  if(NOT first_error MATCHES "${expect}")
    message(FATAL_ERROR "${compiler}: first error does not match '${expect}':\n${first_error}\n\nfull output:\n${output}")
  endif()
  if(NOT error_count EQUAL 1)
    message(FATAL_ERROR "${compiler}: expected one error, got ${error_count}:\n${output}")
  endif()
  file(WRITE ${LINES_DIR}/${name}.${tag}.txt "${quoted}\n")
  message(STATUS "fails as intended with ${tag}: ${first_error}")
endforeach()
