#!/usr/bin/env python3
"""Looks for crashes in ONNX's shape inference that its checker lets through.

Every standard op at every opset where its schema changed gets one node whose integer
attribute is set, one at a time, to 0, -1, -5 and 10**12, on float inputs of rank 3 and 4 (a
kernel_shape of 2s is given where the op has one). Each model that ONNX's checker accepts is
inferred in a forked child; a child killed by a signal is a crash, printed as
(op, opset, attribute, value, rank, signal). retarget refuses every input found this way
before ONNX's inference runs (ir/detail/node_check.hpp); docs/reliability.md has the findings.

Usage: /usr/bin/python3 fuzz/inference_sweep.py   (needs python3-onnx; about 10 s)
"""
import os

import onnx
from onnx import TensorProto, defs, helper, shape_inference

VALUES = (0, -1, -5, 10**12)
SPATIAL = ("strides", "kernel_shape", "dilations")


def cases():
    attr_type = defs.OpSchema.AttrType
    for s in defs.get_all_schemas_with_history():
        if s.domain not in ("", "ai.onnx") or s.deprecated:
            continue
        inputs = min(max(s.min_input, 1), 9) if s.max_input > 0 else 0
        for a in s.attributes.values():
            if a.type not in (attr_type.INT, attr_type.INTS):
                continue
            for value in VALUES:
                for rank in (4, 3):
                    attributes = {}
                    if "kernel_shape" in s.attributes and a.name != "kernel_shape":
                        attributes["kernel_shape"] = [2] * (rank - 2)
                    length = rank - 2 if a.name in SPATIAL else rank
                    attributes[a.name] = value if a.type == attr_type.INT else [value] * length
                    yield s, a.name, value, rank, model_of(s, inputs, rank, attributes)


def model_of(schema, inputs, rank, attributes):
    names = [f"x{i}" for i in range(inputs)]
    outputs = ["y"] + [f"y{i}" for i in range(1, schema.min_output)]
    # The output's rank is unknown here: the graph returns its shape, a 1-D int64 of any size.
    nodes = [helper.make_node(schema.name, names, outputs, **attributes),
             helper.make_node("Shape", ["y"], ["s"])]
    shape = [1, 4, 8, 8][:rank]
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info(n, TensorProto.FLOAT, shape) for n in names],
        [helper.make_tensor_value_info("s", TensorProto.INT64, ["r"])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", schema.since_version)])
    model.ir_version = 8
    return model


def main():
    crashes = checked = 0
    for schema, name, value, rank, model in cases():
        pid = os.fork()
        if pid == 0:
            try:
                onnx.checker.check_model(model)
            except Exception:
                os._exit(3)
            try:
                shape_inference.infer_shapes(model, strict_mode=False)
            except Exception:
                pass
            os._exit(0)
        _, status = os.waitpid(pid, 0)
        if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 3:
            continue
        checked += 1
        if os.WIFSIGNALED(status):
            crashes += 1
            print((schema.name, schema.since_version, name, value, rank, os.WTERMSIG(status)))
    print(f"{checked} models the checker accepts, {crashes} crashes in inference")


if __name__ == "__main__":
    main()
