// Deploy configs: `_base_` inheritance with deep merge, typed sections, and an error for each
// way a config can be wrong, naming the JSON path and the file that set the bad value.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <retarget/backends.hpp>
#include <retarget/config.hpp>
#include <retarget/ir/proto.hpp>
#include <retarget/retarget.hpp>

namespace {

namespace fs = std::filesystem;
namespace rc = retarget::config;
namespace rb = retarget::backend;

class Configs : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("retarget-config-" + std::to_string(::getpid()));
    fs::create_directories(dir_ / "_base_");
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write(const std::string& name, const std::string& text) {
    const auto path = dir_ / name;
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
    return path;
  }
  // The message of the error loading `name` throws, with the test folder shown as DIR.
  std::string error_of(const std::string& name) {
    try {
      rc::load_deploy_config(dir_ / name);
    } catch (const retarget::error& e) {
      return shown(e);
    }
    return "no error";
  }
  // The same for the spec of input 0 of a model with `inputs` inputs and a 1x3x8x8 test input.
  std::string spec_error_of(const std::string& name, std::size_t inputs = 1) {
    const auto cfg = rc::load_deploy_config(dir_ / name);
    try {
      rc::input_spec_for(cfg, 0, inputs, retarget::ir::dtype::f32, {1, 3, 8, 8});
    } catch (const retarget::error& e) {
      return shown(e);
    }
    return "no error";
  }
  std::string shown(const retarget::error& e) const {
    std::string m = e.what();
    for (auto at = m.find(dir_.string()); at != std::string::npos; at = m.find(dir_.string()))
      m.replace(at, dir_.string().size(), "DIR");
    return m;
  }

  fs::path dir_;
};

TEST_F(Configs, BasesMergeDeeplyAndTheChildWins) {
  write("_base_/onnx.json", R"({
    // comments and trailing commas are fine in hand-written configs
    "onnx_config": {"opset_version": 11, "input_names": ["input"], "save_file": "a.onnx",
                    "dynamic_axes": {"input": {"0": "batch"}}},
    "codebase_config": {"type": "tutorial", "task": "SuperResolution"},
  })");
  write("_base_/dynamic.json", R"({"_base_": "onnx.json",
    "onnx_config": {"dynamic_axes": {"input": {"2": "height", "3": "width"}}}})");
  write("_base_/ort.json", R"({"backend_config": {"type": "onnxruntime", "file_name": "x"}})");
  write("model.json", R"({"_base_": ["_base_/dynamic.json", "_base_/ort.json"],
    "onnx_config": {"opset_version": 13},
    "backend_config": {"file_name": "srcnn"}})");

  const auto cfg = rc::load_deploy_config(dir_ / "model.json");
  EXPECT_EQ(*cfg.onnx.opset_version, 13);                                 // the child wins
  EXPECT_EQ(*cfg.onnx.save_file, "a.onnx");                               // a base's value stays
  EXPECT_EQ(*cfg.onnx.output_names, std::vector<std::string>{"output"});  // the default
  // dynamic_axes merged key by key across two files:
  const auto& axes = cfg.onnx.dynamic_axes->at("input");
  EXPECT_EQ(axes, (std::map<std::int64_t, std::string>{{0, "batch"}, {2, "height"}, {3, "width"}}));
  EXPECT_EQ(*cfg.codebase.task, "SuperResolution");
  EXPECT_EQ(cfg.backend, "onnxruntime");
  EXPECT_EQ(cfg.backend_param<retarget::backends::onnxruntime_manager>().file_name.resolved(),
            "srcnn.onnx");
  ASSERT_EQ(cfg.document.files().size(), 4u);  // bases first, the file itself last
  EXPECT_EQ(cfg.document.files().front().filename(), "onnx.json");
  EXPECT_EQ(cfg.document.file().filename(), "model.json");
  EXPECT_EQ(cfg.document.origin_of("onnx_config.save_file").filename(), "onnx.json");
  EXPECT_EQ(cfg.document.origin_of("onnx_config.dynamic_axes.input.2").filename(), "dynamic.json");
  EXPECT_EQ(cfg.document.origin_of("onnx_config.opset_version").filename(), "model.json");
}

