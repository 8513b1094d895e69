// An opset adapter that reads an attribute its op's schema lacks.
// expect: attribute name is not in the op's schema
// page-section: Conversion rules
// page-title: An opset adapter that reads an attribute its op lacks
// page-order: 120
// page-snippet:
// | const rc::node_of<"HardSigmoid">& n
// | n["alpah"_f].value_or(0.2f);
// page-meaning:
// | As in a node rewrite, `node_of<"Op">` checks each attribute it is asked for against the op's
// | schemas.
// page-fix:
// | Fix the name (`"alpha"_f`).
#include <boost/mp11/list.hpp>
#include <retarget/convert/opset.hpp>

#include "convert_common.hpp"

template <>
struct rc::opset_adapter<"HardSigmoid", 14, 13> {
  static rx::value call(rx::graph& g, const rc::node_of<"HardSigmoid">& n) {
#ifdef RETARGET_COMPILE_FAIL
    const float alpha = n["alpah"_f].value_or(0.2f);
#else
    const float alpha = n["alpha"_f].value_or(0.2f);
#endif
    return g.op("HardSigmoid", n.input(0), "alpha"_f = alpha);
  }
};

auto convert(const rx::model& m) {
  return rc::to_opset<boost::mp11::mp_list<rc::opset_adapter<"HardSigmoid", 14, 13>>>(m, 13);
}

int main() {}
