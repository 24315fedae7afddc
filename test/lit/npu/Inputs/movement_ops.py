"""Writes DIR/movement.onnx and DIR/x.npy: a small CNN whose data moves the
way exporters move it (seed 5): a channel Split and Concat, a zero Pad before a Conv, a Pad by a value, a channel
shuffle (Reshape to 5-D, Transpose, Reshape back), a strided Slice,
nearest Resize by 2 (half_pixel) and a Resize by (2, 3) of sizes (asymmetric,
floor), Squeeze/Unsqueeze, a Concat with a constant, and a detection head's
Reshape + Transpose to [1, positions, channels]."""
import sys

import numpy as np
from onnx_graph import Graph

out = sys.argv[1]
G = Graph(5)
const, node, rng = G.const, G.node, G.rng


def conv(x, cin, cout, name, k=1):
    w = const(name + "_w", rng.standard_normal((cout, cin, k, k)) * 0.3)
    return node("Relu", [node("Conv", [x, w], name, kernel_shape=[k, k], pads=[k // 2] * 4)], name + "_relu")


x = conv("x", 3, 24, "conv1", k=3)
node("Split", [x, const("halves", [8, 16], np.int64)], "split", outs=["a", "b"], axis=1)
# A zero Pad before a 3x3 Conv (folds into the Conv's padding).
b = node("Pad", ["b", const("same", [0, 0, 1, 1, 0, 0, 1, 1], np.int64)], "pad_same")
b = node("Relu", [node("Conv", [b, const("conv_b_w", rng.standard_normal((8, 16, 3, 3)) * 0.1)], "conv_b", kernel_shape=[3, 3])], "conv_b_relu")
x = node("Concat", ["a", b], "concat", axis=1)
# Channel shuffle in 2 groups.
x = node("Reshape", [x, const("g5", [1, 2, 8, 6, 6], np.int64)], "shuffle_reshape")
x = node("Transpose", [x], "shuffle", perm=[0, 2, 1, 3, 4])
x = node("Reshape", [x, const("g4", [1, 16, 6, 6], np.int64)], "shuffle_back")
# A Pad by a value (the border reaches the output through the Slice).
x = node("Pad", [x, const("border", [0, 0, 1, 2, 0, 0, 1, 0], np.int64), const("value", -0.5)], "pad")
x = node("Slice", [x, const("st", [1, 0], np.int64), const("en", [6, 5], np.int64), const("ax", [2, 3], np.int64), const("sp", [2, 2], np.int64)], "slice")
x = node("Resize", [x, "", const("scales", [1, 1, 2, 2])], "up2", mode="nearest")
x = node("Resize", [x, "", "", const("sizes", [1, 16, 12, 18], np.int64)], "up23", mode="nearest",
         coordinate_transformation_mode="asymmetric", nearest_mode="floor")
x = conv(x, 16, 4, "conv2")
x = node("Concat", [x, const("bias_map", rng.standard_normal((1, 2, 12, 18)))], "concat_const", axis=1)
x = node("Unsqueeze", [x, const("ax0", [0], np.int64)], "unsq")
x = node("Squeeze", [x, const("ax0b", [0], np.int64)], "sq")
x = node("Reshape", [x, const("flat", [1, 6, 216], np.int64)], "head_reshape")
x = node("Transpose", [x], "y", perm=[0, 2, 1])
G.save(f"{out}/movement.onnx", "movement_ops", [1, 3, 6, 6], [1, 216, 6], f"{out}/x.npy")