TEST_F(Configs, ListsAreReplacedWhole) {
  write("_base_/a.json", R"({"onnx_config": {"output_names": ["x", "y"]},
                             "backend_config": {"type": "onnxruntime"}})");
  write("b.json", R"({"_base_": ["_base_/a.json"], "onnx_config": {"output_names": ["z"]}})");
  EXPECT_EQ(*rc::load_deploy_config(dir_ / "b.json").onnx.output_names,
            std::vector<std::string>{"z"});
}

TEST_F(Configs, ACycleOfBasesIsAnError) {
  write("a.json", R"({"_base_": ["b.json"]})");
  write("b.json", R"({"_base_": ["a.json"]})");
  EXPECT_EQ(error_of("a.json"),
            "retarget: DIR/b.json: _base_[0]: DIR/a.json is already being loaded: the bases "
            "form a cycle (a.json → b.json → a.json)");
}

TEST_F(Configs, AMissingBaseNamesTheFileThatAskedForIt) {
  write("a.json", R"({"_base_": ["_base_/here.json", "_base_/gone.json"]})");
  write("_base_/here.json", R"({})");
  EXPECT_EQ(error_of("a.json"),
            "retarget: DIR/a.json: _base_[1]: DIR/_base_/gone.json does not exist");
  EXPECT_EQ(error_of("nowhere.json"), "retarget: config file DIR/nowhere.json does not exist");
}

TEST_F(Configs, UnknownKeysNameTheirPathTheFileAndTheClosestKeys) {
  write("_base_/onnx.json", R"({"onnx_config": {"opset_versoin": 11}})");
  write("a.json", R"({"_base_": "_base_/onnx.json", "backend_config": {"type": "onnxruntime"}})");
  EXPECT_EQ(error_of("a.json"),
            "retarget: DIR/_base_/onnx.json: onnx_config.opset_versoin is not a known key "
            "(closest: opset_version, save_file, type)");
  write("b.json", R"({"backend_confg": {"type": "onnxruntime"}})");
  EXPECT_EQ(error_of("b.json"),
            "retarget: DIR/b.json: backend_confg is not a section of a deploy config (closest: "
            "backend_config, onnx_config, codebase_config)");
  write("c.json", R"({"backend_config": {"type": "tensorrt", "common_config": {"fp16": true}}})");
  try {
    rc::load_deploy_config(dir_ / "c.json").backend_param<retarget::backends::tensorrt_manager>();
    FAIL() << "no error";
  } catch (const retarget::options::json_error& e) {
    EXPECT_EQ(e.path(), "backend_config.common_config.fp16");
    EXPECT_EQ(std::string(e.what()), "retarget: " + (dir_ / "c.json").string() +
                                         ": backend_config.common_config.fp16 is not a known key "
                                         "(closest: fp16_mode, max_workspace_size)");
  }
}

TEST_F(Configs, WrongTypesNameTheExpectedType) {
  write("_base_/trt.json", R"({"backend_config": {"type": "tensorrt",
    "model_inputs": [{"input_shapes": {"input": {"min_shape": [1, 3, "32", 32]}}}]}})");
  write("a.json", R"({"_base_": ["_base_/trt.json"], "onnx_config": {"opset_version": "11"}})");
  EXPECT_EQ(error_of("a.json"),
            "retarget: DIR/a.json: onnx_config.opset_version must be an integer, not a string");
  write("b.json", R"({"_base_": ["_base_/trt.json"]})");
  try {
    rc::load_deploy_config(dir_ / "b.json").backend_param<retarget::backends::tensorrt_manager>();
    FAIL() << "no error";
  } catch (
      const retarget::options::json_error& e) {  // the bad value is in the base: the base is named
    EXPECT_EQ(std::string(e.what()),
              "retarget: " + (dir_ / "_base_/trt.json").string() +
                  ": backend_config.model_inputs[0].input_shapes.input.min_shape[2] must be an "
                  "integer, not a string");
  }
  write("c.json", R"({"_base_": 3})");
  EXPECT_EQ(error_of("c.json"),
            "retarget: DIR/c.json: _base_ must be a path or a list of paths, not an integer");
  write("d.json", R"({"onnx_config": {"dynamic_axes": {"input": {"x": "batch"}}}})");
  EXPECT_EQ(error_of("d.json"),
            "retarget: DIR/d.json: onnx_config.dynamic_axes.input has the key 'x', which is not an "
            "integer");
}

