#!/usr/bin/python3
"""What OpenCV DNN 4.6 (cv2.dnn.readNetFromONNX) refuses, and which equivalent ONNX forms it
accepts, measured on tiny graphs built with onnx.helper. FACTS.md is written from its output.

Each case builds a one-purpose model (opset 13 unless said), loads it in OpenCV, runs it and
compares with numpy or PyTorch: the line says ACCEPTED with the max abs error, or REFUSED with
OpenCV's error (load: = readNetFromONNX failed, forward: = net.forward failed).

Run with Debian's python (python3-opencv 4.6, python3-onnx, python3-torch):
  /usr/bin/python3 tests/data/convert/opencv_facts.py            all cases
  /usr/bin/python3 tests/data/convert/opencv_facts.py clip expand  only these groups
"""
import math
import re
import sys

import cv2
import numpy as np
import onnx
import torch
import torch.nn.functional as TF
from onnx import helper as oh, numpy_helper as nh, TensorProto as TP

F32, I64 = TP.FLOAT, TP.INT64


def init(name, a):
    return nh.from_array(np.asarray(a), name)


def const(out, a):
    return oh.make_node("Constant", [], [out], value=nh.from_array(np.asarray(a)))


def node(op, ins, outs, **attrs):
    return oh.make_node(op, list(ins), list(outs) if isinstance(outs, (list, tuple)) else [outs], **attrs)


def short(e):
    """OpenCV's error on one line: the failing node and the first assertion."""
    s = str(e)
    m = re.search(r"Node \[(.*?)\]:\((.*?)\) parse error: (.*)", s, re.S)
    if m:
        rest = " ".join(l.strip().lstrip(">").strip() for l in m.group(3).splitlines() if l.strip().strip(">"))
        rest = re.sub(r"OpenCV\(4\.6\.0\) \./modules/dnn/", "", rest)
        rest = re.sub(r"in function '[^']*'", "", rest).strip()
        return f"Node [{m.group(1)}] {rest}"
    s = re.sub(r"OpenCV\(4\.6\.0\) \./modules/dnn/", "", s)
    return " ".join(l.strip() for l in s.splitlines() if l.strip())


def build(nodes, feeds, outputs, out_shapes, inits=(), opset=13, out_shape_given=True, producer="pytorch"):
    """The model; producer_name is "pytorch" like torch's files unless said (OpenCV reads it)."""
    ins = [oh.make_tensor_value_info(k, F32 if v.dtype == np.float32 else I64, list(v.shape))
           for k, v in feeds.items()]
    outs = [oh.make_tensor_value_info(o, F32, s if out_shape_given else None)
            for o, s in zip(outputs, out_shapes)]
    g = oh.make_graph(list(nodes), "g", ins, outs, list(inits))
    m = oh.make_model(g, opset_imports=[oh.make_opsetid("", opset)], producer_name=producer)
    return m


RESULTS = []


def run_in_opencv(m, feeds, outputs, refs):
    """(status, detail) of loading and running model m in OpenCV."""
    try:
        net = cv2.dnn.readNetFromONNX(np.frombuffer(m.SerializeToString(), np.uint8))
    except cv2.error as e:
        return "REFUSED", "load: " + short(e)
    try:
        for k, v in feeds.items():
            net.setInput(v, k)
        ys = net.forward(list(outputs))
    except cv2.error as e:
        return "REFUSED", "forward: " + short(e)
    errs, wrong = [], False
    for y, r in zip(ys, refs):
        r = np.asarray(r, np.float32)
        if y.size != r.size:
            errs.append(f"WRONG SHAPE {list(y.shape)} (want {list(r.shape)})")
            wrong = True
        else:
            e = float(np.abs(y.reshape(r.shape) - r).max())
            errs.append("%.3g" % e + ("" if list(y.shape) == list(r.shape) else f" (OpenCV's shape {list(y.shape)}, ONNX's {list(r.shape)})"))
            wrong |= not e <= 1e-4 * max(1.0, float(np.abs(r).max()))
    return "ACCEPTED", "max abs err " + ", ".join(errs) + ("  <-- WRONG NUMBERS" if wrong else "")


def run_forked(m, feeds, outputs, refs):
    """run_in_opencv in a child process: some graphs crash OpenCV."""
    import json
    import os
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rfd)
        try:
            res = run_in_opencv(m, feeds, outputs, refs)
        except Exception as e:  # anything else is reported, not raised
            res = ("ERROR", f"{type(e).__name__}: {e}")
        os.write(wfd, json.dumps(res).encode())
        os._exit(0)
    os.close(wfd)
    data = b""
    while True:
        chunk = os.read(rfd, 65536)
        if not chunk:
            break
        data += chunk
    os.close(rfd)
    _, st = os.waitpid(pid, 0)
    if os.WIFSIGNALED(st):
        return "CRASH", f"OpenCV killed the process with signal {os.WTERMSIG(st)}"
    return tuple(json.loads(data))


def case(group, title, nodes, feeds, refs, inits=(), opset=13, outputs=("y",), **kw):
    """Builds, loads and runs one model; records and prints the outcome."""
    # cv2's python binding turns a 3-d numpy array into a 2-d multi-channel Mat: rank-3 inputs
    # are fed as rank 4 and reshaped back inside the graph (the C++ API has no such problem)
    pre, f2 = [], {}
    for k, v in feeds.items():
        if v.ndim == 3:
            pre += [const(k + "__shape", np.array(v.shape, np.int64)), node("Reshape", [k + "__4d", k + "__shape"], k)]
            f2[k + "__4d"] = v[None]
        else:
            f2[k] = v
    m = build(pre + list(nodes), f2, outputs, [list(np.shape(r)) for r in refs], inits, opset, **kw)
    valid = True
    try:
        onnx.checker.check_model(m)
    except Exception:
        valid = False
    status, detail = run_forked(m, f2, outputs, refs)
    if not valid:
        detail += "  (not valid ONNX: onnx.checker refuses it)"
    RESULTS.append((group, title, status, detail))
    print(f"{status:8} [{group}] {title} :: {detail}", flush=True)


rng = np.random.default_rng(20261123)


def randn(*s, scale=1.0):
    return (rng.standard_normal(s) * scale).astype(np.float32)


# ------------------------------------------------------------------ cases

