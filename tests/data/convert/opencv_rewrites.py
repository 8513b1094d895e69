#!/usr/bin/python3
"""A python reference of the rewrites that make PyTorch's ONNX files load and run in OpenCV DNN
4.6 (the forms FACTS.md lists), used to find them and to check them on the whole corpus.

Every pass assumes static shapes (the model's input shape is fixed) and keeps the numbers:
  strip_empty_inputs      trailing "" inputs dropped (Pad, Resize, Clip count them)
  remove_identity         Identity (and inference Dropout) removed, readers renamed
  fold_constants          every node whose inputs are constants or static shapes is evaluated
                          (numpy); Constant nodes become initializers
  rewrite_clip            Clip(x, lo, hi) -> Relu / Max / Min with Mul(x, 0) + c
  minmax_const_to_var     Min/Max(x, c) -> Min/Max(x, Mul(x, 0) + c)
  decompose_layernorm     LayerNormalization -> ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div,
                          Mul, Add
  rewrite_cubic_resize    Resize cubic x s -> Pad(edge, 2), depthwise Conv 5x5 with s*s phase
                          filters, DepthToSpace(CRD, s)
  squeeze_unsqueeze_to_reshape, split_to_slices, gather_index_to_slice, softmax_explicit_axis,
  normalize_gemm          forms OpenCV refuses or misreads, rewritten
  fix_const_broadcast     Mul/Div/Add/Sub with a constant OpenCV would place on the wrong axes
  fix_var_broadcast_all_ones, fix_var_add_broadcast
                          the same for two variables

Run with Debian's python (python3-onnx, python3-opencv 4.6, numpy):
  opencv_rewrites.py IN.onnx OUT.onnx      rewrite one model
  opencv_rewrites.py --check [DIR]         rewrite every DIR/*.onnx (default: this folder), run
                                           it and the original in OpenCV, compare with
                                           <stem>_torch_output.pb
"""
import os
import sys
import numpy as np
import onnx
from onnx import helper as oh, numpy_helper as nh, shape_inference

# ------------------------------------------------------------------ numpy evaluator

def _ints(a):
    return [int(v) for v in np.asarray(a).ravel()]


def _slice(x, starts, ends, axes=None, steps=None):
    axes = list(range(len(starts))) if axes is None else axes
    steps = [1] * len(starts) if steps is None else steps
    sl = [slice(None)] * x.ndim
    for s, e, a, st in zip(starts, ends, axes, steps):
        sl[a] = slice(s, e, st)
    return x[tuple(sl)]


def _div(a, b):
    if np.issubdtype(a.dtype, np.integer):
        return (np.trunc(a / b)).astype(a.dtype)
    return (a / b).astype(a.dtype)


def _mod(a, b, fmod):
    return np.fmod(a, b) if fmod else np.mod(a, b)


def _attrs(n):
    return {a.name: oh.get_attribute_value(a) for a in n.attribute}


