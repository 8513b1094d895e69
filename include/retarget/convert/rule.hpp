// Pattern rules: several nodes of a model become several others. A pattern names its ops and
// captures as compile-time strings, checked against the ONNX schemas as g.op is; a Boost.Hana
// map keyed by those strings gives each capture its slot and its type, so a misspelt capture
// does not compile and each capture keeps its own type (a value, or a node of a known op).
// Once checked, a pattern is data (detail/pattern_match.hpp): one function, compiled once,
// matches every pattern, and a rule compiles into its condition and replacement only.
//
//   using namespace retarget::convert::literals;
//   struct relu6 : rc::rule<"relu6"> {
//     static constexpr auto pattern = rc::op<"Clip">("x"_v, "lo"_c, "hi"_c);
//     static rc::verdict condition(const auto& m) { return scalar(m["lo"_c]) == 0; }
//     static auto replace(ir::graph& g, const auto& m) { return g.op("Relu", m["x"_v]); }
//   };
//
// "x"_v captures any value, "w"_c a constant one (an initializer or a Constant's output),
// rc::any matches anything without a capture, .as<"n">() captures a matched node (read its
// attributes with m["n"_n]["epsilon"_f]), rc::output<K>(p) is output K of p's node, and
// rc::commutative(p) matches a two-input op either way round. A name used twice must bind
// the same value both times.
#ifndef RETARGET_CONVERT_RULE_HPP
#define RETARGET_CONVERT_RULE_HPP

#include <array>
#include <boost/hana/at_key.hpp>
#include <boost/hana/contains.hpp>
#include <boost/hana/erase_key.hpp>
#include <boost/hana/flatten.hpp>
#include <boost/hana/fold_left.hpp>
#include <boost/hana/insert.hpp>
#include <boost/hana/map.hpp>
#include <boost/hana/pair.hpp>
#include <boost/hana/size.hpp>
#include <boost/hana/string.hpp>
#include <boost/hana/tuple.hpp>
#include <boost/hana/type.hpp>
#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <retarget/convert/detail/pattern_match.hpp>
#include <retarget/convert/node.hpp>
#include <retarget/core/backend.hpp>
#include <retarget/core/fixed_string.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/ir/schema.hpp>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace retarget::convert {

namespace hana = boost::hana;

// ---- Pattern pieces ----

namespace detail {
// A test allowing `values` (at most value_test::most: one_of checks it).
template <class Values>
constexpr value_test allowing(std::string_view attribute, ir::attr_type kind,
                              const Values& values) {
  value_test t{.attribute = attribute, .kind = kind};
  for (const auto& v : values) {
    if constexpr (std::is_arithmetic_v<std::remove_cvref_t<decltype(v)>>)
      t.numbers[t.count++] = static_cast<double>(v);
    else
      t.strings[t.count++] = v.value;
  }
  return t;
}
}  // namespace detail

template <fixed_string Name>
struct constant_test_capture;

template <fixed_string Name>
struct value_capture {  // "x"_v: any value
  static constexpr fixed_string name = Name;
  static constexpr bool constant = false;
};
template <fixed_string Name>
struct constant_capture {  // "w"_c: an initializer or a Constant's output
  static constexpr fixed_string name = Name;
  static constexpr bool constant = true;
  // A constant whose every element is v ("half"_c == 0.5): a scalar, or a tensor of v alone.
  // Floats compare in the precision the constant is stored in.
  friend constexpr constant_test_capture<Name> operator==(constant_capture, double v) {
    return {detail::allowing({}, ir::attr_type::undefined, std::span(&v, 1))};
  }
};
// A constant capture with a test of its elements: made by ==, rc::one_of and rc::near.
template <fixed_string Name>
struct constant_test_capture {
  static constexpr fixed_string name = Name;
  static constexpr bool constant = true;
  detail::value_test test;
};
template <fixed_string Name>
struct node_key {  // "n"_n: reads a node captured with .as<"n">()
  static constexpr fixed_string name = Name;
};
struct any_t {};
inline constexpr any_t any{};

// A test of an attribute, "transB"_i == 1: what op<...>(...).where(...) takes. Key is the
// literal's key, checked by where() against the op's schema.
template <class Key>
struct attribute_test {
  detail::value_test test;
};

