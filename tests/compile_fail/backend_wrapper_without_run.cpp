// A backend manager whose wrapper has no tensor_map run(const tensor_map&).
// expect: static assertion failed.*backend manager has no static build_wrapper\(const file_list&, const param&\) returning a Wrapper
// page-section: Backend managers and params
// page-title: A wrapper without `tensor_map run(const tensor_map&)`
// page-order: 20
// page-snippet:
// | struct toy_wrapper { void run(const rb::tensor_map&); };   // must return a tensor_map
// page-meaning:
// | `build_wrapper` exists, but what it returns is not a `Wrapper`.
// page-fix:
// | Give the wrapper `rb::tensor_map run(const rb::tensor_map&)`.
#include <retarget/backend.hpp>

namespace rb = retarget::backend;

struct toy_backend : retarget::backend_tag<"toy"> {};
struct toy_param {
  retarget::options::field<std::string, "The working directory."> work_dir{"."};
};
BOOST_DESCRIBE_STRUCT(toy_param, (), (work_dir))

struct toy_wrapper {
#ifdef RETARGET_COMPILE_FAIL
  void run(const rb::tensor_map&) {}  // must return a tensor_map
#else
  rb::tensor_map run(const rb::tensor_map& in) { return in; }
#endif
};

struct toy_manager {
  using backend = toy_backend;
  using param = toy_param;
  static bool is_available() { return true; }
  static std::string version() { return "1"; }
  static std::string check_env() { return "fine"; }
  static rb::file_list model_files(const param& p) { return {*p.work_dir}; }
  static rb::file_list to_backend(const std::filesystem::path& f, const param&) { return {f}; }
  static toy_wrapper build_wrapper(const rb::file_list&, const param&) { return {}; }
  static param param_from_config(const boost::json::value& j, const std::string& where) {
    return retarget::options::from_json<param>(j, where);
  }
};

using managers = rb::manager_list<toy_manager>;

int main() { return managers::names().size() == 1 ? 0 : 1; }
