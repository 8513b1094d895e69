// A backend manager whose param is not described with BOOST_DESCRIBE_STRUCT.
// expect: static assertion failed.*backend manager has no .using param = .* described with BOOST_DESCRIBE_STRUCT
// page-section: Backend managers and params
// page-title: A param not described with Boost.Describe
// page-order: 30
// page-snippet:
// | struct toy_param {
// |   retarget::options::field<std::string, "The working directory."> work_dir{"."};
// | };
// | // no BOOST_DESCRIBE_STRUCT(toy_param, (), (work_dir))
// page-meaning:
// | The options, `--help` and JSON parsing are generated from the description of the param; without
// | it there is none.
// page-fix:
// | Add `BOOST_DESCRIBE_STRUCT(toy_param, (), (work_dir, ...))` listing every field, at namespace
// | scope after the struct.
#include <retarget/backend.hpp>

namespace rb = retarget::backend;

struct toy_backend : retarget::backend_tag<"toy"> {};
struct toy_param {
  retarget::options::field<std::string, "The working directory."> work_dir{"."};
};
#ifndef RETARGET_COMPILE_FAIL
BOOST_DESCRIBE_STRUCT(toy_param, (), (work_dir))
#endif

struct toy_wrapper {
  rb::tensor_map run(const rb::tensor_map& in) { return in; }
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
  static param param_from_config(const boost::json::value&, const std::string&) { return {}; }
};

using managers = rb::manager_list<toy_manager>;

int main() { return managers::names().size() == 1 ? 0 : 1; }
