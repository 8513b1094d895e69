// With retarget::compiled, a node rewrite of one's own declared for opencv_dnn, whose conversion
// package the library compiles: convert<opencv_dnn> runs the library's rewrites, never this one.
// expect: node_rewrite declared for a backend whose conversion package is compiled
// page-section: Conversion rules
// page-title: A node rewrite for a backend whose package is compiled into the library
// page-order: 126
// page-snippet:
// | // linked with retarget::compiled
// | template <>
// | struct rc::node_rewrite<"Gemm", bk::opencv_dnn> { /* ... */ };
// page-meaning:
// | With retarget::compiled, opencv_dnn's conversion package (its rules and its node rewrites of
// | Clip, LayerNormalization, Pad and Resize) is compiled into the library, and
// | `convert<opencv_dnn>` runs it from there: a further node rewrite declared for opencv_dnn in
// | your unit would never run. Header-only, it would; it does not compile here rather than be
// | skipped silently.
// page-fix:
// | Declare a tag of your own that falls back to opencv_dnn
// | (`struct my_opencv : retarget::backend_tag<"my_opencv", bk::opencv_dnn> {};`), declare the
// | rewrite for it, and convert for it (with the package's conversion header included,
// | [convert/node_rewrite](reference/convert/node_rewrite.md)).
#define RETARGET_SEPARATE_COMPILATION 1  // as retarget::compiled sets it for its users

#include <retarget/backends/opencv_dnn/backend.hpp>

#include "convert_common.hpp"

struct my_opencv : retarget::backend_tag<"my_opencv", retarget::backends::opencv_dnn> {};

#ifdef RETARGET_COMPILE_FAIL
template <>
struct rc::node_rewrite<"Gemm", retarget::backends::opencv_dnn> {
#else
template <>
struct rc::node_rewrite<"Gemm", my_opencv> {
#endif
  static auto call(const auto& ctx, rx::graph& g, const rc::node& n) { return ctx.origin(g, n); }
};

int main() {}
