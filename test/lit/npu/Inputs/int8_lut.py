"""Writes DIR/lut.onnx and DIR/x.npy: int8 functions of one value between a
DequantizeLinear and a QuantizeLinear, as ONNX Runtime's quantizer writes
them (seed 8): a QDQ convolution whose one DequantizeLinear feeds Sigmoid,
HardSwish, Tanh, LeakyRelu, Elu, Softplus, HardSigmoid and Erf, each
quantized to its own scale and zero point, concatenated (requantized to the
Concat's scale) into a last convolution; and a Relu after the model input's
DequantizeLinear (standalone: no producer to fuse into)."""
import sys

import numpy as np
from onnx_graph import Graph

out = sys.argv[1]
G = Graph(8)
const, node, rng, q = G.const, G.node, G.rng, G.qdq


def conv(x, name, cin, cout):
    w = rng.standard_normal((cout, cin, 3, 3)) * 0.3
    ws = np.abs(w).reshape(cout, -1).max(axis=1) / 127
    wq = np.clip(np.round(w / ws[:, None, None, None]), -127, 127)
    wd = node("DequantizeLinear", [const(name + "_wq", wq, np.int8), const(name + "_ws", ws), const(name + "_wz", np.zeros(cout), np.int8)], name + "_wdq", axis=0)
    return node("Conv", [x, wd], name, pads=[1, 1, 1, 1])


x = q(node("Relu", [q("x", 0.03, 5)], "relu_in"), 0.015, -128)
c = q(conv(x, "c1", 4, 4), 0.06, 3)
fns = [("Sigmoid", {}, 1 / 255, -128), ("HardSwish", {}, 0.03, -110), ("Tanh", {}, 1 / 127, 0), ("LeakyRelu", {"alpha": 0.1}, 0.04, -20),
       ("Elu", {"alpha": 0.7}, 0.035, -60), ("Softplus", {}, 0.03, -128), ("HardSigmoid", {"alpha": 0.25, "beta": 0.4}, 1 / 255, -128), ("Erf", {}, 1 / 127, 0)]
outs = [q(node(f, [c], f.lower(), **a), s, z) for f, a, s, z in fns]
cat = q(node("Concat", outs, "cat", axis=1), 0.03, -10)
y = q(conv(cat, "c2", 4 * len(fns), 4), 0.1, 2)
G.node("Identity", [y], "y")
G.save(out + "/lut.onnx", "lut", [1, 4, 8, 8], [1, 4, 8, 8], out + "/x.npy")
