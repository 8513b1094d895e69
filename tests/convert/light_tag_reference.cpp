// The reference of light_tag_test.cpp: opencv_dnn's conversion package included whole, its
// rules, node rewrites and quirks run as types in this unit (a tag of its own that falls back
// to opencv_dnn, so that convert does not take the library's compiled package).
#include <retarget/backends/opencv_dnn/convert.hpp>
#include <retarget/convert/convert.hpp>
#include <retarget/convert/quirk.hpp>
#include <retarget/convert/refusals.hpp>
#include <retarget/ir/proto.hpp>
#include <utility>

#include "convert/light_tag.hpp"

namespace {
namespace rc = retarget::convert;
namespace bk = retarget::backends;
struct with_package_types : retarget::backend_tag<"with_package_types", bk::opencv_dnn> {};
}  // namespace

namespace light_tag {

rc::result convert_with_package_types(retarget::ir::model m) {
  return rc::convert<with_package_types>(std::move(m));
}

std::vector<rc::refusal> refusals_from_package_types(const retarget::ir::model& m) {
  std::vector<rc::refusal> out;
  rc::quirks_for<bk::opencv_dnn>::check(rc::refusal_context(m), out);
  return out;
}

std::vector<std::string_view> approximations_from_package_types() {
  const auto names = rc::quirks_for<bk::opencv_dnn>::approximation_names;
  return {names.begin(), names.end()};
}

std::vector<std::string_view> node_rewrites_from_package_types() {
  return rc::node_rewrite_ops<bk::opencv_dnn>();
}

std::string graph_bytes(const retarget::ir::model& m) { return m.graph().SerializeAsString(); }

}  // namespace light_tag
