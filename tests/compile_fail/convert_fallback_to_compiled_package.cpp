// With retarget::compiled, a tag of one's own that falls back to opencv_dnn, converted from a
// unit that sees opencv_dnn's tag alone: the tag declares its rules (they are compiled into the
// library for convert<opencv_dnn>), but the new backend's conversion runs them as types.
// expect: include that backend's conversion header
// page-section: Conversion rules
// page-title: Converting for a backend that falls back to a compiled package, without its header
// page-order: 125
// page-snippet:
// | // linked with retarget::compiled
// | #include <retarget/backends/opencv_dnn/backend.hpp>
// | #include <retarget/convert/convert.hpp>
// | struct my_opencv : retarget::backend_tag<"my_opencv", bk::opencv_dnn> {};
// | auto converted = rc::convert<my_opencv>(std::move(model));
// page-meaning:
// | With retarget::compiled, opencv_dnn's tag stays light: it only declares the rules, node
// | rewrites and quirks of its conversion package, which the library compiles, so
// | `convert<opencv_dnn>` runs them from there. A backend that falls back to opencv_dnn (or a
// | conversion with rules of one's own) is converted with the package's rules as types, in this
// | unit, and they are not defined here. Nothing is skipped silently: it does not compile.
// page-fix:
// | Include the package's conversion header, `<retarget/backends/opencv_dnn/convert.hpp>`, in the
// | units that convert for such a backend (the package header does not bring it in with
// | retarget::compiled either).
#define RETARGET_SEPARATE_COMPILATION 1  // as retarget::compiled sets it for its users

#include <retarget/backends/opencv_dnn/backend.hpp>
#ifndef RETARGET_COMPILE_FAIL
#include <retarget/backends/opencv_dnn/convert.hpp>
#endif

#include "convert_common.hpp"

struct my_opencv : retarget::backend_tag<"my_opencv", retarget::backends::opencv_dnn> {};

int main() {
  auto converted = rc::convert<my_opencv>(rx::model());
  return static_cast<int>(converted.report.passes);
}
