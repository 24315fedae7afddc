#!/usr/bin/env python3
"""Differential tests against ONNX Runtime on generated edge-case models.

Per op family, one-node models for each element type the op takes (int64
included), fed edge inputs: empty and size-1 dims, broadcasting, NaN, ±Inf
and -0, negative and out-of-range indices, extreme attributes. Each case runs
on ONNX Runtime (the reference) and through `npu-run` on each target (the CPU
path, and the NPU path with its CPU fallback). Outcomes:

  agree      both answered, same dtype, shape, NaN positions and values
             (floats within 1e-5 relative + 1e-6 absolute, integers exact);
  refuse     both refused the input (ORT errors, we exit 1 with a diagnostic);
  GAP        ORT answers, we refuse with a diagnostic: a failure (a valid
             model refused);
  MISMATCH   different answers: a failure;
  ACCEPTED   ORT refuses, we answer (a clamp or a guess): a failure;
  CRASH      we died (signal, panic, exit other than 0/1) or wrote an output
             that does not decode: a failure.

A few cases are judged by ONNX's reference implementation instead, each
saying why (ORT answering against the spec: empty reductions, NaN in max/min
reductions and MaxPool). Integer overflow and float products that overflow
are left out: ONNX does not define them, and implementations differ.

Usage: edge_cases.py [--check] [--sample N] [--seed S] [--targets cpu,npu]
                     [--bin target/release] [--jobs N] [--verbose] [filter]
--sample N runs a random N of the cases (CI); without it, all of them.
Prints a table per family and the failing cases; --check exits 1 on a failure.
"""
import argparse
import concurrent.futures as cf
import pathlib
import random
import re
import subprocess
import sys
import tempfile
import warnings

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h
from onnx.reference import ReferenceEvaluator

ort.set_default_logger_severity(3)
# The references divide by zero and overflow on purpose.
warnings.filterwarnings("ignore", category=RuntimeWarning)

ROOT = pathlib.Path(__file__).resolve().parent.parent
OPSET = 17

NP = {T.FLOAT: np.float32, T.DOUBLE: np.float64, T.INT32: np.int32, T.INT64: np.int64, T.INT8: np.int8, T.UINT8: np.uint8, T.BOOL: np.bool_, T.FLOAT16: np.float16}
FLOATS = [T.FLOAT, T.DOUBLE]
INTS = [T.INT32, T.INT64]


class Case:
    """One model and its inputs; `name` says what is on the edge."""

    def __init__(self, family, name, nodes, inputs, outputs, initializers=(), reference=None):
        self.family, self.name = family, name
        self.nodes, self.inputs, self.outputs, self.initializers = nodes, inputs, outputs, list(initializers)
        # Why ONNX's own reference implementation judges this case instead of
        # ONNX Runtime (where ORT answers against the spec), or (why, the
        # expected outputs) where no implementation is consistent; or None.
        self.reference = reference

    def model(self):
        vi = lambda n, a: h.make_tensor_value_info(n, onnx.helper.np_dtype_to_tensor_dtype(a.dtype), list(a.shape))
        outs = [h.make_tensor_value_info(n, t, None) for n, t in self.outputs]
        g = h.make_graph(self.nodes, "g", [vi(n, a) for n, a in self.inputs.items()], outs, self.initializers)
        m = h.make_model(g, opset_imports=[h.make_opsetid("", OPSET)])
        m.ir_version = 8
        return m


def arr(values, t):
    return np.array(values, dtype=NP[t])


def special(t, shape, rng, overflow=True, huge=True):
    """Values of type t with its edges: NaN, ±Inf, -0 for floats; min/max for
    integers (not with `overflow=False`: ONNX leaves integer overflow undefined,
    and ONNX Runtime sums some integer reductions through double); for
    floats, not the largest finite values with `huge=False` (a product that
    overflows is -Inf or, fused into an add, not: FMA decides)."""
    n = int(np.prod(shape))
    if t in FLOATS or t == T.FLOAT16:
        pool = [np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.5, 2.5, 1e-30] + ([3e38 if t == T.FLOAT else 1e300] if huge else [])
    elif t == T.BOOL:
        pool = [True, False]
    else:
        info = np.iinfo(NP[t])
        pool = ([info.min, info.max] if overflow else []) + [0, 1, -1 if info.min < 0 else 2, 7, -7 if info.min < 0 else 9]
    return np.array([pool[rng.randrange(len(pool))] for _ in range(n)], dtype=NP[t]).reshape(shape)


