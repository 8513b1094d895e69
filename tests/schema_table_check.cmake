# Regenerates the schema table into FRESH and compares it with the COMMITTED one.
execute_process(COMMAND ${GENERATOR} ${FRESH} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "gen_onnx_schemas failed:\n${out}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${COMMITTED} ${FRESH} RESULT_VARIABLE different)
if(different)
  message(FATAL_ERROR "${COMMITTED} no longer matches the installed ONNX library; "
                      "run `scripts/dev schemas` and review the difference")
endif()
message(STATUS "schema table matches the library: ${out}")