def evaluate(n, ins, opset):
    """Outputs of node n on numpy inputs ins (None for an absent optional input), or None."""
    t, at = n.op_type, _attrs(n)
    x = ins[0] if ins else None
    if t == "Constant":
        return [nh.to_array(at["value"])]
    if t == "Identity":
        return [x]
    if t in ("Add", "Sub", "Mul", "Div", "Pow", "Equal", "Less", "Greater", "And", "Or", "Max", "Min"):
        a, b = ins[0], ins[1]
        f = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": _div, "Pow": np.power,
             "Equal": np.equal, "Less": np.less, "Greater": np.greater, "And": np.logical_and,
             "Or": np.logical_or, "Max": np.maximum, "Min": np.minimum}[t]
        r = f(a, b)
        if t in ("Add", "Sub", "Mul", "Pow", "Max", "Min"):
            r = r.astype(a.dtype)
        return [r]
    if t == "Mod":
        return [_mod(ins[0], ins[1], at.get("fmod", 0)).astype(ins[0].dtype)]
    if t in ("Neg", "Sqrt", "Floor", "Ceil", "Abs", "Exp", "Log", "Not", "Sign", "Reciprocal", "Erf"):
        if t == "Erf":
            import math
            return [np.vectorize(math.erf)(x).astype(x.dtype)]
        f = {"Neg": np.negative, "Sqrt": np.sqrt, "Floor": np.floor, "Ceil": np.ceil, "Abs": np.abs,
             "Exp": np.exp, "Log": np.log, "Not": np.logical_not, "Sign": np.sign,
             "Reciprocal": np.reciprocal}[t]
        return [f(x).astype(x.dtype)]
    if t == "Shape":
        return [np.array(x.shape, np.int64)]
    if t == "Size":
        return [np.array(x.size, np.int64)]
    if t == "Gather":
        return [np.take(x, ins[1], axis=at.get("axis", 0))]
    if t == "Concat":
        return [np.concatenate(ins, axis=at["axis"])]
    if t == "Unsqueeze":
        axes = _ints(ins[1]) if opset >= 13 else at["axes"]
        r = x
        for a in sorted(a % (x.ndim + len(axes)) for a in axes):
            r = np.expand_dims(r, a)
        return [r]
    if t == "Squeeze":
        axes = (_ints(ins[1]) if len(ins) > 1 and ins[1] is not None else None) if opset >= 13 else at.get("axes")
        return [np.squeeze(x, axis=tuple(axes) if axes is not None else None)]
    if t == "Slice":
        starts, ends = _ints(ins[1]), _ints(ins[2])
        axes = _ints(ins[3]) if len(ins) > 3 and ins[3] is not None else None
        steps = _ints(ins[4]) if len(ins) > 4 and ins[4] is not None else None
        return [_slice(x, starts, ends, axes, steps)]
    if t == "Cast":
        return [x.astype(onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[at["to"]])]
    if t == "Where":
        return [np.where(ins[0], ins[1], ins[2])]
    if t == "ConstantOfShape":
        v = nh.to_array(at["value"]) if "value" in at else np.zeros(1, np.float32)
        return [np.full(_ints(x), v.ravel()[0], v.dtype)]
    if t == "Range":
        return [np.arange(ins[0], ins[1], ins[2]).astype(ins[0].dtype)]
    if t in ("ReduceMax", "ReduceMin", "ReduceSum", "ReduceMean", "ReduceProd"):
        axes = at.get("axes")
        if t == "ReduceSum" and opset >= 13 and len(ins) > 1 and ins[1] is not None:
            axes = _ints(ins[1])
        f = {"ReduceMax": np.max, "ReduceMin": np.min, "ReduceSum": np.sum, "ReduceMean": np.mean,
             "ReduceProd": np.prod}[t]
        return [f(x, axis=tuple(axes) if axes else None, keepdims=bool(at.get("keepdims", 1))).astype(x.dtype)]
    if t == "Reshape":
        shape = _ints(ins[1])
        shape = [x.shape[i] if s == 0 else s for i, s in enumerate(shape)]
        return [x.reshape(shape)]
    if t == "Expand":
        return [x * np.ones(_ints(ins[1]), x.dtype)]
    if t == "Tile":
        return [np.tile(x, _ints(ins[1]))]
    if t == "Transpose":
        return [np.transpose(x, at.get("perm"))]
    if t == "Flatten":
        a = at.get("axis", 1)
        return [x.reshape(int(np.prod(x.shape[:a])), -1)]
    if t == "MatMul":
        return [np.matmul(ins[0], ins[1])]
    if t == "ScatterND":
        out = ins[0].copy()
        idx, upd = ins[1], ins[2]
        for k in np.ndindex(idx.shape[:-1]):
            out[tuple(idx[k])] = upd[k]
        return [out]
    if t == "Split":
        axis = at.get("axis", 0)
        if len(ins) > 1 and ins[1] is not None:
            split = _ints(ins[1])
        elif "split" in at:
            split = at["split"]
        else:
            split = [x.shape[axis] // len(n.output)] * len(n.output)
        return np.split(x, np.cumsum(split)[:-1], axis=axis)
    if t == "Dropout":
        return [x] + ([np.ones(x.shape, bool)] if len(n.output) > 1 else [])
    return None


# ------------------------------------------------------------------ graph helpers

class Graph:
    def __init__(self, model):
        self.m = model
        self.g = model.graph
        self.opset = next(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))
        self.n = 0

    def fresh(self, base):
        self.n += 1
        return f"{base}__cv{self.n}"

    def consts(self):
        c = {i.name: nh.to_array(i) for i in self.g.initializer}
        for n in self.g.node:
            if n.op_type == "Constant":
                c[n.output[0]] = evaluate(n, [], self.opset)[0]
        return c

    def shapes(self):
        m = shape_inference.infer_shapes(self.m, data_prop=True)
        s = {}
        for vi in list(m.graph.value_info) + list(m.graph.input) + list(m.graph.output):
            tt = vi.type.tensor_type
            if tt.HasField("shape") and all(d.HasField("dim_value") for d in tt.shape.dim):
                s[vi.name] = [d.dim_value for d in tt.shape.dim]
        for i in self.g.initializer:
            s[i.name] = list(i.dims)
        return s

    def add_init(self, name, arr):
        self.g.initializer.append(nh.from_array(np.asarray(arr), name))

    def consumers(self, name):
        return [n for n in self.g.node if name in n.input]

    def rename_uses(self, old, new):
        for n in self.g.node:
            for i, v in enumerate(n.input):
                if v == old:
                    n.input[i] = new
        for o in self.g.output:
            if o.name == old:
                return False
        return True

    def prune(self):
        """Drops nodes whose outputs nobody reads, and unused initializers."""
        outs = {o.name for o in self.g.output}
        while True:
            used = {i for n in self.g.node for i in n.input} | outs
            keep = [n for n in self.g.node if any(o in used for o in n.output)]
            if len(keep) == len(self.g.node):
                break
            del self.g.node[:]
            self.g.node.extend(keep)
        used = {i for n in self.g.node for i in n.input} | outs
        inits = [i for i in self.g.initializer if i.name in used]
        del self.g.initializer[:]
        self.g.initializer.extend(inits)


