// A backend manager that does not say which backend it manages.
// expect: static assertion failed.*backend manager has no .using backend = <a Backend tag>..
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
