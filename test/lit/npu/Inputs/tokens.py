"""Writes DIR/tokens.onnx and DIR/x.npy: a vision transformer's way between
feature maps and tokens (seed 6): a Conv's [1, 20, 8, 8] map (1,280 values,
too many to transpose one element per DMA row) reshaped to [1, 20, 64] and
transposed to tokens [1, 64, 20], a LayerNorm and a
projection, back to the map by a transpose and a reshape to [1, 20, 8, 8],
a Conv, to tokens again, back by a reshape to [1, 8, 8, 20] and a transpose
to NCHW for a Conv, and a map of height 1 squeezed and transposed to tokens."""
import sys

from onnx_graph import Graph

out = sys.argv[1]
G = Graph(6)
const, node, rng = G.const, G.node, G.rng
C, H, W = 20, 8, 8


def conv(x, name, k=3, stride=1, cout=C):
    w = const(name + "_w", rng.standard_normal((cout, C, k, k)) * 0.2)
    return node("Conv", [x, w], name, kernel_shape=[k, k], pads=[k // 2] * 4, strides=[stride, stride])


def to_tokens(x, name, hw):
    x = node("Reshape", [x, const(name + "_s", [1, C, hw], dtype="int64")], name + "_flat")
    return node("Transpose", [x], name, perm=[0, 2, 1])


x = conv(node("Conv", ["x", const("in_w", rng.standard_normal((C, 3, 1, 1)))], "conv0", kernel_shape=[1, 1]), "conv1")
t = to_tokens(x, "tok1", H * W)
t = node("LayerNormalization", [t, const("ln_g", rng.standard_normal(C) + 1.0), const("ln_b", rng.standard_normal(C) * 0.1)], "ln", axis=-1)
t = node("MatMul", [t, const("proj_w", rng.standard_normal((C, C)) * 0.3)], "proj")
x = node("Transpose", [t], "untok1", perm=[0, 2, 1])
x = conv(node("Reshape", [x, const("map1_s", [1, C, H, W], dtype="int64")], "map1"), "conv2")
t = node("MatMul", [to_tokens(x, "tok2", H * W), const("proj2_w", rng.standard_normal((C, C)) * 0.3)], "proj2")
x = node("Transpose", [node("Reshape", [t, const("map2_s", [1, H, W, C], dtype="int64")], "map2")], "untok2", perm=[0, 3, 1, 2])
x = conv(x, "conv3")
x = node("Conv", [x, const("squash_w", rng.standard_normal((C, C, H, 1)) * 0.2)], "squash", kernel_shape=[H, 1])
x = node("Squeeze", [x, const("h_axis", [2], dtype="int64")], "squeeze")
t = node("Transpose", [x], "tok3", perm=[0, 2, 1])
node("MatMul", [t, const("head_w", rng.standard_normal((C, 8)) * 0.3)], "head", outs=["y"])
G.save(f"{out}/tokens.onnx", "tokens", [1, 3, H, W], [1, W, 8], f"{out}/x.npy")