inline namespace literals {
template <fixed_string Name>
constexpr value_capture<Name> operator""_v() noexcept {
  return {};
}
template <fixed_string Name>
constexpr constant_capture<Name> operator""_c() noexcept {
  return {};
}
template <fixed_string Name>
constexpr node_key<Name> operator""_n() noexcept {
  return {};
}
// Attribute tests for where(): "transB"_i == 1, "alpha"_f == 1.0f, "mode"_s == "cubic" (a
// value ONNX defines for that name, checked as in g.op).
template <fixed_string N>
constexpr attribute_test<ir::int_key<N>> operator==(ir::int_key<N>, std::int64_t v) {
  return {detail::allowing(N.view(), ir::attr_type::int_, std::span(&v, 1))};
}
template <fixed_string N, class T>
requires std::is_arithmetic_v<T>
constexpr attribute_test<ir::float_key<N>> operator==(ir::float_key<N>, T v) {
  const double value = static_cast<double>(v);
  return {detail::allowing(N.view(), ir::attr_type::float_, std::span(&value, 1))};
}
template <fixed_string N>
constexpr attribute_test<ir::string_key<N>> operator==(
    ir::string_key<N>, std::type_identity_t<ir::string_literal<N>> v) {
  return {detail::allowing(N.view(), ir::attr_type::string, std::span(&v, 1))};
}
}  // namespace literals

namespace detail {
// The test of rc::one_of: K values allowed, at most value_test::most.
template <class Test, std::size_t K, class T>
constexpr Test one_of_test(std::string_view attribute, ir::attr_type kind, const T (&values)[K]) {
  static_assert(K <= value_test::most, "retarget: rc::one_of allows at most 8 values");
  if constexpr (K > value_test::most)
    return {};
  else
    return {allowing(attribute, kind, std::span(values))};
}
}  // namespace detail

// An attribute, or a constant's every element, with one of up to 8 values:
//   rc::one_of("axis"_i, {-1, 3}), rc::one_of("mode"_s, {"linear", "nearest"}),
//   rc::one_of("c"_c, {0.0, 1.0})
template <fixed_string N, std::size_t K>
constexpr auto one_of(ir::int_key<N>, const std::int64_t (&values)[K]) {
  return detail::one_of_test<attribute_test<ir::int_key<N>>>(N.view(), ir::attr_type::int_, values);
}
template <fixed_string N, std::size_t K>
constexpr auto one_of(ir::float_key<N>, const double (&values)[K]) {
  return detail::one_of_test<attribute_test<ir::float_key<N>>>(N.view(), ir::attr_type::float_,
                                                               values);
}
// Called, and so reported by the compiler, only when the check fails: the name is the message.
void one_of_allows_at_most_8_values();
template <fixed_string N>
constexpr auto one_of(ir::string_key<N>,
                      std::initializer_list<std::type_identity_t<ir::string_literal<N>>> values) {
  if (values.size() > detail::value_test::most) one_of_allows_at_most_8_values();
  return attribute_test<ir::string_key<N>>{
      detail::allowing(N.view(), ir::attr_type::string, values)};
}
template <fixed_string N, std::size_t K>
constexpr auto one_of(constant_capture<N>, const double (&values)[K]) {
  return detail::one_of_test<constant_test_capture<N>>({}, ir::attr_type::undefined, values);
}
// A constant whose every element is within a relative tolerance of v (absolute for v = 0):
// rc::near("s"_c, 1.41421356, 1e-6).
template <fixed_string N>
constexpr constant_test_capture<N> near(constant_capture<N>, double v, double tolerance) {
  auto t = detail::allowing({}, ir::attr_type::undefined, std::span(&v, 1));
  t.tolerance = tolerance;
  return {t};
}

namespace detail {
enum op_flags : unsigned { commutative_inputs = 1, shared_outputs = 2 };
template <class T>
inline constexpr bool is_attribute_test = false;
template <class K>
inline constexpr bool is_attribute_test<attribute_test<K>> = true;

// The kind an attribute test of Key reads: INT for _i, FLOAT for _f, STRING for _s.
template <class Key>
inline constexpr ir::attr_type tested_kind = key_kinds<Key>.first;

// What where() checks of a test against its op, each true when an earlier check fails, so that
// a wrong test is one readable error.
template <class Test>
inline constexpr std::string_view tested_name = {};
template <class Key>
inline constexpr std::string_view tested_name<attribute_test<Key>> = Key::name;
template <fixed_string Op, class Test>
inline constexpr ir::attr_type schema_kind_of = ir::onnx_attribute_type(Op, tested_name<Test>);
template <fixed_string Op, class Test>
inline constexpr bool name_in_schema =
    !is_attribute_test<Test> || schema_kind_of<Op, Test> != ir::attr_type::undefined;
template <class Test>
inline constexpr ir::attr_type kind_of_test = ir::attr_type::undefined;
template <class Key>
inline constexpr ir::attr_type kind_of_test<attribute_test<Key>> = tested_kind<Key>;
template <fixed_string Op, class Test>
inline constexpr bool kind_in_schema =
    !name_in_schema<Op, Test> || schema_kind_of<Op, Test> == ir::attr_type::undefined ||
    schema_kind_of<Op, Test> == kind_of_test<Test>;
template <fixed_string Op, class Test>
inline constexpr bool test_fits =
    is_attribute_test<Test>&& schema_kind_of<Op, Test> !=
    ir::attr_type::undefined&& schema_kind_of<Op, Test> == kind_of_test<Test>;
}  // namespace detail