TEST_F(Configs, ValuesOutOfTheirRangeAreErrors) {
  write("a.json", R"({"onnx_config": {"opset_version": 21}, "backend_config": {"type": "x"}})");
  EXPECT_EQ(error_of("a.json"),
            "retarget: DIR/a.json: onnx_config.opset_version is 21, out of the range 7 to 17");
  write("b.json", R"({"onnx_config": {"type": "torchscript"}, "backend_config": {"type": "x"}})");
  EXPECT_EQ(error_of("b.json"),
            "retarget: DIR/b.json: onnx_config.type must be \"onnx\", not \"torchscript\"");
  write("c.json",
        R"({"onnx_config": {"input_shape": [1, 3, 32]}, "backend_config": {"type": "x"}})");
  EXPECT_EQ(error_of("c.json"),
            "retarget: DIR/c.json: onnx_config.input_shape must be [width, height], not 3 numbers");
  write("d.json", R"({"onnx_config": {}})");
  EXPECT_EQ(error_of("d.json"), "retarget: DIR/d.json: backend_config is missing");
  write("e.json", R"({"backend_config": {"file_name": "x"}})");
  EXPECT_EQ(error_of("e.json"),
            "retarget: DIR/e.json: backend_config has no type (the backend's name)");
  write("f.json", R"({"backend_config": {"type": "onnxruntime"}})");
  try {
    rc::load_deploy_config(dir_ / "f.json").backend_param<retarget::backends::tensorrt_manager>();
    FAIL() << "no error";
  } catch (const retarget::error& e) {
    EXPECT_EQ(std::string(e.what()), "retarget: " + (dir_ / "f.json").string() +
                                         ": backend_config.type is 'onnxruntime', not 'tensorrt'");
  }
  write("g.json", R"({"backend_config": {"type": 7}})");
  EXPECT_EQ(error_of("g.json"),
            "retarget: DIR/g.json: backend_config.type must be a string, not an integer");
  write("h.json", R"({"backend_config": ["onnxruntime"]})");
  EXPECT_EQ(error_of("h.json"),
            "retarget: DIR/h.json: backend_config must be an object, not an array");
}

TEST_F(Configs, APartitionConfigIsReadAndChecked) {
  // MMDeploy's spelling, its `type` (a codebase's preset) taken and ignored.
  write("a.json", R"({"partition_config": {"type": "end2end", "apply_marks": true,
    "partition_cfg": [{"save_file": "head.onnx", "end": ["features"]}]},
    "backend_config": {"type": "opencv_dnn"}})");
  const auto cfg = rc::load_deploy_config(dir_ / "a.json");
  ASSERT_TRUE(cfg.partition.has_value());
  EXPECT_EQ(*cfg.partition->partition_cfg->front().save_file, "head.onnx");
  EXPECT_EQ(*cfg.partition->partition_cfg->front().end, std::vector<std::string>{"features"});
  EXPECT_TRUE(rc::export_options_for(cfg).apply_marks);
  // Without the section, nothing is cut and marks leave no trace.
  write("none.json", R"({"backend_config": {"type": "opencv_dnn"}})");
  const auto whole = rc::load_deploy_config(dir_ / "none.json");
  EXPECT_FALSE(whole.partition.has_value());
  EXPECT_FALSE(rc::export_options_for(whole).apply_marks);

  write("b.json", R"({"partition_config": {"partition_cfg": []},
    "backend_config": {"type": "opencv_dnn"}})");
  EXPECT_EQ(error_of("b.json"),
            "retarget: DIR/b.json: partition_config.partition_cfg lists 0 parts: one is run by "
            "the backend, the rest of the model is the other");
  write("c.json", R"({"partition_config": {"partition_cfg": [{"save_file": "x.onnx"}]},
    "backend_config": {"type": "opencv_dnn"}})");
  EXPECT_EQ(error_of("c.json"),
            "retarget: DIR/c.json: partition_config.partition_cfg[0].end is empty: name the "
            "marks the backend's part ends at");
  write("d.json", R"({"partition_config": {"partition_cfg": [{"ends": ["x"]}]},
    "backend_config": {"type": "opencv_dnn"}})");
  EXPECT_EQ(error_of("d.json"),
            "retarget: DIR/d.json: partition_config.partition_cfg[0].ends is not a known key "
            "(closest: end, save_file)");
  write("e.json", R"({"partition_config": {"apply_marks": "yes", "partition_cfg": []},
    "backend_config": {"type": "opencv_dnn"}})");
  EXPECT_EQ(error_of("e.json"),
            "retarget: DIR/e.json: partition_config.apply_marks must be a boolean, not a string");
}

