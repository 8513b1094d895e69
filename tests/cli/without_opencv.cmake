# The retarget tool builds where OpenCV is absent (here: not looked for), and lists the
# opencv_dnn engine as there but not built in, with the reason.
file(REMOVE_RECURSE ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed: ${ARGV}\n${out}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()
# -O0 without debug info: what is checked is that it builds and what it prints, and that is the
# cheapest build.
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR} -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${COMPILER}
  -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O0 -DNDEBUG" -DRETARGET_WITH_OPENCV=OFF
  -DRETARGET_BUILD_EXAMPLES=OFF -DRETARGET_BUILD_BENCHMARKS=OFF)
run(${CMAKE_COMMAND} --build ${WORK_DIR} --target retarget_cli)
run(${WORK_DIR}/retarget backends)
if(NOT out MATCHES "opencv_dnn: not available, not built in\n +retarget was built without OpenCV's DNN module")
  message(FATAL_ERROR "retarget backends without OpenCV printed:\n${out}")
endif()
message(STATUS "${out}")