template <fixed_string Op, fixed_string Name, std::size_t Output, unsigned Flags, std::size_t Tests,
          class... Inputs>
struct op_pattern {
  static constexpr fixed_string op = Op;
  static constexpr fixed_string name = Name;
  static constexpr std::size_t output = Output;
  static constexpr bool commutative = Flags & detail::commutative_inputs;
  static constexpr bool shared = Flags & detail::shared_outputs;
  hana::tuple<Inputs...> inputs;
  std::array<detail::value_test, Tests> tests{};

  // Captures the matched node under `N`, for m["N"_n].
  template <fixed_string N>
  constexpr op_pattern<Op, N, Output, Flags, Tests, Inputs...> as() const {
    return {inputs, tests};
  }
  // The same as .as("N"_n): a spelling that needs no `template` keyword where the pattern's
  // type depends on a template parameter (there, .as<"N">() must be .template as<"N">()).
  template <fixed_string N>
  constexpr op_pattern<Op, N, Output, Flags, Tests, Inputs...> as(node_key<N>) const {
    return {inputs, tests};
  }
  // The node's attributes (the schema's defaults where it sets none) pass the tests:
  //   rc::op<"Gemm">("a"_v, "b"_v).where("transA"_i == 0, "transB"_i == 1)
  template <class... T>
  constexpr auto where(T... added) const {
    static_assert((detail::is_attribute_test<T> && ...),
                  "retarget: where() takes attribute tests: \"name\"_i == 1, \"name\"_s == "
                  "\"...\", rc::one_of(\"name\"_i, {...})");
    static_assert((detail::name_in_schema<Op, T> && ...),
                  "retarget: attribute name in where() is not in the pattern op's schema");
    static_assert((detail::kind_in_schema<Op, T> && ...),
                  "retarget: attribute kind in where() does not match the pattern op's schema "
                  "(where tests an INT with _i, a FLOAT with _f, a STRING with _s)");
    if constexpr (!(detail::test_fits<Op, T> && ...)) {
      return *this;
    } else {
      op_pattern<Op, Name, Output, Flags, Tests + sizeof...(T), Inputs...> out{inputs, {}};
      for (std::size_t i = 0; i < Tests; ++i) out.tests[i] = tests[i];
      std::size_t at = Tests;
      ((out.tests[at++] = added.test), ...);
      return out;
    }
  }
};

// A piece that matches an absent input too: rc::optional("c"_v) (its captures left unbound).
template <class P>
struct optional_pattern {
  P piece;
};
// Either of two pieces, the first tried first: rc::either(op<"Div">(...), op<"Mul">(...)).
template <class A, class B>
struct either_pattern {
  A first;
  B second;
};

namespace detail {
template <class T>
inline constexpr bool is_op_pattern = false;
template <fixed_string O, fixed_string N, std::size_t K, unsigned F, std::size_t T, class... I>
inline constexpr bool is_op_pattern<op_pattern<O, N, K, F, T, I...>> = true;
template <class T>
inline constexpr bool is_value_pattern = false;
template <fixed_string N>
inline constexpr bool is_value_pattern<value_capture<N>> = true;
template <fixed_string N>
inline constexpr bool is_value_pattern<constant_capture<N>> = true;
template <fixed_string N>
inline constexpr bool is_value_pattern<constant_test_capture<N>> = true;
template <>
inline constexpr bool is_value_pattern<any_t> = true;
template <class P>
inline constexpr bool is_value_pattern<optional_pattern<P>> = true;
template <class A, class B>
inline constexpr bool is_value_pattern<either_pattern<A, B>> = true;
}  // namespace detail

template <class T>
concept pattern = detail::is_op_pattern<T> || detail::is_value_pattern<T>;

