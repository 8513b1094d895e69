// A pattern's node capture in a context where the pattern's type depends on a template
// parameter: .as("n"_n) needs no `template` keyword and means what .template as<"n">() means.
#include <retarget/convert/rule.hpp>
#include <type_traits>

namespace rc = retarget::convert;
using namespace retarget::convert::literals;

namespace {

template <class Inner>
constexpr auto relu_of(Inner inner) {
  return rc::op<"Relu">(inner).as("r"_n);
}
template <class Inner>
constexpr auto relu_of_with_keyword(Inner inner) {
  return rc::op<"Relu">(inner).template as<"r">();
}

static_assert(std::is_same_v<decltype(relu_of("x"_v)), decltype(relu_of_with_keyword("x"_v))>);
static_assert(relu_of("x"_v).name == retarget::fixed_string("r"));
static_assert(std::is_same_v<decltype(rc::op<"Relu">("x"_v).as("r"_n)),
                             decltype(rc::op<"Relu">("x"_v).as<"r">())>);

}  // namespace
