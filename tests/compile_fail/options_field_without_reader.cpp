// A described param with a field whose type no reader of options/ knows (a std::set).
// expect: field_type_has_no_reader<std::set<int>
// page-section: Options
// page-title: A field whose type has no reader
// page-snippet:
// | struct engine_param {
// |   retarget::options::field<std::set<int>, "The devices to use."> devices;
// |   BOOST_DESCRIBE_CLASS(engine_param, (), (devices), (), ())
// | };
// | retarget::options::from_json<engine_param>(json, "backend_config");
// page-meaning:
// | The readers of described structs (`from_json`, `from_command_line`, `help`) know bools,
// | numbers, strings, `std::vector`, `std::map` (string or integer keys), `std::optional` and
// | described structs. The first member of another type is named in the error.
// page-fix:
// | Give the field a type the readers know (`std::vector<int>` here), or describe the type
// | with `BOOST_DESCRIBE_STRUCT` so that it is read as a JSON object.
#include <boost/describe/class.hpp>
#include <retarget/options/command_line.hpp>
#include <retarget/options/json.hpp>
#include <set>
#include <string>
#include <vector>

struct engine_param {
  retarget::options::field<std::string, "The work directory."> work_dir{"."};
#ifdef RETARGET_COMPILE_FAIL
  retarget::options::field<std::set<int>, "The devices to use."> devices;
#else
  retarget::options::field<std::vector<int>, "The devices to use."> devices;
#endif
  BOOST_DESCRIBE_CLASS(engine_param, (), (work_dir, devices), (), ())
};

int main() {
  const auto from_file = retarget::options::from_json<engine_param>(
      boost::json::parse(R"({"devices": [0, 1]})"), "backend_config");
  const auto from_args = retarget::options::from_command_line<engine_param>(
      std::vector<std::string>{"--devices", "[0,1]"});
  return from_file.devices.value == from_args.devices.value ? 0 : 1;
}