namespace detail {
// The op at a pattern's root: an op piece's, or the one both alternatives of an either have
// at theirs; "" for any other piece.
template <class P>
inline constexpr std::string_view root_op_of = {};
template <fixed_string O, fixed_string N, std::size_t K, unsigned F, std::size_t T, class... I>
inline constexpr std::string_view root_op_of<op_pattern<O, N, K, F, T, I...>> = O.view();
template <class A, class B>
inline constexpr std::string_view root_op_of<either_pattern<A, B>> = root_op_of<A> == root_op_of<B>
                                                                         ? root_op_of<A>
                                                                         : std::string_view();
// What a rule's pattern may be: an op piece, or alternatives whose roots are one op (the
// engine tries a rule at the nodes of its root op).
template <class P>
inline constexpr bool is_root_pattern = !root_op_of<P>.empty();
}  // namespace detail

// A node of op Op whose inputs match `inputs` in order; inputs past the pattern's must be
// absent.
template <fixed_string Op, class... Inputs>
constexpr auto op(Inputs... inputs) {
  static_assert(ir::is_onnx_op(Op) && ir::split_op_name(Op).first.empty(),
                "retarget: pattern op name is unknown to the ONNX schemas (of the default domain, "
                "which patterns match)");
  static_assert((pattern<Inputs> && ...),
                "retarget: a pattern's inputs are patterns: op<...>(...), \"x\"_v, \"w\"_c, any, "
                "optional(...) or either(...)");
  static_assert(
      !ir::is_onnx_op(Op) || static_cast<int>(sizeof...(Inputs)) <= ir::onnx_op_inputs(Op).second,
      "retarget: pattern op is given more inputs than its schema allows");
  return op_pattern<Op, "", 0, 0, 0, Inputs...>{hana::make_tuple(inputs...)};
}

// Output K of the node p matches.
template <std::size_t K, fixed_string Op, fixed_string Name, std::size_t Output, unsigned F,
          std::size_t T, class... Inputs>
constexpr auto output(op_pattern<Op, Name, Output, F, T, Inputs...> p) {
  return op_pattern<Op, Name, K, F, T, Inputs...>{p.inputs, p.tests};
}

// A two-input op matched with its inputs either way round.
template <fixed_string Op, fixed_string Name, std::size_t Output, unsigned F, std::size_t T,
          class A, class B>
constexpr auto commutative(op_pattern<Op, Name, Output, F, T, A, B> p) {
  return op_pattern<Op, Name, Output, F | detail::commutative_inputs, T, A, B>{p.inputs, p.tests};
}

// An interior node that may have readers outside the match. By default a node the pattern
// covers below its root must not: a match would then compute its work twice.
template <fixed_string Op, fixed_string Name, std::size_t Output, unsigned F, std::size_t T,
          class... Inputs>
constexpr auto shared(op_pattern<Op, Name, Output, F, T, Inputs...> p) {
  return op_pattern<Op, Name, Output, F | detail::shared_outputs, T, Inputs...>{p.inputs, p.tests};
}
template <class P>
requires(!detail::is_op_pattern<P>) constexpr P shared(P p) {
  static_assert(detail::is_op_pattern<P>,
                "retarget: rc::shared takes an op piece, rc::shared(rc::op<\"Op\">(...)): only a "
                "node has readers");
  return p;
}

// An input that may be absent: a Gemm with or without its C is
//   rc::op<"Gemm">("a"_v, "b"_v, rc::optional("c"_v))
// and m.has("c"_v) says which.
template <class P>
constexpr optional_pattern<P> optional(P p) {
  static_assert(
      pattern<P>,
      "retarget: rc::optional takes a pattern piece: \"x\"_v, \"w\"_c or rc::op<...>(...)");
  return {p};
}

// Either of two pieces, tried in order (captures bound by the one that matched; a name only
// the other binds is left unbound). At a rule's root, two op pieces of one op: two ways an
// exporter writes the same thing.
template <class A, class B>
constexpr either_pattern<A, B> either(A a, B b) {
  static_assert(
      pattern<A> && pattern<B>,
      "retarget: rc::either takes two pattern pieces: \"x\"_v, \"w\"_c or rc::op<...>(...)");
  return {a, b};
}

// ---- What a match holds ----

// A captured node, read through its view, with attributes read by checked keys
// (m["n"_n]["axis"_i]).
template <fixed_string Op>
class matched_node {
 public:
  static constexpr std::string_view op = Op;
  std::optional<ir::node_view> node;  // set once the pattern matched

  template <detail::attribute_key Key>
  auto operator[](Key) const {
    return detail::read_checked<Op, Key>(node->attribute(detail::key_name<Key>::value));
  }
};

