// retarget convert: an existing ONNX model rewritten for a backend, with the report; and the
// engine's refusals that `retarget check --backend NAME` lists.
#ifndef RETARGET_TOOL_DETAIL_CONVERT_COMMAND_HPP
#define RETARGET_TOOL_DETAIL_CONVERT_COMMAND_HPP

#include <algorithm>
#include <charconv>
#include <chrono>
#include <functional>
#include <iostream>
#include <map>
#include <retarget/backend/pipeline.hpp>
#include <retarget/backends/onnxruntime/backend.hpp>
#include <retarget/convert/convert.hpp>
#include <retarget/convert/opset.hpp>
#include <retarget/convert/partition.hpp>
#include <retarget/convert/refusals.hpp>
#include <retarget/ir/fixed_inputs.hpp>
#include <retarget/ir/inspect.hpp>
#include <retarget/ir/model_parts.hpp>
#include <retarget/ir/model_view.hpp>
#include <retarget/ir/open_dims.hpp>
#include <retarget/ir/tensor_file.hpp>
#include <retarget/tool/detail/common.hpp>
#include <retarget/tool/detail/partition_files.hpp>

namespace retarget::tool::detail {

// Prints B's refusals of m; returns how many there are (nullopt: B has no table).
template <class B>
std::optional<std::size_t> print_refusals(const retarget::ir::model& m, std::ostream& out,
                                          const std::string& indent) {
  const auto refused = retarget::convert::refused_nodes<B>(m);
  if (!refused) return std::nullopt;
  for (const auto& r : *refused)
    out << indent << retarget::convert::where(r) << ": " << r.why << "\n";
  return refused->size();
}

// Runs f, its retarget::error naming the file first.
template <class F>
auto in_file(const fs::path& path, F&& f) {
  try {
    return f();
  } catch (const retarget::error& e) {  // the file, then what is wrong and where
    throw retarget::error(prefixed("convert: " + path.string(), e));
  }
}

// The model at another opset, after the plan found every node an adapter takes; prints how.
inline retarget::ir::model to_opset(const retarget::ir::model& m, int opset, const fs::path& path,
                                    std::ostream& out) {
  return in_file(path, [&] {
    const auto plan = retarget::convert::plan_opset(m, opset);
    if (!plan.ok()) throw retarget::error("retarget: " + to_string(plan));
    auto converted = retarget::convert::to_opset(m, opset);
    out << path.string() << ": opset " << plan.from << " -> " << opset << ": ";
    if (plan.from == opset)
      out << "already there\n";
    else
      out << plan.by_retarget << " node steps by retarget's adapters, " << plan.by_onnx
          << " by ONNX's, " << plan.by_same_node
          << " re-emitted as they are (the same meaning at both opsets)\n";
    return converted;
  });
}

inline void write(retarget::ir::model& m, const std::string& output, std::ostream& out) {
  retarget::ir::save(m, output);
  out << "wrote " << output << " (" << retarget::ir::human_bytes(fs::file_size(output)) << ")\n";
}

// The model with the sizes of --dim and the values of --fix given, each said on a line.
inline retarget::ir::model given_values(retarget::ir::model m, const convert_options& o,
                                        const fs::path& path, std::ostream& out) {
  std::map<std::string, std::int64_t> sizes;
  for (const auto& item : o.dim.value) {
    const auto [name, text] = name_and_value(item, "--dim", "N");
    std::int64_t size = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), size);
    if (ec != std::errc() || end != text.data() + text.size() || size < 1)
      throw usage_error("retarget: --dim " + item + ": '" + text + "' is not a size (1 or more)");
    sizes[name] = size;
  }
  if (!sizes.empty()) {
    m = in_file(path, [&] { return retarget::ir::with_dims_given(m, sizes); });
    for (const auto& [name, size] : sizes)
      out << path.string() << ": dim " << name << " given the size " << size << "\n";
  }
  for (const auto& item : o.fix.value) {
    // Not a structured binding: clang 14 cannot capture one in a lambda.
    const auto given = name_and_value(item, "--fix", "FILE.pb|V1,V2,...");
    const std::string& name = given.first;
    const std::string& text = given.second;
    m = in_file(path, [&] {
      const bool file = text.ends_with(".pb") || fs::is_regular_file(text);
      const auto value =
          file ? retarget::ir::read_tensor_file(text) : retarget::ir::input_value_of(m, name, text);
      return retarget::ir::with_input_fixed(m, name, value);
    });
    out << path.string() << ": input '" << name << "' fixed to " << text << " (a constant)\n";
  }
  return m;
}

