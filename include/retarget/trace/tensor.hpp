// The traced tensor: a value of the graph being exported, whose type carries the backend, so
// every op called on it dispatches to that backend's rewrites at compile time; it refers to
// its export session (graph, deploy config, rewrite log).
#ifndef RETARGET_TRACE_TENSOR_HPP
#define RETARGET_TRACE_TENSOR_HPP

#include <array>
#include <cstdint>
#include <retarget/core/backend.hpp>
#include <retarget/core/rewrite_env.hpp>
#include <retarget/ir/value.hpp>
#include <retarget/trace/session.hpp>
#include <type_traits>
#include <vector>

namespace retarget::trace {

template <Backend B>
class tensor {
 public:
  using backend = B;

  tensor() = default;
  tensor(session& s, ir::value v) : session_(&s), value_(v) {}

  session& owner() const noexcept { return *session_; }
  const ir::value& value() const noexcept { return value_; }
  const std::string& name() const { return value_.name(); }

  ir::dtype dtype() const { return value_.dtype(); }
  std::size_t rank() const { return value_.rank(); }
  std::vector<ir::dim> shape() const { return value_.shape(); }
  // One dim; negative indices count from the end.
  ir::dim dim(std::int64_t i) const {
    const auto s = shape();
    const auto n = static_cast<std::int64_t>(s.size());
    if (i < -n || i >= n)
      throw error("retarget: dim " + std::to_string(i) + " of a tensor of rank " +
                  std::to_string(n));
    return s[static_cast<std::size_t>(i < 0 ? i + n : i)];
  }

 private:
  session* session_ = nullptr;
  ir::value value_;
};

template <class T>
inline constexpr bool is_tensor_v = false;
template <class B>
inline constexpr bool is_tensor_v<tensor<B>> = true;

}  // namespace retarget::trace

template <class B>
struct retarget::dispatch_traits<retarget::trace::tensor<B>> {
  using backend = B;
  static trace::env env(const trace::tensor<B>& t) { return t.owner().environment(); }
};

// A list of tensors (cat's inputs) carries their backend and session too.
template <class B>
struct retarget::dispatch_traits<std::vector<retarget::trace::tensor<B>>> {
  using backend = B;
  static trace::env env(const std::vector<trace::tensor<B>>& ts) {
    if (ts.empty()) throw error("retarget: an empty list of tensors");
    return ts.front().owner().environment();
  }
};

#endif  // RETARGET_TRACE_TENSOR_HPP