# ------------------------------------------------------------------ passes

def fold_constants(G, log):
    """Evaluates every node whose inputs are constants (initializers, Constant nodes) or that
    reads only a static shape; their outputs become initializers. Repeats with fresh shapes."""
    changed_any = False
    while True:
        consts, shapes = G.consts(), G.shapes()
        folded = False
        new_nodes = []
        for n in G.g.node:
            if n.op_type == "Constant":
                # a Constant node becomes an initializer
                G.add_init(n.output[0], consts[n.output[0]])
                folded = True
                continue
            ins = []
            ok = True
            for k, i in enumerate(n.input):
                if i == "":
                    ins.append(None)
                elif i in consts:
                    ins.append(consts[i])
                elif n.op_type in ("Shape", "Size") and k == 0 and i in shapes:
                    ins.append(np.zeros(shapes[i], np.float32))
                else:
                    ok = False
            outs = evaluate(n, ins, G.opset) if ok and n.input else None
            if outs is None:
                new_nodes.append(n)
                continue
            for o, v in zip(n.output, outs):
                G.add_init(o, np.asarray(v))
                consts[o] = np.asarray(v)
            log.append(f"folded {n.op_type} {n.output[0]}")
            folded = True
        del G.g.node[:]
        G.g.node.extend(new_nodes)
        G.prune()
        if not folded:
            return changed_any
        changed_any = True


def remove_identity(G, log):
    keep = []
    for n in G.g.node:
        used = {i for m in G.g.node for i in m.input} | {o.name for o in G.g.output}
        if n.op_type in ("Identity", "Dropout") and not any(o in used for o in n.output[1:]):
            if G.rename_uses(n.output[0], n.input[0]):
                log.append(f"removed {n.op_type} {n.output[0]}")
                continue
        keep.append(n)
    del G.g.node[:]
    G.g.node.extend(keep)
    G.prune()


