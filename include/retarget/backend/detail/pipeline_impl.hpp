// The definitions of backend/pipeline.hpp: inline header-only, compiled once into
// retarget::compiled otherwise.
#ifndef RETARGET_BACKEND_DETAIL_PIPELINE_IMPL_HPP
#define RETARGET_BACKEND_DETAIL_PIPELINE_IMPL_HPP

#include <boost/json/serialize.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <retarget/backend/pipeline.hpp>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/atomic_file.hpp>
#include <retarget/ir/model_file.hpp>
#include <retarget/ir/sample_inputs.hpp>
#include <retarget/options/json.hpp>
#include <string>
#include <vector>

namespace retarget::backend {

RETARGET_COMPILED_DECL pipeline read_pipeline(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw error("retarget: cannot read " + file.string() + ": " + std::strerror(errno));
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  boost::system::error_code ec;
  const auto json = boost::json::parse(text, ec);
  if (ec) throw error("retarget: " + file.string() + ": not a pipeline file: " + ec.message());
  pipeline p;
  try {
    p = options::from_json<pipeline>(json, "pipeline");
  } catch (const options::json_error& e) {
    throw options::json_error(e.path(), e.problem(), file.string());
  }
  const auto fail = [&](const std::string& path, const std::string& problem) {
    throw options::json_error(path, problem, file.string());
  };
  if (p.parts.empty()) fail("pipeline.parts", "lists no part");
  if (p.outputs.empty()) fail("pipeline.outputs", "lists no output");
  for (std::size_t k = 0; k < p.parts.size(); ++k) {
    const auto at = "pipeline.parts[" + std::to_string(k) + "]";
    if (p.parts[k].model.empty())
      fail(at + ".model", "is empty (an ONNX file beside " + file.filename().string() + ")");
    if (p.parts[k].engine.empty()) fail(at + ".engine", "is empty (a backend's name)");
    if (!std::filesystem::is_regular_file(file.parent_path() / p.parts[k].model))
      fail(at + ".model",
           "names " + (file.parent_path() / p.parts[k].model).string() + ", which is not there");
  }
  return p;
}

RETARGET_COMPILED_DECL void write_pipeline(const pipeline& p, const std::filesystem::path& file) {
  boost::json::array parts;
  for (const auto& part : p.parts)
    parts.push_back(boost::json::object{{"model", part.model}, {"engine", part.engine}});
  boost::json::array outputs;
  for (const auto& o : p.outputs) outputs.push_back(boost::json::string(o));
  const std::string text =
      boost::json::serialize(boost::json::object{{"parts", parts}, {"outputs", outputs}}) + "\n";
  ir::atomic_file out(file);
  out.write(text.data(), text.size());
  out.commit();
}

RETARGET_COMPILED_DECL std::string engines_of(const pipeline& p) {
  std::string out;
  for (const auto& part : p.parts) out += (out.empty() ? "" : "+") + part.engine;
  return out;
}

namespace detail {

RETARGET_COMPILED_DECL std::vector<std::string> input_names_of(const std::filesystem::path& model) {
  std::vector<std::string> out;
  for (const auto& in : ir::inputs_of(ir::read_model_file(model))) out.push_back(in.name);
  return out;
}

RETARGET_COMPILED_DECL std::string part_place(const pipeline& p, std::size_t k) {
  return "part " + std::to_string(k + 1) + " (" + p.parts[k].model + " on " + p.parts[k].engine +
         ")";
}

}  // namespace detail

}  // namespace retarget::backend

#endif  // RETARGET_BACKEND_DETAIL_PIPELINE_IMPL_HPP