namespace detail {

template <fixed_string S, std::size_t... I>
constexpr auto hana_string(std::index_sequence<I...>) {
  return hana::string_c<S.chars[I]...>;
}
template <fixed_string S>
constexpr auto key_of = hana_string<S>(std::make_index_sequence<S.size()>{});

// The captures of a pattern as (key, type) pairs, with repeats.
template <fixed_string O, fixed_string N, std::size_t K, unsigned F, std::size_t T, class... I>
constexpr auto captures_of(const op_pattern<O, N, K, F, T, I...>&);
template <class A, class B>
constexpr auto captures_of(const either_pattern<A, B>&);
constexpr auto captures_of(any_t) { return hana::make_tuple(); }
template <class C>
requires(requires { C::constant; }) constexpr auto captures_of(C) {
  return hana::make_tuple(hana::make_pair(key_of<C::name>, hana::type_c<ir::value>));
}
template <class P>
constexpr auto captures_of(const optional_pattern<P>&) {
  return captures_of(P{});
}
template <class A, class B>
constexpr auto captures_of(const either_pattern<A, B>&) {
  return hana::flatten(hana::make_tuple(captures_of(A{}), captures_of(B{})));
}
template <fixed_string O, fixed_string N, std::size_t K, unsigned F, std::size_t T, class... I>
constexpr auto captures_of(const op_pattern<O, N, K, F, T, I...>&) {
  auto own = [] {
    if constexpr (N.size() == 0)
      return hana::make_tuple();
    else
      return hana::make_tuple(hana::make_pair(key_of<N>, hana::type_c<matched_node<O>>));
  }();
  return hana::flatten(hana::make_tuple(own, captures_of(I{})...));
}

// The type of a name a pattern uses for two kinds of capture (an error, said once).
struct capture_conflict {};

// A pattern's captures: a hana::map from each name to its slot in a match and its type
// (ir::value, or matched_node<Op>), the first use of a name deciding both; a later use of the
// name must be of the same type. Only its type is used: the checks of m["x"_v] and the
// pattern's flattening read it at compile time.
template <class Pattern>
constexpr auto capture_map_of(const Pattern& p) {
  return hana::fold_left(captures_of(p), hana::make_map(), [](auto map, auto pair) {
    if constexpr (decltype(hana::contains(map, hana::first(pair)))::value) {
      const auto key = hana::first(pair);
      using before =
          typename std::remove_cvref_t<decltype(hana::second(hana::at_key(map, key)))>::type;
      using now = typename std::remove_cvref_t<decltype(hana::second(pair))>::type;
      constexpr bool agree =
          std::is_same_v<before, now> || std::is_same_v<before, capture_conflict>;
      static_assert(agree,
                    "retarget: a capture name is used for a value and a node, or for nodes of "
                    "two ops, in one pattern");
      if constexpr (agree)
        return map;
      else  // marked, so that reading the name says nothing more
        return hana::insert(
            hana::erase_key(map, key),
            hana::make_pair(key, hana::make_pair(hana::first(hana::at_key(map, key)),
                                                 hana::type_c<capture_conflict>)));
    } else {
      return hana::insert(
          map,
          hana::make_pair(hana::first(pair), hana::make_pair(hana::size(map), hana::second(pair))));
    }
  });
}
template <class Pattern>
using capture_map_t = decltype(capture_map_of(std::declval<const Pattern&>()));

template <class Pattern, fixed_string N>
inline constexpr bool has_capture =
    decltype(hana::contains(std::declval<capture_map_t<Pattern>>(), key_of<N>))::value;
template <class Pattern, fixed_string N>
using capture_entry_t =
    std::remove_cvref_t<decltype(hana::at_key(std::declval<capture_map_t<Pattern>>(), key_of<N>))>;
template <class Pattern, fixed_string N>
inline constexpr std::size_t capture_slot_of =
    std::remove_cvref_t<decltype(hana::first(std::declval<capture_entry_t<Pattern, N>>()))>::value;
template <class Pattern, fixed_string N>
using capture_type_t = typename std::remove_cvref_t<decltype(hana::second(
    std::declval<capture_entry_t<Pattern, N>>()))>::type;
template <class Pattern>
inline constexpr std::size_t capture_count =
    decltype(hana::size(std::declval<capture_map_t<Pattern>>()))::value;

// The pieces of a pattern's subtree, itself included, and the tests they hold.
template <class P>
inline constexpr std::size_t extent_of = 1;
template <fixed_string O, fixed_string N, std::size_t K, unsigned F, std::size_t T, class... I>
inline constexpr std::size_t extent_of<op_pattern<O, N, K, F, T, I...>> = 1 +
                                                                          (extent_of<I> + ... + 0);
template <class P>
inline constexpr std::size_t extent_of<optional_pattern<P>> = 1 + extent_of<P>;
template <class A, class B>
inline constexpr std::size_t extent_of<either_pattern<A, B>> = 1 + extent_of<A> + extent_of<B>;
template <class P>
inline constexpr std::size_t tests_of = 0;
template <fixed_string N>
inline constexpr std::size_t tests_of<constant_test_capture<N>> = 1;
template <fixed_string O, fixed_string N, std::size_t K, unsigned F, std::size_t T, class... I>
inline constexpr std::size_t tests_of<op_pattern<O, N, K, F, T, I...>> = T +
                                                                         (tests_of<I> + ... + 0);
template <class P>
inline constexpr std::size_t tests_of<optional_pattern<P>> = tests_of<P>;
template <class A, class B>
inline constexpr std::size_t tests_of<either_pattern<A, B>> = tests_of<A> + tests_of<B>;

// A pattern flattened into the data match_pattern walks, depth first.
template <class Pattern>
struct flat_pattern {
  std::array<pattern_element, extent_of<Pattern>> elements{};
  std::array<value_test, tests_of<Pattern>> tests{};
  std::size_t at = 0, tests_at = 0;