def rewrite_clip(G, log):
    consts = G.consts()
    out = []
    for n in G.g.node:
        if n.op_type != "Clip" or len([i for i in n.input if i]) == 1:
            out.append(n)
            continue
        x = n.input[0]
        lo = consts[n.input[1]].item() if len(n.input) > 1 and n.input[1] else None
        hi = consts[n.input[2]].item() if len(n.input) > 2 and n.input[2] else None
        zero = G.fresh(x + "/zero")
        G.add_init(zero + "_c", np.array(0, np.float32))
        out.append(oh.make_node("Mul", [x, zero + "_c"], [zero]))
        cur = x
        if lo is not None:
            if lo == 0.0:
                r = G.fresh(x + "/relu")
                out.append(oh.make_node("Relu", [cur], [r]))
            else:
                lov = G.fresh(x + "/lo")
                G.add_init(lov + "_c", np.array(lo, np.float32))
                out.append(oh.make_node("Add", [zero, lov + "_c"], [lov]))
                r = G.fresh(x + "/max")
                out.append(oh.make_node("Max", [cur, lov], [r]))
            cur = r
        if hi is not None:
            hiv = G.fresh(x + "/hi")
            G.add_init(hiv + "_c", np.array(hi, np.float32))
            out.append(oh.make_node("Add", [zero, hiv + "_c"], [hiv]))
            out.append(oh.make_node("Min", [cur, hiv], [n.output[0]]))
        else:
            out.append(oh.make_node("Identity", [cur], [n.output[0]]))
        log.append(f"Clip({lo},{hi}) -> Min/Max with Mul(x,0)+c {n.output[0]}")
    del G.g.node[:]
    G.g.node.extend(out)


def decompose_layernorm(G, log):
    out = []
    for n in G.g.node:
        if n.op_type != "LayerNormalization":
            out.append(n)
            continue
        at = _attrs(n)
        axis, eps = at.get("axis", -1), at.get("epsilon", 1e-5)
        assert axis == -1, axis
        x, w = n.input[0], n.input[1]
        b = n.input[2] if len(n.input) > 2 else ""
        p = n.output[0]
        names = {k: G.fresh(p + "/" + k) for k in ("m", "d", "d2", "v", "ve", "s", "n", "nw")}
        G.add_init(names["d2"] + "_two", np.array(2.0, np.float32))
        G.add_init(names["ve"] + "_eps", np.array(eps, np.float32))
        out += [oh.make_node("ReduceMean", [x], [names["m"]], axes=[-1]),
                oh.make_node("Sub", [x, names["m"]], [names["d"]]),
                oh.make_node("Pow", [names["d"], names["d2"] + "_two"], [names["d2"]]),
                oh.make_node("ReduceMean", [names["d2"]], [names["v"]], axes=[-1]),
                oh.make_node("Add", [names["v"], names["ve"] + "_eps"], [names["ve"]]),
                oh.make_node("Sqrt", [names["ve"]], [names["s"]]),
                oh.make_node("Div", [names["d"], names["s"]], [names["n"]])]
        if b:
            out += [oh.make_node("Mul", [names["n"], w], [names["nw"]]),
                    oh.make_node("Add", [names["nw"], b], [p])]
        else:
            out += [oh.make_node("Mul", [names["n"], w], [p])]
        log.append(f"LayerNormalization -> ReduceMean/Sub/Pow/ReduceMean/Add/Sqrt/Div/Mul/Add {p}")
    del G.g.node[:]
    G.g.node.extend(out)


def opencv_mul_const_ok(cshape, xs):
    """OpenCV's Mul/Div with a constant: Scale layer, weights flattened, applied from axis 1
    over the first span of axes whose product equals the constant's size."""
    cs = [1] * (len(xs) - len(cshape)) + list(cshape)
    if cs[0] != 1:
        return False
    for e in range(2, len(xs) + 1):
        if int(np.prod(xs[1:e])) == int(np.prod(cs)):
            return cs[1:e] == xs[1:e] and all(v == 1 for v in cs[e:])
    return False


def opencv_add_const_ok(cshape, xs, is_initializer):
    """OpenCV's Add/Sub with a constant: same shape -> Eltwise; else Scale (bias) from axis
    rank(x) - rank(c) for an initializer, from axis 1 for a Constant node's value."""
    if list(cshape) == list(xs):
        return True
    ax = len(xs) - len(cshape) if is_initializer else 1
    if ax < 0:
        return False
    n = int(np.prod(cshape))
    for e in range(ax + 1, len(xs) + 1):
        if int(np.prod(xs[ax:e])) == n:
            span = list(cshape) + [1] * (len(xs) - ax - len(cshape))
            return span[:e - ax] == xs[ax:e] and all(v == 1 for v in span[e - ax:])
    return False


