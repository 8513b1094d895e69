// The converter: existing ONNX models rebuilt for a backend through the checked emitter, with
// node rewrites, pattern rules, constant folding and cleanup to a fixed point, the report of
// what it did, and what an engine refuses; and models moved to another opset. A backend's own
// rules come with its package.
#ifndef RETARGET_CONVERT_HPP
#define RETARGET_CONVERT_HPP

#include <retarget/convert/convert.hpp>
#include <retarget/convert/evaluate.hpp>
#include <retarget/convert/node.hpp>
#include <retarget/convert/node_rewrite.hpp>
#include <retarget/convert/opset.hpp>
#include <retarget/convert/partition.hpp>
#include <retarget/convert/refusals.hpp>
#include <retarget/convert/report.hpp>
#include <retarget/convert/rule.hpp>

#endif  // RETARGET_CONVERT_HPP
