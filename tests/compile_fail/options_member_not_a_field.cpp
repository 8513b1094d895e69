// A struct read from a command line whose described member is a plain value, not a field.
// expect: static assertion failed.*a described member read from a command line is not a retarget::options::field
// page-section: Backend managers and params
// page-title: A described param member that is not a field
// page-order: 50
// page-snippet:
// | struct my_param { std::string work_dir = "."; };   // a plain member
// | BOOST_DESCRIBE_STRUCT(my_param, (), (work_dir))
// | retarget::options::help<my_param>();
// page-meaning:
// | Each described member read from a command line needs a help text and a value type: it must be a
// | `retarget::options::field<T, "help">` (or `file_field`). The library's line is the only error,
// | for `help<S>()` as for `from_command_line<S>`. JSON reading (`options::from_json`) accepts
// | plain members.
// page-fix:
// | Declare it as `retarget::options::field<std::string, "The working directory."> work_dir{"."};`.
#include <boost/describe/class.hpp>
#include <retarget/options/command_line.hpp>
#include <string>

struct settings {
  retarget::options::field<std::string, "The working directory."> work_dir{"."};
#ifdef RETARGET_COMPILE_FAIL
  int retries = 3;
  BOOST_DESCRIBE_CLASS(settings, (), (work_dir, retries), (), ())
#else
  retarget::options::field<int, "How often to try again."> retries{3};
  BOOST_DESCRIBE_CLASS(settings, (), (work_dir, retries), (), ())
#endif
};

int main() { return retarget::options::help<settings>().empty() ? 1 : 0; }
