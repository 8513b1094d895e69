# A test that cannot run here, for want of a part (a tool, a library):
#   add_test(NAME ... COMMAND ${CMAKE_COMMAND} -DPART=clang-format-14 "-DWHY=..." -P skip.cmake)
#   set_tests_properties(... PROPERTIES SKIP_REGULAR_EXPRESSION "^skipped: ")
# It reports a skip; in strict mode (RETARGET_STRICT=1, set by scripts/dev test, which installs
# every part) it fails instead: the rule tests/support/strict.hpp applies to the test programs.
if("$ENV{RETARGET_STRICT}" STREQUAL "1")
  message(FATAL_ERROR "strict mode (RETARGET_STRICT=1) requires ${PART}, which scripts/dev "
    "installs; this test would not run: ${WHY}")
endif()
message("skipped: ${WHY}")