def ordinary(t, shape, rng):
    n = int(np.prod(shape))
    if t in FLOATS or t == T.FLOAT16:
        return np.array([rng.uniform(-4, 4) for _ in range(n)], dtype=NP[t]).reshape(shape)
    if t == T.BOOL:
        return np.array([rng.random() < 0.5 for _ in range(n)], dtype=np.bool_).reshape(shape)
    lo, hi = (0, 9) if t == T.UINT8 else (-9, 9)
    return np.array([rng.randint(lo, hi) for _ in range(n)], dtype=NP[t]).reshape(shape)


def cases(rng):
    out = []
    # Elementwise binary ops: shapes with broadcasting, size 1 and empty dims; edge values.
    shapes = [("same", [2, 3], [2, 3]), ("broadcast", [2, 1, 3], [4, 1]), ("scalar", [3], []), ("size1", [1], [1]), ("empty", [0, 3], [1, 3])]
    for op, types in [("Add", FLOATS + INTS + [T.INT8, T.UINT8]), ("Sub", FLOATS + INTS), ("Mul", FLOATS + INTS), ("Div", FLOATS + INTS), ("Max", FLOATS + INTS + [T.UINT8]), ("Min", FLOATS + INTS), ("Pow", [T.FLOAT]), ("Mod", INTS), ("Equal", FLOATS + INTS), ("Less", FLOATS + INTS)]:
        for t in types:
            for sname, sa, sb in shapes:
                for vals in ("ordinary", "special"):
                    gen = ordinary if vals == "ordinary" else special
                    a, b = gen(t, sa, rng), gen(t, sb, rng)
                    if op in ("Div", "Mod") and t in INTS:
                        b = np.where(b == 0, 3, b).astype(NP[t])
                        if vals == "special":
                            b = np.where(b == -1, 5, b).astype(NP[t])  # INT_MIN / -1 traps in C
                    attrs = {"fmod": 0} if op == "Mod" else {}
                    rt = T.BOOL if op in ("Equal", "Less") else t
                    out.append(Case("elementwise", f"{op} {T.DataType.Name(t).lower()} {sname} {vals}", [h.make_node(op, ["a", "b"], ["y"], **attrs)], {"a": a, "b": b}, [("y", rt)]))
    # Unary float ops on NaN, ±Inf, -0 and huge values.
    for op in ["Relu", "Abs", "Neg", "Sqrt", "Exp", "Log", "Sigmoid", "Tanh", "Floor", "Ceil", "Round", "Sign", "Reciprocal", "Softplus", "Erf", "IsNaN", "IsInf"]:
        for t in [T.FLOAT, T.DOUBLE] if op not in ("Softplus", "Erf") else [T.FLOAT]:
            for sname, shape in [("special", [2, 5]), ("empty", [0]), ("scalar", [])]:
                x = special(t, shape, rng)
                rt = T.BOOL if op.startswith("Is") else t
                out.append(Case("unary", f"{op} {T.DataType.Name(t).lower()} {sname}", [h.make_node(op, ["x"], ["y"])], {"x": x}, [("y", rt)]))
    for op in ["Abs", "Neg", "Sign"]:
        for t in INTS + [T.INT8]:
            out.append(Case("unary", f"{op} {T.DataType.Name(t).lower()} extremes", [h.make_node(op, ["x"], ["y"])], {"x": special(t, [2, 4], rng)}, [("y", t)]))
    # Reductions over each type, with keepdims both ways, empty and NaN inputs.
    for op in ["ReduceSum", "ReduceMax", "ReduceMin", "ReduceMean", "ReduceProd", "ArgMax", "ArgMin"]:
        for t in FLOATS + INTS:
            for sname, shape, vals in [("ordinary", [2, 3, 4], "ordinary"), ("special", [3, 4], "special"), ("size1", [1, 1], "ordinary"), ("empty-kept", [2, 0], "ordinary")]:
                if sname == "empty-kept" and (op in ("ReduceMax", "ReduceMin", "ArgMax", "ArgMin") or (op == "ReduceMean" and t in INTS)):
                    continue  # no identity (ORT refuses), or 0/0 in integers (undefined)
                reference = None
                if sname == "empty-kept":
                    reference = "ORT returns the empty input's shape, against its own shape inference"
                elif vals == "special" and t in FLOATS and op in ("ReduceMax", "ReduceMin"):
                    reference = "ORT's NaN handling depends on where the NaN is (first element: NaN, later: dropped)"
                sums = op in ("ReduceSum", "ReduceMean", "ReduceProd")
                x = ordinary(t, shape, rng) if vals == "ordinary" else special(t, shape, rng, overflow=not sums)
                for keep in (0, 1):
                    if op.startswith("Arg"):
                        node = h.make_node(op, ["x"], ["y"], axis=-1, keepdims=keep)
                        rt = T.INT64
                        inits = []
                        ins = ["x"]
                    else:
                        ins = ["x", "axes"] if op == "ReduceSum" else ["x"]
                        attrs = {"keepdims": keep}
                        if op != "ReduceSum":
                            attrs["axes"] = [-1]
                        inits = [onnx.numpy_helper.from_array(np.array([-1], np.int64), "axes")] if op == "ReduceSum" else []
                        node = h.make_node(op, ins, ["y"], **attrs)
                        rt = t
                    out.append(Case("reduce", f"{op} {T.DataType.Name(t).lower()} {sname} keepdims={keep}", [node], {"x": x}, [("y", rt)], inits, reference))
    # Indexing: negative and out-of-range indices, empty index lists.
    data = np.arange(12, dtype=np.float32).reshape(3, 4)
    for name, idx in [("negative", [-1, -3, 0]), ("out-of-range", [0, 3]), ("out-of-range-negative", [-4]), ("empty", np.zeros([0], np.int64)), ("int32", np.array([2, -2], np.int32)), ("int64 minimum", [0, -2**63])]:
        i = np.array(idx, dtype=np.int64) if not isinstance(idx, np.ndarray) else idx
        for axis in (0, 1, -1):
            out.append(Case("index", f"Gather axis={axis} {name}", [h.make_node("Gather", ["x", "i"], ["y"], axis=axis)], {"x": data, "i": i}, [("y", T.FLOAT)]))
    for name, idx in [("negative", [[-1, 0, -4, 3]] * 3), ("out-of-range", [[0, 4, 1, 2]] * 3), ("out-of-range-negative", [[0, -5, 1, 2]] * 3)]:
        out.append(Case("index", f"GatherElements {name}", [h.make_node("GatherElements", ["x", "i"], ["y"], axis=1)], {"x": data, "i": np.array(idx, np.int64)}, [("y", T.FLOAT)]))
    for name, idx in [("in-range", [[1, 0]]), ("out-of-range", [[1, 4]]), ("negative", [[-1, 0]])]:
        upd = np.array([[10.0, 20.0]], np.float32)
        out.append(Case("index", f"ScatterElements {name}", [h.make_node("ScatterElements", ["x", "i", "u"], ["y"], axis=1)], {"x": data, "i": np.array(idx, np.int64), "u": upd}, [("y", T.FLOAT)]))
    for name, idx in [("in-range", [[0, 1], [2, -1]]), ("out-of-range", [[0, 1], [3, 0]]), ("out-of-range-inner", [[0, 4]]), ("negative", [[-3, -4]])]:
        out.append(Case("index", f"GatherND {name}", [h.make_node("GatherND", ["x", "i"], ["y"])], {"x": data, "i": np.array(idx, np.int64)}, [("y", T.FLOAT)]))
        out.append(Case("index", f"ScatterND {name}", [h.make_node("ScatterND", ["x", "i", "u"], ["y"])], {"x": data, "i": np.array(idx, np.int64), "u": np.arange(len(idx), dtype=np.float32) + 100}, [("y", T.FLOAT)]))
    for name, idx in [("in-range", [0, 2, -1]), ("out-of-range", [0, 5, -6])]:
        depth = [onnx.numpy_helper.from_array(np.array(4, np.int64), "d"), onnx.numpy_helper.from_array(np.array([0.0, 1.0], np.float32), "v")]
        out.append(Case("index", f"OneHot {name}", [h.make_node("OneHot", ["i", "d", "v"], ["y"])], {"i": np.array(idx, np.int64)}, [("y", T.FLOAT)], depth))
    for name, starts, ends, axes, steps in [("huge-ends", [0], [2**63 - 1], [1], [1]), ("negative-step", [-1], [-2**63], [1], [-1]), ("empty", [2], [1], [0], [1]), ("clamped-start", [-100], [100], [0], [2]), ("step-3", [3], [0], [1], [-3])]:
        inits = [onnx.numpy_helper.from_array(np.array(v, np.int64), n) for n, v in [("s", starts), ("e", ends), ("a", axes), ("st", steps)]]
        out.append(Case("shape", f"Slice {name}", [h.make_node("Slice", ["x", "s", "e", "a", "st"], ["y"])], {"x": data}, [("y", T.FLOAT)], inits))
    # Shape ops with empty and size-1 dims.
    e = np.zeros([0, 4], np.float32)
    out.append(Case("shape", "Concat with an empty input", [h.make_node("Concat", ["a", "b"], ["y"], axis=0)], {"a": data, "b": e}, [("y", T.FLOAT)]))
    out.append(Case("shape", "Transpose empty", [h.make_node("Transpose", ["a"], ["y"], perm=[1, 0])], {"a": e}, [("y", T.FLOAT)]))
    out.append(Case("shape", "Transpose int64", [h.make_node("Transpose", ["a"], ["y"], perm=[1, 0])], {"a": special(T.INT64, [2, 3], rng)}, [("y", T.INT64)]))
    out.append(Case("shape", "Expand to size-1", [h.make_node("Expand", ["a", "s"], ["y"])], {"a": np.ones([1, 3], np.float32)}, [("y", T.FLOAT)], [onnx.numpy_helper.from_array(np.array([2, 1, 3], np.int64), "s")]))
    out.append(Case("shape", "Reshape with 0 and -1", [h.make_node("Reshape", ["a", "s"], ["y"])], {"a": data}, [("y", T.FLOAT)], [onnx.numpy_helper.from_array(np.array([0, -1], np.int64), "s")]))
    # Numerics: Softmax of -inf rows, Clip with min > max, Cast of edge values, MatMul with an empty K.
    row = np.array([[-np.inf, -np.inf, -np.inf], [0.0, -np.inf, 1.0], [np.nan, 0.0, 1.0]], np.float32)
    out.append(Case("numeric", "Softmax of -inf and NaN rows", [h.make_node("Softmax", ["x"], ["y"], axis=-1)], {"x": row}, [("y", T.FLOAT)]))
    out.append(Case("numeric", "LogSoftmax of -inf rows", [h.make_node("LogSoftmax", ["x"], ["y"], axis=-1)], {"x": row}, [("y", T.FLOAT)]))
    for t in [T.FLOAT, T.INT32, T.INT64]:
        clip_inits = [onnx.numpy_helper.from_array(np.array(5, NP[t]), "lo"), onnx.numpy_helper.from_array(np.array(2, NP[t]), "hi")]
        out.append(Case("numeric", f"Clip {T.DataType.Name(t).lower()} min > max", [h.make_node("Clip", ["x", "lo", "hi"], ["y"])], {"x": ordinary(t, [6], rng)}, [("y", t)], clip_inits))
    for src, dst in [(T.INT64, T.INT32), (T.INT32, T.INT8), (T.FLOAT, T.INT64), (T.INT64, T.FLOAT), (T.FLOAT, T.BOOL), (T.DOUBLE, T.FLOAT), (T.INT32, T.UINT8)]:
        x = special(src, [8], rng)
        if src in FLOATS and dst not in FLOATS and dst != T.BOOL:
            x = np.where(np.isfinite(x) & (np.abs(x) < 1e9), x, 3.5).astype(NP[src])  # out of range: undefined in ONNX
        out.append(Case("numeric", f"Cast {T.DataType.Name(src).lower()} to {T.DataType.Name(dst).lower()}", [h.make_node("Cast", ["x"], ["y"], to=dst)], {"x": x}, [("y", dst)]))
    out.append(Case("numeric", "MatMul with empty K", [h.make_node("MatMul", ["a", "b"], ["y"])], {"a": np.zeros([2, 0], np.float32), "b": np.zeros([0, 3], np.float32)}, [("y", T.FLOAT)]))
    out.append(Case("numeric", "MatMul of NaN and Inf", [h.make_node("MatMul", ["a", "b"], ["y"])], {"a": special(T.FLOAT, [2, 4], rng, huge=False), "b": ordinary(T.FLOAT, [4, 3], rng)}, [("y", T.FLOAT)]))
    out.append(Case("numeric", "MatMul int32", [h.make_node("MatMul", ["a", "b"], ["y"])], {"a": ordinary(T.INT32, [2, 4], rng), "b": ordinary(T.INT32, [4, 3], rng)}, [("y", T.INT32)]))
    w = ordinary(T.FLOAT, [4, 3, 3, 3], rng)
    conv_init = [onnx.numpy_helper.from_array(w, "w")]
    out.append(Case("numeric", "Conv of NaN and Inf", [h.make_node("Conv", ["x", "w"], ["y"], pads=[1, 1, 1, 1])], {"x": special(T.FLOAT, [1, 3, 5, 5], rng, huge=False)}, [("y", T.FLOAT)], conv_init))
    x = special(T.FLOAT, [1, 2, 4, 4], rng)
    pooled = x.reshape(1, 2, 2, 2, 2, 2).max(axis=(3, 5))  # NaN-propagating, as Max and numpy
    out.append(Case("numeric", "MaxPool of NaN", [h.make_node("MaxPool", ["x"], ["y"], kernel_shape=[2, 2], strides=[2, 2])], {"x": x}, [("y", T.FLOAT)], reference=("ORT's MaxPool keeps a NaN only in a window's last place, ONNX's reference in some places", [pooled])))
    out.append(Case("numeric", "Where with broadcasting", [h.make_node("Where", ["c", "a", "b"], ["y"])], {"c": ordinary(T.BOOL, [2, 1], rng), "a": special(T.INT64, [1, 3], rng), "b": ordinary(T.INT64, [2, 3], rng)}, [("y", T.INT64)]))
    for k, name in [(0, "k=0"), (3, "k=all")]:
        out.append(Case("numeric", f"TopK {name}", [h.make_node("TopK", ["x", "k"], ["v", "i"])], {"x": ordinary(T.FLOAT, [2, 3], rng)}, [("v", T.FLOAT), ("i", T.INT64)], [onnx.numpy_helper.from_array(np.array([k], np.int64), "k")]))
    out += nn_cases(rng) + layout_cases(rng)
    return out


