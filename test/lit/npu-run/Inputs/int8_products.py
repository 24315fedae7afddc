"""Writes DIR/m.onnx, one model of int8 products with constant int8 weights,
and its random inputs DIR/<input>.npy: QLinearConv in the shapes the VNNI
kernel packs differently (a 7x7 stride-2 stem of 3 channels, a dilated uint8
conv with padding and a zero point, a 1x1 conv of 30 channels without bias, per-channel and
per-tensor weight scales), a QLinearMatMul on a 3-D activation, and QDQ
groups the CPU path forms into integer operators (DQ -> Conv -> Q,
DQ -> Gemm(transB) -> Q with an int32 bias, DQ -> MatMul -> Q) beside one it
leaves in float (a depthwise Conv).
usage: int8_products.py DIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T, helper as h, numpy_helper as nh

out = sys.argv[1]
rng = np.random.default_rng(11)
inits, nodes, inputs, outputs, feeds = [], [], [], [], {}


def init(name, a):
    inits.append(nh.from_array(np.asarray(a), name))
    return name


def i8(*s):
    return rng.integers(-127, 128, s).astype(np.int8)


def scales(n):
    return (rng.random(n) * 0.01 + 0.002).astype(np.float32)


def act(name, shape, dtype):
    lo, hi = (-128, 128) if dtype == np.int8 else (0, 256)
    feeds[name] = rng.integers(lo, hi, shape).astype(dtype)
    inputs.append(h.make_tensor_value_info(name, T.INT8 if dtype == np.int8 else T.UINT8, list(shape)))


def result(name, dtype):
    outputs.append(h.make_tensor_value_info(name, dtype, None))


def qconv(name, x, xdt, zx, w, sw, bias, **attrs):
    m = w.shape[0]
    ins = [x, init(name + "_sx", np.float32(0.05)), init(name + "_zx", xdt(zx)), init(name + "_w", w), init(name + "_sw", sw),
           init(name + "_zw", np.zeros(sw.shape, np.int8)), init(name + "_sy", np.float32(0.6)), init(name + "_zy", xdt(7))]
    if bias:
        ins.append(init(name + "_b", rng.integers(-4000, 4000, m).astype(np.int32)))
    nodes.append(h.make_node("QLinearConv", ins, [name], **attrs))
    result(name, T.INT8 if xdt == np.int8 else T.UINT8)


act("x1", (1, 3, 17, 19), np.int8)
qconv("stem", "x1", np.int8, -5, i8(8, 3, 7, 7), scales(8), True, kernel_shape=[7, 7], strides=[2, 2], pads=[3, 3, 3, 3])
act("x2", (1, 6, 9, 11), np.uint8)
qconv("dilated", "x2", np.uint8, 131, i8(20, 6, 3, 3), scales(1).reshape(()), True, kernel_shape=[3, 3], pads=[2, 2, 2, 2], dilations=[2, 2])
act("x3", (1, 30, 5, 5), np.int8)
qconv("pointwise", "x3", np.int8, -9, i8(24, 30, 1, 1), scales(24), False, kernel_shape=[1, 1])

act("a", (2, 5, 16), np.int8)
nodes.append(h.make_node("QLinearMatMul", ["a", init("a_s", np.float32(0.04)), init("a_z", np.int8(3)), init("mm_w", i8(16, 24)),
                                            init("mm_sw", np.float32(0.01)), init("mm_zw", np.int8(0)), init("mm_sy", np.float32(0.3)),
                                            init("mm_zy", np.int8(-2))], ["qmatmul"]))
result("qmatmul", T.INT8)

# QDQ groups on a float input.
x = "f"
feeds[x] = rng.standard_normal((1, 8, 6, 6)).astype(np.float32)
inputs.append(h.make_tensor_value_info(x, T.FLOAT, [1, 8, 6, 6]))
sx, sy = np.float32(0.03), np.float32(0.08)
nodes.append(h.make_node("QuantizeLinear", [x, init("g_sx", sx), init("g_zx", np.int8(-4))], ["fq"]))
nodes.append(h.make_node("DequantizeLinear", ["fq", "g_sx", "g_zx"], ["fdq"]))


def dq_weight(name, w, sw, axis):
    nodes.append(h.make_node("DequantizeLinear", [init(name + "_q", w), init(name + "_s", sw), init(name + "_z", np.zeros(sw.shape, np.int8))], [name], axis=axis))
    return name


def dq_bias(name, n, sw):
    s = (sx * sw).astype(np.float32)
    nodes.append(h.make_node("DequantizeLinear", [init(name + "_q", rng.integers(-3000, 3000, n).astype(np.int32)), init(name + "_s", s),
                                                  init(name + "_z", np.zeros(s.shape, np.int32))], [name], axis=0))
    return name


def to_int8(src, name):
    nodes.append(h.make_node("QuantizeLinear", [src, init(name + "_sy", sy), init(name + "_zy", np.int8(5))], [name]))
    result(name, T.INT8)


sw = scales(12)
nodes.append(h.make_node("Conv", ["fdq", dq_weight("cw", i8(12, 8, 3, 3), sw, 0), dq_bias("cb", 12, sw)], ["conv_f"], pads=[1, 1, 1, 1]))
to_int8("conv_f", "qdq_conv")
sw = scales(8)
nodes.append(h.make_node("Conv", ["fdq", dq_weight("dw", i8(8, 1, 3, 3), sw, 0)], ["dw_f"], group=8, pads=[1, 1, 1, 1]))
to_int8("dw_f", "qdq_depthwise")
nodes.append(h.make_node("Flatten", ["fdq"], ["flat_f"]))
nodes.append(h.make_node("QuantizeLinear", ["flat_f", "g_sx", "g_zx"], ["flat_q"]))
nodes.append(h.make_node("DequantizeLinear", ["flat_q", "g_sx", "g_zx"], ["flat"]))
sw = scales(10)
nodes.append(h.make_node("Gemm", ["flat", dq_weight("gw", i8(10, 288), sw, 0), dq_bias("gb", 10, sw)], ["gemm_f"], transB=1))
to_int8("gemm_f", "qdq_gemm")
nodes.append(h.make_node("MatMul", ["flat", dq_weight("mw", i8(288, 20), np.float32(0.004).reshape(()), 1)], ["mm_f"]))
to_int8("mm_f", "qdq_matmul")

model = h.make_model(h.make_graph(nodes, "int8_products", inputs, outputs, inits), opset_imports=[h.make_opsetid("", 13)])
model.ir_version = 8

os.makedirs(out, exist_ok=True)
onnx.save(model, os.path.join(out, "m.onnx"))
for k, v in feeds.items():
    np.save(os.path.join(out, k + ".npy"), v)
print(" ".join(f"{k}={os.path.join(out, k + '.npy')}" for k in feeds))
