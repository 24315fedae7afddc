"""Writes DIR/views.onnx and DIR/x.npy (seed 13): Slices and a Concat of
NHWC maps on the NPU. `rows` (rows 2..10, every column and channel) is one
contiguous run of its input; `crop` (rows 1..11 and columns 0..10) and
`chans` (channels 0..8) are not. `y` joins two convs' results along H; `z`
is the crop's conv."""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper
from onnx_graph import Graph

out = sys.argv[1]
G = Graph(13)
const, node, rng = G.const, G.node, G.rng


def conv(x, name, cout, cin, k):
    w = const(name + "_w", rng.standard_normal((cout, cin, k, k)) * (1.0 / (cin * k * k)) ** 0.5)
    return node("Conv", [x, w, const(name + "_b", rng.standard_normal(cout) * 0.1)], name, pads=[k // 2] * 4)


def sl(x, name, starts, ends, axes):
    return node("Slice", [x, const(name + "_s", starts, np.int64), const(name + "_e", ends, np.int64), const(name + "_a", axes, np.int64)], name)


a = conv("x", "stem", 16, 8, 3)
crop = sl(a, "crop", [1, 0], [11, 10], [2, 3])
rows = sl(a, "rows", [2], [10], [2])
chans = sl(a, "chans", [0], [8], [1])
node("Concat", [conv(rows, "pw_rows", 8, 16, 1), conv(chans, "pw_chans", 8, 8, 1)], "y", axis=2)
conv(crop, "z", 8, 16, 1)
g = helper.make_graph(G.nodes, "views", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8, 12, 12])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8, 20, 12]), helper.make_tensor_value_info("z", TensorProto.FLOAT, [1, 8, 10, 10])], G.inits)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
onnx.checker.check_model(m)
onnx.save(onnx.shape_inference.infer_shapes(m, strict_mode=True), f"{out}/views.onnx")
np.save(f"{out}/x.npy", rng.standard_normal([1, 8, 12, 12]).astype(np.float32))
