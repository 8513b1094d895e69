// A module wrapper that takes the user's deploy config by its own type, as a direct call would
// pass it; an export passes its config as a retarget::trace::config_ref.
// expect: static assertion failed.*module wrapper takes the deploy config by its own type
// page-section: Modules
// page-title: A module wrapper that takes the deploy config by its own type
// page-snippet:
// | struct fast_upsample {
// |   fast_upsample(const upsample&, const deploy_config& cfg);   // inside an export
// |   ...
// | };
// page-meaning:
// | The wrapper is constructed from the module and the config of the call. An export passes
// | its config as a `retarget::trace::config_ref`, whatever type the caller gave, so a
// | constructor that takes `const deploy_config&` never matches.
// page-fix:
// | Take `const retarget::trace::config_ref& cfg` and read your struct with
// | `cfg.as<deploy_config>()` (it throws, naming both types, if the export was given another).
#include <retarget/core/module.hpp>
#include <retarget/trace/export.hpp>
#include <string>

#include "../support/engine_tags.hpp"

using retarget::trace::tensor;

struct deploy_config {
  std::string mode = "bilinear";
};

struct upsample : retarget::rewritable_module<upsample> {
  template <class B>
  tensor<B> forward(const tensor<B>& x) const {
    return x;
  }
};

struct fast_upsample {
#ifdef RETARGET_COMPILE_FAIL
  fast_upsample(const upsample&, const deploy_config&) {}
#else
  fast_upsample(const upsample&, const retarget::trace::config_ref& cfg) {
    (void)cfg.as<deploy_config>();
  }
#endif
  template <class B>
  tensor<B> forward(const tensor<B>& x) const {
    return x;
  }
};

template <>
struct retarget::module_rewrite<upsample, engines::opencv_dnn>
    : retarget::wrap_with<fast_upsample> {};

int main() {
  const upsample m;
  const deploy_config cfg;
  const retarget::input_spec inputs[] = {{"x", retarget::ir::dtype::f32, {2}}};
  return retarget::export_onnx<engines::opencv_dnn>(m, inputs, cfg).report.records().size() == 1
             ? 0
             : 1;
}