def g_identity():
    G = "identity"
    x, W, B = randn(1, 4, 6, 6), randn(4, 4, 3, 3), randn(4)
    ref = TF.conv2d(torch.tensor(x), torch.tensor(W), torch.tensor(B), padding=1).numpy()
    ca = dict(kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    I = [init("W", W), init("B", B)]
    case(G, "Identity(initializer W) -> Conv weight", [node("Identity", ["W"], "W2"), node("Conv", ["x", "W2", "B"], "y", **ca)], {"x": x}, [ref], I)
    case(G, "Identity(initializer B) -> Conv bias", [node("Identity", ["B"], "B2"), node("Conv", ["x", "W", "B2"], "y", **ca)], {"x": x}, [ref], I)
    case(G, "Identity(Constant node) -> Conv weight", [const("Wc", W), node("Identity", ["Wc"], "W2"), node("Conv", ["x", "W2", "B"], "y", **ca)], {"x": x}, [ref], I)
    xa, b4 = randn(1, 2, 3, 4), randn(4)
    case(G, "Identity(initializer [4]) -> Add operand", [node("Identity", ["B"], "B2"), node("Add", ["x", "B2"], "y")], {"x": xa}, [xa + b4], [init("B", b4)])
    case(G, "Identity(variable) -> Conv", [node("Identity", ["x"], "x2"), node("Conv", ["x2", "W", "B"], "y", **ca)], {"x": x}, [ref], I)
    ref2 = TF.conv2d(torch.tensor(ref), torch.tensor(W), torch.tensor(B), padding=1).numpy()
    case(G, "FIX: Identity removed, its readers renamed: one initializer read by two Convs",
         [node("Conv", ["x", "W", "B"], "y1", **ca), node("Conv", ["y1", "W", "B"], "y", **ca)], {"x": x}, [ref2], I)


def g_graph():
    G = "graph"
    x = randn(1, 2, 3, 4)
    case(G, "graph output without a shape (elem type only)", [node("Relu", ["x"], "y")], {"x": x}, [np.maximum(x, 0)], out_shape_given=False)
    case(G, "graph output with its shape", [node("Relu", ["x"], "y")], {"x": x}, [np.maximum(x, 0)])
    case(G, "Constant node of type BOOL (unused by the graph's result)", [const("b", np.array([True])), node("Relu", ["x"], "y")], {"x": x}, [np.maximum(x, 0)])
    case(G, "BOOL initializer (unused)", [node("Relu", ["x"], "y")], {"x": x}, [np.maximum(x, 0)], [init("b", np.array([True]))])
    case(G, "Dropout(x, ratio Constant, training_mode Constant bool false) opset13",
         [const("r", np.array(0.1, np.float32)), const("t", np.array(False)), node("Dropout", ["x", "r", "t"], "y")], {"x": x}, [x])
    case(G, "Dropout(x) one input, one output", [node("Dropout", ["x"], "y")], {"x": x}, [x])
    case(G, "Dropout(x) with its mask output declared (unused)", [node("Dropout", ["x"], ["y", "mask"])], {"x": x}, [x])
    case(G, "Cast(variable float->float)", [node("Cast", ["x"], "y", to=1)], {"x": x}, [x])


def g_layernorm():
    G = "layernorm"
    for shape in [(1, 5, 16), (1, 4, 4, 16), (1, 1, 1, 16)]:
        x = randn(*shape)
        w, b = randn(16), randn(16)
        ref = TF.layer_norm(torch.tensor(x), (16,), torch.tensor(w), torch.tensor(b), 1e-6).numpy()
        s = list(shape)
        case(G, f"LayerNormalization(x{s}, w[16], b[16]) axis=-1 opset17",
             [node("LayerNormalization", ["x", "w", "b"], "y", axis=-1, epsilon=1e-6)], {"x": x}, [ref], [init("w", w), init("b", b)], 17)

        def decomposed(axes, w_name, b_name, bcast_ones=False):
            n = [node("ReduceMean", ["x"], "m", axes=axes), node("Sub", ["x", "m"], "d"),
                 node("Pow", ["d", "two"], "d2"), node("ReduceMean", ["d2"], "v", axes=axes),
                 node("Add", ["v", "eps"], "ve"), node("Sqrt", ["ve"], "s")]
            if bcast_ones:
                n += [node("MatMul", ["s", "ones"], "sb"), node("Div", ["d", "sb"], "n")]
            else:
                n += [node("Div", ["d", "s"], "n")]
            return n + [node("Mul", ["n", w_name], "nw"), node("Add", ["nw", b_name], "y")]
        base = [init("two", np.float32(2)), init("eps", np.float32(1e-6)), init("b", b)]
        for op in (13, 17):
            case(G, f"decomposed as torch writes it (ReduceMean axes=[-1], Mul by w[16]) x{s} opset{op}",
                 decomposed([-1], "w", "b"), {"x": x}, [ref], base + [init("w", w)], op)
        case(G, f"decomposed, ReduceMean axes=[{len(s) - 1}], Mul by w[16], x{s}", decomposed([len(s) - 1], "w", "b"), {"x": x}, [ref], base + [init("w", w)])
        case(G, f"FIX: decomposed, Mul by w broadcast to x's shape {s}", decomposed([-1], "wf", "b"), {"x": x}, [ref],
             base + [init("wf", np.ascontiguousarray(np.broadcast_to(w, shape)))])
        if shape[-2] == 1:
            case(G, f"FIX: decomposed, Mul by full-shape w, and Div's all-ones divisor broadcast by MatMul(s, ones[1,16]) x{s}",
                 decomposed([-1], "wf", "b", True), {"x": x}, [ref],
                 base + [init("wf", np.ascontiguousarray(np.broadcast_to(w, shape))), init("ones", np.ones((1, 16), np.float32))])


def g_mul_add_const():
    G = "broadcast"
    for shape in [(1, 4, 4, 16), (1, 5, 16), (1, 16, 4, 4)]:
        x = randn(*shape)
        r, C = len(shape), shape[-1]
        w = randn(C)
        s = list(shape)
        case(G, f"Mul(x{s}, initializer [{C}]) (last-axis broadcast)", [node("Mul", ["x", "w"], "y")], {"x": x}, [x * w], [init("w", w)])
        case(G, f"Mul(x{s}, initializer [1,..,{C}])", [node("Mul", ["x", "w"], "y")], {"x": x}, [x * w], [init("w", w.reshape((1,) * (r - 1) + (C,)))])
        case(G, f"FIX: Mul(x{s}, initializer broadcast to x's shape)", [node("Mul", ["x", "w"], "y")], {"x": x}, [x * w], [init("w", np.ascontiguousarray(np.broadcast_to(w, shape)))])
        case(G, f"FIX: Mul(x{s}, initializer broadcast to x's shape without batch {s[1:]})", [node("Mul", ["x", "w"], "y")], {"x": x}, [x * w], [init("w", np.ascontiguousarray(np.broadcast_to(w, shape[1:])))])
        case(G, f"FIX: Reshape x{s} to [-1,{C}], Mul by initializer [{C}], Reshape back",
             [node("Reshape", ["x", "s2"], "x2"), node("Mul", ["x2", "w"], "y2"), node("Reshape", ["y2", "sx"], "y")], {"x": x}, [x * w],
             [init("w", w), init("s2", np.array([-1, C], np.int64)), init("sx", np.array(shape, np.int64))])
        case(G, f"Div(x{s}, initializer [{C}])", [node("Div", ["x", "w"], "y")], {"x": x}, [x / w], [init("w", w)])
        case(G, f"Add(x{s}, initializer [{C}])", [node("Add", ["x", "w"], "y")], {"x": x}, [x + w], [init("w", w)])
        case(G, f"Add(x{s}, Constant node [{C}])", [const("w", w), node("Add", ["x", "w"], "y")], {"x": x}, [x + w])
        case(G, f"Add(x{s}, initializer [1,..,{C}])", [node("Add", ["x", "w"], "y")], {"x": x}, [x + w], [init("w", w.reshape((1,) * (r - 1) + (C,)))])
        case(G, f"Sub(x{s}, initializer [{C}])", [node("Sub", ["x", "w"], "y")], {"x": x}, [x - w], [init("w", w)])
        case(G, f"Sub(initializer [{C}], x{s})", [node("Sub", ["w", "x"], "y")], {"x": x}, [w - x], [init("w", w)])
    x = randn(1, 16, 4, 4)
    w = randn(16)
    case(G, "Mul(x[1,16,4,4], initializer [16,1,1]) (per-channel)", [node("Mul", ["x", "w"], "y")], {"x": x}, [x * w[:, None, None]], [init("w", w.reshape(16, 1, 1))])
    case(G, "Add(x[1,16,4,4], initializer [16,1,1]) (per-channel)", [node("Add", ["x", "w"], "y")], {"x": x}, [x + w[:, None, None]], [init("w", w.reshape(16, 1, 1))])
    case(G, "Add(x[1,16,4,4], initializer [1,16,1,1]) (per-channel, leading 1)", [node("Add", ["x", "w"], "y")], {"x": x}, [x + w[:, None, None]], [init("w", w.reshape(1, 16, 1, 1))])
    case(G, "Mul(x[1,16,4,4], initializer [1,16,1,1]) (per-channel, leading 1)", [node("Mul", ["x", "w"], "y")], {"x": x}, [x * w[:, None, None]], [init("w", w.reshape(1, 16, 1, 1))])
    # swin's relative position bias: attn [B*nW, heads, N, N] + bias [1, heads, N, N]
    a = randn(4, 2, 16, 16)
    bias = randn(1, 2, 16, 16)
    case(G, "Add(x[4,2,16,16], initializer [1,2,16,16]) (swin attention bias)", [node("Add", ["x", "b"], "y")], {"x": a}, [a + bias], [init("b", bias)])
    case(G, "FIX: Add(x[4,2,16,16], initializer [2,16,16]) (leading 1 dropped)", [node("Add", ["x", "b"], "y")], {"x": a}, [a + bias], [init("b", bias[0])])
    a1 = randn(16, 1, 16, 16)
    b1 = randn(1, 1, 16, 16)
    case(G, "Add(x[16,1,16,16], initializer [1,1,16,16])", [node("Add", ["x", "b"], "y")], {"x": a1}, [a1 + b1], [init("b", b1)])
    case(G, "FIX: Add(x[16,1,16,16], initializer [16,16])", [node("Add", ["x", "b"], "y")], {"x": a1}, [a1 + b1], [init("b", b1[0, 0])])
    # scalars
    case(G, "Mul(x, initializer scalar)", [node("Mul", ["x", "c"], "y")], {"x": x}, [x * 1.5], [init("c", np.float32(1.5))])
    case(G, "Div(x, Constant scalar)", [const("c", np.float32(1.5)), node("Div", ["x", "c"], "y")], {"x": x}, [x / np.float32(1.5)])
    case(G, "Div(Constant scalar, x)", [const("c", np.float32(1.5)), node("Div", ["c", "x"], "y")], {"x": x}, [np.float32(1.5) / x])
    case(G, "Add(x, Constant scalar [1])", [const("c", np.array([0.5], np.float32)), node("Add", ["x", "c"], "y")], {"x": x}, [x + 0.5])


def g_var_broadcast():
    G = "broadcast-var"
    for xs, ss in [((1, 1, 1, 16), (1, 1, 1, 1)), ((1, 5, 16), (1, 5, 1)), ((1, 4, 4, 16), (1, 4, 4, 1)), ((1, 16), (1, 1)), ((1, 16, 4, 4), (1, 1, 4, 4)), ((1, 16, 4, 4), (1, 16, 1, 1)), ((1, 4, 4, 16), (1, 1, 1, 16))]:
        x = randn(*xs)
        d = np.abs(randn(*ss)) + 0.5
        # the second operand is made a variable by Relu(input)
        for op, f in (("Div", np.divide), ("Mul", np.multiply), ("Sub", np.subtract), ("Add", np.add)):
            case(G, f"{op}(x{list(xs)}, Relu(s{list(ss)})) both variables",
                 [node("Relu", ["s"], "sr"), node(op, ["x", "sr"], "y")], {"x": x, "s": d}, [f(x, d)])
    for xs, ss in [((1, 16, 4, 4), (1, 1, 4, 4)), ((1, 4, 4, 16), (1, 1, 1, 16))]:
        x, d = randn(*xs), np.abs(randn(*ss)) + 0.5
        case(G, f"FIX: Add(x{list(xs)}, Mul(Add(Mul(x, 0), 1), Relu(s{list(ss)}))) (s broadcast by a variable Mul first)",
             [node("Relu", ["s"], "sr"), node("Mul", ["x", "zero"], "z"), node("Add", ["z", "one"], "ones"), node("Mul", ["ones", "sr"], "sb"), node("Add", ["x", "sb"], "y")],
             {"x": x, "s": d}, [x + d], [init("zero", np.float32(0)), init("one", np.float32(1))])
    x, d = randn(1, 1, 1, 16), np.abs(randn(1, 1, 1, 1)) + 0.5
    case(G, "FIX: Div(x[1,1,1,16], MatMul(Relu(s[1,1,1,1]), ones[1,16]))",
         [node("Relu", ["s"], "sr"), node("MatMul", ["sr", "ones"], "sb"), node("Div", ["x", "sb"], "y")], {"x": x, "s": d}, [x / d],
         [init("ones", np.ones((1, 16), np.float32))])
    case(G, "Div(x[1,1,1,16], Expand(Relu(s[1,1,1,1]), [1,1,1,16]))",
         [node("Relu", ["s"], "sr"), node("Expand", ["sr", "shp"], "sb"), node("Div", ["x", "sb"], "y")], {"x": x, "s": d}, [x / d],
         [init("shp", np.array([1, 1, 1, 16], np.int64))])
    case(G, "Div(Reshape(x,[1,16]), Reshape(Relu(s),[1,1])) 2-D",
         [node("Relu", ["s"], "sr"), node("Reshape", ["x", "s2"], "x2"), node("Reshape", ["sr", "s1"], "s12"), node("Div", ["x2", "s12"], "y2"), node("Reshape", ["y2", "s4"], "y")],
         {"x": x, "s": d}, [x / d], [init("s2", np.array([1, 16], np.int64)), init("s1", np.array([1, 1], np.int64)), init("s4", np.array([1, 1, 1, 16], np.int64))])


def g_clip():
    G = "clip"
    x = randn(1, 4, 5, 5, scale=5.0)
    big = np.array([1e8, 3.3e7, 3.4e7, 2 ** 25 + 4, 16777217, 7.000001, 6.0000005, 1e-30, -1e-30, 5.9999995], np.float32)
    x.ravel()[:10] = big
    r6 = np.clip(x, 0, 6)
    lo, hi = init("lo", np.float32(0)), init("hi", np.float32(6))
    case(G, "Clip(x, Constant 0, Constant 6) (torch's ReLU6)", [const("l", np.float32(0)), const("h", np.float32(6)), node("Clip", ["x", "l", "h"], "y")], {"x": x}, [r6])
    case(G, "Clip(x, initializer 0, initializer 6)", [node("Clip", ["x", "lo", "hi"], "y")], {"x": x}, [r6], [lo, hi])
    case(G, "Clip(x, '', initializer 6)", [node("Clip", ["x", "", "hi"], "y")], {"x": x}, [np.minimum(x, 6)], [hi])
    case(G, "Clip(x) no min/max (identity)", [node("Clip", ["x"], "y")], {"x": x}, [x])
    case(G, "Clip(x) attributes min=0 max=6 at opset 13", [node("Clip", ["x"], "y", min=0.0, max=6.0)], {"x": x}, [r6])
    case(G, "Clip(x) attributes min=0 max=6 at opset 10", [node("Clip", ["x"], "y", min=0.0, max=6.0)], {"x": x}, [r6], opset=10)
    case(G, "Min(Relu(x), initializer 6)", [node("Relu", ["x"], "r"), node("Min", ["r", "hi"], "y")], {"x": x}, [r6], [hi])
    case(G, "Min(Relu(x), initializer 6 of x's shape)", [node("Relu", ["x"], "r"), node("Min", ["r", "h"], "y")], {"x": x}, [r6], [init("h", np.full(x.shape, 6, np.float32))])
    case(G, "Max(x, initializer 0) then Min(., initializer 6)", [node("Max", ["x", "lo"], "m"), node("Min", ["m", "hi"], "y")], {"x": x}, [r6], [lo, hi])
    case(G, "Relu(x) - Relu(x - 6)", [node("Relu", ["x"], "r"), node("Sub", ["x", "hi"], "xm"), node("Relu", ["xm"], "r2"), node("Sub", ["r", "r2"], "y")], {"x": x}, [r6], [hi])
    case(G, "6 - Relu(6 - Relu(x))", [node("Relu", ["x"], "r"), node("Sub", ["hi", "r"], "a"), node("Relu", ["a"], "b"), node("Sub", ["hi", "b"], "y")], {"x": x}, [r6], [hi])
    case(G, "FIX: Min(Relu(x), Add(Mul(x, 0), 6)) (min/max made variables)",
         [node("Relu", ["x"], "r"), node("Mul", ["x", "zero"], "z"), node("Add", ["z", "hi"], "s"), node("Min", ["r", "s"], "y")], {"x": x}, [r6], [hi, init("zero", np.float32(0))])
    c = np.clip(x, -1.5, 2.5)
    case(G, "FIX: Clip(x,-1.5,2.5) == Max(Min(x, Mul(x,0)+2.5), Mul(x,0)-1.5)",
         [node("Mul", ["x", "zero"], "z"), node("Add", ["z", "h"], "hv"), node("Add", ["z", "l"], "lv"), node("Min", ["x", "hv"], "m"), node("Max", ["m", "lv"], "y")],
         {"x": x}, [c], [init("zero", np.float32(0)), init("h", np.float32(2.5)), init("l", np.float32(-1.5))])
    case(G, "HardSigmoid(x, alpha=1/6, beta=0.5)", [node("HardSigmoid", ["x"], "y", alpha=1 / 6, beta=0.5)], {"x": x}, [np.clip(x / 6 + 0.5, 0, 1)])
    case(G, "HardSwish(x) opset 14", [node("HardSwish", ["x"], "y")], {"x": x}, [x * np.clip(x / 6 + 0.5, 0, 1)], opset=14)


def g_constants():
    G = "constant-ops"
    x = randn(1, 4, 6, 6)
    i = lambda *v: np.array(v, np.int64)
    case(G, "Mod(Constant, Constant) feeding Slice ends",
         [const("a", i(6)), const("b", i(4)), node("Mod", ["a", "b"], "e"), node("Slice", ["x", "s0", "e", "ax"], "y")], {"x": x}, [x[:, :, :, :2]], [init("s0", i(0)), init("ax", i(3))])
    case(G, "FIX: the same Slice with the Mod folded to an initializer", [node("Slice", ["x", "s0", "e", "ax"], "y")], {"x": x}, [x[:, :, :, :2]], [init("s0", i(0)), init("e", i(2)), init("ax", i(3))])
    case(G, "Mod(x, initializer) on a variable (fmod=1)", [node("Mod", ["x", "c"], "y", fmod=1)], {"x": x}, [np.fmod(x, 0.7)], [init("c", np.float32(0.7))])
    case(G, "ReduceMax(initializer) keepdims=0 feeding Add", [node("ReduceMax", ["c"], "m", keepdims=0), node("Add", ["x", "m"], "y")], {"x": x}, [x + 3], [init("c", np.array([1, 3, 2], np.float32))])
    case(G, "Sqrt(Constant) feeding Mul", [const("c", np.float32(4)), node("Sqrt", ["c"], "s"), node("Mul", ["x", "s"], "y")], {"x": x}, [x * 2])
    case(G, "Pow(Constant, Constant) feeding Mul (swin's scale)", [const("c", np.float32(8)), const("p", np.float32(-0.5)), node("Pow", ["c", "p"], "s"), node("Mul", ["x", "s"], "y")], {"x": x}, [x * 8 ** -0.5])
    case(G, "Mul(Constant [2], Constant [1]) (shape arithmetic, different shapes)", [const("a", i(3, 3)), const("b", i(2)), node("Mul", ["a", "b"], "m"), node("Concat", ["ab", "m"], "shp", axis=0), node("Reshape", ["x", "shp"], "y")],
         {"x": x}, [x.reshape(1, 4, 6, 6)], [init("ab", i(1, 4))])
    case(G, "Equal/Where on constants (vit's -1 handling) feeding Reshape",
         [const("t", i(1, 4, 36, -1)), const("o", i(1, 1, 1, 1)), const("m1", i(-1, -1, -1, -1)), node("Equal", ["t", "m1"], "eq"), node("Where", ["eq", "o", "t"], "shp"), node("Reshape", ["x", "shp"], "y")],
         {"x": x}, [x.reshape(1, 4, 36, 1)])
    case(G, "ConstantOfShape(Constant) feeding Concat with a variable", [const("s", i(1, 1, 6, 6)), node("ConstantOfShape", ["s"], "z", value=nh.from_array(np.array([0.5], np.float32))), node("Concat", ["x", "z"], "y", axis=1)],
         {"x": x}, [np.concatenate([x, np.full((1, 1, 6, 6), 0.5, np.float32)], 1)])
    case(G, "ConstantOfShape(Constant [2], value int64 2) feeding Concat -> Reshape shape",
         [const("s", i(2)), node("ConstantOfShape", ["s"], "z", value=nh.from_array(i(2))), node("Concat", ["one", "z", "nine"], "shp", axis=0), node("Reshape", ["x", "shp"], "y")],
         {"x": x}, [x.reshape(1, 2, 2, 36)], [init("one", i(1)), init("nine", i(36))])
    case(G, "Equal(Constant, Constant) feeding Cast -> Mul",
         [const("a", i(1, 2)), const("b", i(1, 3)), node("Equal", ["a", "b"], "eq"), node("Cast", ["eq"], "ef", to=1), node("Reshape", ["x", "s2"], "x2"), node("Mul", ["x2", "ef"], "y")],
         {"x": x}, [x.reshape(72, 2) * np.array([1, 0], np.float32)], [init("s2", i(72, 2))])
    case(G, "vit's class-token chain: Expand(initializer [1,1,6], Where(Equal(C[1,-1,-1], ConstantOfShape([3])*-1), ConstantOfShape([3]), C))",
         [const("t", i(1, -1, -1)), const("n3", i(3)), node("ConstantOfShape", ["n3"], "ones", value=nh.from_array(i(1))), const("m1", np.array(-1, np.int64)),
          node("Mul", ["ones", "m1"], "neg"), node("Equal", ["t", "neg"], "eq"), node("Where", ["eq", "ones", "t"], "shp"),
          node("Expand", ["c", "shp"], "e"), node("Reshape", ["x", "s3"], "x3"), node("Concat", ["e", "x3"], "y", axis=1)],
         {"x": x}, [np.concatenate([np.ones((1, 1, 6), np.float32), x.reshape(1, 24, 6)], 1)], [init("c", np.ones((1, 1, 6), np.float32)), init("s3", i(1, 24, 6))])
    case(G, "Range(Constants) feeding Gather", [const("a", i(0)), const("b", i(3)), const("c", i(1)), node("Range", ["a", "b", "c"], "r"), node("Gather", ["x", "r"], "y", axis=1)], {"x": x}, [x[:, :3]])
    case(G, "Transpose(initializer) feeding MatMul", [node("Transpose", ["w"], "wt", perm=[1, 0]), node("MatMul", ["x", "wt"], "y")], {"x": x}, [x @ np.eye(6, dtype=np.float32)[::-1].T], [init("w", np.eye(6, dtype=np.float32)[::-1].copy())])
    case(G, "Expand(initializer [1,1,6], Constant [1,1,1]) (two-way broadcast, vit class token)", [const("s", i(1, 1, 1)), node("Expand", ["c", "s"], "e"), node("Reshape", ["x", "s3"], "x3"), node("Concat", ["e", "x3"], "y", axis=1)],
         {"x": x}, [np.concatenate([np.ones((1, 1, 6), np.float32), x.reshape(1, 24, 6)], 1)], [init("c", np.ones((1, 1, 6), np.float32)), init("s3", i(1, 24, 6))])
    case(G, "Expand(initializer [1,1,6], Constant [1,1,6]) (no broadcast)", [const("s", i(1, 1, 6)), node("Expand", ["c", "s"], "e"), node("Reshape", ["x", "s3"], "x3"), node("Concat", ["e", "x3"], "y", axis=1)],
         {"x": x}, [np.concatenate([np.ones((1, 1, 6), np.float32), x.reshape(1, 24, 6)], 1)], [init("c", np.ones((1, 1, 6), np.float32)), init("s3", i(1, 24, 6))])
    case(G, "Expand(initializer [1,1,6], Constant [1,2,6]) (one broadcast axis)", [const("s", i(1, 2, 6)), node("Expand", ["c", "s"], "e"), node("Reshape", ["x", "s3"], "x3"), node("Concat", ["e", "x3"], "y", axis=1)],
         {"x": x}, [np.concatenate([np.ones((1, 2, 6), np.float32), x.reshape(1, 24, 6)], 1)], [init("c", np.ones((1, 1, 6), np.float32)), init("s3", i(1, 24, 6))])
    case(G, "Tile(initializer [1,1,6], [1,1,1])", [node("Tile", ["c", "rep"], "e"), node("Reshape", ["x", "s3"], "x3"), node("Concat", ["e", "x3"], "y", axis=1)],
         {"x": x}, [np.concatenate([np.ones((1, 1, 6), np.float32), x.reshape(1, 24, 6)], 1)], [init("c", np.ones((1, 1, 6), np.float32)), init("rep", i(1, 1, 1)), init("s3", i(1, 24, 6))])
    case(G, "FIX: Concat(initializer [1,1,6], variable) (Expand folded away)", [node("Reshape", ["x", "s3"], "x3"), node("Concat", ["c", "x3"], "y", axis=1)],
         {"x": x}, [np.concatenate([np.ones((1, 1, 6), np.float32), x.reshape(1, 24, 6)], 1)], [init("c", np.ones((1, 1, 6), np.float32)), init("s3", i(1, 24, 6))])


def g_expand_var():
    G = "expand-var"
    i = lambda *v: np.array(v, np.int64)
    x = randn(1, 1, 6)
    case(G, "Expand(x[1,1,6], [1,5,6]) variable, axis 1", [node("Expand", ["x", "s"], "y")], {"x": x}, [np.broadcast_to(x, (1, 5, 6))], [init("s", i(1, 5, 6))])
    x = randn(1, 6, 1, 1)
    case(G, "Expand(x[1,6,1,1], [1,6,4,4]) variable, last two axes", [node("Expand", ["x", "s"], "y")], {"x": x}, [np.broadcast_to(x, (1, 6, 4, 4))], [init("s", i(1, 6, 4, 4))])
    x = randn(1, 1, 1, 6)
    case(G, "Expand(x[1,1,1,6], [1,1,4,6]) variable, axis 2", [node("Expand", ["x", "s"], "y")], {"x": x}, [np.broadcast_to(x, (1, 1, 4, 6))], [init("s", i(1, 1, 4, 6))])
    case(G, "Expand(x[1,1,1,6], [1,1,1,6]) variable, no broadcast", [node("Expand", ["x", "s"], "y")], {"x": x}, [x], [init("s", i(1, 1, 1, 6))])


def g_shape_arith():
    G = "shape-arith"
    i = lambda *v: np.array(v, np.int64)
    x = randn(1, 8, 4, 4)
    I = [init("one", i(1)), init("zero", i(0)), init("two", i(2))]
    chunk = [node("Shape", ["x"], "shp"), node("Gather", ["shp", "one"], "c"), node("Add", ["c", "one"], "c1"),
             node("Div", ["c1", "two"], "h"), node("Mul", ["h", "one"], "e"), node("Slice", ["x", "zero", "e", "one"], "y")]
    case(G, "chunk as torch writes it: Shape->Gather([1])->Add->Div->Mul -> Slice ends (shufflenet, vit in_proj)", chunk, {"x": x}, [x[:, :4]], I)
    case(G, "Shape->Gather(scalar index)->Unsqueeze -> Slice ends",
         [node("Shape", ["x"], "shp"), node("Gather", ["shp", "sc"], "c"), node("Unsqueeze", ["c", "zero"], "e"), node("Slice", ["x", "zero", "e", "one"], "y")], {"x": x}, [x], I + [init("sc", np.array(1, np.int64))])
    case(G, "FIX: Slice(x, initializer starts/ends/axes)", [node("Slice", ["x", "zero", "four", "one"], "y")], {"x": x}, [x[:, :4]], I + [init("four", i(4))])
    case(G, "Slice with steps initializer [2]", [node("Slice", ["x", "zero", "eight", "one", "two"], "y")], {"x": x}, [x[:, 0:8:2]], I + [init("eight", i(8))])
    case(G, "Slice axes=[-1] (negative axis)", [node("Slice", ["x", "zero", "two", "m1"], "y")], {"x": x}, [x[..., :2]], I + [init("m1", i(-1))])
    case(G, "Slice axes=[3] ends=INT64_MAX", [node("Slice", ["x", "one", "big", "three"], "y")], {"x": x}, [x[..., 1:]], I + [init("big", i(2 ** 63 - 1)), init("three", i(3))])
    case(G, "Slice starts/ends as Constant nodes", [const("a", i(0)), const("b", i(4)), const("c", i(1)), node("Slice", ["x", "a", "b", "c"], "y")], {"x": x}, [x[:, :4]])
    case(G, "Split(x, split initializer [4,4]) axis 1 opset13 (2 outputs)", [node("Split", ["x", "sp"], ["y", "z"], axis=1)], {"x": x}, [x[:, :4], x[:, 4:]], [init("sp", i(4, 4))], outputs=("y", "z"))
    case(G, "Split(x, split initializer [2,6]) axis 1 opset13 (unequal)", [node("Split", ["x", "sp"], ["y", "z"], axis=1)], {"x": x}, [x[:, :2], x[:, 2:]], [init("sp", i(2, 6))], outputs=("y", "z"))
    case(G, "FIX: unequal Split as two Slices with initializer starts/ends", [node("Slice", ["x", "zero", "two", "one"], "y"), node("Slice", ["x", "two", "eight", "one"], "z")], {"x": x}, [x[:, :2], x[:, 2:]], I + [init("eight", i(8))], outputs=("y", "z"))
    case(G, "Split(x) no split input, axis 1, 2 outputs", [node("Split", ["x"], ["y", "z"], axis=1)], {"x": x}, [x[:, :4], x[:, 4:]], outputs=("y", "z"))
    # Reshape whose shape is computed
    case(G, "Reshape(x, Concat(Shape->Gather(0)->Unsqueeze, Constant [-1])) computed shape",
         [node("Shape", ["x"], "shp"), node("Gather", ["shp", "sc0"], "b"), node("Unsqueeze", ["b", "zero"], "bu"), node("Concat", ["bu", "m1"], "ns", axis=0), node("Reshape", ["x", "ns"], "y")],
         {"x": x}, [x.reshape(1, -1)], I + [init("sc0", np.array(0, np.int64)), init("m1", i(-1))])
    case(G, "Reshape(x, initializer [1,-1])", [node("Reshape", ["x", "ns"], "y")], {"x": x}, [x.reshape(1, -1)], [init("ns", i(1, -1))])
    case(G, "Reshape(x, initializer [0,-1]) (0 = copy)", [node("Reshape", ["x", "ns"], "y")], {"x": x}, [x.reshape(1, -1)], [init("ns", i(0, -1))])


def g_matmul():
    G = "matmul-gemm"
    x2, x3, x4 = randn(2, 8), randn(1, 5, 8), randn(1, 2, 5, 8)
    W, B = randn(6, 8), randn(6)
    case(G, "Gemm(x[2,8], W[6,8] initializer, B[6]) transB=1", [node("Gemm", ["x", "W", "B"], "y", transB=1)], {"x": x2}, [x2 @ W.T + B], [init("W", W), init("B", B)])
    case(G, "Gemm(x[2,8], W[8,6] initializer, B[6]) transB=0", [node("Gemm", ["x", "Wt", "B"], "y")], {"x": x2}, [x2 @ W.T + B], [init("Wt", W.T.copy()), init("B", B)])
    case(G, "Gemm transB=1 alpha=0.5 beta=2", [node("Gemm", ["x", "W", "B"], "y", transB=1, alpha=0.5, beta=2.0)], {"x": x2}, [0.5 * x2 @ W.T + 2 * B], [init("W", W), init("B", B)])
    case(G, "FIX: Gemm transB=0 -> Gemm transB=1 with the weight transposed offline", [node("Gemm", ["x", "W", "B"], "y", transB=1)], {"x": x2}, [x2 @ W.T + B], [init("W", W), init("B", B)])
    case(G, "FIX: Gemm alpha=0.5 beta=2 -> alpha, beta folded into W and B", [node("Gemm", ["x", "W", "B"], "y", transB=1)], {"x": x2}, [0.5 * x2 @ W.T + 2 * B], [init("W", 0.5 * W), init("B", 2 * B)])
    case(G, "Gemm transA=1", [node("Gemm", ["x", "W", "B"], "y", transA=1, transB=1)], {"x": x2.T.copy()}, [x2 @ W.T + B], [init("W", W), init("B", B)])
    case(G, "Gemm with weight as Constant node", [const("Wc", W), node("Gemm", ["x", "Wc", "B"], "y", transB=1)], {"x": x2}, [x2 @ W.T + B], [init("B", B)])
    case(G, "Gemm(x, y) both variables", [node("Relu", ["w"], "wr"), node("Gemm", ["x", "wr"], "y", transB=1)], {"x": x2, "w": np.abs(W)}, [x2 @ np.abs(W).T])
    case(G, "MatMul(x[2,8], initializer [8,6])", [node("MatMul", ["x", "Wt"], "y")], {"x": x2}, [x2 @ W.T], [init("Wt", W.T.copy())])
    case(G, "MatMul(x[1,5,8], initializer [8,6])", [node("MatMul", ["x", "Wt"], "y")], {"x": x3}, [x3 @ W.T], [init("Wt", W.T.copy())])
    case(G, "MatMul(x[1,2,5,8], initializer [8,6])", [node("MatMul", ["x", "Wt"], "y")], {"x": x4}, [x4 @ W.T], [init("Wt", W.T.copy())])
    case(G, "MatMul(initializer [6,2], x[2,8]) constant first", [node("MatMul", ["Wc", "x"], "y")], {"x": x2}, [W[:, :2] @ x2], [init("Wc", W[:, :2].copy())])
    y4 = randn(1, 2, 8, 5)
    case(G, "MatMul(x[1,2,5,8], y[1,2,8,5]) both variables (attention)", [node("MatMul", ["x", "z"], "y")], {"x": x4, "z": y4}, [x4 @ y4])
    y3 = randn(1, 8, 5)
    case(G, "MatMul(x[1,5,8], y[1,8,5]) both variables 3-D", [node("MatMul", ["x", "z"], "y")], {"x": x3, "z": y3}, [x3 @ y3])
    case(G, "MatMul(x[1,2,5,8], Transpose(y, perm=[0,1,3,2])) both variables", [node("Transpose", ["z"], "zt", perm=[0, 1, 3, 2]), node("MatMul", ["x", "zt"], "y")], {"x": x4, "z": x4.copy()}, [x4 @ x4.transpose(0, 1, 3, 2)])


def g_misc():
    G = "misc"
    i = lambda *v: np.array(v, np.int64)
    x = randn(1, 2, 5, 5)
    erf = np.vectorize(math.erf)
    case(G, "Erf(x)", [node("Erf", ["x"], "y")], {"x": x}, [erf(x).astype(np.float32)])
    gelu = TF.gelu(torch.tensor(x)).numpy()
    case(G, "GELU as torch writes it: x*0.5*(1+Erf(x/sqrt2))", [node("Div", ["x", "s2"], "d"), node("Erf", ["d"], "e"), node("Add", ["e", "one"], "a"), node("Mul", ["x", "a"], "m"), node("Mul", ["m", "half"], "y")], {"x": x}, [gelu],
         [init("s2", np.float32(math.sqrt(2))), init("one", np.float32(1)), init("half", np.float32(0.5))])
    sm = lambda a, ax: np.exp(a - a.max(ax, keepdims=True)) / np.exp(a - a.max(ax, keepdims=True)).sum(ax, keepdims=True)
    case(G, "Softmax axis=-1 opset13 (4-D)", [node("Softmax", ["x"], "y", axis=-1)], {"x": x}, [sm(x, -1)])
    case(G, "Softmax axis=3 opset13 (4-D)", [node("Softmax", ["x"], "y", axis=3)], {"x": x}, [sm(x, -1)])
    case(G, "Softmax without axis attribute opset13 (default -1)", [node("Softmax", ["x"], "y")], {"x": x}, [sm(x, -1)])
    x3 = randn(1, 5, 7)
    case(G, "Softmax axis=-1 opset13 (3-D)", [node("Softmax", ["x"], "y", axis=-1)], {"x": x3}, [sm(x3, -1)])
    case(G, "LogSoftmax axis=-1 opset13", [node("LogSoftmax", ["x"], "y", axis=-1)], {"x": x}, [np.log(sm(x, -1))])
    case(G, "Gather(x[1,5,7], scalar index 0, axis=1) (vit's x[:, 0])", [node("Gather", ["x", "k"], "y", axis=1)], {"x": x3}, [x3[:, 0]], [init("k", np.array(0, np.int64))])
    case(G, "Gather(x[1,5,7], index [0] (1-D), axis=1)", [node("Gather", ["x", "k"], "y", axis=1)], {"x": x3}, [x3[:, [0]]], [init("k", i(0))])
    case(G, "Gather(x[1,5,7], index [0,2], axis=1)", [node("Gather", ["x", "k"], "y", axis=1)], {"x": x3}, [x3[:, [0, 2]]], [init("k", i(0, 2))])
    case(G, "Gather(x[5,7] 2-D, scalar index 0, axis=0)", [node("Reshape", ["x", "s"], "x2"), node("Gather", ["x2", "k"], "y", axis=0)], {"x": x3}, [x3[0, 0]], [init("k", np.array(0, np.int64)), init("s", i(5, 7))])
    c = randn(1, 1, 7)
    case(G, "Concat(initializer [1,1,7], variable [1,5,7]) axis 1", [node("Concat", ["c", "x"], "y", axis=1)], {"x": x3}, [np.concatenate([c, x3], 1)], [init("c", c)])
    case(G, "Concat(Constant node [1,1,7], variable [1,5,7]) axis 1", [const("c", c), node("Concat", ["c", "x"], "y", axis=1)], {"x": x3}, [np.concatenate([c, x3], 1)])
    case(G, "Flatten(x[1,2,5,5]) axis=1", [node("Flatten", ["x"], "y")], {"x": x}, [x.reshape(1, -1)])
    case(G, "Flatten(x[1,2,5,5]) axis=2", [node("Flatten", ["x"], "y", axis=2)], {"x": x}, [x.reshape(2, -1)])
    case(G, "Unsqueeze(x[1,5,7], axes initializer [1]) opset13", [node("Unsqueeze", ["x", "a"], "y")], {"x": x3}, [x3[:, None]], [init("a", i(1))])
    case(G, "Unsqueeze(x[1,5,7], axes initializer [-1]) opset13", [node("Unsqueeze", ["x", "a"], "y")], {"x": x3}, [x3[..., None]], [init("a", i(-1))])
    case(G, "FIX: Unsqueeze(x[1,5,7], axes initializer [3]) (axis made non-negative)", [node("Unsqueeze", ["x", "a"], "y")], {"x": x3}, [x3[..., None]], [init("a", i(3))])
    case(G, "Unsqueeze(x, axes initializer [1,2]) opset13", [node("Unsqueeze", ["x", "a"], "y")], {"x": x3}, [x3[:, None, None]], [init("a", i(1, 2))])
    case(G, "FIX: Reshape(x[1,5,7], initializer [1,1,1,5,7]) for a multi-axis Unsqueeze", [node("Reshape", ["x", "s"], "y")], {"x": x3}, [x3[:, None, None]], [init("s", i(1, 1, 1, 5, 7))])
    x1 = randn(1, 1, 5, 7)
    case(G, "Squeeze(x[1,1,5,7], axes initializer [1]) opset13", [node("Squeeze", ["x", "a"], "y")], {"x": x1}, [x1[:, 0]], [init("a", i(1))])
    case(G, "Squeeze(x[1,1,5,7], axes attribute [1]) opset11", [node("Squeeze", ["x"], "y", axes=[1])], {"x": x1}, [x1[:, 0]], opset=11)
    case(G, "FIX: Reshape(x[1,1,5,7], initializer [1,5,7]) for Squeeze", [node("Reshape", ["x", "s"], "y")], {"x": x1}, [x1[:, 0]], [init("s", i(1, 5, 7))])
    case(G, "ReduceMean(x[1,5,7]) axes=[-1] keepdims=1 (3-D)", [node("ReduceMean", ["x"], "y", axes=[-1])], {"x": x3}, [x3.mean(-1, keepdims=True)])
    x2 = randn(3, 7)
    case(G, "ReduceMean(x[3,7]) axes=[-1] (2-D)", [node("ReduceMean", ["x"], "y", axes=[-1])], {"x": x2}, [x2.mean(-1, keepdims=True)])
    case(G, "ReduceMean(x[1,2,5,5]) axes=[2,3] keepdims=1", [node("ReduceMean", ["x"], "y", axes=[2, 3])], {"x": x}, [x.mean((2, 3), keepdims=True)])
    case(G, "ReduceMean(x[1,2,5,5]) axes=[-1] keepdims=0", [node("ReduceMean", ["x"], "y", axes=[-1], keepdims=0)], {"x": x}, [x.mean(-1)])
    case(G, "ReduceMax(x[1,2,5,5]) axes=[1] keepdims=1", [node("ReduceMax", ["x"], "y", axes=[1])], {"x": x}, [x.max(1, keepdims=True)])
    case(G, "Transpose(x[1,2,5,5]) perm=[0,2,3,1]", [node("Transpose", ["x"], "y", perm=[0, 2, 3, 1])], {"x": x}, [x.transpose(0, 2, 3, 1)])
    x6 = randn(1, 4, 2, 4, 2, 3)
    case(G, "Transpose 6-D perm=[0,1,3,2,4,5] (swin window partition)", [node("Transpose", ["x"], "y", perm=[0, 1, 3, 2, 4, 5])], {"x": x6}, [x6.transpose(0, 1, 3, 2, 4, 5)])
    case(G, "Pad(x, pads initializer, '' ) mode=constant (empty 3rd input)", [node("Pad", ["x", "p", ""], "y", mode="constant")], {"x": x}, [np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))], [init("p", i(0, 0, 1, 1, 0, 0, 1, 1))])
    case(G, "FIX: Pad(x, pads initializer) mode=constant (2 inputs)", [node("Pad", ["x", "p"], "y", mode="constant")], {"x": x}, [np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))], [init("p", i(0, 0, 1, 1, 0, 0, 1, 1))])
    case(G, "Pad(x, pads, value initializer 0.5) mode=constant", [node("Pad", ["x", "p", "v"], "y", mode="constant")], {"x": x}, [np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), constant_values=0.5)], [init("p", i(0, 0, 1, 1, 0, 0, 1, 1)), init("v", np.float32(0.5))])
    case(G, "Pad(x, all-zero pads) mode=constant", [node("Pad", ["x", "p"], "y", mode="constant")], {"x": x}, [x], [init("p", i(0, 0, 0, 0, 0, 0, 0, 0))])
    case(G, "Pad(x, pads) mode=edge", [node("Pad", ["x", "p"], "y", mode="edge")], {"x": x}, [np.pad(x, ((0, 0), (0, 0), (2, 2), (2, 2)), mode="edge")], [init("p", i(0, 0, 2, 2, 0, 0, 2, 2))])
    case(G, "Pad(x, pads) mode=reflect", [node("Pad", ["x", "p"], "y", mode="reflect")], {"x": x}, [np.pad(x, ((0, 0), (0, 0), (2, 2), (2, 2)), mode="reflect")], [init("p", i(0, 0, 2, 2, 0, 0, 2, 2))])
    case(G, "Pad 3-D input [1,5,7] pads on last axis", [node("Pad", ["x", "p"], "y", mode="constant")], {"x": x3}, [np.pad(x3, ((0, 0), (0, 0), (1, 2)))], [init("p", i(0, 0, 1, 0, 0, 2))])
    case(G, "Sigmoid(x)", [node("Sigmoid", ["x"], "y")], {"x": x}, [1 / (1 + np.exp(-x))])
    case(G, "Mul(x, Sigmoid(x)) (SiLU)", [node("Sigmoid", ["x"], "s"), node("Mul", ["x", "s"], "y")], {"x": x}, [x / (1 + np.exp(-x))])
    dcr_in = randn(1, 18, 4, 5)
    crd = dcr_in.reshape(1, 2, 3, 3, 4, 5).transpose(0, 1, 4, 2, 5, 3).reshape(1, 2, 12, 15)
    case(G, "DepthToSpace blocksize=3 mode=CRD", [node("DepthToSpace", ["x"], "y", blocksize=3, mode="CRD")], {"x": dcr_in}, [crd])
    dcr = dcr_in.reshape(1, 3, 3, 2, 4, 5).transpose(0, 3, 4, 1, 5, 2).reshape(1, 2, 12, 15)
    case(G, "DepthToSpace blocksize=3 mode=DCR", [node("DepthToSpace", ["x"], "y", blocksize=3, mode="DCR")], {"x": dcr_in}, [dcr])