def init(name, values, dtype=np.int64):
    return onnx.numpy_helper.from_array(np.array(values, dtype), name)


def nn_cases(rng):
    """Convolutions, pools and normalizations with their less common attributes."""
    out = []
    x = ordinary(T.FLOAT, [1, 4, 7, 6], rng)
    for name, attrs, wshape in [
        ("strided asymmetric pads", dict(strides=[2, 1], pads=[0, 1, 2, 0]), [3, 4, 3, 2]),
        ("dilated", dict(dilations=[2, 2], pads=[2, 2, 2, 2]), [2, 4, 3, 3]),
        ("grouped", dict(group=2), [6, 2, 3, 3]),
        ("depthwise", dict(group=4, pads=[1, 1, 1, 1]), [4, 1, 3, 3]),
        ("auto_pad SAME_UPPER", dict(auto_pad="SAME_UPPER", strides=[2, 2]), [2, 4, 3, 3]),
        ("1x1", {}, [5, 4, 1, 1]),
    ]:
        out.append(Case("nn", f"Conv {name}", [h.make_node("Conv", ["x", "w", "b"], ["y"], **attrs)], {"x": x}, [("y", T.FLOAT)], [init("w", ordinary(T.FLOAT, wshape, rng), np.float32), init("b", ordinary(T.FLOAT, [wshape[0]], rng), np.float32)]))
    out.append(Case("nn", "ConvTranspose strided with output_padding", [h.make_node("ConvTranspose", ["x", "w"], ["y"], strides=[2, 2], output_padding=[1, 0], pads=[1, 0, 0, 1])], {"x": ordinary(T.FLOAT, [1, 2, 3, 3], rng)}, [("y", T.FLOAT)], [init("w", ordinary(T.FLOAT, [2, 3, 3, 2], rng), np.float32)]))
    for name, op, attrs in [
        ("ceil_mode", "MaxPool", dict(kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1)),
        ("dilated", "MaxPool", dict(kernel_shape=[2, 2], dilations=[2, 2])),
        ("padded", "MaxPool", dict(kernel_shape=[3, 3], pads=[1, 1, 1, 1])),
        ("count_include_pad", "AveragePool", dict(kernel_shape=[3, 3], pads=[1, 1, 1, 1], count_include_pad=1)),
        ("excluding pads", "AveragePool", dict(kernel_shape=[3, 3], pads=[1, 1, 1, 1])),
        ("ceil_mode", "AveragePool", dict(kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1)),
        ("", "GlobalAveragePool", {}),
        ("", "GlobalMaxPool", {}),
        ("", "LpPool", dict(kernel_shape=[2, 2], p=3)),
    ]:
        out.append(Case("nn", f"{op} {name}".strip(), [h.make_node(op, ["x"], ["y"], **attrs)], {"x": x}, [("y", T.FLOAT)]))
    c = 4
    bn = [init(n, v, np.float32) for n, v in [("s", ordinary(T.FLOAT, [c], rng)), ("bb", ordinary(T.FLOAT, [c], rng)), ("m", ordinary(T.FLOAT, [c], rng)), ("v", np.abs(ordinary(T.FLOAT, [c], rng)) + 0.1)]]
    out.append(Case("nn", "BatchNormalization", [h.make_node("BatchNormalization", ["x", "s", "bb", "m", "v"], ["y"], epsilon=1e-3)], {"x": x}, [("y", T.FLOAT)], bn))
    out.append(Case("nn", "InstanceNormalization", [h.make_node("InstanceNormalization", ["x", "s", "bb"], ["y"])], {"x": x}, [("y", T.FLOAT)], bn[:2]))
    out.append(Case("nn", "LayerNormalization axis=1", [h.make_node("LayerNormalization", ["x", "g"], ["y"], axis=1)], {"x": x}, [("y", T.FLOAT)], [init("g", ordinary(T.FLOAT, [4, 7, 6], rng), np.float32)]))
    out.append(Case("nn", "LRN", [h.make_node("LRN", ["x"], ["y"], size=3, alpha=1e-3, beta=0.75, bias=2.0)], {"x": x}, [("y", T.FLOAT)]))
    out.append(Case("nn", "Softmax axis=0", [h.make_node("Softmax", ["x"], ["y"], axis=0)], {"x": ordinary(T.FLOAT, [3, 4], rng)}, [("y", T.FLOAT)]))
    out.append(Case("nn", "Gemm transposed with alpha and beta", [h.make_node("Gemm", ["a", "b", "c"], ["y"], transA=1, transB=1, alpha=0.5, beta=-2.0)], {"a": ordinary(T.FLOAT, [4, 3], rng), "b": ordinary(T.FLOAT, [5, 4], rng)}, [("y", T.FLOAT)], [init("c", ordinary(T.FLOAT, [1, 5], rng), np.float32)]))
    for op, attrs in [("LeakyRelu", dict(alpha=0.3)), ("Elu", dict(alpha=0.7)), ("Selu", {}), ("HardSigmoid", dict(alpha=0.3, beta=0.4)), ("HardSwish", {}), ("Softsign", {}), ("ThresholdedRelu", dict(alpha=0.5)), ("Celu", dict(alpha=2.0)), ("Mish", {})]:
        out.append(Case("nn", f"{op} of NaN and Inf", [h.make_node(op, ["x"], ["y"], **attrs)], {"x": special(T.FLOAT, [2, 5], rng)}, [("y", T.FLOAT)]))
    out.append(Case("nn", "PRelu broadcast slope", [h.make_node("PRelu", ["x", "s"], ["y"])], {"x": x}, [("y", T.FLOAT)], [init("s", ordinary(T.FLOAT, [4, 1, 1], rng), np.float32)]))
    return out