  template <fixed_string N>
  static constexpr std::ptrdiff_t slot() {
    if constexpr (N.size() == 0)
      return -1;
    else
      return static_cast<std::ptrdiff_t>(capture_slot_of<Pattern, N>);
  }
  constexpr void add(any_t) { elements[at++] = {}; }
  template <class Capture>
  requires(requires { Capture::constant; }) constexpr void add(const Capture& c) {
    using kind = pattern_element::kind;
    auto& e = elements[at++];
    e = {Capture::constant ? kind::constant : kind::value,
         {},
         Capture::name.view(),
         slot<Capture::name>()};
    if constexpr (requires { c.test; }) {
      e.first_test = tests_at;
      e.tests = 1;
      tests[tests_at++] = c.test;
    }
  }
  template <class P>
  constexpr void add(const optional_pattern<P>& o) {
    auto& e = elements[at++];
    e.what = pattern_element::kind::optional;
    e.extent = extent_of<optional_pattern<P>>;
    add(o.piece);
  }
  template <class A, class B>
  constexpr void add(const either_pattern<A, B>& e) {
    auto& piece = elements[at++];
    piece.what = pattern_element::kind::either;
    piece.op = root_op_of<either_pattern<A, B>>;
    piece.extent = extent_of<either_pattern<A, B>>;
    add(e.first);
    add(e.second);
  }
  template <fixed_string O, fixed_string N, std::size_t K, unsigned F, std::size_t T, class... I>
  constexpr void add(const op_pattern<O, N, K, F, T, I...>& p) {
    using P = op_pattern<O, N, K, F, T, I...>;
    elements[at++] = {pattern_element::kind::op,
                      P::op.view(),
                      P::name.view(),
                      slot<N>(),
                      extent_of<P>,
                      sizeof...(I),
                      K,
                      P::commutative,
                      P::shared,
                      tests_at,
                      T};
    for (const auto& t : p.tests) tests[tests_at++] = t;
    hana::unpack(p.inputs, [&](const auto&... in) { (add(in), ...); });
  }
};
template <class Pattern>
constexpr flat_pattern<Pattern> flattened(const Pattern& p) {
  flat_pattern<Pattern> f;
  f.add(p);
  return f;
}

}  // namespace detail

// The captures of one match of a rule's pattern, read by the literals that made them: what a
// rule's condition and replacement get as `m`.
template <class Pattern>
class match {
 public:
  // Each capture's name, as a hana::string, to its slot and its type (a hana::type).
  using capture_map = detail::capture_map_t<Pattern>;

  explicit match(const detail::match_data& found) noexcept : found_(&found) {}

  template <fixed_string N>
  const ir::value& operator[](value_capture<N>) const {
    return value<N>();
  }
  template <fixed_string N>
  const ir::value& operator[](constant_capture<N>) const {
    return value<N>();
  }
  template <fixed_string N>
  auto operator[](node_key<N>) const {
    static_assert(detail::has_capture<Pattern, N>,
                  "retarget: capture name is not in the rule's pattern");
    if constexpr (detail::has_capture<Pattern, N>) {
      using T = detail::capture_type_t<Pattern, N>;
      static_assert(!std::is_same_v<T, ir::value> || std::is_same_v<T, detail::capture_conflict>,
                    "retarget: the capture is a value; read it with \"name\"_v or \"name\"_c");
      if constexpr (!std::is_same_v<T, ir::value> && !std::is_same_v<T, detail::capture_conflict>)
        return T{found_->slots[detail::capture_slot_of<Pattern, N>].node};
    }
  }