def fix_const_broadcast(G, log):
    """Mul/Div/Add/Sub of a variable x and a non-scalar constant c that OpenCV would place on
    the wrong axes: Add/Sub get c without its leading ones (an initializer), and when that is
    not enough, and Mul/Div always, c broadcast to x's full shape."""
    consts, shapes = G.consts(), G.shapes()
    inits = {i.name for i in G.g.initializer}
    for n in G.g.node:
        if n.op_type not in ("Mul", "Div", "Add", "Sub") or len(n.input) != 2:
            continue
        ci = [k for k in (0, 1) if n.input[k] in consts]
        if len(ci) != 1:
            continue
        k = ci[0]
        c = consts[n.input[k]]
        xs = shapes.get(n.input[1 - k])
        if c.size == 1 or xs is None:
            continue
        if list(np.broadcast_shapes(tuple(xs), c.shape)) != xs:
            continue  # the constant is the bigger operand: not handled here
        if n.op_type in ("Mul", "Div"):
            if opencv_mul_const_ok(c.shape, xs):
                continue
            new = G.fresh(n.input[k] + "/full")
            G.add_init(new, np.ascontiguousarray(np.broadcast_to(c, xs)))
            log.append(f"{n.op_type}: constant {list(c.shape)} broadcast to {xs}")
        else:
            if opencv_add_const_ok(c.shape, xs, n.input[k] in inits):
                continue
            cs = list(c.shape)
            while cs and cs[0] == 1:
                cs = cs[1:]
            new = G.fresh(n.input[k] + "/fixed")
            if opencv_add_const_ok(cs, xs, True):
                G.add_init(new, c.reshape(cs))
                log.append(f"{n.op_type}: constant {list(c.shape)} reshaped to {cs} on {xs}")
            else:
                G.add_init(new, np.ascontiguousarray(np.broadcast_to(c, xs)))
                log.append(f"{n.op_type}: constant {list(c.shape)} broadcast to {xs}")
        n.input[k] = new
    G.prune()


def fix_var_broadcast_all_ones(G, log):
    """Mul/Div of two variables where the smaller one is all ones ([1,..,1]): OpenCV asserts
    axis != outShape.size(); broadcast it first with MatMul(s, ones[1, C])."""
    consts, shapes = G.consts(), G.shapes()
    out = []
    for n in G.g.node:
        if n.op_type in ("Mul", "Div") and len(n.input) == 2 and not any(i in consts for i in n.input):
            a, b = (shapes.get(i) for i in n.input)
            if a and b and a != b and len(a) == len(b):
                small = 1 if np.prod(b) < np.prod(a) else 0
                ss, bs = (b, a) if small == 1 else (a, b)
                if all(v == 1 for v in ss):
                    C = bs[-1]
                    e = G.fresh(n.input[small] + "/bcast")
                    G.add_init(e + "_ones", np.ones((1, C), np.float32))
                    out.append(oh.make_node("MatMul", [n.input[small], e + "_ones"], [e]))
                    n.input[small] = e
                    log.append(f"{n.op_type}: all-ones operand {ss} broadcast by MatMul to last dim {C}")
        out.append(n)
    del G.g.node[:]
    G.g.node.extend(out)


def strip_empty_inputs(G, log):
    """Trailing empty optional inputs ("") are dropped: OpenCV counts them (Pad, Resize, Clip)."""
    for n in G.g.node:
        k = len(n.input)
        while k and n.input[k - 1] == "":
            k -= 1
        if k != len(n.input):
            log.append(f"stripped {len(n.input) - k} empty inputs of {n.op_type} {n.output[0]}")
            del n.input[k:]


def cubic_phase_kernels(s, A=-0.75):
    """1-D taps of bicubic upsampling by the integer factor s (half-pixel centres, edge
    replicate): out[s*i + r] = sum_d K[r][d + 2] * x[clamp(i + d)], d in -2..2."""
    def w(t):
        return [((A * (t + 1) - 5 * A) * (t + 1) + 8 * A) * (t + 1) - 4 * A,
                ((A + 2) * t - (A + 3)) * t * t + 1,
                ((A + 2) * (1 - t) - (A + 3)) * (1 - t) * (1 - t) + 1,
                ((A * (2 - t) - 5 * A) * (2 - t) + 8 * A) * (2 - t) - 4 * A]
    K = np.zeros((s, 5), np.float64)
    for r in range(s):
        src = (r + 0.5) / s - 0.5
        f = int(np.floor(src))
        for k, wk in enumerate(w(src - f)):
            K[r, f - 1 + k + 2] += wk
    return K


