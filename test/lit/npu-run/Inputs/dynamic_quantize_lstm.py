"""Writes DIR/v.onnx, a com.microsoft DynamicQuantizeLSTM whose products the
VNNI kernel takes (input and hidden sizes multiples of 4: 8 and 16),
bidirectional, uint8 W and R with a zero point per direction, and its input
DIR/v_x.npy [5, 2, 8].
usage: dynamic_quantize_lstm.py DIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T, helper as h, numpy_helper as nh

out = sys.argv[1]
rng = np.random.default_rng(5)
hid, inp = 16, 8
inits = [
    nh.from_array(rng.integers(0, 256, (2, inp, 4 * hid)).astype(np.uint8), "W"),
    nh.from_array(rng.integers(0, 256, (2, hid, 4 * hid)).astype(np.uint8), "R"),
    nh.from_array((rng.standard_normal((2, 8 * hid)) * 0.2).astype(np.float32), "B"),
    nh.from_array(np.array([0.004, 0.005], np.float32), "ws"),
    nh.from_array(np.array([117, 140], np.uint8), "wz"),
    nh.from_array(np.array([0.006, 0.003], np.float32), "rs"),
    nh.from_array(np.array([131, 99], np.uint8), "rz"),
]
node = h.make_node("DynamicQuantizeLSTM", ["x", "W", "R", "B", "", "", "", "", "ws", "wz", "rs", "rz"], ["y", "yh", "yc"],
                   domain="com.microsoft", hidden_size=hid, direction="bidirectional")
graph = h.make_graph([node], "dq_lstm", [h.make_tensor_value_info("x", T.FLOAT, [5, 2, inp])],
                     [h.make_tensor_value_info(n, T.FLOAT, None) for n in ["y", "yh", "yc"]], inits)
model = h.make_model(graph, opset_imports=[h.make_opsetid("", 13), h.make_opsetid("com.microsoft", 1)])
model.ir_version = 8
os.makedirs(out, exist_ok=True)
onnx.save(model, os.path.join(out, "v.onnx"))
np.save(os.path.join(out, "v_x.npy"), rng.standard_normal((5, 2, inp)).astype(np.float32) * 2)
