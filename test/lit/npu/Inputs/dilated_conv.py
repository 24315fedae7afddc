"""Writes DIR/dilated.onnx and DIR/x.npy (seed 3): dilated convolutions as
segmentation backbones write them: a 3x3 with dilation 2, a depthwise one
after it, a 3x3 with dilation 3 beside them (added to the depthwise one's
output), then a grouped, strided 3x2 with dilation 2 and uneven pads."""
import sys

from onnx_graph import Graph

out = sys.argv[1]
G = Graph(3)
const, node, rng = G.const, G.node, G.rng


def conv(x, name, cout, cin_per_group, kh, kw, **attrs):
    w = const(name + "_w", rng.standard_normal((cout, cin_per_group, kh, kw)) * 0.3)
    b = const(name + "_b", rng.standard_normal(cout) * 0.1)
    return node("Conv", [x, w, b], name, **attrs)


c = conv("x", "d2", 8, 8, 3, 3, pads=[2] * 4, dilations=[2, 2])
dw = conv(c, "d2_depthwise", 8, 1, 3, 3, pads=[2] * 4, dilations=[2, 2], group=8)
d3 = conv("x", "d3", 8, 8, 3, 3, pads=[3] * 4, dilations=[3, 3])
r = node("Relu", [node("Add", [dw, d3], "sum")], "sum_relu")
conv(r, "y", 6, 4, 3, 2, pads=[1, 2, 2, 1], dilations=[2, 2], strides=[2, 2], group=2)
G.save(f"{out}/dilated.onnx", "dilated_conv", [1, 8, 12, 11], [1, 6, 6, 6], f"{out}/x.npy")
