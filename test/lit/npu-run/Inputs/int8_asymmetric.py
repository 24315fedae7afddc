"""Writes DIR/m.onnx, integer products whose zero points the VNNI kernel
must take off exactly, and its random inputs DIR/<input>.npy: ConvInteger and
MatMulInteger as ONNX Runtime's dynamic quantizer writes them (uint8
activations from DynamicQuantizeLinear, so a zero point known only at run
time; uint8 weights with a zero point per tensor, or per column for
MatMulInteger: ONNX Runtime's ConvInteger takes per-tensor ones only), a
ConvInteger on a uint8 input with a constant zero point in the shapes the
kernel packs differently (3x3 padded, 3x3 stride 2, 1x1), and QLinearConv /
QLinearMatMul with asymmetric uint8 weights.
usage: int8_asymmetric.py DIR"""
import os
import sys

import numpy as np
from onnx import TensorProto as T

sys.path.insert(0, os.path.dirname(__file__))
from onnx_graph import Graph  # noqa: E402

rng = np.random.default_rng(23)
g = Graph()


def u8(*s):
    return rng.integers(0, 256, s).astype(np.uint8)


# Dynamic quantization of a float input: zero point computed at run time.
g.input("f", T.FLOAT, (rng.standard_normal((1, 5, 9, 10)) * 2 + 0.7).astype(np.float32))
g.node("DynamicQuantizeLinear", ["f"], ["fq", "fs", "fz"])
g.node("ConvInteger", ["fq", g.init("dw", u8(20, 5, 3, 3)), "fz", g.init("dzw", np.uint8(121))], ["dyn_conv"], pads=[1, 1, 1, 1])
g.result("dyn_conv", T.INT32)
g.node("ConvInteger", ["fq", g.init("pw", u8(17, 5, 1, 1)), "fz", g.init("pzw", np.uint8(77))], ["dyn_pointwise"])
g.result("dyn_pointwise", T.INT32)
g.input("g", T.FLOAT, (rng.standard_normal((3, 1, 36)) - 0.4).astype(np.float32))
g.node("DynamicQuantizeLinear", ["g"], ["gq", "gs", "gz"])
g.node("MatMulInteger", ["gq", g.init("mw", u8(36, 21)), "gz", g.init("mzw", u8(21))], ["dyn_matmul"])
g.result("dyn_matmul", T.INT32)
g.node("MatMulInteger", ["gq", g.init("mw8", rng.integers(-128, 128, (36, 18)).astype(np.int8)), "gz", g.init("mzw8", np.int8(-3))], ["dyn_matmul_s8"])
g.result("dyn_matmul_s8", T.INT32)

# A uint8 input with constant zero points.
g.input("x", T.UINT8, u8(1, 6, 11, 13))
g.node("ConvInteger", ["x", g.init("sw", u8(16, 6, 3, 3)), g.init("szx", np.uint8(140)), g.init("szw", np.uint8(90))], ["strided"], pads=[1, 1, 1, 1], strides=[2, 2])
g.result("strided", T.INT32)
g.node("QLinearConv", ["x", g.init("qsx", np.float32(0.02)), "szx", g.init("qw", u8(12, 6, 3, 3)), g.init("qsw", np.float32(0.004)),
                       g.init("qzw", np.uint8(133)), g.init("qsy", np.float32(0.9)), g.init("qzy", np.uint8(120))], ["qconv_u8w"], pads=[1, 1, 1, 1])
g.result("qconv_u8w", T.UINT8)
g.input("a", T.UINT8, u8(4, 32))
g.node("QLinearMatMul", ["a", g.init("asx", np.float32(0.03)), g.init("azx", np.uint8(100)), g.init("aw", u8(32, 8)), g.init("asw", np.float32(0.01)),
                         g.init("azw", np.uint8(110)), g.init("asy", np.float32(0.7)), g.init("azy", np.uint8(128))], ["qmatmul_u8w"])
g.result("qmatmul_u8w", T.UINT8)
g.save(sys.argv[1], "int8_asymmetric")
