// A value of a graph being built: the output of a node, a graph input, an initializer. It
// knows its element type and shape as soon as it exists, from ONNX shape inference, so a
// rewrite can ask `x.rank()` or `x.shape()` while it decides what to emit.
#ifndef RETARGET_IR_VALUE_HPP
#define RETARGET_IR_VALUE_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/detail/proto_fwd.hpp>
#include <retarget/ir/dims.hpp>
#include <retarget/ir/dtype.hpp>
#include <string>
#include <utility>
#include <vector>

namespace retarget::ir {

// One dimension: a static size, a named symbolic size ("batch"), or unknown.
struct dim {
  std::int64_t size = -1;
  std::string symbol;

  dim() = default;
  dim(std::int64_t s) : size(s) {}                    // NOLINT: {1, 3, "height", "width"}
  dim(int s) : size(s) {}                             // NOLINT
  dim(std::string name) : symbol(std::move(name)) {}  // NOLINT
  dim(const char* name) : symbol(name) {}             // NOLINT

  bool is_static() const noexcept { return size >= 0; }
  bool is_symbolic() const noexcept { return !symbol.empty(); }
  friend bool operator==(const dim&, const dim&) = default;
};

// "3", "height" or "?".
inline std::string to_string(const dim& d) {
  return d.is_static() ? std::to_string(d.size) : d.is_symbolic() ? d.symbol : "?";
}
// "[1, 3, height, width]", as format_dims writes dims.
inline std::string to_string(const std::vector<dim>& shape) {
  return detail::bracketed(shape, [](const dim& d) { return to_string(d); });
}

// The dims of a shape as ONNX's inference writes it: a value, a name, or neither (unknown).
RETARGET_COMPILED_DECL std::vector<dim> dims_of(const onnx::TensorShapeProto& shape);

// The type of a stored tensor (an initializer, a Constant's value): its element type and its
// dims, all static.
RETARGET_COMPILED_DECL onnx::TypeProto type_of(const onnx::TensorProto& t);

class graph_base;

class value {
 public:
  value() = default;

  bool valid() const noexcept { return graph_ != nullptr; }
  graph_base& graph() const noexcept { return *graph_; }
  const std::string& name() const;
  const onnx::TypeProto& type() const;

  // The element type, or dtype::undefined when inference could not tell.
  RETARGET_COMPILED_DECL ::retarget::ir::dtype dtype() const;
  RETARGET_COMPILED_DECL bool has_shape() const;
  // The rank; retarget::error when it is not known.
  RETARGET_COMPILED_DECL std::size_t rank() const;
  // The dims, static or symbolic; retarget::error when the rank is not known.
  RETARGET_COMPILED_DECL std::vector<dim> shape() const;
  // The static sizes, or nullopt when any dim is not static.
  std::optional<std::vector<std::int64_t>> static_shape() const {
    std::vector<std::int64_t> out;
    for (const auto& d : shape()) {
      if (!d.is_static()) return std::nullopt;
      out.push_back(d.size);
    }
    return out;
  }

  friend bool operator==(const value& a, const value& b) noexcept {
    return a.graph_ == b.graph_ && a.id_ == b.id_;
  }

 private:
  friend class graph_base;
  value(graph_base* g, std::uint32_t id) : graph_(g), id_(id) {}

  void require_shape(const char* what) const {
    if (!has_shape())
      throw error("retarget: the " + std::string(what) + " of value '" + name() +
                  "' is not known (shape inference could not infer it)");
  }

  graph_base* graph_ = nullptr;
  std::uint32_t id_ = 0;
};

}  // namespace retarget::ir

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/ir/detail/value_impl.hpp>
#endif

#endif  // RETARGET_IR_VALUE_HPP