def rewrite_cubic_resize(G, log):
    """Resize mode=cubic with constant integer scales [1,1,s,s] (pytorch_half_pixel or
    half_pixel, exclude_outside=0) -> Pad(edge, 2) + depthwise Conv 5x5 with s*s phase filters
    + DepthToSpace(CRD, s)."""
    consts, shapes = G.consts(), G.shapes()
    out = []
    for n in G.g.node:
        at = _attrs(n)
        if n.op_type != "Resize" or at.get("mode", b"nearest") != b"cubic":
            out.append(n)
            continue
        scales = consts.get(n.input[2]) if len(n.input) > 2 and n.input[2] else None
        xs = shapes[n.input[0]]
        if scales is None or scales.size == 0:
            sizes = consts[n.input[3]]
            scales = np.array(sizes, np.float64) / np.array(xs)
        sh, sw = float(scales[2]), float(scales[3])
        assert list(scales[:2]) == [1, 1] and sh == sw and sh == int(sh), scales
        assert at.get("coordinate_transformation_mode", b"half_pixel") in (b"pytorch_half_pixel", b"half_pixel")
        assert at.get("exclude_outside", 0) == 0
        s, C = int(sh), xs[1]
        K = cubic_phase_kernels(s, at.get("cubic_coeff_a", -0.75))
        Wt = np.zeros((C * s * s, 1, 5, 5), np.float32)
        for r in range(s):
            for q in range(s):
                Wt[r * s + q::s * s, 0] = np.outer(K[r], K[q])
        p = n.output[0]
        pad, conv = G.fresh(p + "/pad"), G.fresh(p + "/phases")
        G.add_init(pad + "_pads", np.array([0, 0, 2, 2, 0, 0, 2, 2], np.int64))
        G.add_init(conv + "_w", Wt)
        out += [oh.make_node("Pad", [n.input[0], pad + "_pads"], [pad], mode="edge"),
                oh.make_node("Conv", [pad, conv + "_w"], [conv], group=C, kernel_shape=[5, 5]),
                oh.make_node("DepthToSpace", [conv], [p], blocksize=s, mode="CRD")]
        log.append(f"Resize cubic x{s} -> Pad(edge)+Conv(group={C})+DepthToSpace {p}")
    del G.g.node[:]
    G.g.node.extend(out)
    G.prune()


def squeeze_unsqueeze_to_reshape(G, log):
    """Squeeze with an axes input (opset 13) is refused; Unsqueeze with a negative or more than
    one axis is refused: both become Reshape to the static output shape."""
    shapes = G.shapes()
    for n in G.g.node:
        if n.op_type not in ("Squeeze", "Unsqueeze") or n.output[0] not in shapes:
            continue
        if n.op_type == "Unsqueeze":
            axes = _ints(G.consts()[n.input[1]]) if len(n.input) > 1 else _attrs(n)["axes"]
            if len(axes) == 1 and axes[0] >= 0:
                continue
        elif len(n.input) == 1:
            continue
        shp = G.fresh(n.output[0] + "/shape")
        G.add_init(shp, np.array(shapes[n.output[0]], np.int64))
        log.append(f"{n.op_type} -> Reshape {shapes[n.output[0]]}")
        n.op_type = "Reshape"
        del n.attribute[:]
        del n.input[1:]
        n.input.append(shp)
    G.prune()


def softmax_explicit_axis(G, log):
    """Softmax/LogSoftmax without an axis attribute: ONNX's default (-1 at opset 13, 1 before)
    written out, OpenCV's own default is 1."""
    for n in G.g.node:
        if n.op_type in ("Softmax", "LogSoftmax") and "axis" not in _attrs(n):
            n.attribute.append(oh.make_attribute("axis", -1 if G.opset >= 13 else 1))
            log.append(f"{n.op_type}: axis written out")


