// retarget inspect, check and draw: commands that read a model file.
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>

#include <climits>
#include <fstream>
#include <iterator>
#include <retarget/ir/dot.hpp>
#include <retarget/ir/inspect.hpp>

#include "cli.hpp"

namespace cli {

namespace {

std::string model_argument(arguments& args, std::string_view command) {
  const auto files = args.positionals();
  if (files.size() != 1)
    throw usage_error("retarget: " + std::string(command) + " takes one MODEL.onnx, got " +
                      std::to_string(files.size()));
  return files.front();
}

// The model as stored, external data left where it is: inspect reports its size from the
// model and need not read gigabytes of weights.
retarget::ir::model read_model_proto(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw retarget::error("retarget: cannot open " + path.string());
  onnx::ModelProto proto;
  google::protobuf::io::IstreamInputStream stream(&in);
  google::protobuf::io::CodedInputStream coded(&stream);
  coded.SetTotalBytesLimit(INT_MAX);
  if (!proto.ParseFromCodedStream(&coded) || !coded.ConsumedEntireMessage())
    throw retarget::error("retarget: " + path.string() +
                          " is not a valid ONNX model (corrupt or truncated)");
  return retarget::ir::model(std::move(proto));
}

}  // namespace

int inspect(arguments& args, std::ostream& out) {
  const fs::path path = model_argument(args, "inspect");
  const auto model = read_model_proto(path);
  const auto summary = retarget::ir::summarize(model);
  out << path.string() << ": " << retarget::ir::human_bytes(fs::file_size(path)) << " on disk";
  std::set<std::string> external;
  for (const auto& t : model.graph().initializer())
    for (const auto& e : t.external_data())
      if (e.key() == "location") external.insert(e.value());
  if (!external.empty()) {
    out << ", weights external in";
    for (const auto& e : external) out << " " << e;
  }
  out << "\n" << summary;
  return 0;
}

int check(arguments& args, std::ostream& out) {
  const fs::path path = model_argument(args, "check");
  const auto model = retarget::ir::load(path);
  try {
    model.check();
  } catch (const retarget::error& e) {
    throw retarget::error("retarget: " + path.string() + " is not valid: " + e.what());
  }
  out << path.string() << ": valid (ONNX checker and strict shape inference passed; "
      << model.graph().node_size() << " nodes, opset " << model.opset().value_or(0) << ")\n";
  return 0;
}

int draw(arguments& args, std::ostream& out) {
  const auto output = args.one("--output", "-o");
  if (!output) throw usage_error("retarget: draw needs -o FILE.svg, FILE.png or FILE.dot");
  const fs::path path = model_argument(args, "draw");
  const fs::path target = *output;
  const auto format = target.extension().string();
  if (format != ".svg" && format != ".png" && format != ".dot")
    throw usage_error("retarget: draw writes .svg, .png or .dot, not '" +
                      target.filename().string() + "'");
  auto model = read_model_proto(path);
  try {  // shapes on every edge where inference finds them; a picture without is still one
    model.infer_shapes();
  } catch (const retarget::error&) {
  }
  const std::string dot_text = retarget::ir::to_dot(model);
  if (format == ".dot") {
    write_file(target, dot_text);
  } else {
    const auto dot = retarget::backend::find_program("dot");
    if (dot.empty())
      throw retarget::error(
          "retarget: draw: Graphviz's dot is not on PATH (Debian: apt-get install graphviz), "
          "so only .dot can be written");
    const auto folder = target.parent_path().empty() ? fs::path(".") : target.parent_path();
    scratch_dir scratch(folder, "retarget-draw");
    write_file(scratch.path() / "graph.dot", dot_text);
    const auto picture = scratch.path() / ("graph" + format);
    const auto log = scratch.path() / "dot.log";
    if (retarget::backend::run_program({dot.string(), "-T" + format.substr(1), "-o",
                                        picture.string(), (scratch.path() / "graph.dot").string()},
                                       log.string()) != 0) {
      std::ifstream messages(log);
      throw retarget::error("retarget: draw: Graphviz's dot failed: " +
                            std::string(std::istreambuf_iterator<char>(messages), {}));
    }
    fs::rename(picture, target);
  }
  out << "wrote " << target.string() << " (" << retarget::ir::human_bytes(fs::file_size(target))
      << ")\n";
  return 0;
}

}  // namespace cli
