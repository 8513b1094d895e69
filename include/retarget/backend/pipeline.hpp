// Models run one after another, each on its own engine: a model partitioned for an engine that
// cannot run all of it (`retarget convert --partition`). Each part reads the pipeline's inputs
// and what the parts before it gave, by name; the pipeline gives the outputs it lists. A
// pipeline file (NAME.pipeline.json) lists the parts, their model files relative to it:
//
//   {"parts": [{"model": "ssd.onnx", "engine": "opencv_dnn"},
//              {"model": "ssd.rest.onnx", "engine": "onnxruntime"}],
//    "outputs": ["boxes", "scores", "labels"]}
//
//   const auto p = retarget::backend::read_pipeline("ssd.pipeline.json");
//   auto outputs = retarget::backend::run_pipeline<retarget::backends::shipped>(
//       p, "ssd.pipeline.json", inputs, scratch);
#ifndef RETARGET_BACKEND_PIPELINE_HPP
#define RETARGET_BACKEND_PIPELINE_HPP

#include <boost/describe/class.hpp>
#include <filesystem>
#include <retarget/backend/manager.hpp>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <string>
#include <vector>

namespace retarget::backend {

struct pipeline_part {
  std::string model;   // the ONNX file, relative to the pipeline file's folder
  std::string engine;  // a backend's name, as `retarget backends` lists it
};
BOOST_DESCRIBE_STRUCT(pipeline_part, (), (model, engine))

struct pipeline {
  std::vector<pipeline_part> parts;
  std::vector<std::string> outputs;  // what the pipeline gives, in order
};
BOOST_DESCRIBE_STRUCT(pipeline, (), (parts, outputs))

// Whether a path names a pipeline file rather than a model: it ends in .json.
inline bool is_pipeline_file(const std::filesystem::path& path) {
  return path.extension() == ".json";
}

// The pipeline a file holds; retarget::error naming the file and the key path of what is wrong
// (no parts, an empty model or engine name), or the file a part names that is not there.
RETARGET_COMPILED_DECL pipeline read_pipeline(const std::filesystem::path& file);

// Writes the pipeline file atomically.
RETARGET_COMPILED_DECL void write_pipeline(const pipeline& p, const std::filesystem::path& file);

// "opencv_dnn+onnxruntime": the engines of its parts, in order, as a run's label names them.
RETARGET_COMPILED_DECL std::string engines_of(const pipeline& p);

namespace detail {

// The graph inputs of a part's model file (its external data is not read).
RETARGET_COMPILED_DECL std::vector<std::string> input_names_of(const std::filesystem::path& model);

// "part 2 (ssd.rest.onnx on onnxruntime)": how messages name a part.
RETARGET_COMPILED_DECL std::string part_place(const pipeline& p, std::size_t k);

}  // namespace detail

// Runs the parts in order on their engines of Managers (the file is the pipeline's, whose folder
// holds the parts' models), the engines' files going to `scratch`. retarget::error naming the
// file and the part when a part reads what neither the inputs nor an earlier part gives, or its
// engine fails; or the output no part gives.
template <class Managers>
tensor_map run_pipeline(const pipeline& p, const std::filesystem::path& file,
                        const tensor_map& inputs, const std::filesystem::path& scratch) {
  tensor_map values = inputs;
  const auto folder = file.parent_path();
  for (std::size_t k = 0; k < p.parts.size(); ++k) {
    const auto model = folder / p.parts[k].model;
    tensor_map feeds;
    for (const auto& name : detail::input_names_of(model)) {
      const auto v = values.find(name);
      if (v == values.end())
        throw error("retarget: " + file.string() + ": " + detail::part_place(p, k) + " reads '" +
                    name + "', which neither the inputs nor an earlier part gives");
      feeds.insert(*v);
    }
    auto given = Managers::visit(p.parts[k].engine, [&](auto manager) {
      using M = decltype(manager);
      typename M::param param;
      param.work_dir = (scratch / ("part-" + std::to_string(k))).string();
      try {
        return run_on_engine<M>(model, param, feeds);
      } catch (const error& e) {
        throw error("retarget: " + file.string() + ": " + detail::part_place(p, k) + ": " +
                    e.what());
      }
    });
    for (auto& [name, t] : given) values.insert_or_assign(name, std::move(t));
  }
  tensor_map out;
  for (const auto& name : p.outputs) {
    const auto v = values.find(name);
    if (v == values.end())
      throw error("retarget: " + file.string() + ": no part gives the output '" + name + "'");
    out.insert(*v);
  }
  return out;
}

}  // namespace retarget::backend

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/backend/detail/pipeline_impl.hpp>
#endif

#endif  // RETARGET_BACKEND_PIPELINE_HPP
