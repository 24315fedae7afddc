"""Writes DIR/m.onnx, a 1x1 Conv (a product over [N, C, H·W]) then three 3x3
Convs, each with bias and Relu, over 56-wide rows (the direct conv kernel),
each output folded into the next one's padding; its input DIR/x.npy and
ONNX Runtime's output DIR/expected/y.npy.
usage: conv_chain.py DIR"""
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T, helper as h, numpy_helper as nh

out = sys.argv[1]
rng = np.random.default_rng(0)
inits = [nh.from_array((rng.standard_normal((8, 8, 3, 3)) * 0.2).astype(np.float32), f"w{i}") for i in range(3)]
inits += [nh.from_array(rng.standard_normal(8).astype(np.float32), f"b{i}") for i in range(3)]
inits += [nh.from_array((rng.standard_normal((8, 8, 1, 1)) * 0.3).astype(np.float32), "pw"), nh.from_array(rng.standard_normal(8).astype(np.float32), "pb")]
nodes = [h.make_node("Conv", ["x", "pw", "pb"], ["p"]), h.make_node("Relu", ["p"], ["pr"])]
x = "pr"
for i in range(3):
    nodes.append(h.make_node("Conv", [x, f"w{i}", f"b{i}"], [f"c{i}"], pads=[1, 1, 1, 1]))
    nodes.append(h.make_node("Relu", [f"c{i}"], ["y" if i == 2 else f"r{i}"]))
    x = f"r{i}"
g = h.make_graph(nodes, "conv_chain", [h.make_tensor_value_info("x", T.FLOAT, [1, 8, 56, 56])], [h.make_tensor_value_info("y", T.FLOAT, None)], inits)
m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
m.ir_version = 8
os.makedirs(os.path.join(out, "expected"), exist_ok=True)
onnx.save(m, os.path.join(out, "m.onnx"))
xv = rng.standard_normal((1, 8, 56, 56)).astype(np.float32)
np.save(os.path.join(out, "x.npy"), xv)
y = ort.InferenceSession(os.path.join(out, "m.onnx"), providers=["CPUExecutionProvider"]).run(None, {"x": xv})[0]
np.save(os.path.join(out, "expected", "y.npy"), y)
