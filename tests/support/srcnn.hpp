// The tutorial model of the retarget tool's zoo (zoo/zoo.hpp) with PyTorch's
// weights from the source tree (zoo/srcnn, from tools/make_srcnn_reference.py),
// shared by the tests that run it on real backends.
#ifndef RETARGET_TESTS_SUPPORT_SRCNN_HPP
#define RETARGET_TESTS_SUPPORT_SRCNN_HPP

#include <retarget/retarget.hpp>

#include "support/ort.hpp"
#include "zoo/zoo.hpp"

namespace tutorial {

inline const std::filesystem::path data = ort::source_dir() / "zoo/srcnn";

// The zoo's SRCNN (zoo/zoo.hpp), with the weights of the source tree.
struct srcnn : zoo::srcnn {
  srcnn() : zoo::srcnn(data) {}
};

}  // namespace tutorial

#endif  // RETARGET_TESTS_SUPPORT_SRCNN_HPP
