// Existing models converted for OpenCV 4.6's DNN module, one job per file: the pattern rules
// (rules.hpp), the node rewrites (node_rewrites.hpp), and the engine's quirks (quirks.hpp), the
// one list from which the rule set, the table of what the engine refuses and the approximations
// come. Every rewrite here is exact; the one approximation (cubic Resize as linear) runs only
// when asked for by name.
//
// Measured on OpenCV 4.6 with the corpus of tests/data/convert (tools/make_convert_corpus.py):
//   - Clip takes its bounds only as attributes: Clip with min/max inputs (opset 11 and later)
//     is refused, and so are Min and Max with a constant; Min and Max of x and a computed bound
//     are not, and are exact (Relu(x) - Relu(x - 6) is off by 2 at 1e8). x * 0 + bound is NaN
//     at x = +-inf, Sigmoid(x) * 0 + bound is not; Relu(-inf) is NaN; subnormals are flushed
//     to 0.
//   - there is no LayerNormalization layer; its decomposition (ReduceMean, Sub, Pow, Sqrt, Div,
//     Mul, Add, as torch writes it at opset 13) loads.
//   - Expand broadcasts one way only: an Expand to a shape the input already has is refused,
//     and is the input itself.
//   - a computed divisor with one element is not broadcast (LayerNorm2d at H = W = 1); a 1 x 1
//     by 1 x N MatMul with its reciprocal is.
//   - a 4-D tensor times a constant vector along its last axis is scaled along axis 1: the
//     product is computed with the channels moved to axis 1 and the vector as [C, 1, 1].
//   - a node whose last input is listed as absent ('') is refused (OpenCV looks for a constant
//     named ''); Pad, as torch writes it, is one.
//   - a stored constant added with leading axes of 1 is placed by its own rank: Swin's attention
//     bias [1, H, N, N] lands on the wrong axes; without the leading 1s it lands right.
//   - a constant broadcast over an inner axis of a computed tensor of rank 5 or more fails at run
//     time (full-size Swin-T's shifted-window mask, [nW, 1, N, N] over [1, nW, heads, N, N]).
//   - Identity over a stored weight, Mod, and cubic Resize are refused; folding removes the first
//     two where their inputs are constants.
#ifndef RETARGET_BACKENDS_OPENCV_DNN_CONVERT_HPP
#define RETARGET_BACKENDS_OPENCV_DNN_CONVERT_HPP

#include <retarget/backends/opencv_dnn/backend.hpp>
#include <retarget/backends/opencv_dnn/node_rewrites.hpp>
#include <retarget/backends/opencv_dnn/quirks.hpp>
#include <retarget/backends/opencv_dnn/rules.hpp>
#include <retarget/convert/convert.hpp>

#endif  // RETARGET_BACKENDS_OPENCV_DNN_CONVERT_HPP
