"""Writes DIR/moves.onnx and DIR/x.npy: int8 data movement between QDQ
convolutions as quantizers write it (seed 5): a nearest-neighbour Resize and
a Slice whose QuantizeLinear keeps their input's scale and zero point (ONNX
Runtime's quantizer does so for them), and a Concat of two inputs of one
scale and zero point; the Concat of `requant.onnx` has inputs of two scales
(ONNX Runtime's form), one of them requantized to the output's."""
import sys

import numpy as np
from onnx_graph import Graph

out = sys.argv[1]


def build(same_scales):
    G = Graph(5)
    const, node, rng, q = G.const, G.node, G.rng, G.qdq

    x = q("x", 0.04, 3)
    a = q(G.conv(x, "c1", 4, 8), 0.05, -7)
    up = q(node("Resize", [a, const("roi", []), const("scales", [1, 1, 2, 2])], "up", mode="nearest"), 0.05, -7)
    sl = q(node("Slice", [up, const("st", [2, 2], np.int64), const("en", [14, 14], np.int64), const("ax", [2, 3], np.int64)], "sl"), 0.05, -7)
    b = q(G.conv(sl, "c2", 8, 8), 0.05 if same_scales else 0.09, -7 if same_scales else 4)
    cat = q(node("Concat", [sl, b], "cat", axis=1), 0.05, -7)
    y = q(G.conv(cat, "c3", 16, 4), 0.1, 2)
    G.node("Identity", [y], "y")
    return G


build(True).save(out + "/moves.onnx", "moves", [1, 4, 8, 8], [1, 4, 12, 12], out + "/x.npy")
build(False).save(out + "/requant.onnx", "requant", [1, 4, 8, 8], [1, 4, 12, 12], out + "/x2.npy")
