// What light_tag_test.cpp (a unit that sees opencv_dnn's tag alone) compares with: the same
// conversion made in light_tag_reference.cpp, a unit that includes opencv_dnn's whole
// conversion package and runs its rules as types.
#ifndef RETARGET_TESTS_CONVERT_LIGHT_TAG_HPP
#define RETARGET_TESTS_CONVERT_LIGHT_TAG_HPP

#include <retarget/convert/options.hpp>
#include <retarget/convert/refusals.hpp>
#include <retarget/ir/model.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace light_tag {

// convert<B> for a tag that falls back to opencv_dnn: its rules and node rewrites, from the
// package's types, compiled in the reference unit.
retarget::convert::result convert_with_package_types(retarget::ir::model m);
// quirks_for<opencv_dnn>, read from the package's types.
std::vector<retarget::convert::refusal> refusals_from_package_types(const retarget::ir::model& m);
std::vector<std::string_view> approximations_from_package_types();
// node_rewrite_ops<opencv_dnn>(), where the package's node rewrites are defined.
std::vector<std::string_view> node_rewrites_from_package_types();
// The main graph's bytes, to compare two models whole (read where ONNX's messages are defined).
std::string graph_bytes(const retarget::ir::model& m);

}  // namespace light_tag

#endif  // RETARGET_TESTS_CONVERT_LIGHT_TAG_HPP