// The two parts and the pipeline file, written together: each is made in a staging folder
// beside them and moved into place, the pipeline file last, so that it never names a part that
// is not there yet.
inline void write_partition(retarget::ir::model_parts& parts, std::string_view engine,
                            const std::vector<std::string>& outputs, const fs::path& output,
                            std::ostream& out) {
  const partition_files files(output);
  const auto folder = files.head.parent_path().empty() ? fs::path(".") : files.head.parent_path();
  retarget::backend::scratch_folder staging(folder, "retarget-partition");
  save_parts(parts, engine, outputs, partition_files(staging.path() / files.head.filename()));
  std::vector<fs::path> made;
  for (const auto& e : fs::directory_iterator(staging.path()))
    if (e.path().filename() != files.pipeline.filename()) made.push_back(e.path());
  std::sort(made.begin(), made.end());
  made.push_back(staging.path() / files.pipeline.filename());
  for (const auto& f : made) fs::rename(f, folder / f.filename());
  for (const auto& f : {files.head, files.tail, files.pipeline})
    out << "wrote " << f.string() << " (" << retarget::ir::human_bytes(fs::file_size(f)) << ")\n";
}

// "ssd.onnx: 212 nodes, on opencv_dnn; gives the rest 6 values: a, b, ..."
inline void print_parts(const retarget::ir::model_parts& parts, std::string_view engine,
                        const fs::path& output, std::ostream& out) {
  const partition_files files(output);
  const auto names = [](const std::vector<std::string>& v) {
    std::string text;
    for (std::size_t i = 0; i < v.size() && i < 8; ++i) text += (i ? ", " : "") + v[i];
    return v.size() > 8 ? text + ", ... (" + std::to_string(v.size()) + " in all)" : text;
  };
  out << "  " << files.head.filename().string() << ": " << parts.head.node_count() << " nodes, on "
      << engine << "; it gives the rest " << parts.boundary.size()
      << (parts.boundary.size() == 1 ? " value: " : " values: ") << names(parts.boundary) << "\n  "
      << files.tail.filename().string() << ": " << parts.tail.node_count() << " nodes, on "
      << rest_engine << "; it gives " << names(parts.tail.output_names()) << "\n  "
      << files.pipeline.filename().string() << " runs them as one model\n";
}

// What a conversion is doing, on the status line (common.hpp): the size open dims are given,
// the pass, the node of the main graph being rebuilt.
inline std::function<void(const retarget::convert::progress&)> conversion_shown(
    status_line& line, const fs::path& model) {
  if (!line.on_terminal()) return {};
  return [&line, name = model.filename().string()](const retarget::convert::progress& p) {
    line.show("convert " + name + ": " +
              (p.size ? "at size " + std::to_string(p.size) + ", " : std::string()) + "pass " +
              std::to_string(p.pass) + ", node " + std::to_string(p.node) + " of " +
              std::to_string(p.nodes));
  };
}

// The tool states the default of --max-passes in its help; it is the library's.
static_assert(convert_options{}.max_passes.value == retarget::convert::options::default_max_passes);