TEST_F(Configs, AMarkNamesItsValueOnlyWhenTheConfigAppliesMarks) {
  write("marked.json", R"({"partition_config": {"partition_cfg": [{"end": ["features"]}]},
    "backend_config": {"type": "onnxruntime"}})");
  write("plain.json", R"({"backend_config": {"type": "onnxruntime"}})");
  const retarget::nn::Linear fc("fc", 4, 2);
  const retarget::nn::ReLU relu;
  const auto model = [&](const auto& x) { return relu(retarget::trace::mark(fc(x), "features")); };
  const retarget::input_spec specs[] = {{"input", retarget::ir::dtype::f32, {1, 4}}};
  for (const auto* name : {"marked.json", "plain.json"}) {
    const auto cfg = rc::load_deploy_config(dir_ / name);
    const auto result = retarget::export_onnx<retarget::backends::onnxruntime>(
        model, specs, cfg, rc::export_options_for(cfg));
    bool named = false;
    for (const auto& n : result.model.graph().node())
      named = named || (n.op_type() == "Identity" && n.output(0) == "features");
    EXPECT_EQ(named, cfg.partition.has_value()) << name;
    EXPECT_NO_THROW(result.model.check());
  }
  // A mark placed twice is an error that names it.
  const auto twice = [&](const auto& x) {
    return retarget::trace::mark(retarget::trace::mark(fc(x), "features"), "features");
  };
  const auto cfg = rc::load_deploy_config(dir_ / "marked.json");
  try {
    retarget::export_onnx<retarget::backends::onnxruntime>(twice, specs, cfg,
                                                           rc::export_options_for(cfg));
    ADD_FAILURE() << "no error";
  } catch (const retarget::error& e) {
    EXPECT_EQ(std::string(e.what()),
              "retarget: mark 'features': the model has a value of that name already (a mark is "
              "placed once)");
  }
}

TEST_F(Configs, ADynamicAxisOutsideTheInputIsAnError) {
  write("a.json", R"({"onnx_config": {"dynamic_axes": {"input": {"4": "width"}}},
    "backend_config": {"type": "onnxruntime"}})");
  EXPECT_EQ(
      spec_error_of("a.json"),
      "retarget: DIR/a.json: onnx_config.dynamic_axes.input.4 is not an axis of input 'input', "
      "which has rank 4");
}

TEST_F(Configs, MalformedJsonGivesLineAndColumn) {
  write("a.json",
        "{\n  \"onnx_config\": {\n    \"opset_version\": 11,\n    \"save_file\" \"x\"\n  }\n}\n");
  EXPECT_EQ(error_of("a.json"), "retarget: DIR/a.json:4:17: invalid JSON (syntax error)");
  write("b.json", "{\"backend_config\": {\"type\": \"onnxruntime\"}} extra");
  EXPECT_EQ(error_of("b.json"), "retarget: DIR/b.json:1:45: invalid JSON (extra data)");
  write("c.json", "[1, 2]");
  EXPECT_EQ(error_of("c.json"),
            "retarget: DIR/c.json: a config must be a JSON object, not an array");
  write("d.json", "");
  EXPECT_EQ(error_of("d.json"), "retarget: DIR/d.json:1:1: invalid JSON (incomplete JSON)");
  write("e.json", "{\"onnx_config\": {\"opset_version\": 11,\n");  // cut short
  EXPECT_EQ(error_of("e.json"), "retarget: DIR/e.json:2:1: invalid JSON (incomplete JSON)");
  fs::create_directories(dir_ / "folder.json");
  EXPECT_EQ(error_of("folder.json"),
            "retarget: config file DIR/folder.json is a folder, not a file");
}

