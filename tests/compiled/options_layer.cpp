// The backends' params and the deploy config's sections read from JSON in a unit linked with
// retarget::compiled: the values and the errors header-only reading gives. layers.compiled_once
// reads this unit's object: each reader it names is called here, and the unit must leave it to
// the library (RETARGET_OPTIONS_READ_ONCE in each package).
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <retarget/backends/onnxruntime/manager.hpp>
#include <retarget/backends/opencv_dnn/manager.hpp>
#include <retarget/backends/tensorrt/manager.hpp>
#include <retarget/config/deploy_config.hpp>
#include <retarget/options/json.hpp>
#include <string>
#include <vector>

namespace {

namespace ro = retarget::options;
namespace rb = retarget::backends;
namespace rc = retarget::config;

TEST(CompiledOptions, ParamsAreReadByTheLibrary) {
  const auto ort = ro::from_json<rb::onnxruntime_param>(
      boost::json::parse(R"({"work_dir": "out", "file_name": "net"})"), "backend_config");
  EXPECT_EQ(*ort.work_dir, "out");
  EXPECT_EQ(ort.file_name.resolved(), "net.onnx");
  const auto cv = ro::from_json<rb::opencv_dnn_param>(boost::json::parse("{}"), "backend_config");
  EXPECT_EQ(*cv.work_dir, ".");
  const auto trt = ro::from_json<rb::tensorrt_param>(boost::json::parse("{}"), "backend_config");
  EXPECT_EQ(*trt.work_dir, ".");
}

TEST(CompiledOptions, SectionsAreReadByTheLibraryAndTheirErrorsNameTheKey) {
  const auto onnx = ro::from_json<rc::onnx_config>(
      boost::json::parse(R"({"opset_version": 13, "output_names": ["y"]})"), "onnx_config");
  EXPECT_EQ(*onnx.opset_version, 13);
  EXPECT_EQ(*onnx.output_names, std::vector<std::string>{"y"});
  try {
    (void)ro::from_json<rc::codebase_config>(boost::json::parse(R"({"type": 3})"),
                                             "codebase_config");
    FAIL() << "a number where a string is due was read";
  } catch (const ro::json_error& e) {
    EXPECT_NE(std::string(e.what()).find("codebase_config.type"), std::string::npos) << e.what();
  }
}

}  // namespace
