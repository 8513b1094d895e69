// The definitions of ir/open_dims.hpp: inline header-only, compiled once into retarget::compiled
// otherwise.
#ifndef RETARGET_IR_DETAIL_OPEN_DIMS_IMPL_HPP
#define RETARGET_IR_DETAIL_OPEN_DIMS_IMPL_HPP

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/dims.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/model_view.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/ir/open_dims.hpp>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace retarget::ir {

namespace detail {

// The stored tensor of each constant of a graph (initializers and Constant nodes' values), by
// name; a shared weight's entry is its tensor's own proto.
inline std::unordered_map<std::string, const onnx::TensorProto*> constants_of(const model& m) {
  std::unordered_map<std::string, const onnx::TensorProto*> out;
  const auto& g = m.proto().graph();
  for (int i = 0; i < g.initializer_size(); ++i) out[g.initializer(i).name()] = &g.initializer(i);
  for (const auto& s : m.shared_initializers())
    out[g.initializer(s.index).name()] = &s.data->proto();
  for (const auto& n : g.node())
    if (n.op_type() == "Constant" && n.domain().empty() && n.output_size() == 1)
      for (const auto& a : n.attribute())
        if (a.name() == "value" && a.has_t()) out[n.output(0)] = &a.t();
  return out;
}

// A tensor's type, dims and values, its name left out: equal for equal constants.
inline std::string contents_of(const onnx::TensorProto& t) {
  onnx::TensorProto copy = t;
  copy.clear_name();
  copy.clear_doc_string();
  return copy.SerializeAsString();
}

// A node's attributes, a Constant's value left out (compared as a constant).
inline std::string attributes_of(const onnx::NodeProto& n) {
  std::string out;
  for (const auto& a : n.attribute())
    if (!(n.op_type() == "Constant" && a.name() == "value")) out += a.SerializeAsString();
  return out;
}

inline std::string node_text(const onnx::NodeProto& n) {
  return n.op_type() + " '" + n.name() + "'";
}

inline std::vector<std::int64_t> ints_in(const onnx::TensorProto& t) {
  return tensor_view(t).values<std::int64_t>();
}

inline std::vector<std::int64_t> dims_of(const onnx::TensorProto& t) {
  return {t.dims().begin(), t.dims().end()};
}

// The size dim `axis` of input `name` has in graph g, or -1.
inline std::int64_t size_in(const onnx::GraphProto& g, const open_dim& d) {
  for (const auto& in : g.input())
    if (in.name() == d.input)
      return in.type().tensor_type().shape().dim(static_cast<int>(d.axis)).dim_value();
  return -1;
}

}  // namespace detail

RETARGET_COMPILED_DECL std::string open_dim::describe() const {
  return "'" + input + "' dim " + std::to_string(axis) + (name.empty() ? "" : " (" + name + ")");
}

RETARGET_COMPILED_DECL std::string open_dim::key() const {
  return name.empty() ? input + ":" + std::to_string(axis) : name;
}

RETARGET_COMPILED_DECL std::vector<open_dim> open_dims(const model& m) {
  const auto& g = m.proto().graph();
  std::unordered_set<std::string> initializers;
  for (const auto& t : g.initializer()) initializers.insert(t.name());
  std::vector<open_dim> out;
  for (const auto& in : g.input()) {
    if (initializers.count(in.name()) || !in.type().has_tensor_type() ||
        !in.type().tensor_type().has_shape())
      continue;
    const auto& shape = in.type().tensor_type().shape();
    for (int d = 0; d < shape.dim_size(); ++d)
      if (!shape.dim(d).has_dim_value())
        out.push_back({in.name(), static_cast<std::size_t>(d), shape.dim(d).dim_param()});
  }
  return out;
}

RETARGET_COMPILED_DECL model with_dims_given(const model& m,
                                             const std::map<std::string, std::int64_t>& sizes) {
  const auto open = open_dims(m);
  std::vector<std::string> keys;
  for (const auto& d : open) keys.push_back(d.key());
  for (const auto& [key, size] : sizes) {
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      std::string listed;
      for (const auto& d : open) listed += (listed.empty() ? "" : ", ") + d.describe();
      throw error("retarget: the model has no open dim '" + key + "' (" +
                  (open.empty() ? std::string("it has none") : "its open dims: " + listed) +
                  "; an unnamed one is INPUT:AXIS)");
    }
    if (size < 1)
      throw error("retarget: dim '" + key + "' given the size " + std::to_string(size) +
                  ": a size is 1 or more");
  }
  model out = m;
  auto& g = *out.proto_without_shared_bytes().mutable_graph();
  for (const auto& d : open) {
    const auto it = sizes.find(d.key());
    if (it == sizes.end()) continue;
    for (auto& in : *g.mutable_input())
      if (in.name() == d.input)
        in.mutable_type()
            ->mutable_tensor_type()
            ->mutable_shape()
            ->mutable_dim(static_cast<int>(d.axis))
            ->set_dim_value(it->second);
  }
  // What shape inference wrote of the open dims would contradict the sizes.
  g.clear_value_info();
  return out;
}