def normalize_gemm(G, log):
    """Gemm with transB=0 (refused), alpha or beta != 1 (ignored by OpenCV): weight transposed
    and scaled offline, bias scaled offline."""
    consts = G.consts()
    for n in G.g.node:
        if n.op_type != "Gemm":
            continue
        at = _attrs(n)
        if at.get("transA", 0):
            continue
        alpha, beta, tb = at.get("alpha", 1.0), at.get("beta", 1.0), at.get("transB", 0)
        if tb == 1 and alpha == 1.0 and beta == 1.0:
            continue
        if n.input[1] not in consts:
            continue
        w = consts[n.input[1]]
        w = (w if tb else w.T) * np.float32(alpha)
        nw = G.fresh(n.input[1] + "/gemm")
        G.add_init(nw, np.ascontiguousarray(w.astype(np.float32)))
        n.input[1] = nw
        if len(n.input) > 2 and n.input[2] and beta != 1.0:
            nb = G.fresh(n.input[2] + "/gemm")
            G.add_init(nb, (consts[n.input[2]] * np.float32(beta)).astype(np.float32))
            n.input[2] = nb
        del n.attribute[:]
        n.attribute.append(oh.make_attribute("transB", 1))
        log.append(f"Gemm: transB={tb} alpha={alpha} beta={beta} folded into the initializers")
    G.prune()


def split_to_slices(G, log):
    """Split with a split input (opset 13): OpenCV ignores it and splits equally."""
    consts, shapes = G.consts(), G.shapes()
    out = []
    for n in G.g.node:
        if n.op_type != "Split" or len(n.input) < 2 or not n.input[1]:
            out.append(n)
            continue
        split = _ints(consts[n.input[1]])
        if len(set(split)) == 1:
            del n.input[1:]
            out.append(n)
            log.append("Split: equal split input dropped")
            continue
        axis = _attrs(n).get("axis", 0) % len(shapes[n.input[0]])
        start = 0
        for o, k in zip(n.output, split):
            b = G.fresh(o + "/slice")
            G.add_init(b + "_s", np.array([start], np.int64))
            G.add_init(b + "_e", np.array([start + k], np.int64))
            G.add_init(b + "_a", np.array([axis], np.int64))
            out.append(oh.make_node("Slice", [n.input[0], b + "_s", b + "_e", b + "_a"], [o]))
            start += k
        log.append(f"Split {split} -> Slices")
    del G.g.node[:]
    G.g.node.extend(out)
    G.prune()


def gather_index_to_slice(G, log):
    """Gather on a variable with a 1-element 1-D index: OpenCV drops the axis; use Slice."""
    consts, shapes = G.consts(), G.shapes()
    for n in G.g.node:
        if n.op_type != "Gather" or n.input[0] in consts or n.input[1] not in consts:
            continue
        idx = consts[n.input[1]]
        if idx.ndim != 1 or idx.size != 1:
            continue
        axis = _attrs(n).get("axis", 0) % len(shapes[n.input[0]])
        k = int(idx[0]) % shapes[n.input[0]][axis]
        b = G.fresh(n.output[0] + "/slice")
        G.add_init(b + "_s", np.array([k], np.int64))
        G.add_init(b + "_e", np.array([k + 1], np.int64))
        G.add_init(b + "_a", np.array([axis], np.int64))
        n.op_type = "Slice"
        del n.attribute[:]
        del n.input[1:]
        n.input.extend([b + "_s", b + "_e", b + "_a"])
        log.append("Gather with index [k] -> Slice")
    G.prune()


def fix_var_add_broadcast(G, log):
    """Add/Sub of two variables where the smaller one does not span axes 1..k of the bigger:
    OpenCV's Scale layer applies it from axis 1 and gives wrong numbers; broadcast it first by
    a variable Mul with ones (Mul finds the right axis)."""
    consts, shapes = G.consts(), G.shapes()
    out = []
    for n in G.g.node:
        if n.op_type in ("Add", "Sub") and len(n.input) == 2 and not any(i in consts for i in n.input):
            a, b = (shapes.get(i) for i in n.input)
            if a and b and a != b and len(a) == len(b):
                small = 1 if np.prod(b) < np.prod(a) else 0
                ss, bs = (b, a) if small == 1 else (a, b)
                if not opencv_mul_const_ok(ss, bs) and not all(v == 1 for v in ss):
                    big = n.input[1 - small]
                    z, o, e = (G.fresh(n.output[0] + k) for k in ("/zero", "/ones", "/bcast"))
                    G.add_init(z + "_c", np.array(0, np.float32))
                    G.add_init(o + "_c", np.array(1, np.float32))
                    out += [oh.make_node("Mul", [big, z + "_c"], [z]), oh.make_node("Add", [z, o + "_c"], [o]),
                            oh.make_node("Mul", [o, n.input[small]], [e])]
                    n.input[small] = e
                    log.append(f"{n.op_type}: variable operand {ss} broadcast to {bs} by Mul with ones")
        out.append(n)
    del G.g.node[:]
    G.g.node.extend(out)


