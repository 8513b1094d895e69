// Every form a stored constant can take beside a computed tensor, one model each: where the
// random generator meets a form now and then, this sweep meets each once. For each computed
// input x of the shapes below, each constant c that broadcasts to x's shape (every choice, per
// axis of x's last r, of 1 or x's dim), each op either way round, and c both as an initializer
// and as a Constant node's output: one node, op(x, c).
//
//   for (const auto& made : retarget_test::differential::broadcast_forms()) ...
//
// OpenCV 4.6 takes these forms or not by rules that tests/differential measured with this
// sweep (backends/opencv_dnn/rules.hpp, namespace broadcast, writes them down).
#ifndef RETARGET_TESTS_DIFFERENTIAL_FORMS_HPP
#define RETARGET_TESTS_DIFFERENTIAL_FORMS_HPP

#include <cstdint>
#include <random>
#include <retarget/ir.hpp>
#include <set>
#include <string>
#include <vector>

#include "differential/generator.hpp"

namespace retarget_test::differential {

// x's shapes: ranks 2 to 5, a batch of 1 and of 2, no two inner dims alike (so that a
// constant OpenCV places on the wrong axes fails or shows, rather than fitting by chance).
inline const std::vector<shape_t>& form_shapes() {
  static const std::vector<shape_t> shapes = {{4, 3},       {1, 3},       {2, 4, 3},      {1, 4, 3},
                                              {2, 3, 4, 5}, {1, 3, 4, 5}, {2, 3, 2, 4, 3}};
  return shapes;
}

inline constexpr std::string_view form_ops[] = {"Add", "Sub", "Mul", "Div", "Max", "Min"};

// The constants' dims over x: for each r up to x's rank, each choice of 1 or x's dim on x's
// last r axes; each distinct one once.
inline std::vector<shape_t> constant_forms(const shape_t& x) {
  std::set<shape_t> out;
  for (std::size_t r = 0; r <= x.size(); ++r)
    for (unsigned mask = 0; mask < (1u << r); ++mask) {
      shape_t c(r);
      for (std::size_t i = 0; i < r; ++i) c[i] = (mask >> i) & 1u ? x[x.size() - r + i] : 1;
      out.insert(c);
    }
  return {out.begin(), out.end()};
}

// The whole sweep, in a fixed order. Constant values are drawn away from 0 (a divisor) from a
// fixed seed.
inline std::vector<generated> broadcast_forms() {
  std::vector<generated> out;
  std::mt19937_64 rng(20261128);
  std::uniform_real_distribution<float> magnitude(0.5f, 2.0f);
  std::bernoulli_distribution negative(0.5);
  for (const auto& x_dims : form_shapes())
    for (const auto& c_dims : constant_forms(x_dims))
      for (const auto op : form_ops)
        for (const bool constant_first : {false, true})
          for (const bool as_node : {false, true}) {
            std::vector<float> values(static_cast<std::size_t>(elements(c_dims)));
            for (auto& v : values) v = magnitude(rng) * (negative(rng) ? -1.0f : 1.0f);
            ir::graph g(13);
            auto x =
                g.input("x", ir::dtype::f32, std::vector<ir::dim>(x_dims.begin(), x_dims.end()));
            auto data = ir::tensor::of(values, c_dims);
            auto c = as_node ? g.constant(std::move(data)) : g.initializer("c", std::move(data));
            ir::node_spec node;
            node.op_type = std::string(op);
            node.inputs =
                constant_first ? std::vector<ir::value>{c, x} : std::vector<ir::value>{x, c};
            g.output(g.emit(std::move(node)).front(), "y");
            out.push_back({ir::make_model(std::move(g)), 13, {std::string(op)}});
          }
  return out;
}

}  // namespace retarget_test::differential

#endif  // RETARGET_TESTS_DIFFERENTIAL_FORMS_HPP
