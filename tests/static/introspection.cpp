// Compile-time answers about selection. This file is built and never run: a wrong answer is
// a build failure.
#include <boost/mp11/list.hpp>
#include <retarget/core.hpp>
#include <type_traits>

#include "../support/engine_tags.hpp"

namespace bk = engines;
using boost::mp11::mp_list;

namespace {

struct mine : retarget::backend_tag<"mine", bk::tensorrt10, bk::onnxruntime> {};
struct diamond : retarget::backend_tag<"diamond", mine, bk::tensorrt> {};

inline constexpr struct f_fn : retarget::rewritable<f_fn> {
  constexpr int origin(int x) const { return x; }
} f;
inline constexpr struct g_fn : retarget::rewritable<g_fn, "g"> {
  constexpr int origin(int x) const { return x; }
} g;
inline constexpr struct h_fn : retarget::rewritable<h_fn, "h"> {
  constexpr int origin(int x) const { return x; }
} h;
static_assert(h(1) == 1);
struct op : retarget::symbolic_op<op, "op"> {
  static int symbolic(int x) { return x; }
};
struct m : retarget::rewritable_module<m> {
  int forward(int x) const { return x; }
};
struct m_wrapper {
  m_wrapper(const m&, const retarget::no_config&) {}
  int forward(int x) const { return x; }
};

}  // namespace

template <>
struct retarget::function_rewrite<f_fn, bk::tensorrt> {
  static constexpr int call(const auto&, int x) { return x; }
};
template <>
struct retarget::function_rewrite<f_fn> {
  static constexpr int call(const auto&, int x) { return x; }
};
template <>
struct retarget::function_rewrite<g_fn, bk::onnxruntime> {
  static constexpr int call(const auto&, int x) { return x; }
};
template <>
struct retarget::symbolic_rewrite<op, bk::tensorrt10> {
  static constexpr int call(const auto&, int x) { return x; }
};
template <>
struct retarget::module_rewrite<m, bk::opencv_dnn> : retarget::wrap_with<m_wrapper> {};

// Backends and chains.
static_assert(retarget::Backend<bk::tensorrt10> && retarget::Backend<mine>);
static_assert(!retarget::Backend<int> && !retarget::Backend<f_fn>);
static_assert(bk::tensorrt10::name == "tensorrt10" && retarget::default_backend::name == "default");
static_assert(
    std::is_same_v<retarget::fallback_chain_t<bk::tensorrt>, mp_list<bk::tensorrt, bk::default_>>);
static_assert(std::is_same_v<
              retarget::fallback_chain_t<diamond>,
              mp_list<diamond, mine, bk::tensorrt10, bk::tensorrt, bk::onnxruntime, bk::default_>>);

// Which rewrite a pair selects.
static_assert(std::is_same_v<retarget::selected_rewrite_t<f_fn, bk::tensorrt10>,
                             retarget::function_rewrite<f_fn, bk::tensorrt>>);
static_assert(retarget::selected_rewrite_name<f_fn, bk::tensorrt10> == "tensorrt");
static_assert(retarget::selected_rewrite_name<f_fn, bk::opencv_dnn> == "default");
static_assert(retarget::uses_default_rewrite_v<f_fn, bk::opencv_dnn>);
static_assert(!retarget::uses_default_rewrite_v<f_fn, bk::tensorrt>);
static_assert(retarget::selected_rewrite_name<g_fn, mine> == "onnxruntime");
static_assert(
    std::is_same_v<retarget::selected_rewrite_t<g_fn, bk::tensorrt>, retarget::origin_of<g_fn>>);
static_assert(!retarget::is_rewritten_v<h_fn, diamond> && retarget::is_rewritten_v<g_fn, diamond>);
static_assert(std::is_same_v<retarget::rewrite_chain_t<f_fn, bk::tensorrt10>,
                             mp_list<retarget::function_rewrite<f_fn, bk::tensorrt>,
                                     retarget::function_rewrite<f_fn>, retarget::origin_of<f_fn>>>);
static_assert(retarget::selected_rewrite_name<op, bk::tensorrt10> == "tensorrt10");
static_assert(retarget::selected_rewrite_name<op, bk::tensorrt> == "origin");

// Own rewrites only, not inherited ones.
static_assert(retarget::has_own_rewrite_v<f_fn, bk::tensorrt> &&
              !retarget::has_own_rewrite_v<f_fn, bk::tensorrt10>);
using all = mp_list<f_fn, g_fn, h_fn, op>;
static_assert(std::is_same_v<retarget::rewrites_declared_for_t<bk::tensorrt, all>, mp_list<f_fn>>);
static_assert(std::is_same_v<retarget::rewrites_declared_for_t<bk::default_, all>, mp_list<f_fn>>);
static_assert(std::is_same_v<retarget::rewrites_declared_for_t<bk::opencv_dnn, all>, mp_list<>>);
static_assert(retarget::rewrite_names_declared_for<bk::onnxruntime, all>[0] == "g");
static_assert(retarget::rewrite_names_declared_for<bk::tensorrt10, all>[0] == "op");

// Names: given, or the type's own.
static_assert(h_fn::name == "h");
static_assert(f_fn::name == "f_fn");

// Modules.
static_assert(retarget::Module<m> && !retarget::Module<int>);
static_assert(std::is_same_v<retarget::module_wrapper_t<m, bk::opencv_dnn>, m_wrapper>);
static_assert(std::is_same_v<retarget::module_wrapper_t<m, bk::onnxruntime>, m>);
static_assert(retarget::is_module_rewritten_v<m, bk::opencv_dnn>);

// Dispatch is a compile-time matter: it is usable in constant expressions.
static_assert(f(3) == 3 && retarget::call<bk::tensorrt>(g, 4) == 4);
