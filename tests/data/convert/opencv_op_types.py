#!/usr/bin/python3
"""Which ONNX op types (default domain, opsets up to 17) OpenCV DNN 4.6's ONNX importer has no
layer for at all, measured: one minimal one-node model per op, loaded with cv2.dnn.readNetFromONNX.

Every op schema of the default domain is enumerated (onnx.defs.get_all_schemas_with_history, the
latest version <= 17; for an op deprecated by then - Scatter, Upsample - its last version before
the deprecation, at that version's opset). For each, a one-node model at opset 13 (or the schema's
since_version when greater) is built: the first input is a graph input (float [1,2,4,4] unless
the op needs another shape or forbids float), the other inputs are constant initializers (int64
where the type constraint demands an integer: shapes, axes, indices... with small valid values;
bool ones are graph inputs, as OpenCV 4.6 reads no BOOL initializer), required attributes get
plausible values (SPECS below; also the few attributes OpenCV insists on: Conv's kernel_shape,
Resize's mode...), outputs carry the types and shapes onnx shape inference gives them (OpenCV
wants a shape on every graph output). Required inputs only, except where SPECS gives the optional
ones a PyTorch export writes (Clip's min/max, Resize's roi/scales, ReduceSum's axes, LSTM's B...).
The model is saved and loaded with cv2.dnn.readNetFromONNX, and the outcome is classified:

  UNKNOWN  OpenCV says it can't create a layer of that op type: `Can't create layer "..." of type
           "<Op>"` (layer_internals.hpp:110, getLayerInstance) - the importer has no parser for
           the op and no layer of that name is registered: it has no layer for it at all.
  LOADS    readNetFromONNX returned a net (nothing is run: loading is what is measured); the
           detail lists the OpenCV layer types the net holds ("none" when the importer folded
           the node into a constant).
  OTHER    any other error (on one line): the importer knows the op but refused every form.

When the model above (the "faithful" form) does not load, more forms are tried:
  required only the inputs the schema requires (when the faithful form has optional ones).
  relaxed  sequence, optional, string and bool inputs given as float tensors, graph and type
           attributes (If/Loop/Scan bodies, Optional's type) dropped, outputs declared as float
           tensors. OpenCV's importer refuses such attributes and non-tensor values before it
           looks the op type up; the relaxed form lets the node get that far.
  const    every input a constant initializer (shows an op the importer only folds).
An op is LOADS if any form loads, else UNKNOWN if any form gives the "Can't create layer" error
for its own type, else OTHER with the faithful form's error (and the other forms' when they
differ). The detail starts with [v<schema version>, opset <model opset>] and names the form.

Run with Debian's python (python3-onnx 1.12, python3-opencv 4.6, python3-numpy):
  /usr/bin/python3 tests/data/convert/opencv_op_types.py          all ops; prints the table and
                                                                   writes opencv_op_types.txt
  /usr/bin/python3 tests/data/convert/opencv_op_types.py Relu If  only these ops (no file written)
  ... --keep DIR                                                   also keep the models in DIR
"""
import os
import re
import sys
import tempfile

import cv2
import numpy as np
import onnx
from onnx import TensorProto as TP, defs, helper as oh, numpy_helper as nh

MAX_OPSET = 17
BASE_OPSET = 13
X_SHAPE = [1, 2, 4, 4]

NP_OF = {"float": np.float32, "double": np.float64, "float16": np.float16, "int64": np.int64,
         "int32": np.int32, "int16": np.int16, "int8": np.int8, "uint8": np.uint8,
         "uint16": np.uint16, "uint32": np.uint32, "uint64": np.uint64, "bool": np.bool_}
TP_OF = {"float": TP.FLOAT, "double": TP.DOUBLE, "float16": TP.FLOAT16, "int64": TP.INT64,
         "int32": TP.INT32, "int16": TP.INT16, "int8": TP.INT8, "uint8": TP.UINT8,
         "uint16": TP.UINT16, "uint32": TP.UINT32, "uint64": TP.UINT64, "bool": TP.BOOL,
         "string": TP.STRING}
PREFERENCE = ["float", "int64", "int32", "bool", "uint8", "int8", "string"]


