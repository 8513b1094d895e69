// A struct read from a command line whose described member is a plain value, not a field.
// expect: static assertion failed.*a described member read from a command line is not a retarget::options::field
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
