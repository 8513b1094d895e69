// The definitions of symbolics/helpers.hpp: inline header-only, compiled once into
// retarget::compiled otherwise.
#ifndef RETARGET_SYMBOLICS_DETAIL_HELPERS_IMPL_HPP
#define RETARGET_SYMBOLICS_DETAIL_HELPERS_IMPL_HPP

#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/symbolics/helpers.hpp>
#include <string>

namespace retarget::symbolics {

RETARGET_LAZY_DEF void require_opset(const ir::graph& g, int at_least, const char* what) {
  if (g.opset() < at_least)
    throw error(std::string("retarget: ") + what + " needs opset " + std::to_string(at_least) +
                " or later; the export targets opset " + std::to_string(g.opset()));
}

}  // namespace retarget::symbolics

#endif  // RETARGET_SYMBOLICS_DETAIL_HELPERS_IMPL_HPP
