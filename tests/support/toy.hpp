// A stand-in for the tracing layer, small enough to read in one go: a tensor that carries
// its backend in its type and its session (config, log, recorded graph) by pointer.
#ifndef RETARGET_TESTS_SUPPORT_TOY_HPP
#define RETARGET_TESTS_SUPPORT_TOY_HPP

#include <cstdint>
#include <ostream>
#include <retarget/core.hpp>
#include <string>
#include <vector>

namespace toy {

struct deploy_config {
  int upscale = 4;
  std::string resize_mode = "bicubic";
};

// Records each node as "Op(in0,in1)->out", so tests can compare the emitted graph.
struct recording_graph {
  std::vector<std::string> nodes;
  int next_id = 0;

  std::string op(const std::string& type, const std::vector<std::string>& inputs) {
    std::string out = "v" + std::to_string(next_id++);
    std::string node = type + "(";
    for (std::size_t i = 0; i < inputs.size(); ++i) node += (i ? "," : "") + inputs[i];
    nodes.push_back(node + ")->" + out);
    return out;
  }
};

struct session {
  deploy_config config;
  retarget::rewrite_log log;
  recording_graph graph;
};

template <class B>
struct tensor {
  std::vector<std::int64_t> shape;
  session* owner = nullptr;
  std::string value = "x";  // the graph value this tensor stands for

  std::size_t rank() const { return shape.size(); }
};

using env = retarget::rewrite_env<deploy_config, retarget::rewrite_log>;

}  // namespace toy

template <class B>
struct retarget::dispatch_traits<toy::tensor<B>> {
  using backend = B;
  static toy::env env(const toy::tensor<B>& t) { return toy::env(t.owner->config, &t.owner->log); }
};

// Lets GoogleTest print a record when a comparison fails.
namespace retarget {
inline void PrintTo(const rewrite_record& r, std::ostream* os) {
  *os << "{" << to_string(r.kind) << ", " << r.target << ", " << r.backend << ", " << r.rewrite
      << ", " << r.count << "}";
}
}  // namespace retarget

#endif  // RETARGET_TESTS_SUPPORT_TOY_HPP