  // Whether an optional piece bound the capture: false for an input that is absent.
  template <class Capture>
  requires(requires { Capture::constant; }) bool has(Capture) const {
    return value<Capture::name>().valid();
  }

  // The elements of a captured constant as T (converted from the type it is stored in):
  // m.constant<float>("c"_c). retarget::error naming the capture when it is not a constant.
  template <class T, class Capture>
  requires(requires { Capture::constant; }) std::vector<T> constant(Capture)
  const {
    const auto values =
        detail::constant_values(*found_, value<Capture::name>(), Capture::name.view());
    return std::vector<T>(values.begin(), values.end());
  }

  // The conversion's options: which approximations it allows (cfg().allows(name)), and the
  // rest of convert::options.
  const options& cfg() const noexcept { return found_->given ? *found_->given : no_options(); }

  // The graph being built, where the captured values live.
  ir::graph& graph() const noexcept { return *found_->graph; }
  // How many nodes read v once the graph is rebuilt whole: those already in it and those of
  // the model still to come (graph().readers(v) knows only the first).
  std::size_t readers(const ir::value& v) const {
    return found_->readers ? found_->readers->readers(v) : graph().readers(v);
  }
  // The matched nodes, the root first (then depth first, in the pattern's order).
  const std::vector<ir::node_view>& nodes() const noexcept { return found_->nodes; }

 private:
  template <fixed_string N>
  const ir::value& value() const {
    static_assert(detail::has_capture<Pattern, N>,
                  "retarget: capture name is not in the rule's pattern");
    if constexpr (detail::has_capture<Pattern, N>) {
      using T = detail::capture_type_t<Pattern, N>;
      static_assert(std::is_same_v<T, ir::value> || std::is_same_v<T, detail::capture_conflict>,
                    "retarget: the capture is a node; read it with \"name\"_n");
      return found_->slots[detail::capture_slot_of<Pattern, N>].value;
    } else {
      return found_->slots.front().value;
    }
  }

  static const options& no_options() {
    static const options none;
    return none;
  }

  const detail::match_data* found_;
};

// What a condition says: yes, or no and why (shown by --explain).
struct verdict {
  bool ok = true;
  std::string why;
  verdict(bool yes) : ok(yes), why(yes ? "" : "the condition is false") {}  // NOLINT
  static verdict no(std::string reason) {
    verdict v(false);
    v.why = std::move(reason);
    return v;
  }
  explicit operator bool() const noexcept { return ok; }
};
inline verdict reject(std::string reason) { return verdict::no(std::move(reason)); }

// ---- Rules and rule sets ----

// Derive a rule from rule<"name">; give it `static constexpr auto pattern`, an optional
// `condition(m)` returning bool or verdict, and `replace(g, m)` returning the root's outputs.
template <fixed_string Name>
struct rule {
  static constexpr std::string_view name = Name;
};

namespace detail {
template <class R>
concept named_with_pattern = requires {
  { R::name } -> std::convertible_to<std::string_view>;
  R::pattern;
};
template <class R>
constexpr bool has_root_op() {
  if constexpr (named_with_pattern<R>)
    return is_root_pattern<std::remove_cvref_t<decltype(R::pattern)>>;
  else
    return true;  // not a rule: said once, by the check that it is one
}
}  // namespace detail

template <class R>
concept Rule = detail::named_with_pattern<R> &&
    detail::is_root_pattern<std::remove_cvref_t<decltype(R::pattern)>>;

namespace detail {
template <class... R>
constexpr bool names_unique() {
  constexpr std::string_view names[] = {R::name..., ""};
  for (std::size_t i = 0; i < sizeof...(R); ++i)
    for (std::size_t j = i + 1; j < sizeof...(R); ++j)
      if (names[i] == names[j]) return false;
  return true;
}
}  // namespace detail

