"""Writes DIR/dw.onnx, DIR/dwq.onnx and DIR/x.npy: depthwise convolutions as
MobileNets write them (seed 11). dw.onnx (f32): 3x3 stride 1 over 40 channels
(two whole blocks of 16 and a partial one) with bias and ReLU6, 5x5 stride 2
with uneven padding, 3x3 stride 2 without bias. dwq.onnx: the same first two
in QDQ form as ONNX Runtime's quantizer writes them: int8 activations with
their own zero points (the padding is the input's zero point), per-channel
symmetric int8 weights, int32 biases."""
import sys

import numpy as np
from onnx_graph import Graph

out = sys.argv[1]
C = 40


def build(G, quant):
    const, node, rng, q = G.const, G.node, G.rng, G.qdq

    def dw(x, name, k, stride, pads, bias=True, in_scale=0.05):
        w = rng.standard_normal((C, 1, k, k)) * 0.4
        b = rng.standard_normal(C) * 0.2
        if quant:
            ws = np.abs(w).reshape(C, -1).max(axis=1) / 127
            wq = np.clip(np.round(w / ws[:, None, None, None]), -127, 127)
            wd = node("DequantizeLinear", [const(name + "_wq", wq, np.int8), const(name + "_ws", ws), const(name + "_wz", np.zeros(C), np.int8)], name + "_wdq", axis=0)
            bs = ws * in_scale
            bd = node("DequantizeLinear", [const(name + "_bq", np.round(b / bs), np.int32), const(name + "_bs", bs), const(name + "_bz", np.zeros(C), np.int32)], name + "_bdq", axis=0)
            ins = [x, wd, bd] if bias else [x, wd]
        else:
            ins = [x, const(name + "_w", w)] + ([const(name + "_b", b)] if bias else [])
        return node("Conv", ins, name, kernel_shape=[k, k], strides=[stride] * 2, pads=pads, group=C)

    x = q("x", 0.05, 7) if quant else "x"
    x = dw(x, "dw1", 3, 1, [1, 1, 1, 1])
    if quant:
        # The quantizer's form: the Clip between two Q/DQ pairs of one scale (the requantization's clamp).
        x = q(x, 0.03, -100)
    x = node("Clip", [x, const("zero", 0.0), const("six", 6.0)], "relu6")
    if quant:
        x = q(x, 0.03, -100)
    x = dw(x, "dw2", 5, 2, [2, 1, 2, 2], in_scale=0.03)
    if quant:
        return q(x, 0.08, 3), [1, C, 6, 6]
    x = dw(x, "dw3", 3, 2, [1, 1, 1, 1], bias=False)
    return x, [1, C, 3, 3]


for name, quant in [("dw", False), ("dwq", True)]:
    G = Graph(11)
    y, shape = build(G, quant)
    G.node("Identity", [y], "y")
    G.save("%s/%s.onnx" % (out, name), name, [1, C, 12, 12], shape, "%s/x.npy" % out)