def layout_cases(rng):
    """Data movement with its edge attributes: pads, splits, tiles, resizes, scans."""
    out = []
    x = ordinary(T.FLOAT, [2, 3, 4], rng)
    for mode in ["constant", "reflect", "edge", "wrap"]:
        out.append(Case("layout", f"Pad {mode}", [h.make_node("Pad", ["x", "p"], ["y"], mode=mode)], {"x": x}, [("y", T.FLOAT)], [init("p", [0, 1, 2, 0, 2, 1])]))
    out.append(Case("layout", "Pad with negative pads", [h.make_node("Pad", ["x", "p"], ["y"])], {"x": x}, [("y", T.FLOAT)], [init("p", [0, -1, 1, 0, 0, -2])]))
    out.append(Case("layout", "Split uneven", [h.make_node("Split", ["x", "s"], ["a", "b"], axis=2)], {"x": x}, [("a", T.FLOAT), ("b", T.FLOAT)], [init("s", [1, 3])]))
    out.append(Case("layout", "Split with an empty part", [h.make_node("Split", ["x", "s"], ["a", "b"], axis=1)], {"x": x}, [("a", T.FLOAT), ("b", T.FLOAT)], [init("s", [0, 3])]))
    out.append(Case("layout", "Tile", [h.make_node("Tile", ["x", "r"], ["y"])], {"x": x}, [("y", T.FLOAT)], [init("r", [1, 2, 3])]))
    out.append(Case("layout", "Tile with a zero repeat", [h.make_node("Tile", ["x", "r"], ["y"])], {"x": x}, [("y", T.FLOAT)], [init("r", [1, 0, 1])]))
    img = ordinary(T.FLOAT, [1, 2, 3, 4], rng)
    for name, attrs in [("nearest asymmetric floor", dict(mode="nearest", coordinate_transformation_mode="asymmetric", nearest_mode="floor")), ("nearest round_prefer_ceil", dict(mode="nearest", nearest_mode="round_prefer_ceil")), ("linear half_pixel", dict(mode="linear")), ("linear align_corners", dict(mode="linear", coordinate_transformation_mode="align_corners")), ("cubic", dict(mode="cubic"))]:
        why = "with scales, ORT's align_corners divides by the rounded output length, ONNX's reference by the scaled one" if "align_corners" in name else None
        out.append(Case("layout", f"Resize {name}", [h.make_node("Resize", ["x", "", "sc"], ["y"], **attrs)], {"x": img}, [("y", T.FLOAT)], [init("sc", [1.0, 1.0, 1.5, 0.75], np.float32)], why))
        out.append(Case("layout", f"Resize {name} by sizes", [h.make_node("Resize", ["x", "", "", "sz"], ["y"], **attrs)], {"x": img}, [("y", T.FLOAT)], [init("sz", [1, 2, 5, 3])]))
    out.append(Case("layout", "DepthToSpace CRD", [h.make_node("DepthToSpace", ["x"], ["y"], blocksize=2, mode="CRD")], {"x": ordinary(T.FLOAT, [1, 8, 2, 3], rng)}, [("y", T.FLOAT)]))
    out.append(Case("layout", "SpaceToDepth", [h.make_node("SpaceToDepth", ["x"], ["y"], blocksize=2)], {"x": ordinary(T.FLOAT, [1, 2, 4, 6], rng)}, [("y", T.FLOAT)]))
    out.append(Case("layout", "Flatten axis=0", [h.make_node("Flatten", ["x"], ["y"], axis=0)], {"x": x}, [("y", T.FLOAT)]))
    out.append(Case("layout", "Unsqueeze negative axes", [h.make_node("Unsqueeze", ["x", "a"], ["y"])], {"x": x}, [("y", T.FLOAT)], [init("a", [-1, 0])]))
    for name, attrs in [("", {}), ("reverse exclusive", dict(reverse=1, exclusive=1))]:
        for t in [T.FLOAT, T.INT64]:
            out.append(Case("layout", f"CumSum {T.DataType.Name(t).lower()} {name}".strip(), [h.make_node("CumSum", ["x", "ax"], ["y"], **attrs)], {"x": ordinary(t, [3, 4], rng)}, [("y", t)], [init("ax", -1)]))
    for name, (s0, l0, d0) in [("negative delta", (10, 2, -3)), ("empty", (5, 5, 1)), ("float", (0.5, 2.0, 0.4))]:
        t = np.float32 if isinstance(s0, float) else np.int64
        out.append(Case("layout", f"Range {name}", [h.make_node("Range", ["s", "l", "d"], ["y"])], {}, [("y", T.FLOAT if t == np.float32 else T.INT64)], [init("s", s0, t), init("l", l0, t), init("d", d0, t)]))
    out.append(Case("layout", "Trilu lower with k=-1", [h.make_node("Trilu", ["x", "k"], ["y"], upper=0)], {"x": ordinary(T.FLOAT, [4, 5], rng)}, [("y", T.FLOAT)], [init("k", -1)]))
    out.append(Case("layout", "ReverseSequence", [h.make_node("ReverseSequence", ["x", "n"], ["y"], batch_axis=1, time_axis=0)], {"x": ordinary(T.FLOAT, [4, 3, 2], rng)}, [("y", T.FLOAT)], [init("n", [4, 1, 0])]))
    for t in INTS:
        a, b = ordinary(t, [2, 4], rng), np.array([[2, -3, 4, -5]] * 2, NP[t])
        out.append(Case("layout", f"Div {T.DataType.Name(t).lower()} of negatives truncates", [h.make_node("Div", ["a", "b"], ["y"])], {"a": a, "b": b}, [("y", t)]))
        out.append(Case("layout", f"Mod {T.DataType.Name(t).lower()} fmod=0 sign of divisor", [h.make_node("Mod", ["a", "b"], ["y"])], {"a": a, "b": b}, [("y", t)]))
    out.append(Case("layout", "Mod float fmod=1", [h.make_node("Mod", ["a", "b"], ["y"], fmod=1)], {"a": ordinary(T.FLOAT, [6], rng), "b": np.array([2.5, -1.5, 3, -3, 0.7, -0.7], np.float32)}, [("y", T.FLOAT)]))
    out.append(Case("layout", "Round half to even", [h.make_node("Round", ["x"], ["y"])], {"x": np.array([0.5, 1.5, 2.5, -0.5, -1.5, 2.4999], np.float32)}, [("y", T.FLOAT)]))
    out.append(Case("layout", "BitShift uint8", [h.make_node("BitShift", ["a", "b"], ["y"], direction="LEFT")], {"a": np.array([1, 255, 16], np.uint8), "b": np.array([1, 1, 4], np.uint8)}, [("y", T.UINT8)]))
    out.append(Case("layout", "Einsum batched contraction", [h.make_node("Einsum", ["a", "b"], ["y"], equation="bij,bjk->bik")], {"a": ordinary(T.FLOAT, [2, 3, 4], rng), "b": ordinary(T.FLOAT, [2, 4, 5], rng)}, [("y", T.FLOAT)]))
    return out