template <class Managers>
int convert(const convert_options& o, arguments& args, std::ostream& out) {
  const auto& backend_arg = o.backend.value;
  const auto& output = o.output.value;
  const bool dry_run = o.dry_run;
  const auto& approximations = o.approximate.value;
  const fs::path path = one_model<convert_options>(args);
  if (!backend_arg && !o.opset.value)
    throw usage_error("retarget: convert needs --backend NAME, --opset N, or both");
  if (!output && !dry_run) throw usage_error("retarget: convert needs -o OUT.onnx (or --dry-run)");
  if (!backend_arg && !approximations.empty())
    throw usage_error("retarget: convert --approximate needs --backend NAME");
  const bool partition = o.partition || !o.partition_at.value.empty();
  if (partition && !backend_arg)
    throw usage_error("retarget: convert --partition needs --backend NAME");
  const int opset = o.opset.value.value_or(0);  // 0: none asked

  retarget::convert::options options;
  options.approximations = approximations;
  options.max_passes = o.max_passes;
  status_line shown;
  options.on_progress = conversion_shown(shown, path);
  if (!dry_run) check_writable(*output);
  if (!dry_run && partition) {
    const partition_files files(*output);
    check_writable(files.tail);
    check_writable(files.pipeline);
  }
  auto model = retarget::ir::load(path);
  in_file(path, [&] { retarget::ir::check_structure(model); });
  model = given_values(std::move(model), o, path, out);
  if (opset != 0) model = to_opset(model, opset, path, out);
  if (!backend_arg) {
    if (dry_run) {
      out << "dry run: nothing written\n";
      return 0;
    }
    write(model, *output, out);
    return 0;
  }
  const std::string& backend = *backend_arg;
  return Managers::visit(backend, [&](auto manager) {
    using B = typename decltype(manager)::backend;
    const auto offered = retarget::convert::approximations_of<B>();
    for (const auto& a : approximations)
      if (std::find(offered.begin(), offered.end(), a) == offered.end())
        throw usage_error(
            "retarget: convert: " + std::string(B::name) + " has no approximation '" + a + "' (" +
            (offered.empty()
                 ? std::string("it has none")
                 : "closest: " + retarget::join_names(retarget::closest_names(a, offered))) +
            ")");
    const auto outputs = model.output_names();
    // --partition-at: the model is cut first, at the user's values; the head alone converted.
    std::optional<retarget::ir::model_parts> parts;
    if (!o.partition_at.value.empty()) {
      parts = in_file(path, [&] {
        const retarget::ir::model_view view(model);
        return retarget::ir::split(model, view,
                                   retarget::ir::nodes_computing(view, o.partition_at.value));
      });
      model = std::move(parts->head);
    }
    // Not a structured binding: clang 14 cannot capture one in the lambdas below.
    auto result =
        in_file(path, [&] { return retarget::convert::convert<B>(std::move(model), options); });
    auto& converted = result.model;
    const auto& report = result.report;
    shown.clear();
    out << path.string() << ": " << to_string(report, o.explain.value);
    if (o.partition && !parts) {
      auto cut = in_file(path, [&] {
        if constexpr (retarget::convert::knows_refusals<B>)
          return retarget::convert::partition_for<B>(converted);
        else
          throw usage_error("retarget: convert --partition: " + std::string(B::name) +
                            " declares no table of what its engine refuses; name the values to "
                            "cut after with --partition-at VALUE");
        return retarget::convert::partition{};
      });
      if (cut.needed()) {
        const auto refused = cut.cut_at.size() + cut.behind.size();
        out << "partition: " << B::name << " refuses " << refused
            << (refused == 1 ? " node" : " nodes") << "; the model is cut ahead of the first "
            << cut.cut_at.size() << ", with all they lead to:\n";
        for (const auto& r : cut.cut_at)
          out << "  cut at " << retarget::convert::where(r) << ": " << r.why << "\n";
        for (const auto& r : cut.left)
          out << "  refused still: " << retarget::convert::where(r) << ": " << r.why << "\n";
        parts = std::move(cut.parts);
      } else {
        out << "partition: " << B::name << " refuses no node: the whole model runs on it\n";
        for (const auto& r : cut.left)
          out << "  refused: " << retarget::convert::where(r) << ": " << r.why << "\n";
      }
    } else if (const auto refused = print_refusals<B>(converted, out, "  refused: ")) {
      out << "  " << B::name << " refuses " << *refused << (*refused == 1 ? " node" : " nodes")
          << " of the " << (parts ? "part it runs" : "result") << "\n";
    }
    if (parts) {
      if (!o.partition_at.value.empty()) parts->head = std::move(converted);
      print_parts(*parts, B::name, output.value_or(path.string()), out);
    }
    if (dry_run) {
      out << "dry run: nothing written\n";
      return 0;
    }
    if (parts)
      write_partition(*parts, B::name, outputs, *output, out);
    else
      write(converted, *output, out);
    return 0;
  });
}

template <class Managers>
int check_for_backend(const fs::path& path, const std::string& backend, std::ostream& out) {
  const auto model = open_model(path);
  return Managers::visit(backend, [&](auto manager) {
    using B = typename decltype(manager)::backend;
    const auto refused = retarget::convert::refused_nodes<B>(model);
    if (!refused) {
      out << path.string() << ": " << B::name << " has no table of what its engine refuses\n";
      return 0;
    }
    if (refused->empty()) {
      out << path.string() << ": " << B::name << " refuses no node\n";
      return 0;
    }
    out << path.string() << ": " << B::name << " refuses " << refused->size()
        << (refused->size() == 1 ? " node" : " nodes") << " (retarget convert --backend " << B::name
        << " rewrites those it can):\n";
    for (const auto& r : *refused)
      out << "  " << retarget::convert::where(r) << ": " << r.why << "\n";
    return 1;
  });
}

}  // namespace retarget::tool::detail

#endif  // RETARGET_TOOL_DETAIL_CONVERT_COMMAND_HPP
