// Backend tags and their fallback chains, seen at run time.
#include <gtest/gtest.h>

#include <boost/mp11/algorithm.hpp>
#include <retarget/backends/onnxruntime/backend.hpp>
#include <retarget/backends/opencv_dnn/backend.hpp>
#include <retarget/backends/tensorrt/backend.hpp>
#include <string_view>
#include <vector>

namespace bk = retarget::backends;

namespace {

template <class B>
std::vector<std::string_view> chain_names() {
  std::vector<std::string_view> out;
  boost::mp11::mp_for_each<retarget::fallback_chain_t<B>>(
      [&](auto b) { out.push_back(decltype(b)::name); });
  return out;
}

struct edge : retarget::backend_tag<"edge", bk::opencv_dnn, bk::onnxruntime> {};
struct edge2 : retarget::backend_tag<"edge2", edge, bk::onnxruntime> {};

TEST(Backend, ChainStartsAtTheBackendAndEndsAtTheDefault) {
  EXPECT_EQ(chain_names<bk::tensorrt10>(),
            (std::vector<std::string_view>{"tensorrt10", "tensorrt", "default"}));
  EXPECT_EQ(chain_names<bk::default_>(), std::vector<std::string_view>{"default"});
}

TEST(Backend, SharedFallbacksAppearOnceAtTheirFirstPlace) {
  EXPECT_EQ(chain_names<edge2>(), (std::vector<std::string_view>{"edge2", "edge", "opencv_dnn",
                                                                 "onnxruntime", "default"}));
}

}  // namespace
