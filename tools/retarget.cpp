// The retarget command-line tool: backends, and each backend's check, convert and run.
#include <retarget/backend.hpp>
#include <retarget/backend/console.hpp>
#include <retarget/backend/opencv_dnn.hpp>

int main(int argc, char** argv) {
  using managers = retarget::backend::manager_list<retarget::backend::onnxruntime_manager,
                                                   retarget::backend::opencv_dnn_manager,
                                                   retarget::backend::tensorrt_manager>;
  return retarget::backend::backend_main<managers>(argc, argv);
}
