// A backend manager without version().
// expect: static assertion failed.*backend manager has no static std::string version\(\)
// page-section: Backend managers and params
// page-title: A manager without one of its members
// page-order: 10
// page-snippet:
// | struct toy_manager {
// |   using backend = toy_backend;
// |   using param = toy_param;
// |   static bool is_available();
// |   // no version()
// |   static std::string check_env();
// |   ...
// | };
// | rb::manager_list<toy_manager>::names();
// page-meaning:
// | `manager_list` checks each manager, one `static_assert` per missing piece. The other pieces
// | have their own messages: `backend manager has no static bool is_available()`, `... static
// | std::string check_env()`, `... static file_list model_files(const param&)`, `... static
// | file_list to_backend(const std::filesystem::path& onnx, const param&)`, `... static
// | build_wrapper(const file_list&, const param&) returning a Wrapper`, `... static param
// | param_from_config(const boost::json::value&, const std::string& where)`.
// page-fix:
// | Add the member with that signature ([backend/manager](reference/backend/manager.md)).
#include <retarget/backend.hpp>

namespace rb = retarget::backend;

struct toy_backend : retarget::backend_tag<"toy"> {};
struct toy_param {
  retarget::options::field<std::string, "The working directory."> work_dir{"."};
};
BOOST_DESCRIBE_STRUCT(toy_param, (), (work_dir))

struct toy_wrapper {
  rb::tensor_map run(const rb::tensor_map& in) { return in; }
};

struct toy_manager {
  using backend = toy_backend;
  using param = toy_param;
  static bool is_available() { return true; }
#ifndef RETARGET_COMPILE_FAIL
  static std::string version() { return "1"; }
#endif
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
