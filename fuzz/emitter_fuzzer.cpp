// Fuzzes the run-time path of the emitter: op names, domains, attributes, inputs and outputs
// known only at run time, as a converter reading another format meets them (node_spec and
// g.emit, and g.op(retarget::runtime_op(name), ...)). Every refusal must be a retarget::error
// that leaves the graph usable; anything else escaping, a crash, a leak or a sanitizer report is
// a finding.
//
// The input is parsed as an ONNX model, whose nodes are replayed one by one into a graph: the
// seeds (ONNX's backend test data) give real nodes, and the fuzzer's mutations give names,
// attributes and types no exporter writes. Bytes that are not a model drive a generator of
// nodes instead: ops picked from the schema registry or made up, attributes of any kind.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <retarget/ir.hpp>
#include <string>
#include <vector>

namespace {

namespace rx = retarget::ir;

// Everything ends in a model that goes through the checker; all refusals are retarget::errors.
void finish(rx::graph& g, const std::vector<rx::value>& produced) {
  for (std::size_t i = 0; i < produced.size() && i < 4; ++i) {
    try {
      g.output(produced[produced.size() - 1 - i]);
    } catch (const retarget::error&) {
    }
  }
  auto m = rx::make_model(std::move(g));
  try {
    m.check();
  } catch (const retarget::error&) {
  }
}

// The nodes of a model, emitted again through node_spec.
void replay(const onnx::ModelProto& model) {
  int opset = rx::default_opset;
  for (const auto& o : model.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx") opset = static_cast<int>(o.version());
  rx::graph g(opset);  // may refuse the opset: a retarget::error
  for (const auto& o : model.opset_import())
    if (!o.domain().empty() && o.domain() != "ai.onnx") {
      try {
        g.set_domain_version(o.domain(), static_cast<int>(o.version()));
      } catch (const retarget::error&) {
      }
    }
  for (const auto& in : model.graph().input()) {
    try {
      g.input(in.name(), in.type());
    } catch (const retarget::error&) {
    }
  }
  for (const auto& init : model.graph().initializer()) {
    try {
      g.initializer(init.name(), rx::tensor(init));
    } catch (const retarget::error&) {
    }
  }
  std::vector<rx::value> produced;
  for (const auto& node : model.graph().node()) {
    rx::node_spec spec;
    spec.op_type = node.op_type();
    if (node.has_domain()) spec.domain = node.domain();
    spec.attributes = rx::node_view(node).attribute_protos();
    spec.outputs.assign(node.output().begin(), node.output().end());
    spec.name = node.name();
    try {
      for (const auto& name : node.input())
        spec.inputs.push_back(name.empty() ? rx::value{} : g.find(name));
      for (const auto& v : g.emit(std::move(spec))) produced.push_back(v);
    } catch (const retarget::error&) {
    }
  }
  finish(g, produced);
}

// Nodes made up from the bytes.
void generate(FuzzedDataProvider& in) {
  static const std::vector<onnx::OpSchema> schemas = onnx::OpSchemaRegistry::get_all_schemas();
  rx::graph g(in.ConsumeIntegralInRange(rx::min_opset, rx::max_opset));
  std::vector<rx::value> values;
  const int inputs = in.ConsumeIntegralInRange(1, 3);
  for (int i = 0; i < inputs; ++i) {
    std::vector<rx::dim> shape;
    const int rank = in.ConsumeIntegralInRange(0, 4);
    for (int d = 0; d < rank; ++d)
      if (in.ConsumeBool())
        shape.emplace_back(in.ConsumeIntegralInRange<std::int64_t>(0, 8));
      else
        shape.emplace_back(in.ConsumeBool() ? "n" : "m");
    const auto type = static_cast<rx::dtype>(in.ConsumeIntegralInRange(0, 16));
    values.push_back(g.input("in" + std::to_string(i), type, shape));
  }
  std::vector<rx::value> produced;
  while (in.remaining_bytes() > 0) {
    rx::node_spec spec;
    const auto& schema = schemas[in.ConsumeIntegralInRange<std::size_t>(0, schemas.size() - 1)];
    switch (in.ConsumeIntegralInRange(0, 3)) {
      case 0:  // a made-up name, in a made-up or real domain
        spec.op_type = in.ConsumeRandomLengthString(16);
        if (in.ConsumeBool())
          spec.domain = in.ConsumeBool() ? schema.domain() : in.ConsumeRandomLengthString(8);
        break;
      default:
        spec.op_type = schema.Name();
        if (!schema.domain().empty() || in.ConsumeBool()) spec.domain = schema.domain();
    }
    const int n_inputs = in.ConsumeIntegralInRange(0, 4);
    for (int i = 0; i < n_inputs; ++i)
      spec.inputs.push_back(
          in.ConsumeBool() || values.empty()
              ? rx::value{}
              : values[in.ConsumeIntegralInRange<std::size_t>(0, values.size() - 1)]);
    const int n_attributes = in.ConsumeIntegralInRange(0, 3);
    for (int i = 0; i < n_attributes; ++i) {
      onnx::AttributeProto a;
      const auto& declared = schema.attributes();
      if (!declared.empty() && in.ConsumeBool()) {
        auto it = declared.begin();
        std::advance(it, in.ConsumeIntegralInRange<std::size_t>(0, declared.size() - 1));
        a.set_name(it->first);
        a.set_type(in.ConsumeBool() ? it->second.type
                                    : static_cast<onnx::AttributeProto::AttributeType>(
                                          in.ConsumeIntegralInRange(0, 14)));
      } else {
        a.set_name(in.ConsumeRandomLengthString(12));
        a.set_type(
            static_cast<onnx::AttributeProto::AttributeType>(in.ConsumeIntegralInRange(0, 14)));
      }
      switch (a.type()) {
        case onnx::AttributeProto::INT:
          a.set_i(in.ConsumeIntegral<std::int64_t>());
          break;
        case onnx::AttributeProto::FLOAT:
          a.set_f(in.ConsumeFloatingPoint<float>());
          break;
        case onnx::AttributeProto::STRING:
          a.set_s(in.ConsumeRandomLengthString(12));
          break;
        case onnx::AttributeProto::INTS:
          for (int k = in.ConsumeIntegralInRange(0, 5); k > 0; --k)
            a.add_ints(in.ConsumeIntegralInRange<std::int64_t>(-9, 9));
          break;
        case onnx::AttributeProto::FLOATS:
          for (int k = in.ConsumeIntegralInRange(0, 5); k > 0; --k)
            a.add_floats(in.ConsumeFloatingPoint<float>());
          break;
        case onnx::AttributeProto::TENSOR: {
          const auto bytes = in.ConsumeBytes<char>(in.ConsumeIntegralInRange(0, 32));
          a.mutable_t()->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()));
          break;
        }
        default:
          break;
      }
      spec.attributes.push_back(std::move(a));
    }
    spec.output_count = in.ConsumeIntegralInRange<std::size_t>(0, 3);
    try {
      std::vector<rx::value> outs;
      if (spec.attributes.empty() && spec.inputs.size() == 1 && spec.inputs[0].valid() &&
          in.ConsumeBool())
        outs.push_back(
            g.op(retarget::runtime_op(spec.op_type), spec.inputs[0]));  // g.op with a run-time name
      else
        outs = g.emit(std::move(spec));
      produced.insert(produced.end(), outs.begin(), outs.end());
      values.insert(values.end(), outs.begin(), outs.end());
    } catch (const retarget::error&) {
    }
  }
  finish(g, produced);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  onnx::ModelProto model;
  try {
    if (model.ParseFromArray(data, static_cast<int>(size)) && model.graph().node_size() > 0) {
      replay(model);
    } else {
      FuzzedDataProvider in(data, size);
      generate(in);
    }
  } catch (const retarget::error&) {
  }
  return 0;
}