def minmax_const_to_var(G, log):
    """Min/Max with a constant operand: OpenCV's Eltwise wants two variables; the constant c
    becomes Add(Mul(x, 0), c) (exact for finite x)."""
    consts = G.consts()
    out = []
    for n in G.g.node:
        if n.op_type in ("Min", "Max") and len(n.input) == 2:
            ci = [k for k in (0, 1) if n.input[k] in consts]
            if len(ci) == 1:
                k = ci[0]
                x = n.input[1 - k]
                z, v = G.fresh(x + "/zero"), G.fresh(x + "/const")
                G.add_init(z + "_c", np.array(0, np.float32))
                out += [oh.make_node("Mul", [x, z + "_c"], [z]), oh.make_node("Add", [z, n.input[k]], [v])]
                n.input[k] = v
                log.append(f"{n.op_type}: constant operand made a variable")
        out.append(n)
    del G.g.node[:]
    G.g.node.extend(out)


PASSES = [strip_empty_inputs, remove_identity, fold_constants, rewrite_clip, minmax_const_to_var,
          decompose_layernorm, rewrite_cubic_resize, squeeze_unsqueeze_to_reshape, split_to_slices,
          gather_index_to_slice, softmax_explicit_axis, normalize_gemm, fold_constants,
          fix_const_broadcast, fix_var_broadcast_all_ones, fix_var_add_broadcast]


def convert(model, passes=PASSES):
    G = Graph(model)
    log = []
    for p in passes:
        p(G, log)
    onnx.checker.check_model(G.m)
    return G.m, log


def _load_pb(path):
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return nh.to_array(t)


def _run_opencv(model, feed, outputs):
    import cv2
    if hasattr(cv2, "setLogLevel"):
        cv2.setLogLevel(0)
    try:
        net = cv2.dnn.readNetFromONNX(np.frombuffer(model.SerializeToString(), np.uint8))
        net.setInput(feed)
        return net.forward(outputs), None
    except cv2.error as e:
        lines = [l.strip("> ") for l in str(e).splitlines() if "Node [" in l] or [str(e).strip().splitlines()[0]]
        return None, lines[0][:200]


def check(folder):
    """Each DIR/*.onnx as written and rewritten, in OpenCV, against PyTorch's outputs."""
    import glob
    import collections
    for path in sorted(glob.glob(os.path.join(folder, "*.onnx"))):
        stem = os.path.basename(path)[:-5]
        feed = _load_pb(os.path.join(folder, stem.split("_op")[0] + "_input.pb"))
        original = onnx.load(path)
        outs = [o.name for o in original.graph.output]
        refs = [_load_pb(os.path.join(folder, f"{stem}_torch_output{'' if len(outs) == 1 else k}.pb"))
                for k in range(len(outs))]
        rewritten, log = convert(onnx.load(path))
        for what, m in (("as written", original), ("rewritten", rewritten)):
            ys, err = _run_opencv(m, feed, outs)
            if err:
                print(f"{stem:32} {what:10} REFUSED {err}")
                continue
            e = max(float(np.abs(y.reshape(r.shape) - r).max()) for y, r in zip(ys, refs))
            scale = max(float(np.abs(r).max()) for r in refs)
            print(f"{stem:32} {what:10} {'OK   ' if e <= 1e-5 * max(scale, 1e-3) else 'WRONG'} max abs err {e:.3g} (outputs up to {scale:.3g})")
        kinds = collections.Counter(l.split(" ")[0].rstrip(":") for l in log)
        print(f"{'':32} {'passes':10} " + ", ".join(f"{k} x{v}" for k, v in sorted(kinds.items())))


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "--check":
        check(sys.argv[2] if len(sys.argv) > 2 else os.path.dirname(os.path.abspath(__file__)))
        sys.exit(0)
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    m, log = convert(onnx.load(sys.argv[1]))
    onnx.save(m, sys.argv[2])
    print("\n".join(l for l in log if not l.startswith("folded")))
    print(f"{sum(l.startswith('folded') for l in log)} nodes folded")