def run_ort(case, path):
    try:
        if isinstance(case.reference, tuple):
            return case.reference[1], None
        if case.reference:
            return ReferenceEvaluator(str(path)).run(None, case.inputs), None
        so = ort.SessionOptions()
        so.log_severity_level = 4
        sess = ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])
        return sess.run(None, case.inputs), None
    except Exception as e:  # ORT refuses the model or the input
        return None, str(e).splitlines()[0][:200]


def run_ours(case, d, target, binary):
    args = [str(binary / "npu-run"), str(d / "m.onnx"), "--target", target, "--output-dir", str(d / f"out-{target}")]
    for n in case.inputs:
        args += ["--input", f"{n}={d / (n + '.npy')}"]
    try:
        p = subprocess.run(args, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return "crash", "timed out after 300 s"
    err = (p.stderr.strip().splitlines() or [""])[-1][:240]
    if p.returncode == 1 and "panicked" not in p.stderr:
        return "refused", err
    if p.returncode != 0:
        return "crash", f"exit {p.returncode}: {err}"
    outs = []
    for n, _ in case.outputs:
        f = d / f"out-{target}" / f"{n}.npy"
        try:
            outs.append(np.load(f))
        except Exception as e:
            return "crash", f"output '{n}' does not decode: {e}"
    return "ran", outs


def same(ref, got):
    """None when equal; else what differs. NaN must be NaN on both sides, at the same places."""
    for k, (r, g) in enumerate(zip(ref, got)):
        r, g = np.asarray(r), np.asarray(g)
        if r.dtype != g.dtype and not (r.dtype == np.bool_ and g.dtype == np.uint8):
            return f"output {k}: dtype {g.dtype}, expected {r.dtype}"
        if r.shape != g.shape:
            return f"output {k}: shape {list(g.shape)}, expected {list(r.shape)}"
        if r.dtype.kind == "f":
            rn, gn = np.isnan(r), np.isnan(g)
            if (rn != gn).any():
                i = np.argwhere(rn != gn)[0]
                return f"output {k}: NaN at {list(i)} on one side ({g[tuple(i)]} vs {r[tuple(i)]})"
            ok = np.isclose(g, r, rtol=1e-5, atol=1e-6, equal_nan=False) | (rn & gn) | (g == r)
            if not ok.all():
                i = np.argwhere(~ok)[0]
                return f"output {k}: {g[tuple(i)]} at {list(i)}, expected {r[tuple(i)]}"
        elif (r.astype(np.int64) != g.astype(np.int64)).any():
            i = np.argwhere(r.astype(np.int64) != g.astype(np.int64))[0]
            return f"output {k}: {g[tuple(i)]} at {list(i)}, expected {r[tuple(i)]}"
    return None


def judge(case, targets, binary):
    with tempfile.TemporaryDirectory() as tmp:
        d = pathlib.Path(tmp)
        onnx.save(case.model(), d / "m.onnx")
        for n, a in case.inputs.items():
            np.save(d / f"{n}.npy", a)
        ref, ort_err = run_ort(case, d / "m.onnx")
        verdicts = {}
        for t in targets:
            kind, got = run_ours(case, d, t, binary)
            if kind == "crash":
                verdicts[t] = ("CRASH", got)
            elif ort_err is not None:
                verdicts[t] = ("refuse", got) if kind == "refused" else ("ACCEPTED", f"ONNX Runtime refuses: {ort_err}")
            elif kind == "refused":
                verdicts[t] = ("GAP", got)
            else:
                diff = same(ref, got)
                verdicts[t] = ("agree", None) if diff is None else ("MISMATCH", diff)
        return case, verdicts


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--sample", type=int)
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--targets", default="cpu,npu")
    ap.add_argument("--bin", default=str(ROOT / "target/release"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("filter", nargs="?", default="")
    a = ap.parse_args()
    all_cases = [c for c in cases(random.Random(a.seed)) if re.search(a.filter, f"{c.family} {c.name}")]
    chosen = random.Random(a.seed).sample(all_cases, min(a.sample, len(all_cases))) if a.sample else all_cases
    targets = a.targets.split(",")
    kinds = ["agree", "refuse", "GAP", "MISMATCH", "ACCEPTED", "CRASH"]
    table, failures = {}, []
    with cf.ThreadPoolExecutor(a.jobs) as pool:
        for case, verdicts in pool.map(lambda c: judge(c, targets, pathlib.Path(a.bin)), chosen):
            for t, (kind, why) in verdicts.items():
                row = table.setdefault((case.family, t), dict.fromkeys(kinds, 0))
                row[kind] += 1
                line = f"{t:4} {case.family:11} {case.name}: {kind}" + (f": {why}" if why else "")
                if kind.isupper():
                    failures.append(line)
                if a.verbose:
                    print(line)
    print(f"{len(chosen)} of {len(all_cases)} edge cases, each on ONNX Runtime and on {', '.join(targets)}")
    print(f"{'family':12} {'target':6} " + " ".join(f"{k:>8}" for k in kinds))
    for (fam, t), row in sorted(table.items()):
        print(f"{fam:12} {t:6} " + " ".join(f"{row[k]:>8}" for k in kinds))
    if failures:
        print(f"\nfailures: {len(failures)}")
        for f in failures:
            print("  " + f)
    print(f"\nedge cases: {'ok' if not failures else 'FAILED'} ({len(failures)} failures)")
    return 1 if a.check and failures else 0


if __name__ == "__main__":
    sys.exit(main())