def schemas():
    """{op: (schema, deprecated)} for the default domain: the latest version <= MAX_OPSET, or for
    an op deprecated by then its last real version and the version that deprecated it."""
    real, stub = {}, {}
    for s in defs.get_all_schemas_with_history():
        if s.domain not in ("", "ai.onnx") or s.since_version > MAX_OPSET:
            continue
        d = stub if s.deprecated else real
        if s.name not in d or s.since_version > d[s.name].since_version:
            d[s.name] = s
    out = {}
    for op, s in real.items():
        dep = stub.get(op)
        out[op] = (s, dep.since_version if dep and dep.since_version > s.since_version else None)
    return out


# ---------------------------------------------------------------------------------------------
# What a plausible model of each op is made of.
# An input spec is ("graph", elem_type, shape) for a graph input, an np.ndarray for an
# initializer, ("seq", elem_type, shape) / ("opt", elem_type, shape) for a sequence / optional
# graph input, or None to leave an optional input out (an empty name if a later one is given).


def f32(shape, v=0.5):
    return np.full(shape, v, np.float32)


def i64(v):
    return np.asarray(v, np.int64)


def body(nodes, ins, outs):
    return oh.make_graph(nodes, "body", ins, outs)


def vi(name, t, shape):
    return oh.make_tensor_value_info(name, t, shape)


IF_THEN = body([oh.make_node("Constant", [], ["t"], value=nh.from_array(f32([2], 1.0)))], [],
               [vi("t", TP.FLOAT, [2])])
IF_ELSE = body([oh.make_node("Constant", [], ["e"], value=nh.from_array(f32([2], 0.0)))], [],
               [vi("e", TP.FLOAT, [2])])
LOOP_BODY = body([oh.make_node("Identity", ["c"], ["c_out"]), oh.make_node("Add", ["v", "v"], ["v_out"])],
                 [vi("i", TP.INT64, []), vi("c", TP.BOOL, []), vi("v", TP.FLOAT, X_SHAPE)],
                 [vi("c_out", TP.BOOL, []), vi("v_out", TP.FLOAT, X_SHAPE)])
SCAN_BODY = body([oh.make_node("Add", ["s", "x"], ["s_out"]), oh.make_node("Identity", ["s"], ["y"])],
                 [vi("s", TP.FLOAT, [4]), vi("x", TP.FLOAT, [4])],
                 [vi("s_out", TP.FLOAT, [4]), vi("y", TP.FLOAT, [4])])
SEQMAP_BODY = body([oh.make_node("Relu", ["t"], ["u"])], [vi("t", TP.FLOAT, X_SHAPE)],
                   [vi("u", TP.FLOAT, X_SHAPE)])

G = ("graph", "float", X_SHAPE)
QNAMES = ["x_quantized", "x_scale", "x_zero_point", "w_quantized", "w_scale", "w_zero_point",
          "y_scale", "y_zero_point"]
LSTM_H = 3

