// Op domains: which ones the ONNX library defines, and the two spellings of the default one.
//
//   static_assert(retarget::ir::is_standard_domain("ai.onnx.ml"));
//   static_assert(!retarget::ir::is_standard_domain("mmdeploy"));
//   static_assert(retarget::ir::is_default_domain("ai.onnx"));
#ifndef RETARGET_IR_DOMAIN_HPP
#define RETARGET_IR_DOMAIN_HPP

#include <string_view>

namespace retarget::ir {

// The domains whose ops the ONNX library defines: the default domain ("" or "ai.onnx"),
// ai.onnx.ml and ai.onnx.preview.training. Their ops are checked against the generated schema
// table, no custom schema may use them, and inspect and dot print their ops without a prefix;
// every other domain is custom.
constexpr bool is_standard_domain(std::string_view domain) noexcept {
  return domain.empty() || domain == "ai.onnx" || domain == "ai.onnx.ml" ||
         domain == "ai.onnx.preview.training";
}

// The default domain, in either of its spellings ("" or "ai.onnx"): the one test of it that
// every layer uses.
constexpr bool is_default_domain(std::string_view domain) noexcept {
  return domain.empty() || domain == "ai.onnx";
}

// "ai.onnx" → "": the default domain has two spellings, and nodes, opset imports and the schema
// table write it as "".
constexpr std::string_view canonical_domain(std::string_view domain) noexcept {
  return is_default_domain(domain) ? std::string_view{} : domain;
}

}  // namespace retarget::ir

#endif  // RETARGET_IR_DOMAIN_HPP