RETARGET_COMPILED_DECL model with_sizes(const model& m, const std::vector<open_dim>& open,
                                        std::int64_t base) {
  std::map<std::string, std::int64_t> size_of;
  for (const auto& d : open)
    size_of.emplace(d.key(), base + static_cast<std::int64_t>(size_of.size()));
  model out = with_dims_given(m, size_of);
  std::string dims;
  for (const auto& d : open) dims += (dims.empty() ? "" : ", ") + d.describe();
  if (!open.empty()) out.set_metadata(std::string(trial_sizes_key), dims);
  return out;
}

RETARGET_COMPILED_DECL bool at_trial_sizes(const model& m) {
  return m.metadata(trial_sizes_key).has_value();
}

RETARGET_COMPILED_DECL bool at_trial_sizes(const model_view& m) {
  const auto& props = m.proto().metadata_props();
  return std::any_of(props.begin(), props.end(),
                     [](const auto& p) { return p.key() == trial_sizes_key; });
}

RETARGET_COMPILED_DECL model joined_over_sizes(const model& original, const model& at_a,
                                               const model& at_b) {
  const auto& ga = at_a.proto().graph();
  const auto& gb = at_b.proto().graph();
  const auto open = open_dims(original);
  // "n = 2 and 5": the sizes the two results were made at, for messages.
  std::string sizes;
  if (!open.empty())
    sizes = open.front().key() + " = " + std::to_string(detail::size_in(ga, open.front())) +
            " and " + std::to_string(detail::size_in(gb, open.front()));
  const std::string differ =
      "retarget: the model converted at two sizes of its open dims (" + sizes + ") differs";
  if (ga.node_size() != gb.node_size())
    throw error(differ + " in its nodes (" + std::to_string(ga.node_size()) + " and " +
                std::to_string(gb.node_size()) + "): the conversion depends on the size");
  if (ga.initializer_size() != gb.initializer_size())
    throw error(differ + " in its initializers (" + std::to_string(ga.initializer_size()) +
                " and " + std::to_string(gb.initializer_size()) + ")");
  for (int i = 0; i < ga.node_size(); ++i) {
    const auto &a = ga.node(i), &b = gb.node(i);
    const bool same =
        a.op_type() == b.op_type() && a.domain() == b.domain() && a.name() == b.name() &&
        std::equal(a.input().begin(), a.input().end(), b.input().begin(), b.input().end()) &&
        std::equal(a.output().begin(), a.output().end(), b.output().begin(), b.output().end());
    if (!same)
      throw error(differ + " at node " + std::to_string(i) + ": " + detail::node_text(a) + " and " +
                  detail::node_text(b));
    if (detail::attributes_of(a) != detail::attributes_of(b))
      throw error(differ + " in the attributes of " + detail::node_text(a) +
                  ": they are computed from the open dims");
  }

  // The constants that differ.
  const auto ca = detail::constants_of(at_a), cb = detail::constants_of(at_b);
  std::vector<std::string> differing;
  for (const auto& [name, t] : ca) {
    const auto it = cb.find(name);
    if (it == cb.end())
      throw error(differ + " in its constants: '" + name + "' is one at only one size");
    if (t != it->second && detail::contents_of(*t) != detail::contents_of(*it->second))
      differing.push_back(name);
  }
  std::sort(differing.begin(), differing.end());

  model out = at_a;
  auto& g = *out.proto_without_shared_bytes().mutable_graph();
  if (!differing.empty()) {
    const model_view va(at_a), vb(at_b);
    for (const auto& name : differing) {
      const auto& ta = *ca.at(name);
      const auto& tb = *cb.at(name);
      const bool shape_like = ta.data_type() == onnx::TensorProto::INT64 && ta.dims_size() == 1;
      const auto dependent =
          "'" + name + "', computed from the open dims (" +
          (shape_like
               ? format_dims(detail::ints_in(ta)) + " and " + format_dims(detail::ints_in(tb))
               : format_dims(detail::dims_of(ta)) + " and " + format_dims(detail::dims_of(tb))) +
          ")";
      for (const auto& o : ga.output())
        if (o.name() == name)
          throw error(differ + ": the graph output " + dependent +
                      ", is no shape to write for any size");
      // The target written for any size, the same for each node that reads it.
      std::optional<std::vector<std::int64_t>> target;
      for (const auto& n : ga.node()) {
        for (int k = 0; k < n.input_size(); ++k) {
          if (n.input(k) != name) continue;
          const auto reads = differ + ": " + detail::node_text(n) + " reads " + dependent;
          const bool reshape = n.op_type() == "Reshape" && n.domain().empty() && k == 1;
          const bool expand = n.op_type() == "Expand" && n.domain().empty() && k == 1;
          if (!reshape && !expand)
            throw error(reads +
                        ", and only a Reshape's or an Expand's target shape can be written for "
                        "any size");
          for (const auto& a : n.attribute())
            if (a.name() == "allowzero" && a.i() != 0)
              throw error(reads + " with allowzero = 1, where 0 cannot copy a dim");
          const auto da = va.static_shape(n.input(0)), db = vb.static_shape(n.input(0));
          if (!da || !db || da->size() != db->size())
            throw error(reads + ", and the shape of its input '" + n.input(0) + "' is not known");
          const auto xa = detail::ints_in(ta), xb = detail::ints_in(tb);
          if (xa.size() != xb.size()) throw error(reads);
          // The input's dim that entry i of the target meets: the same axis for a Reshape, the
          // axis aligned from the right for an Expand (which broadcasts).
          const auto offset = reshape ? std::ptrdiff_t{0}
                                      : static_cast<std::ptrdiff_t>(xa.size()) -
                                            static_cast<std::ptrdiff_t>(da->size());
          const auto input_dim_is = [&](std::size_t i) {
            const auto at = static_cast<std::ptrdiff_t>(i) - offset;
            return at >= 0 && at < static_cast<std::ptrdiff_t>(da->size()) &&
                   (*da)[static_cast<std::size_t>(at)] == xa[i] &&
                   (*db)[static_cast<std::size_t>(at)] == xb[i];
          };
          std::vector<std::int64_t> t(xa.size());
          int inferred = 0;
          for (std::size_t i = 0; i < xa.size(); ++i) {
            if (xa[i] == -1 || xb[i] == -1) ++inferred;
            if (xa[i] == xb[i]) {
              t[i] = xa[i];
            } else if (input_dim_is(i)) {
              t[i] = reshape ? 0 : 1;  // the input's own dim: copied, or kept by broadcasting
            } else if (reshape) {
              t[i] = -1;
              ++inferred;
            } else {
              throw error(reads + ", and expands to the open dims a dim its input has not");
            }
          }
          if (inferred > 1)
            throw error(reads +
                        ", and no one target with 0 and a single -1 says it for every "
                        "size");
          if (target && *target != t)
            throw error(reads + ", as a target other nodes read otherwise");
          target = t;
        }
      }
      if (!target) continue;  // read by no node: cleanup's to remove
      onnx::TensorProto written;
      written.set_data_type(onnx::TensorProto::INT64);
      written.add_dims(static_cast<std::int64_t>(target->size()));
      for (const auto v : *target) written.add_int64_data(v);
      bool replaced = false;
      for (auto& init : *g.mutable_initializer())
        if (init.name() == name) {
          written.set_name(name);
          init = written;
          replaced = true;
        }
      for (auto& n : *g.mutable_node())
        if (!replaced && n.op_type() == "Constant" && n.output_size() == 1 && n.output(0) == name)
          for (auto& a : *n.mutable_attribute())
            if (a.name() == "value") {
              *a.mutable_t() = written;
              replaced = true;
            }
      if (!replaced)
        throw error(differ + ": '" + name + "' is a shared weight computed from the open dims");
    }
  }

  // The inputs take the original's types: the dims open again. An output's dim that differs
  // between the two results is open too: as the original declares it, else named by the open
  // dim whose sizes it has, else unnamed.
  const auto& go = original.proto().graph();
  for (auto& v : *g.mutable_input())
    for (const auto& o : go.input())
      if (o.name() == v.name() && o.has_type()) *v.mutable_type() = o.type();
  std::map<std::pair<std::int64_t, std::int64_t>, std::string> name_of_sizes;
  for (const auto& d : open)
    name_of_sizes[{detail::size_in(ga, d), detail::size_in(gb, d)}] = d.name;
  for (int i = 0; i < g.output_size() && i < gb.output_size(); ++i) {
    auto& v = *g.mutable_output(i);
    const auto& vb = gb.output(i);
    if (!v.type().has_tensor_type() || !v.type().tensor_type().has_shape() ||
        !vb.type().tensor_type().has_shape())
      continue;
    auto& shape = *v.mutable_type()->mutable_tensor_type()->mutable_shape();
    const auto& shape_b = vb.type().tensor_type().shape();
    const onnx::TensorShapeProto* declared = nullptr;
    for (const auto& o : go.output())
      if (o.name() == v.name() && o.type().tensor_type().has_shape() &&
          o.type().tensor_type().shape().dim_size() == shape.dim_size())
        declared = &o.type().tensor_type().shape();
    for (int k = 0; k < shape.dim_size() && k < shape_b.dim_size(); ++k) {
      auto& dim = *shape.mutable_dim(k);
      if (dim.has_dim_value() && shape_b.dim(k).has_dim_value() &&
          dim.dim_value() == shape_b.dim(k).dim_value())
        continue;
      const auto named = name_of_sizes.find({dim.dim_value(), shape_b.dim(k).dim_value()});
      dim.Clear();
      if (declared && (declared->dim(k).has_dim_param() || declared->dim(k).has_dim_value()))
        dim = declared->dim(k);
      else if (named != name_of_sizes.end() && !named->second.empty())
        dim.set_dim_param(named->second);
    }
  }
  // Intermediate shapes were inferred at a size, and the sizes were trials.
  g.clear_value_info();
  auto& props = *out.proto_without_shared_bytes().mutable_metadata_props();
  for (int i = props.size() - 1; i >= 0; --i)
    if (props.Get(i).key() == trial_sizes_key) props.DeleteSubrange(i, 1);
  return out;
}

}  // namespace retarget::ir

#endif  // RETARGET_IR_DETAIL_OPEN_DIMS_IMPL_HPP