# op: dict(inputs=[...] (all inputs, in order), attrs={...}, outputs=n, names=[input names],
#          out_names=[output names])
SPECS = {
    "AveragePool": dict(attrs=dict(kernel_shape=[2, 2])),
    "BatchNormalization": dict(inputs=[G, f32([2], 1), f32([2], 0), f32([2], 0), f32([2], 1)]),
    "BitShift": dict(inputs=[("graph", "uint8", X_SHAPE), np.ones(X_SHAPE, np.uint8)], attrs=dict(direction="LEFT")),
    "BlackmanWindow": dict(inputs=[i64(8)]),
    "HammingWindow": dict(inputs=[i64(8)]),
    "HannWindow": dict(inputs=[i64(8)]),
    "Cast": dict(attrs=dict(to=TP.FLOAT)),
    "CastLike": dict(inputs=[G, f32([1])]),
    "Clip": dict(inputs=[G, np.float32(0), np.float32(6)]),
    "Compress": dict(inputs=[G, ("graph", "bool", [2])], attrs=dict(axis=1)),
    "Concat": dict(inputs=[G, f32(X_SHAPE)], attrs=dict(axis=1)),
    "ConcatFromSequence": dict(inputs=[("seq", "float", X_SHAPE)], attrs=dict(axis=1)),
    "Constant": dict(inputs=[], attrs=dict(value=nh.from_array(f32(X_SHAPE)))),
    "ConstantOfShape": dict(inputs=[i64(X_SHAPE)]),
    "Conv": dict(inputs=[G, f32([2, 2, 3, 3])], attrs=dict(kernel_shape=[3, 3], pads=[1, 1, 1, 1])),
    "ConvTranspose": dict(inputs=[G, f32([2, 2, 3, 3])], attrs=dict(kernel_shape=[3, 3])),
    "ConvInteger": dict(inputs=[("graph", "uint8", X_SHAPE), np.ones([2, 2, 3, 3], np.uint8)]),
    "CumSum": dict(inputs=[G, i64(1)]),
    "DFT": dict(inputs=[("graph", "float", [1, 8, 1])]),
    "DepthToSpace": dict(attrs=dict(blocksize=2), inputs=[("graph", "float", [1, 4, 4, 4])]),
    "SpaceToDepth": dict(attrs=dict(blocksize=2)),
    "DequantizeLinear": dict(inputs=[("graph", "uint8", X_SHAPE), np.float32(0.1), np.uint8(0)]),
    "QuantizeLinear": dict(inputs=[G, np.float32(0.1), np.uint8(0)]),
    "Det": dict(inputs=[("graph", "float", [2, 4, 4])]),
    "Einsum": dict(inputs=[G, f32(X_SHAPE)], attrs=dict(equation="bcij,bcjk->bcik")),
    "Expand": dict(inputs=[("graph", "float", [1, 1, 4, 4]), i64(X_SHAPE)]),
    "EyeLike": dict(inputs=[("graph", "float", [4, 4])]),
    "GRU": dict(inputs=[("graph", "float", [2, 1, 4]), f32([1, 3 * LSTM_H, 4]), f32([1, 3 * LSTM_H, LSTM_H]),
                        f32([1, 6 * LSTM_H]), np.array([2], np.int32), f32([1, 1, LSTM_H], 0)],
                attrs=dict(hidden_size=LSTM_H)),
    "LSTM": dict(inputs=[("graph", "float", [2, 1, 4]), f32([1, 4 * LSTM_H, 4]), f32([1, 4 * LSTM_H, LSTM_H]),
                         f32([1, 8 * LSTM_H])], attrs=dict(hidden_size=LSTM_H)),
    "RNN": dict(inputs=[("graph", "float", [2, 1, 4]), f32([1, LSTM_H, 4]), f32([1, LSTM_H, LSTM_H]),
                        f32([1, 2 * LSTM_H])], attrs=dict(hidden_size=LSTM_H)),
    "Gather": dict(inputs=[G, i64(1)], attrs=dict(axis=1)),
    "GatherElements": dict(inputs=[G, np.zeros(X_SHAPE, np.int64)], attrs=dict(axis=1)),
    "GatherND": dict(inputs=[G, i64([[0]])]),
    "Gemm": dict(inputs=[("graph", "float", [2, 4]), f32([3, 4]), f32([3])], attrs=dict(transB=1)),
    "GridSample": dict(inputs=[G, f32([1, 4, 4, 2], 0.0)]),
    "If": dict(inputs=[("graph", "bool", [1])], attrs=dict(then_branch=IF_THEN, else_branch=IF_ELSE)),
    "InstanceNormalization": dict(inputs=[G, f32([2], 1), f32([2], 0)], attrs=dict(epsilon=1e-5)),
    "LRN": dict(attrs=dict(size=3)),
    "LayerNormalization": dict(inputs=[G, f32([4], 1), f32([4], 0)]),
    "Loop": dict(inputs=[i64(2), ("graph", "bool", []), G], attrs=dict(body=LOOP_BODY)),
    "LpPool": dict(attrs=dict(kernel_shape=[2, 2])),
    "MatMul": dict(inputs=[G, f32([4, 3])]),
    "MatMulInteger": dict(inputs=[("graph", "uint8", [2, 4]), np.ones([4, 3], np.uint8)]),
    "Max": dict(inputs=[G, G]),
    "Min": dict(inputs=[G, G]),
    "Mean": dict(inputs=[G, G]),
    "Sum": dict(inputs=[G, G]),
    "MaxPool": dict(attrs=dict(kernel_shape=[2, 2])),
    "MaxRoiPool": dict(inputs=[G, np.array([[0, 0, 0, 3, 3]], np.float32)], attrs=dict(pooled_shape=[2, 2])),
    "MaxUnpool": dict(inputs=[("graph", "float", [1, 2, 2, 2]), ("graph", "int64", [1, 2, 2, 2])],
                      attrs=dict(kernel_shape=[2, 2], strides=[2, 2])),
    "MelWeightMatrix": dict(inputs=[i64(8), i64(16), i64(8000), np.float32(0), np.float32(4000)]),
    "Multinomial": dict(inputs=[("graph", "float", [1, 4])]),
    "NegativeLogLikelihoodLoss": dict(inputs=[G, np.zeros([1, 4, 4], np.int64)]),
    "SoftmaxCrossEntropyLoss": dict(inputs=[G, np.zeros([1, 4, 4], np.int64)]),
    "NonMaxSuppression": dict(inputs=[("graph", "float", [1, 4, 4]), f32([1, 1, 4]), i64([2])]),
    "OneHot": dict(inputs=[("graph", "float", [1, 4]), np.float32(3), np.array([0, 1], np.float32)]),
    "Optional": dict(inputs=[G], attrs=dict(type=oh.make_tensor_type_proto(TP.FLOAT, X_SHAPE))),
    "OptionalGetElement": dict(inputs=[("opt", "float", X_SHAPE)]),
    "OptionalHasElement": dict(inputs=[("opt", "float", X_SHAPE)]),
    "PRelu": dict(inputs=[G, f32([2, 1, 1], 0.1)]),
    "Pow": dict(inputs=[G, np.float32(2)]),
    "Pad": dict(inputs=[G, i64([0, 0, 1, 1, 0, 0, 1, 1])]),
    # OpenCV 4.6 finds a quantized node's output scale and zero point by the names onnxruntime's
    # quantization tool gives them: <name>_quantized, <name>_scale, <name>_zero_point.
    "QLinearConv": dict(inputs=[("graph", "uint8", X_SHAPE), np.float32(0.1), np.uint8(0),
                                np.ones([2, 2, 3, 3], np.uint8), np.float32(0.1), np.uint8(0),
                                np.float32(0.1), np.uint8(0)], attrs=dict(kernel_shape=[3, 3]),
                        names=QNAMES, out_names=["y_quantized"]),
    "QLinearMatMul": dict(inputs=[("graph", "uint8", [2, 4]), np.float32(0.1), np.uint8(0),
                                  np.ones([4, 3], np.uint8), np.float32(0.1), np.uint8(0),
                                  np.float32(0.1), np.uint8(0)], names=QNAMES, out_names=["y_quantized"]),
    "RandomNormal": dict(inputs=[], attrs=dict(shape=X_SHAPE)),
    "RandomUniform": dict(inputs=[], attrs=dict(shape=X_SHAPE)),
    "Range": dict(inputs=[np.float32(0), np.float32(4), np.float32(1)]),
    "ReduceSum": dict(inputs=[G, i64([1])]),
    "Reshape": dict(inputs=[G, i64([1, 32])]),
    "Resize": dict(inputs=[G, np.zeros([0], np.float32), np.array([1, 1, 2, 2], np.float32)],
                   attrs=dict(mode="nearest")),
    "ReverseSequence": dict(inputs=[G, i64([1, 1])]),
    "RoiAlign": dict(inputs=[G, np.array([[0, 0, 3, 3]], np.float32), i64([0])]),
    "STFT": dict(inputs=[("graph", "float", [1, 16, 1]), i64(4), f32([8], 1.0)]),
    "Scan": dict(inputs=[("graph", "float", [4]), f32([3, 4])], attrs=dict(body=SCAN_BODY, num_scan_inputs=1),
                 outputs=2),
    "Scatter": dict(inputs=[G, np.zeros(X_SHAPE, np.int64), f32(X_SHAPE)]),
    "ScatterElements": dict(inputs=[G, np.zeros(X_SHAPE, np.int64), f32(X_SHAPE)]),
    "ScatterND": dict(inputs=[G, i64([[0]]), f32(X_SHAPE)]),
    "SequenceAt": dict(inputs=[("seq", "float", X_SHAPE), i64(0)]),
    "SequenceConstruct": dict(inputs=[G, f32(X_SHAPE)]),
    "SequenceEmpty": dict(inputs=[]),
    "SequenceErase": dict(inputs=[("seq", "float", X_SHAPE)]),
    "SequenceInsert": dict(inputs=[("seq", "float", X_SHAPE), f32(X_SHAPE)]),
    "SequenceLength": dict(inputs=[("seq", "float", X_SHAPE)]),
    "SequenceMap": dict(inputs=[("seq", "float", X_SHAPE)], attrs=dict(body=SEQMAP_BODY)),
    "Slice": dict(inputs=[G, i64([0]), i64([2]), i64([2])]),
    "Split": dict(inputs=[G, i64([1, 1])], attrs=dict(axis=1), outputs=2),
    "Squeeze": dict(inputs=[G, i64([0])]),
    "Unsqueeze": dict(inputs=[G, i64([0])]),
    "StringNormalizer": dict(inputs=[("graph", "string", [1, 4])]),
    "TfIdfVectorizer": dict(inputs=[("graph", "int64", [1, 4])],
                            attrs=dict(mode="TF", min_gram_length=1, max_gram_length=1, max_skip_count=0,
                                       ngram_counts=[0], ngram_indexes=[0], pool_int64s=[1])),
    "Tile": dict(inputs=[G, i64([1, 1, 2, 2])]),
    "TopK": dict(inputs=[G, i64([2])], outputs=2),
    "Trilu": dict(inputs=[G]),
    "Unique": dict(inputs=[("graph", "float", [8])]),
    "Upsample": dict(inputs=[G, np.array([1, 1, 2, 2], np.float32)], attrs=dict(mode="nearest")),
    "Where": dict(inputs=[("graph", "bool", X_SHAPE), G, f32(X_SHAPE)]),
    "And": dict(inputs=[("graph", "bool", X_SHAPE), ("graph", "bool", X_SHAPE)]),
    "Or": dict(inputs=[("graph", "bool", X_SHAPE), ("graph", "bool", X_SHAPE)]),
    "Xor": dict(inputs=[("graph", "bool", X_SHAPE), ("graph", "bool", X_SHAPE)]),
    "Not": dict(inputs=[("graph", "bool", X_SHAPE)]),
}


