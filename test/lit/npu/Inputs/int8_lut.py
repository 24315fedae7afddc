"""Writes DIR/lut.onnx and DIR/x.npy: int8 functions of one value between a
DequantizeLinear and a QuantizeLinear, as ONNX Runtime's quantizer writes
them (seed 8): a QDQ convolution whose one DequantizeLinear feeds Sigmoid,
HardSwish, Tanh, LeakyRelu, Elu, Softplus, HardSigmoid and Erf, each
quantized to its own scale and zero point, concatenated (requantized to the
Concat's scale) into a last convolution; and a Relu after the model input's
DequantizeLinear (standalone: no producer to fuse into). DIR/swish.onnx
(DIR/x2.npy): x·sigmoid(x) (SiLU, as YOLO exports write it) and
x·hardsigmoid(x) (MobileNetV3's HardSwish written out) between QDQ
convolutions, each a Mul of the tensor and its function."""
import sys

from onnx_graph import Graph

out = sys.argv[1]


def build_lut(G):
    node, q = G.node, G.qdq
    x = q(node("Relu", [q("x", 0.03, 5)], "relu_in"), 0.015, -128)
    c = q(G.conv(x, "c1", 4, 4), 0.06, 3)
    fns = [("Sigmoid", {}, 1 / 255, -128), ("HardSwish", {}, 0.03, -110), ("Tanh", {}, 1 / 127, 0), ("LeakyRelu", {"alpha": 0.1}, 0.04, -20),
           ("Elu", {"alpha": 0.7}, 0.035, -60), ("Softplus", {}, 0.03, -128), ("HardSigmoid", {"alpha": 0.25, "beta": 0.4}, 1 / 255, -128), ("Erf", {}, 1 / 127, 0)]
    outs = [q(node(f, [c], f.lower(), **a), s, z) for f, a, s, z in fns]
    cat = q(node("Concat", outs, "cat", axis=1), 0.03, -10)
    y = q(G.conv(cat, "c2", 4 * len(fns), 4), 0.1, 2)
    G.node("Identity", [y], "y")


def build_swish(G):
    node, q = G.node, G.qdq
    c = q(G.conv(q("x", 0.03, 5), "c1", 4, 8), 0.05, -4)
    # c is read twice (its DequantizeLinear is split per reader before partitioning).
    s = q(node("Sigmoid", [c], "sig"), 1 / 255, -128)
    silu = q(node("Mul", [c, s], "silu"), 0.03, -118)
    c2 = q(G.conv(silu, "c2", 8, 8), 0.04, 6)
    h = q(node("HardSigmoid", [c2], "hsig", alpha=1 / 6, beta=0.5), 1 / 255, -128)
    hs = q(node("Mul", [h, c2], "hswish"), 0.02, -100)
    y = q(G.conv(hs, "c3", 8, 4), 0.08, 1)
    G.node("Identity", [y], "y")


G = Graph(8)
build_lut(G)
G.save(out + "/lut.onnx", "lut", [1, 4, 8, 8], [1, 4, 8, 8], out + "/x.npy")
G = Graph(9)
build_swish(G)
G.save(out + "/swish.onnx", "swish", [1, 4, 8, 8], [1, 4, 8, 8], out + "/x2.npy")
