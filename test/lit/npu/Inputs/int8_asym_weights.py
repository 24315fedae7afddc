"""Writes DIR/qdq.onnx, DIR/qop.onnx and DIR/x.npy: products whose weights
are uint8 with zero points (ONNX Runtime's `weight_type=QUInt8`, older
converters), seed 13. qdq.onnx: a QDQ Conv whose per-channel zero points
include 0 on a channel holding 255 (a difference of 255: three parts) and
128 elsewhere, then a Flatten and a MatMul with a zero point per column.
qop.onnx: the same as QLinearConv and QLinearMatMul with per-tensor uint8
weight zero points and uint8 activations, as ONNX Runtime's U8U8 kernels
take them. dw.onnx: a QDQ depthwise 3x3 Conv with uint8 weights and a zero
point per channel."""
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

out = sys.argv[1]
rng = np.random.default_rng(13)
inits = []


def c(name, v, dtype):
    inits.append(nh.from_array(np.asarray(v, dtype=dtype), name))
    return name


wc = rng.integers(0, 256, (6, 4, 3, 3))
wc[0] = rng.integers(0, 256, (4, 3, 3))
wc[0, 0, 0, 0] = 255
zc = np.array([0, 128, 128, 100, 77, 200])
wm = rng.integers(0, 256, (6 * 4 * 4, 5))
zm = rng.integers(90, 170, 5)
scale_c = rng.uniform(0.002, 0.004, 6)
scale_m = rng.uniform(0.002, 0.004, 5)


def save(nodes, name):
    g = h.make_graph(nodes, name, [h.make_tensor_value_info("x", T.FLOAT, [1, 4, 8, 8])], [h.make_tensor_value_info("y", T.FLOAT, [1, 5])], inits)
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
    onnx.checker.check_model(m)
    onnx.save(onnx.shape_inference.infer_shapes(m, strict_mode=True), f"{out}/{name}.onnx")


qdq = [
    h.make_node("QuantizeLinear", ["x", c("sx", 0.04, np.float32), c("zx", 3, np.int8)], ["xq"], name="xq"),
    h.make_node("DequantizeLinear", ["xq", "sx", "zx"], ["xd"], name="xd"),
    h.make_node("DequantizeLinear", [c("wc", wc, np.uint8), c("swc", scale_c, np.float32), c("zwc", zc, np.uint8)], ["wcd"], name="wcd", axis=0),
    h.make_node("Conv", ["xd", "wcd"], ["conv"], name="conv", pads=[1, 1, 1, 1], strides=[2, 2]),
    h.make_node("QuantizeLinear", ["conv", c("sc", 0.1, np.float32), c("zc", -5, np.int8)], ["cq"], name="cq"),
    h.make_node("DequantizeLinear", ["cq", "sc", "zc"], ["cd"], name="cd"),
    h.make_node("Flatten", ["cd"], ["fl"], name="flat"),
    h.make_node("QuantizeLinear", ["fl", "sc", "zc"], ["flq"], name="flq"),
    h.make_node("DequantizeLinear", ["flq", "sc", "zc"], ["f"], name="fld"),
    h.make_node("DequantizeLinear", [c("wm", wm, np.uint8), c("swm", scale_m, np.float32), c("zwm", zm, np.uint8)], ["wmd"], name="wmd", axis=1),
    h.make_node("MatMul", ["f", "wmd"], ["mm"], name="matmul"),
    h.make_node("QuantizeLinear", ["mm", c("sy", 0.2, np.float32), c("zy", 1, np.int8)], ["yq"], name="yq"),
    h.make_node("DequantizeLinear", ["yq", "sy", "zy"], ["y"], name="y"),
]
save(qdq, "qdq")
# QOperator as ONNX Runtime runs it: uint8 activations with uint8 weights (its U8U8 kernels).
inits = [i for i in inits if i.name in ("sx", "sc", "sy")]
qop = [
    h.make_node("QuantizeLinear", ["x", "sx", c("ux", 131, np.uint8)], ["xq"], name="xq"),
    h.make_node("QLinearConv", ["xq", "sx", "ux", c("wc", wc, np.uint8), c("swc", 0.003, np.float32), c("zwc", 121, np.uint8), "sc", c("uc", 120, np.uint8)], ["cq"], name="qconv", pads=[1, 1, 1, 1], strides=[2, 2]),
    h.make_node("Reshape", ["cq", c("shape", [1, -1], np.int64)], ["f"], name="flat"),
    h.make_node("QLinearMatMul", ["f", "sc", "uc", c("wm", wm, np.uint8), c("swm", 0.003, np.float32), c("zwm", 133, np.uint8), "sy", c("uy", 128, np.uint8)], ["yq"], name="qmatmul"),
    h.make_node("DequantizeLinear", ["yq", "sy", "uy"], ["y"], name="y"),
]
save(qop, "qop")
inits = []
wd = rng.integers(0, 256, (4, 1, 3, 3))
wd[1, 0, 1, 1] = 255
dw = [
    h.make_node("QuantizeLinear", ["x", c("sx", 0.04, np.float32), c("zx", 3, np.int8)], ["xq"], name="xq"),
    h.make_node("DequantizeLinear", ["xq", "sx", "zx"], ["xd"], name="xd"),
    h.make_node("DequantizeLinear", [c("wd", wd, np.uint8), c("swd", rng.uniform(0.002, 0.004, 4), np.float32), c("zwd", [0, 0, 128, 200], np.uint8)], ["wdd"], name="wdd", axis=0),
    h.make_node("Conv", ["xd", "wdd"], ["conv"], name="dwconv", pads=[1, 1, 1, 1], group=4),
    h.make_node("QuantizeLinear", ["conv", c("sy", 0.03, np.float32), c("zy", -7, np.int8)], ["yq"], name="yq"),
    h.make_node("DequantizeLinear", ["yq", "sy", "zy"], ["y"], name="y"),
]
g = h.make_graph(dw, "dw", [h.make_tensor_value_info("x", T.FLOAT, [1, 4, 8, 8])], [h.make_tensor_value_info("y", T.FLOAT, [1, 4, 8, 8])], inits)
m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
onnx.checker.check_model(m)
onnx.save(onnx.shape_inference.infer_shapes(m, strict_mode=True), f"{out}/dw.onnx")
np.save(f"{out}/x.npy", rng.standard_normal((1, 4, 8, 8)).astype(np.float32))
