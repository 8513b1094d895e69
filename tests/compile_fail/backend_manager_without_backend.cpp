// A backend manager that does not say which backend it manages.
// expect: static assertion failed.*backend manager has no .using backend = <a Backend tag>..
// page-section: Backend managers and params
// page-title: A manager without `using backend` (or `using param`)
// page-order: 40
// page-snippet:
// | struct toy_manager {
// |   using param = toy_param;   // no `using backend = ...;`
// |   ...
// | };
// page-meaning:
// | The manager has no `backend` type, or it is not a backend tag. The requirement is a nested one,
// | so a missing type answers "no" instead of failing on its own, and the list reads the manager's
// | name only where it has one: the library's line is the only error. A manager without `using
// | param` gets `backend manager has no `using param = ...;` described with BOOST_DESCRIBE_STRUCT`
// | the same way.
// page-fix:
// | Add `using backend = your_tag;` (and `using param = your_param;`).
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
#ifndef RETARGET_COMPILE_FAIL
  using backend = toy_backend;
#endif
  using param = toy_param;
  static bool is_available() { return true; }
  static std::string version() { return "1"; }
  static std::string check_env() { return "fine"; }
  static rb::file_list model_files(const param& p) { return {*p.work_dir}; }
  static rb::file_list to_backend(const std::filesystem::path& f, const param&) { return {f}; }
  static toy_wrapper build_wrapper(const rb::file_list&, const param&) { return {}; }
  static param param_from_config(const boost::json::value&, const std::string&) { return {}; }
};

using managers = rb::manager_list<toy_manager>;

int main() { return managers::names().size() == 1 ? 0 : 1; }