def allowed(schema, param):
    """Element types ("float", "int64", "seq(float)"...) the input's type constraint allows."""
    for tc in schema.type_constraints:
        if tc.type_param_str == param.typeStr:
            strs = tc.allowed_type_strs
            break
    else:
        strs = [param.typeStr]
    return [re.sub(r"^tensor\((.*)\)$", r"\1", t) for t in strs]


def pick(types):
    for t in PREFERENCE:
        if t in types:
            return t
    if any(t.startswith("seq(") for t in types):
        return "seq"
    if any(t.startswith("optional(") for t in types):
        return "opt"
    return types[0]


def default_inputs(schema):
    """Inputs from the schema alone: the required ones (a variadic one twice); the first is a
    graph input, the others initializers (int64/int32 ones: [1])."""
    out = []
    for k, p in enumerate(schema.inputs):
        opt = int(p.option)
        if opt == 1:
            out.append(None)
            continue
        t = pick(allowed(schema, p))
        for _ in range(2 if opt == 2 else 1):
            if not out and k == 0:
                out.append((t, "float", X_SHAPE) if t in ("seq", "opt") else ("graph", t, X_SHAPE))
            elif t in ("int64", "int32"):
                out.append(np.array([1], NP_OF[t]))
            elif t == "bool":  # OpenCV 4.6 reads no BOOL initializer: a graph input
                out.append(("graph", "bool", X_SHAPE))
            elif t in NP_OF:
                out.append(np.full(X_SHAPE, 1, NP_OF[t]))
            else:
                out.append((t, "float", X_SHAPE))
    while out and out[-1] is None:
        out.pop()
    return out