def g_detection():
    """The ops of torchvision's detection post-processing (ssdlite320 as exported)."""
    G = "detection"
    i = lambda *v: np.array(v, np.int64)
    x = randn(1, 2, 4, 4)
    case(G, "Exp(x)", [node("Exp", ["x"], "y")], {"x": x}, [np.exp(x)])
    case(G, "ReduceMin(x) axes=[1] keepdims=1", [node("ReduceMin", ["x"], "y", axes=[1])], {"x": x}, [x.min(1, keepdims=True)])
    case(G, "ReduceProd(x) axes=[1] keepdims=1", [node("ReduceProd", ["x"], "y", axes=[1])], {"x": x}, [x.prod(1, keepdims=True)])
    case(G, "Greater(x, initializer 0) -> Cast float", [node("Greater", ["x", "z"], "g"), node("Cast", ["g"], "y", to=1)], {"x": x}, [(x > 0).astype(np.float32)], [init("z", np.float32(0))])
    case(G, "NonZero(Greater(x, 0)) -> Cast float", [node("Greater", ["x", "z"], "g"), node("NonZero", ["g"], "nz"), node("Cast", ["nz"], "y", to=1)], {"x": x}, [np.array(np.nonzero(x > 0), np.float32)], [init("z", np.float32(0))])
    v, k = np.sort(x.reshape(1, -1))[:, ::-1][:, :3], i(3)
    case(G, "TopK(x[1,32], k=3 initializer) values", [node("Reshape", ["x", "s"], "x2"), node("TopK", ["x2", "k"], ["y", "idx"])], {"x": x}, [v], [init("s", i(1, 32)), init("k", k)])
    case(G, "GatherND(x, indices initializer [[0,1]])", [node("GatherND", ["x", "ind"], "y")], {"x": x}, [x[0, 1][None]], [init("ind", i(0, 1).reshape(1, 2))])
    case(G, "ScatterND(x, indices, updates initializers)", [node("ScatterND", ["x", "ind", "u"], "y")], {"x": x}, [np.concatenate([np.zeros((1, 1, 4, 4), np.float32), x[:, 1:]], 1)],
         [init("ind", i(0, 0).reshape(1, 2)), init("u", np.zeros((1, 4, 4), np.float32))])
    boxes = np.array([[[0, 0, 1, 1], [0, 0, 1, 1.1], [2, 2, 3, 3]]], np.float32)
    scores = np.array([[[0.9, 0.8, 0.7]]], np.float32)
    case(G, "NonMaxSuppression(boxes, scores, max 10, iou 0.5) -> Cast float",
         [node("NonMaxSuppression", ["b", "sc", "mx", "iou"], "sel"), node("Cast", ["sel"], "y", to=1)], {"b": boxes, "sc": scores},
         [np.array([[0, 0, 0], [0, 0, 2]], np.float32)], [init("mx", i(10)), init("iou", np.array([0.5], np.float32))])
    then_g = oh.make_graph([node("Identity", ["x"], "t")], "then", [], [oh.make_tensor_value_info("t", F32, list(x.shape))])
    else_g = oh.make_graph([node("Neg", ["x"], "e")], "else", [], [oh.make_tensor_value_info("e", F32, list(x.shape))])
    case(G, "If(Greater(ReduceMax(x), 0)) with two subgraphs", [node("ReduceMax", ["x"], "mx", keepdims=0), node("Greater", ["mx", "z"], "c"), node("If", ["c"], "y", then_branch=then_g, else_branch=else_g)],
         {"x": x}, [x if x.max() > 0 else -x], [init("z", np.float32(0))])


