// What the compile-fail cases share: a rewritable function, an op, a module, a backend.
#ifndef RETARGET_TESTS_COMPILE_FAIL_COMMON_HPP
#define RETARGET_TESTS_COMPILE_FAIL_COMMON_HPP

#include <retarget/core.hpp>

#include "../support/engine_tags.hpp"

namespace bk = engines;

inline constexpr struct scale_fn : retarget::rewritable<scale_fn, "scale"> {
  int origin(int x) const { return 2 * x; }
} scale;

struct resize_op : retarget::symbolic_op<resize_op, "resize"> {
  static int symbolic(int x) { return x; }
};

struct upsample : retarget::rewritable_module<upsample> {
  int forward(int x) const { return x; }
};

struct not_rewritable {
  int operator()(int x) const { return x; }
};

#endif
