"""Writes DIR/bands.onnx and DIR/x.npy (seed 12): an inverted residual block
whose expanded maps do not fit the scratchpad whole: a stem Conv of three
channels (stride 2) and Relu, a 1x1 expansion to 96 channels with Clip, a
3x3 depthwise Conv with Clip, a 1x1 projection, the residual Add, a MaxPool,
GlobalAveragePool, Flatten and Gemm."""
import sys

from onnx_graph import Graph

out = sys.argv[1]
G = Graph(12)
const, node, rng = G.const, G.node, G.rng


def conv(x, name, cout, cin, k, **attrs):
    w = const(name + "_w", rng.standard_normal((cout, cin, k, k)) * (1.0 / (cin * k * k)) ** 0.5)
    return node("Conv", [x, w, const(name + "_b", rng.standard_normal(cout) * 0.1)], name, pads=[k // 2] * 4, **attrs)


def clip(x, name):
    return node("Clip", [x, const(name + "_lo", 0.0), const(name + "_hi", 6.0)], name)


s = node("Relu", [conv("x", "stem", 16, 3, 3, strides=[2, 2])], "stem_relu")
e = clip(conv(s, "expand", 96, 16, 1), "expand_clip")
d = clip(conv(e, "dw", 96, 1, 3, group=96), "dw_clip")
a = node("Add", [conv(d, "project", 16, 96, 1), s], "residual")
p = node("MaxPool", [a], "pool", kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
g = node("Flatten", [node("GlobalAveragePool", [p], "gap")], "flat")
node("Gemm", [g, const("fc_w", rng.standard_normal((16, 10)) * 0.3), const("fc_b", rng.standard_normal(10) * 0.1)], "y")
G.save(f"{out}/bands.onnx", "bands", [1, 3, 112, 112], [1, 10], f"{out}/x.npy")
