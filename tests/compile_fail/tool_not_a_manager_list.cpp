// tool::main given a manager where it takes a list of them.
// expect: static assertion failed.*tool::main and tool::run take a backend::manager_list
// page-section: Backend managers and params
// page-title: A tool of your own given a manager, not a list
// page-order: 60
// page-snippet:
// | int main(int argc, char** argv) {
// |   return retarget::tool::main<tiny_manager>(argc, argv);
// | }
// page-meaning:
// | The command line knows the engines of one `backend::manager_list`; a manager alone would
// | leave out the shipped ones.
// page-fix:
// | `retarget::tool::main<retarget::tool::with_shipped<tiny_manager>>(argc, argv)`, or a
// | `backend::manager_list<...>` of your own choosing.
#include <retarget/tool.hpp>

namespace rb = retarget::backend;

struct tiny_backend : retarget::backend_tag<"tiny"> {};

struct tiny_manager {
  using backend = tiny_backend;
  using param = retarget::backends::onnxruntime_param;
  using runtime = retarget::backends::onnxruntime_manager;
  static bool is_available() { return runtime::is_available(); }
  static std::string version() { return "1"; }
  static std::string check_env() { return "fine"; }
  static rb::file_list model_files(const param& p) { return runtime::model_files(p); }
  static rb::file_list to_backend(const std::filesystem::path& f, const param& p) {
    return runtime::to_backend(f, p);
  }
  static auto build_wrapper(const rb::file_list& f, const param& p) {
    return runtime::build_wrapper(f, p);
  }
  static param param_from_config(const boost::json::value& j, const std::string& where) {
    return runtime::param_from_config(j, where);
  }
};

int main(int argc, char** argv) {
#ifdef RETARGET_COMPILE_FAIL
  return retarget::tool::main<tiny_manager>(argc, argv);
#else
  return retarget::tool::main<retarget::tool::with_shipped<tiny_manager> >(argc, argv);
#endif
}
