// The files of a model in two parts, as `retarget convert --partition` and `retarget deploy`
// with a partition_config write them: HEAD.onnx (the backend's part), HEAD.rest.onnx (the rest,
// for ONNX Runtime) and HEAD.pipeline.json (the two as one model).
#ifndef RETARGET_TOOL_DETAIL_PARTITION_FILES_HPP
#define RETARGET_TOOL_DETAIL_PARTITION_FILES_HPP

#include <filesystem>
#include <retarget/backend/pipeline.hpp>
#include <retarget/backends/onnxruntime/backend.hpp>
#include <retarget/ir/model_file.hpp>
#include <retarget/ir/model_parts.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace retarget::tool::detail {

namespace fs = std::filesystem;

struct partition_files {
  fs::path head, tail, pipeline;

  // For HEAD.onnx (a name without .onnx gets the suffixes after it).
  explicit partition_files(const fs::path& head_file) : head(head_file) {
    auto stem = head_file;
    if (stem.extension() == ".onnx") stem.replace_extension();
    tail = stem.string() + ".rest.onnx";
    pipeline = stem.string() + ".pipeline.json";
  }
};

// The rest of a partitioned model runs where every ONNX op does.
inline const std::string rest_engine(retarget::backends::onnxruntime::name);

// Saves the parts and the pipeline file that runs them (the head on `engine`, the rest on
// rest_engine, giving `outputs`), each atomically, at `files`.
inline void save_parts(retarget::ir::model_parts& parts, std::string_view engine,
                       const std::vector<std::string>& outputs, const partition_files& files) {
  retarget::ir::save(parts.head, files.head);
  retarget::ir::save(parts.tail, files.tail);
  retarget::backend::write_pipeline({{{files.head.filename().string(), std::string(engine)},
                                      {files.tail.filename().string(), rest_engine}},
                                     outputs},
                                    files.pipeline);
}

}  // namespace retarget::tool::detail

#endif  // RETARGET_TOOL_DETAIL_PARTITION_FILES_HPP
