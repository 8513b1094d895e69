// A model cut where a backend's engine cannot go: the head, every node ahead of the first it
// refuses, runs on the engine; the tail, the rest, runs elsewhere (ONNX Runtime, or the user's
// code). The values the head gives the tail are its outputs and the tail's inputs. A detector's
// network runs on the engine that way, and its post-processing (NonZero, TopK with a computed
// k, NonMaxSuppression), which OpenCV 4.6 cannot compute, after it.
//
//   auto [converted, report] = retarget::convert::convert<opencv_dnn>(m);
//   const auto cut = retarget::convert::partition_for<opencv_dnn>(converted);
//   if (cut.needed()) { save(cut.parts.head, "head.onnx"); save(cut.parts.tail, "tail.onnx"); }
#ifndef RETARGET_CONVERT_PARTITION_HPP
#define RETARGET_CONVERT_PARTITION_HPP

#include <algorithm>
#include <retarget/convert/refusals.hpp>
#include <retarget/core/backend.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/model_parts.hpp>
#include <retarget/ir/model_view.hpp>
#include <set>
#include <string>
#include <vector>

namespace retarget::convert {

struct partition {
  // parts.head runs on the engine; parts.tail reads parts.boundary from it.
  ir::model_parts parts;
  // Where the cut is: the refusals no other refused node is ahead of (node indices are the
  // model's); each node moves to the tail with all it leads to.
  std::vector<refusal> cut_at;
  // The other refusals, behind those: they moved to the tail with them.
  std::vector<refusal> behind;
  // What the engine still refuses in the head that no node holds (a graph output's type).
  std::vector<refusal> left;

  // Whether the engine refuses anything, so that there is a tail at all.
  bool needed() const { return !cut_at.empty(); }

  // cut_at holds every refusal: those behind another go to `behind`.
  void keep_first(const ir::model_view& view) {
    std::vector<int> all;
    for (const auto& r : cut_at) all.push_back(r.index);
    std::vector<refusal> kept;
    for (auto& r : cut_at) {
      std::vector<int> others;
      for (const int i : all)
        if (i != r.index) others.push_back(i);
      const auto ahead = ir::nodes_ahead_of(view, others);
      const bool first = std::binary_search(ahead.begin(), ahead.end(), r.index);
      (first ? kept : behind).push_back(std::move(r));
    }
    cut_at = std::move(kept);
  }
};

// The model cut ahead of every node B's engine refuses. The head is checked again on its own (a
// value it now gives as an output may be refused there), and cut further until B refuses no
// node of it. When B refuses nothing, parts.head is the whole model and parts.tail empty.
// retarget::error when B refuses the model's first nodes, so that no head is left, naming them.
template <Backend B>
partition partition_for(const ir::model& m) {
  static_assert(knows_refusals<B>,
                "partition_for<B>: no backend of B's chain declares what its engine refuses");
  partition out;
  std::set<int> moved;
  const auto take = [&](refusal r) {
    if (r.index >= 0 && moved.insert(r.index).second) out.cut_at.push_back(std::move(r));
  };
  auto refused = refused_nodes<B>(m);
  for (auto& r : *refused) {
    if (r.index < 0)
      out.left.push_back(std::move(r));  // a graph output's: no cut moves it
    else
      take(std::move(r));
  }
  if (moved.empty()) {
    out.parts.head = m;
    return out;
  }
  const ir::model_view view(m);
  for (;;) {
    const std::vector<int> from(moved.begin(), moved.end());
    const auto head = ir::nodes_ahead_of(view, from);
    if (head.empty())
      throw error("retarget: partition: " + std::string(B::name) +
                  " can run no part of the model: it refuses " + where(out.cut_at.front()) + " (" +
                  out.cut_at.front().why + "), and every node depends on what it refuses");
    out.parts = ir::split(m, view, head);
    if (out.parts.head.output_names().empty())  // constants alone, made again by the tail
      throw error("retarget: partition: " + std::string(B::name) +
                  " can run no part of the model that gives a value: it refuses " +
                  where(out.cut_at.front()) + " (" + out.cut_at.front().why + ")");
    const auto before = moved.size();
    out.left.clear();
    auto in_head = refused_nodes<B>(out.parts.head);
    for (auto& r : *in_head) {
      if (r.index < 0) {
        out.left.push_back(std::move(r));
        continue;
      }
      // The model's node that makes the same value: the head keeps the model's value names,
      // though not all its nodes (those the tail alone reads are dropped).
      const auto node = out.parts.head.node(static_cast<std::size_t>(r.index));
      int original = -1;
      for (std::size_t k = 0; k < node.output_count() && original < 0; ++k)
        if (!node.output(k).empty()) original = view.producer(node.output(k));
      if (original < 0)
        throw error("retarget: partition: " + where(r) + " of the head is no node of the model");
      r.node = view.describe(original);
      r.index = original;
      take(std::move(r));
    }
    if (moved.size() == before) {
      out.keep_first(view);
      return out;
    }
  }
}

}  // namespace retarget::convert

#endif  // RETARGET_CONVERT_PARTITION_HPP