def cubic_phase_kernels(s, A=-0.75):
    """1-D taps of torch's bicubic upsampling by the integer factor s (align_corners=False,
    border replicate): out[s*i + r] = sum_d K[r][d + 2] * x[clamp(i + d)], d in -2..2."""
    def w(t):
        return [((A * (t + 1) - 5 * A) * (t + 1) + 8 * A) * (t + 1) - 4 * A,
                ((A + 2) * t - (A + 3)) * t * t + 1,
                ((A + 2) * (1 - t) - (A + 3)) * (1 - t) * (1 - t) + 1,
                ((A * (2 - t) - 5 * A) * (2 - t) + 8 * A) * (2 - t) - 4 * A]
    K = np.zeros((s, 5), np.float64)
    for r in range(s):
        src = (r + 0.5) / s - 0.5
        f = math.floor(src)
        for k, wk in enumerate(w(src - f)):
            K[r, f - 1 + k + 2] += wk
    return K


def g_resize():
    G = "resize"
    C, H, W = 3, 8, 8
    x = rng.random((1, C, H, W)).astype(np.float32)
    up = lambda mode, s=3, **k: TF.interpolate(torch.tensor(x), scale_factor=s, mode=mode, **k).numpy()
    cub, lin, near = up("bicubic", align_corners=False), up("bilinear", align_corners=False), up("nearest")
    roi, sc = init("roi", np.array([], np.float32)), init("scales", np.array([1, 1, 3, 3], np.float32))

    def rz(mode, ctm, **extra):
        return [node("Resize", ["x", "roi", "scales"], "y", mode=mode, coordinate_transformation_mode=ctm, **extra)]
    case(G, "Resize cubic pytorch_half_pixel a=-0.75, scales initializer [1,1,3,3] (torch bicubic)", rz("cubic", "pytorch_half_pixel", cubic_coeff_a=-0.75, nearest_mode="floor"), {"x": x}, [cub], [roi, sc])
    case(G, "Resize linear pytorch_half_pixel, scales initializer (torch bilinear)", rz("linear", "pytorch_half_pixel"), {"x": x}, [lin], [roi, sc])
    case(G, "Resize linear half_pixel, scales initializer", rz("linear", "half_pixel"), {"x": x}, [lin], [roi, sc])
    no_ctm = [node("Resize", ["x", "roi", "scales"], "y", mode="linear")]
    case(G, "Resize linear without coordinate_transformation_mode, producer_name 'pytorch'", no_ctm, {"x": x}, [lin], [roi, sc])
    case(G, "Resize linear without coordinate_transformation_mode, producer_name 'other'", no_ctm, {"x": x}, [lin], [roi, sc], producer="other")
    case(G, "Resize linear align_corners, scales initializer", rz("linear", "align_corners"), {"x": x}, [up("bilinear", align_corners=True)], [roi, sc])
    asym = np.zeros((1, C, 24, 24), np.float32)
    src = np.arange(24) / 3.0
    i0 = np.floor(src).astype(int); i1 = np.minimum(i0 + 1, H - 1); t = (src - i0).astype(np.float32)
    rows = x[:, :, i0, :] * (1 - t)[None, None, :, None] + x[:, :, i1, :] * t[None, None, :, None]
    asym = rows[:, :, :, i0] * (1 - t) + rows[:, :, :, i1] * t
    case(G, "Resize linear asymmetric, scales initializer", rz("linear", "asymmetric"), {"x": x}, [asym], [roi, sc])
    case(G, "Resize nearest asymmetric floor (torch nearest)", rz("nearest", "asymmetric", nearest_mode="floor"), {"x": x}, [near], [roi, sc])
    case(G, "Resize linear pytorch_half_pixel, sizes initializer [1,3,24,24], scales empty initializer",
         [node("Resize", ["x", "roi", "se", "sizes"], "y", mode="linear", coordinate_transformation_mode="pytorch_half_pixel")], {"x": x}, [lin],
         [roi, init("se", np.array([], np.float32)), init("sizes", np.array([1, 3, 24, 24], np.int64))])
    case(G, "Resize linear, sizes initializer, roi and scales ''",
         [node("Resize", ["x", "", "", "sizes"], "y", mode="linear", coordinate_transformation_mode="pytorch_half_pixel")], {"x": x}, [lin],
         [init("sizes", np.array([1, 3, 24, 24], np.int64))])
    case(G, "Resize linear, roi and scales as Constant nodes", [const("roi", np.array([], np.float32)), const("scales", np.array([1, 1, 3, 3], np.float32))] + rz("linear", "pytorch_half_pixel"), {"x": x}, [lin])
    i = lambda *v: np.array(v, np.int64)
    case(G, "Resize linear, sizes = Concat(Shape(x)[0:2], Shape(x)[2:4] * 3) (shape arithmetic)",
         [node("Shape", ["x"], "shp"), node("Slice", ["shp", "s0", "s2", "a0"], "nc"), node("Slice", ["shp", "s2", "s4", "a0"], "hw"),
          node("Mul", ["hw", "three"], "hw3"), node("Concat", ["nc", "hw3"], "sizes", axis=0),
          node("Resize", ["x", "roi", "se", "sizes"], "y", mode="linear", coordinate_transformation_mode="pytorch_half_pixel")], {"x": x}, [lin],
         [roi, init("se", np.array([], np.float32)), init("s0", i(0)), init("s2", i(2)), init("s4", i(4)), init("a0", i(0)), init("three", i(3))])
    case(G, "Resize linear, scales = Div(initializer [1,3,24,24], Cast(Shape(x)))",
         [node("Shape", ["x"], "shp"), node("Cast", ["shp"], "shpf", to=1), node("Div", ["tgt", "shpf"], "scales")] + rz("linear", "pytorch_half_pixel"), {"x": x}, [lin],
         [roi, init("tgt", np.array([1, 3, 24, 24], np.float32))])
    case(G, "Resize linear pytorch_half_pixel compared with torch BICUBIC (the approximate rewrite)", rz("linear", "pytorch_half_pixel"), {"x": x}, [cub], [roi, sc])
    for s in (2, 3, 4):
        ref = up("bicubic", s, align_corners=False)
        K = cubic_phase_kernels(s)
        Wt = np.zeros((C * s * s, 1, 5, 5), np.float32)
        for r in range(s):
            for q in range(s):
                Wt[r * s + q::s * s, 0] = np.outer(K[r], K[q])
        case(G, f"FIX: cubic x{s} == Pad(edge, [0,0,2,2,0,0,2,2]) + Conv(group=C, {C * s * s} phase filters 5x5) + DepthToSpace(CRD, {s})",
             [node("Pad", ["x", "p"], "xp", mode="edge"), node("Conv", ["xp", "w"], "ph", group=C, kernel_shape=[5, 5]),
              node("DepthToSpace", ["ph"], "y", blocksize=s, mode="CRD")], {"x": x}, [ref],
             [init("p", i(0, 0, 2, 2, 0, 0, 2, 2)), init("w", Wt)])


GROUPS = {"identity": g_identity, "graph": g_graph, "layernorm": g_layernorm, "broadcast": g_mul_add_const,
          "broadcast-var": g_var_broadcast, "clip": g_clip, "constant-ops": g_constants,
          "expand-var": g_expand_var, "shape-arith": g_shape_arith, "matmul-gemm": g_matmul,
          "misc": g_misc, "resize": g_resize, "detection": g_detection}


def main(argv):
    print(f"# OpenCV {cv2.__version__}, onnx {onnx.__version__}, torch {torch.__version__}")
    for name in (argv[1:] or GROUPS):
        GROUPS[name]()
    print(f"# {len(RESULTS)} cases, {sum(r[2] == 'ACCEPTED' for r in RESULTS)} accepted")


if __name__ == "__main__":
    if hasattr(cv2, "setLogLevel"):
        cv2.setLogLevel(0)
    main(sys.argv)