def default_attrs(schema):
    vals = {"INT": 1, "INTS": [2, 2], "FLOAT": 1.0, "FLOATS": [1.0], "STRING": "", "STRINGS": [""]}
    return {name: vals[str(a.type).split(".")[-1]] for name, a in schema.attributes.items()
            if a.required and str(a.type).split(".")[-1] in vals}


def spec_for(op, schema):
    spec = SPECS.get(op, {})
    ins = spec.get("inputs", default_inputs(schema))
    attrs = dict(default_attrs(schema))
    attrs.update(spec.get("attrs", {}))
    n_out = spec.get("outputs")
    if n_out is None:
        req = [o for o in schema.outputs if int(o.option) != 1]
        n_out = max(1, len(req))
    return ins, attrs, n_out


DEPRECATED = {}  # op -> the opset that deprecated it (filled in main)


def opset_for(op, schema):
    """Opset 13, or the schema's since_version when greater; an op deprecated before 17: the
    opset of its last real version."""
    if op in DEPRECATED:
        return schema.since_version
    return min(MAX_OPSET, max(BASE_OPSET, schema.since_version))


def required_only(schema, ins):
    """ins without the inputs the schema calls optional."""
    out = []
    for k, s in enumerate(ins):
        p = schema.inputs[min(k, len(schema.inputs) - 1)]
        out.append(None if int(p.option) == 1 else s)
    while out and out[-1] is None:
        out.pop()
    return out


