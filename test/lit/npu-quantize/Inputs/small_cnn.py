"""A small float CNN (Conv+BatchNorm+Relu, a residual Add, Clip(0, 6), MaxPool,
GlobalAveragePool, Gemm) with seeded weights, and calibration inputs:
writes DIR/cnn.onnx, DIR/cal/s0..s3.npy and DIR/x.npy (a held-out input)."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

d = sys.argv[1]
os.makedirs(os.path.join(d, "cal"), exist_ok=True)
r = np.random.default_rng(3)
inits = []


def w(name, *shape, scale=0.3):
    inits.append(numpy_helper.from_array((r.standard_normal(shape) * scale).astype(np.float32), name))
    return name


def bn(name, c):
    inits.extend(numpy_helper.from_array(v.astype(np.float32), f"{name}_{k}") for k, v in
                 [("s", 1 + 0.1 * r.standard_normal(c)), ("b", 0.1 * r.standard_normal(c)), ("m", 0.1 * r.standard_normal(c)), ("v", 1 + 0.1 * r.random(c))])
    return [f"{name}_{k}" for k in "sbmv"]


inits.append(numpy_helper.from_array(np.array(0, np.float32), "zero"))
inits.append(numpy_helper.from_array(np.array(6, np.float32), "six"))
nodes = [
    helper.make_node("Conv", ["x", w("w1", 8, 3, 3, 3), w("b1", 8)], ["c1"], pads=[1, 1, 1, 1], name="conv1"),
    helper.make_node("BatchNormalization", ["c1"] + bn("bn1", 8), ["n1"], name="bn1"),
    helper.make_node("Relu", ["n1"], ["r1"], name="relu1"),
    helper.make_node("Conv", ["r1", w("w2", 8, 8, 3, 3, scale=0.15)], ["c2"], pads=[1, 1, 1, 1], name="conv2"),
    helper.make_node("Add", ["c2", "r1"], ["a2"], name="add2"),
    helper.make_node("Clip", ["a2", "zero", "six"], ["r2"], name="relu6"),
    helper.make_node("MaxPool", ["r2"], ["p2"], kernel_shape=[2, 2], strides=[2, 2], name="pool2"),
    helper.make_node("GlobalAveragePool", ["p2"], ["g"], name="gap"),
    helper.make_node("Flatten", ["g"], ["f"], name="flatten"),
    helper.make_node("Gemm", ["f", w("w3", 10, 8), w("b3", 10)], ["y"], transB=1, name="fc"),
]
g = helper.make_graph(nodes, "cnn", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])], [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])], inits)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
m.ir_version = 8
onnx.save(m, os.path.join(d, "cnn.onnx"))
for i in range(4):
    np.save(os.path.join(d, "cal", f"s{i}.npy"), np.random.default_rng(10 + i).standard_normal([1, 3, 16, 16]).astype(np.float32))
np.save(os.path.join(d, "x.npy"), np.random.default_rng(99).standard_normal([1, 3, 16, 16]).astype(np.float32))