namespace detail {
// The approximation a rule declares itself to be (`using approximation = tag;`), "" for none.
template <class R>
constexpr std::string_view approximation_of() {
  if constexpr (requires { typename R::approximation; }) {
    static_assert(
        requires { R::approximation::name; },
        "retarget: a rule's `approximation` is not an approximation tag (a type derived "
        "from rc::approximation<\"name\">)");
    if constexpr (requires { R::approximation::name; }) return R::approximation::name;
  }
  return {};
}

// Whether declared[i] is an approximation that no rule before it declared.
constexpr bool first_declared(const std::string_view* declared, std::size_t i) {
  if (declared[i].empty()) return false;
  for (std::size_t j = 0; j < i; ++j)
    if (declared[j] == declared[i]) return false;
  return true;
}
// The approximations rules R... declare, each once, in their order.
template <class... R>
constexpr std::size_t approximation_count() {
  constexpr std::string_view declared[] = {approximation_of<R>()..., {}};
  std::size_t n = 0;
  for (std::size_t i = 0; i < sizeof...(R); ++i) n += first_declared(declared, i);
  return n;
}
template <class... R>
constexpr auto approximations_declared(boost::mp11::mp_list<R...>) {
  constexpr std::string_view declared[] = {approximation_of<R>()..., {}};
  std::array<std::string_view, approximation_count<R...>()> out{};
  std::size_t n = 0;
  for (std::size_t i = 0; i < sizeof...(R); ++i)
    if (first_declared(declared, i)) out[n++] = declared[i];
  return out;
}

// The checks live in their own type so that a failure leaves rule_set usable: one error.
template <class... Rules>
struct rule_set_check {
  static_assert((named_with_pattern<Rules> && ...),
                "retarget: a rule_set holds rules (types derived from retarget::convert::rule "
                "with a `pattern`)");
  static_assert((has_root_op<Rules>() && ...),
                "retarget: a rule's pattern has no one op at its root: make it with rc::op, or "
                "rc::either of op pieces of the same op");
  static_assert(names_unique<Rules...>(), "retarget: two rules of a rule_set share a name");
  // Whether the rules can be read as rules: with a non-rule, nothing reads them further.
  static constexpr bool value = (Rule<Rules> && ...);
};
}  // namespace detail

namespace detail {
// A rule_set's entries as rules: a rule is itself, a rule set (or a rules_for) its rules.
template <class T>
struct rules_in {
  using type = boost::mp11::mp_list<T>;
};
template <class T>
requires requires { typename T::rule_list; }
struct rules_in<T> {
  using type = typename T::rule_list;
};
template <class... R>
constexpr auto hana_types(boost::mp11::mp_list<R...>) {
  return hana::tuple_t<R...>;
}
}  // namespace detail

// The rules a backend applies, tried in this order at every node. An entry may be a rule set
// of its own, a fallback's rules_for<B> for one, whose rules take its place in the order:
//   template <> struct rules_for<my_opencv> : rule_set<my_rule, rules_for<opencv_dnn>> {};
template <class... Entries>
struct rule_set {
  using rule_list = boost::mp11::mp_append<typename detail::rules_in<Entries>::type...>;
  static constexpr bool checked = boost::mp11::mp_apply<detail::rule_set_check, rule_list>::value;
  // Both read `checked`, so naming either runs the checks.
  static constexpr auto rules = (void(checked), detail::hana_types(rule_list{}));
  static constexpr std::size_t size = checked ? boost::mp11::mp_size<rule_list>::value : 0;
  // The rules, once checked; none when an entry is not a rule.
  using checked_list = std::conditional_t<checked, rule_list, boost::mp11::mp_list<>>;
  // The approximations its rules declare (`using approximation = tag;`), each once: what a
  // conversion may name in options::approximations to let them run.
  static constexpr auto approximation_names = detail::approximations_declared(checked_list{});
};

// Specialize for a backend: template <> struct rules_for<my_engine> : rule_set<...> {};
// A second specialization for the same backend is a redefinition and does not compile.
template <class B>
struct rules_for {
  using retarget_undeclared = void;
};

namespace detail {
template <class B>
using has_rules = std::bool_constant < !requires {
  typename rules_for<B>::retarget_undeclared;
}
> ;
template <class Chain, bool Any = boost::mp11::mp_any_of<Chain, has_rules>::value>
struct first_rules {
  using type = rule_set<>;
};
template <class Chain>
struct first_rules<Chain, true> {
  using type = rules_for<boost::mp11::mp_at<Chain, boost::mp11::mp_find_if<Chain, has_rules>>>;
};
}  // namespace detail

// The rules of the first backend of B's fallback chain that declares some; none otherwise.
template <Backend B>
using rules_of_t = typename detail::first_rules<fallback_chain_t<B>>::type;

}  // namespace retarget::convert

#endif  // RETARGET_CONVERT_RULE_HPP