def make_model(op, schema, form):
    """form: "faithful", "required", "relaxed" or "const" (see the docstring)."""
    ins, attrs, n_out = spec_for(op, schema)
    if form == "required":
        ins = required_only(schema, ins)
    opset = opset_for(op, schema)
    graph_inputs, inits, names = [], [], []
    spec = SPECS.get(op, {})
    for k, s in enumerate(ins):
        name = spec["names"][k] if "names" in spec else f"in{k}"
        if s is None:
            names.append("")
            continue
        names.append(name)
        if isinstance(s, tuple):
            kind, et, shape = s
            if form == "const":
                a = np.full(shape, 1, NP_OF.get(et, np.float32)) if et in NP_OF else f32(shape)
                inits.append(nh.from_array(a, name))
            elif form == "relaxed" and (kind != "graph" or et not in ("float", "int64", "uint8", "int8")):
                graph_inputs.append(vi(name, TP.FLOAT, shape))
            elif kind == "graph":
                graph_inputs.append(vi(name, TP_OF[et], shape))
            elif kind == "seq":
                graph_inputs.append(oh.make_value_info(name, oh.make_sequence_type_proto(
                    oh.make_tensor_type_proto(TP_OF[et], shape))))
            else:
                graph_inputs.append(oh.make_value_info(name, oh.make_optional_type_proto(
                    oh.make_tensor_type_proto(TP_OF[et], shape))))
        else:
            a = np.asarray(s)
            if form == "relaxed" and a.dtype == np.bool_:
                a = a.astype(np.float32)
            inits.append(nh.from_array(a, name))
    if form == "relaxed":
        attrs = {k: v for k, v in attrs.items() if not isinstance(v, (onnx.GraphProto, onnx.TypeProto))}
    outs = spec.get("out_names") or [f"out{k}" for k in range(n_out)]
    node = oh.make_node(op, names, outs, **attrs)
    # Output declarations: what shape inference gives (OpenCV wants a shape on every output).
    blank = [vi(o, TP.FLOAT, None) for o in outs]
    m = oh.make_model(oh.make_graph([node], "g", graph_inputs, blank, inits),
                      opset_imports=[oh.make_opsetid("", opset)], producer_name="pytorch")
    m.ir_version = 8
    inferred = {}
    try:
        mi = onnx.shape_inference.infer_shapes(m)
        inferred = {v.name: v for v in list(mi.graph.value_info) + list(mi.graph.output)}
    except Exception:
        pass
    decl = []
    for o in outs:
        v = inferred.get(o)
        if form != "relaxed" and v is not None and v.type.HasField("tensor_type") \
                and v.type.tensor_type.HasField("shape") and v.type.tensor_type.elem_type:
            decl.append(v)
        elif form != "relaxed" and v is not None and not v.type.HasField("tensor_type") \
                and v.type.WhichOneof("value") is not None:
            decl.append(v)
        else:
            et = TP.FLOAT
            if form != "relaxed" and v is not None and v.type.HasField("tensor_type") \
                    and v.type.tensor_type.elem_type:
                et = v.type.tensor_type.elem_type
            decl.append(vi(o, et, []))
    del m.graph.output[:]
    m.graph.output.extend(decl)
    return m


UNKNOWN_RE = re.compile(r"Can't create layer \"([^\"]*)\" of type \"([^\"]*)\"")