TEST_F(Configs, TheOnnxConfigShapesTheExport) {
  write("a.json", R"({"onnx_config": {"input_names": ["lr"], "input_shape": [40, 30],
    "dynamic_axes": {"lr": {"0": "batch"}, "sr": {"2": "out_h"}}, "output_names": ["sr"]},
    "backend_config": {"type": "onnxruntime"}})");
  const auto cfg = rc::load_deploy_config(dir_ / "a.json");
  const auto spec = rc::input_spec_for(cfg, 0, 1, retarget::ir::dtype::f32, {1, 3, 8, 8});
  EXPECT_EQ(spec.name, "lr");
  EXPECT_EQ(spec.shape, (std::vector<retarget::ir::dim>{"batch", 3, 30, 40}));
  EXPECT_EQ(rc::export_options_for(cfg).output_names, std::vector<std::string>{"sr"});
  EXPECT_EQ(rc::export_options_for(cfg).opset, 11);
  EXPECT_EQ(
      spec_error_of("a.json", 2),
      "retarget: DIR/a.json: onnx_config.input_names lists 1 name, but the model has 2 inputs");
  write("b.json", R"({"onnx_config": {"dynamic_axes": {"inptu": {"0": "batch"}}},
    "backend_config": {"type": "onnxruntime"}})");
  EXPECT_NE(spec_error_of("b.json").find("onnx_config.dynamic_axes.inptu names neither an input "
                                         "nor an output (closest: input, output)"),
            std::string::npos)
      << spec_error_of("b.json");
}

TEST_F(Configs, TheExportItselfNamesOutputAxesAndListsTheWeightsAsInputs) {
  write("a.json", R"({"onnx_config": {"input_names": ["lr"], "output_names": ["sr"],
    "dynamic_axes": {"lr": {"0": "batch"}, "sr": {"0": "batch", "1": "features"}},
    "keep_initializers_as_inputs": true}, "backend_config": {"type": "onnxruntime"}})");
  const auto cfg = rc::load_deploy_config(dir_ / "a.json");
  const retarget::nn::Linear fc("fc", 4, 2);
  const retarget::input_spec specs[] = {
      rc::input_spec_for(cfg, 0, 1, retarget::ir::dtype::f32, {1, 4})};
  auto result = retarget::export_onnx<retarget::backends::onnxruntime>(fc, specs, cfg,
                                                                       rc::export_options_for(cfg));
  const auto& g = result.model.graph();
  const auto& out = g.output(0).type().tensor_type().shape();
  EXPECT_EQ(g.output(0).name(), "sr");
  EXPECT_EQ(out.dim(0).dim_param(), "batch");
  EXPECT_EQ(out.dim(1).dim_param(), "features");
  ASSERT_EQ(g.initializer_size(), 2);
  ASSERT_EQ(g.input_size(), 3);  // lr, then the weight and the bias
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(g.input(i + 1).name(), g.initializer(i).name());
    EXPECT_EQ(g.input(i + 1).type().tensor_type().shape().dim_size(), g.initializer(i).dims_size());
  }
  EXPECT_NO_THROW(result.model.check());
  EXPECT_EQ(result.model.shared_initializers().size(), 2u);  // and nothing was copied

  write("b.json", R"({"onnx_config": {"dynamic_axes": {"output": {"2": "depth"}}},
    "backend_config": {"type": "onnxruntime"}})");
  const auto other = rc::load_deploy_config(dir_ / "b.json");
  const retarget::input_spec input[] = {
      rc::input_spec_for(other, 0, 1, retarget::ir::dtype::f32, {1, 4})};
  try {
    retarget::export_onnx<retarget::backends::onnxruntime>(fc, input, other,
                                                           rc::export_options_for(other));
    ADD_FAILURE() << "no error";
  } catch (const retarget::error& e) {
    EXPECT_EQ(shown(e),
              "retarget: DIR/b.json: onnx_config.dynamic_axes.output.2 is not an axis of output "
              "'output', which has rank 2");
  }
}

}  // namespace
