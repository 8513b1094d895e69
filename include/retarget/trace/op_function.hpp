// How a traced call becomes nodes: apply<Op>(args...) lowers tensors to graph values, runs the
// symbolic op Op through the symbolic rewrites for the arguments' backend, and raises the
// results to tensors again; op_function<Op, Name> (op_function_type.hpp) is the rewritable function
// whose origin does that, the shape of every op of the library (retarget/ops.hpp).
#ifndef RETARGET_TRACE_OP_FUNCTION_HPP
#define RETARGET_TRACE_OP_FUNCTION_HPP

#include <array>
#include <cstdint>
#include <optional>
#include <retarget/core/call.hpp>
#include <retarget/core/fixed_string.hpp>
#include <retarget/core/rewritable.hpp>
#include <retarget/core/symbolic.hpp>
#include <retarget/ir/value.hpp>
#include <retarget/trace/op_function_type.hpp>
#include <retarget/trace/tensor.hpp>
#include <type_traits>
#include <utility>
#include <vector>

namespace retarget::trace {

namespace detail {

template <class First, class... Rest>
session& session_of(const First& first, const Rest&... rest) {
  if constexpr (is_tensor_v<First>)
    return first.owner();
  else if constexpr (requires { first.front().owner(); })
    return first.front().owner();
  else
    return session_of(rest...);
}

template <class T>
inline constexpr bool is_optional_tensor = false;
template <class B>
inline constexpr bool is_optional_tensor<std::optional<tensor<B>>> = true;

// Tensors go down to graph values; everything else passes as it is.
template <class T>
decltype(auto) lower(const T& arg) {
  if constexpr (is_tensor_v<T>) {
    return arg.value();
  } else if constexpr (is_optional_tensor<T>) {
    return arg ? std::optional<ir::value>(arg->value()) : std::nullopt;
  } else if constexpr (requires { arg.front().value(); }) {
    std::vector<ir::value> out;
    for (const auto& t : arg) out.push_back(t.value());
    return out;
  } else {
    return (arg);
  }
}

template <class B, class R>
auto raise(session& s, R&& result) {
  using T = std::remove_cvref_t<R>;
  if constexpr (std::is_same_v<T, ir::value>) {
    return tensor<B>(s, result);
  } else if constexpr (requires {
                         std::tuple_size<T>::value;
                         typename T::value_type;
                       }) {
    std::array<tensor<B>, std::tuple_size<T>::value> out;
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = tensor<B>(s, result[i]);
    return out;
  } else {
    std::vector<tensor<B>> out;
    for (const auto& v : result) out.emplace_back(s, v);
    return out;
  }
}

// An argument that session_of can take the session from.
template <class T>
inline constexpr bool holds_session = is_tensor_v<T> || requires(const T& t) {
  t.front().owner();
};

template <class...>
inline constexpr bool apply_misused = false;

}  // namespace detail

// Runs the symbolic op Op on the arguments, through symbolic rewrites for their backend. A
// misuse is one static_assert that names apply, not an error deep in retarget::call.
template <class Op, class... A>
auto apply(const A&... args) {
  using B = backend_of_t<A...>;
  if constexpr (!SymbolicOp<Op>) {
    static_assert(detail::apply_misused<Op>,
                  "retarget: apply<Op> needs a symbolic op (derived from retarget::symbolic_op); "
                  "an op of the library or an op_function is called, not applied: write op(x)");
    return tensor<B>{};
  } else if constexpr (!(detail::holds_session<A> || ...)) {
    static_assert(detail::apply_misused<Op, A...>,
                  "retarget: apply<Op> needs a traced tensor (or a range of them) among its "
                  "arguments");
    return tensor<B>{};
  } else {
    session& s = detail::session_of(args...);
    return detail::raise<B>(
        s, retarget::call<B>(s.environment(), Op{}, s.graph(), detail::lower(args)...));
  }
}

}  // namespace retarget::trace

#endif  // RETARGET_TRACE_OP_FUNCTION_HPP
