// Two managers of one manager_list with the same backend name.
// expect: static assertion failed.*two managers of a manager_list have the same backend name
// page-section: Backend managers and params
// page-title: Two managers with one backend name
// page-order: 50
// page-snippet:
// | struct my_onnxruntime : retarget::backend_tag<"onnxruntime"> {};
// | struct my_manager : retarget::backends::onnxruntime_manager {
// |   using backend = my_onnxruntime;
// | };
// | rb::manager_list<bk::onnxruntime_manager, my_manager>::names();
// page-meaning:
// | Commands find an engine by its name (`--backend onnxruntime`), so a second engine of the
// | same name could never be reached. `tool::with_shipped<my_manager>`, which lists the shipped
// | engines first, is checked the same way.
// page-fix:
// | Give your tag a name of its own: `backend_tag<"my_onnxruntime">`.
#include <retarget/backend.hpp>
#include <retarget/backends/onnxruntime.hpp>

#ifdef RETARGET_COMPILE_FAIL
struct my_onnxruntime : retarget::backend_tag<"onnxruntime"> {};
#else
struct my_onnxruntime : retarget::backend_tag<"my_onnxruntime"> {};
#endif

// ONNX Runtime under a tag of its own.
struct my_manager : retarget::backends::onnxruntime_manager {
  using backend = my_onnxruntime;
};

namespace rb = retarget::backend;
namespace bk = retarget::backends;

int main() {
  return rb::manager_list<bk::onnxruntime_manager, my_manager>::names().size() == 2 ? 0 : 1;
}
