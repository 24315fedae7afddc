"""Writes DIR/batch.onnx and DIR/x.npy (seed 11): a small CNN over a batch of
three images: Conv + BatchNormalization + Relu, MaxPool, a depthwise Conv,
LRN, a Conv with a residual Add, GlobalAveragePool, Flatten and Gemm."""
import sys

from onnx_graph import Graph

out = sys.argv[1]
G = Graph(11)
const, node, rng = G.const, G.node, G.rng


def conv(x, name, cout, cin, k, **attrs):
    w = const(name + "_w", rng.standard_normal((cout, cin, k, k)) * 0.3)
    return node("Conv", [x, w, const(name + "_b", rng.standard_normal(cout) * 0.1)], name, pads=[k // 2] * 4, **attrs)


c = conv("x", "stem", 8, 3, 3)
bn = [const("bn_" + p, v) for p, v in [("s", rng.uniform(0.5, 1.5, 8)), ("b", rng.standard_normal(8) * 0.1), ("m", rng.standard_normal(8) * 0.1), ("v", rng.uniform(0.5, 1.5, 8))]]
r = node("Relu", [node("BatchNormalization", [c] + bn, "bn")], "stem_relu")
p = node("MaxPool", [r], "pool", kernel_shape=[2, 2], strides=[2, 2])
d = node("Relu", [conv(p, "dw", 8, 1, 3, group=8)], "dw_relu")
n = node("LRN", [d], "lrn", size=3)
a = node("Add", [conv(n, "pw", 8, 8, 1), p], "residual")
g = node("Flatten", [node("GlobalAveragePool", [a], "gap")], "flat")
node("Gemm", [g, const("fc_w", rng.standard_normal((8, 5)) * 0.3), const("fc_b", rng.standard_normal(5) * 0.1)], "y")
G.save(f"{out}/batch.onnx", "batch", [3, 3, 10, 12], [3, 5], f"{out}/x.npy")
