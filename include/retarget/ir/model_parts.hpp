// A model cut in two at values: the head, which computes them (what one engine runs), and the
// tail, which reads them (what runs elsewhere: another engine, or the user's code). How a
// detector whose post-processing an engine cannot compute is deployed in parts.
//
//   const retarget::ir::model_view view(m);
//   const std::string at[] = {"boxes_raw", "scores_raw"};
//   auto parts = retarget::ir::split(m, view, retarget::ir::nodes_computing(view, at));
//   // parts.head gives boxes_raw and scores_raw; parts.tail reads them
#ifndef RETARGET_IR_MODEL_PARTS_HPP
#define RETARGET_IR_MODEL_PARTS_HPP

#include <retarget/core/config.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/model_view.hpp>
#include <span>
#include <string>
#include <vector>

namespace retarget::ir {

// The nodes of the main graph that compute `values` (the producer of each, and of what it
// reads, back to the graph's inputs and weights), in graph order; retarget::error naming a
// value no node makes.
RETARGET_COMPILED_DECL std::vector<int> nodes_computing(const model_view& view,
                                                        std::span<const std::string> values);

// The nodes of the main graph that none of `from` leads to: not one of them, and reading
// nothing one of them makes, directly or not. In graph order: what an engine that refuses
// `from` can still run ahead of them.
RETARGET_COMPILED_DECL std::vector<int> nodes_ahead_of(const model_view& view,
                                                       std::span<const int> from);

struct model_parts {
  // The nodes given as the head. Inputs: the model's inputs they read. Outputs: the boundary,
  // then the model's outputs they make.
  model head;
  // The other nodes. Inputs: the boundary, then the model's inputs they read. Outputs: the
  // model's outputs they make.
  model tail;
  // What the head gives the tail, in the order the head makes it.
  std::vector<std::string> boundary;
};

// m cut in two: the nodes `head` (indices into the main graph; every node they read from must
// be among them) and the rest. A node of the head that reads no graph input, directly or not (a
// Constant), is copied into the tail where the tail reads it, rather than handed over: an
// engine may compute such a value while loading and give none. Each part keeps the weights it
// reads alone, shared with m where m shares them, and m's opsets and metadata. A boundary value
// is typed as the view knows it.
// retarget::error naming the node of the head that reads from the tail, or the boundary value
// whose type the view does not know.
RETARGET_COMPILED_DECL model_parts split(const model& m, const model_view& view,
                                         std::span<const int> head);

}  // namespace retarget::ir

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/ir/detail/model_parts_impl.hpp>
#endif

#endif  // RETARGET_IR_MODEL_PARTS_HPP