def one_line(s):
    """OpenCV's error on one line: the failing node and the error, without file prefixes."""
    m = re.search(r"Node \[(.*?)\]:\((.*?)\) parse error: (.*)", s, re.S)
    if m:
        s = f"Node [{m.group(1)}] " + m.group(3)
    s = re.sub(r"OpenCV\(4\.6\.0\) \./modules/dnn/", "", s)
    s = re.sub(r" in function '[^']*'", "", s)
    lines = (re.sub(r"^[>\s]+", "", l).strip() for l in s.splitlines())
    return " ".join(l for l in lines if l)


def load(m, path):
    """(status, detail) of cv2.dnn.readNetFromONNX on model m saved at path."""
    onnx.save(m, path)
    try:
        net = cv2.dnn.readNetFromONNX(path)
    except cv2.error as e:
        s = str(e)
        u = UNKNOWN_RE.search(s)
        if u and u.group(2) == m.graph.node[0].op_type:
            return "UNKNOWN", u.group(0)
        return "OTHER", one_line(s)
    except Exception as e:  # noqa: BLE001 - any failure is a measured outcome
        return "OTHER", f"{type(e).__name__}: {one_line(str(e))}"
    types = [net.getLayer(n).type for n in net.getLayerNames()]
    return "LOADS", "layers: " + (" ".join(types) if types else "none (folded to a constant)")


def classify(op, schema, workdir):
    results = {}
    for form in ("faithful", "required", "relaxed", "const"):
        if form == "required":
            ins = spec_for(op, schema)[0]
            if required_only(schema, ins) == ins:
                continue
        try:
            m = make_model(op, schema, form)
        except Exception as e:  # noqa: BLE001
            results[form] = ("OTHER", f"model not built: {type(e).__name__}: {e}")
            continue
        results[form] = load(m, os.path.join(workdir, f"{op}_{form}.onnx"))
        if form == "faithful" and results[form][0] == "LOADS":
            break
    f_status, f_detail = results["faithful"]
    loads = [k for k, (st, _) in results.items() if st == "LOADS"]
    unknown = [k for k, (st, _) in results.items() if st == "UNKNOWN"]
    if f_status == "LOADS":
        return "LOADS", f_detail
    if loads:
        return "LOADS", f"{results[loads[0]][1]} ({'+'.join(loads)} form; faithful: {f_detail})"
    if unknown:
        d = results[unknown[0]][1]
        if f_status != "UNKNOWN":
            d += f" ({'+'.join(unknown)} form; faithful: {f_detail})"
        else:
            d += f" ({'+'.join(unknown)} forms)"
        return "UNKNOWN", d
    others = [f"{k}: {d}" for k, (_, d) in results.items() if k != "faithful" and d != f_detail]
    return "OTHER", " | ".join([f_detail] + others)


def main(argv):
    cv2.setLogLevel(0)  # OpenCV's own [ERROR] log lines: the exceptions say the same
    keep = None
    if "--keep" in argv:
        i = argv.index("--keep")
        keep = argv[i + 1]
        os.makedirs(keep, exist_ok=True)
        argv = argv[:i] + argv[i + 2:]
    all_schemas = schemas()
    DEPRECATED.update({op: d for op, (_, d) in all_schemas.items() if d})
    ops = argv or sorted(all_schemas)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        workdir = keep or tmp
        for op in ops:
            s, dep = all_schemas[op]
            st, detail = classify(op, s, workdir)
            tag = f"v{s.since_version}" + (f", deprecated in {dep}" if dep else "") + f", opset {opset_for(op, s)}"
            rows.append((op, st, f"[{tag}] {detail}"))
    w = max(len(r[0]) for r in rows)
    print("\n".join(f"{op:<{w}}  {st:<7}  {detail}".rstrip() for op, st, detail in rows))
    counts = {k: sum(1 for r in rows if r[1] == k) for k in ("UNKNOWN", "LOADS", "OTHER")}
    print(f"\n{len(rows)} ops (onnx {onnx.__version__}, OpenCV {cv2.__version__}): "
          + ", ".join(f"{v} {k}" for k, v in counts.items()))
    print("UNKNOWN: " + ", ".join(r[0] for r in rows if r[1] == "UNKNOWN"))
    if not argv:
        out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "opencv_op_types.txt")
        with open(out, "w") as f:
            f.writelines(f"{op}  {st}  {detail}".rstrip() + "\n" for op, st, detail in rows)
        print(f"wrote {out}")


if __name__ == "__main__":
    main(sys.argv[1:])
