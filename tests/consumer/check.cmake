# Builds and runs tests/consumer against retarget: installed and found with find_package
# (MODE=find_package; MODE=components asks for the core alone, with ONNX and protobuf made
# unfindable), installed and compiled with pkg-config's flags by the compiler alone
# (MODE=pkg_config), or as a subdirectory (MODE=add_subdirectory).
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed: ${ARGV}\n${out}")
  endif()
endfunction()

# The consumer runs in its own folder, and finds ONNX Runtime's worker without being told.
unset(ENV{RETARGET_ORT_DIR})
if(NOT MODE STREQUAL "add_subdirectory")
  run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
endif()
if(MODE STREQUAL "pkg_config")
  set(ENV{PKG_CONFIG_PATH} ${WORK_DIR}/prefix/share/pkgconfig)
  execute_process(COMMAND pkg-config --cflags --libs retarget OUTPUT_VARIABLE flags
    OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "pkg-config does not know retarget")
  endif()
  separate_arguments(flags UNIX_COMMAND "${flags}")
  file(MAKE_DIRECTORY ${WORK_DIR}/build)
  run(${COMPILER} ${SOURCE_DIR}/tests/consumer/consumer.cpp ${flags} -o ${WORK_DIR}/build/consumer)
  execute_process(COMMAND ${WORK_DIR}/build/consumer WORKING_DIRECTORY ${WORK_DIR}/build
    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "the consumer built with pkg-config's flags failed:\n${out}")
  endif()
  message(STATUS "${out}consumer built with pkg-config's flags and ran")
  return()
endif()

set(configure_args -S ${SOURCE_DIR}/tests/consumer/${MODE} -B ${WORK_DIR}/build -G ${GENERATOR}
  -DCMAKE_CXX_COMPILER=${COMPILER})
if(MODE STREQUAL "find_package")
  list(APPEND configure_args -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
elseif(MODE STREQUAL "components")
  list(APPEND configure_args -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix
    -DCMAKE_DISABLE_FIND_PACKAGE_ONNX=ON -DCMAKE_DISABLE_FIND_PACKAGE_Protobuf=ON)
else()
  list(APPEND configure_args -DRETARGET_SOURCE_DIR=${SOURCE_DIR})
endif()
run(${CMAKE_COMMAND} ${configure_args})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
execute_process(COMMAND ${WORK_DIR}/build/consumer WORKING_DIRECTORY ${WORK_DIR}/build
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the consumer through ${MODE} failed:\n${out}")
endif()
message(STATUS "${out}consumer through ${MODE} built and ran")
