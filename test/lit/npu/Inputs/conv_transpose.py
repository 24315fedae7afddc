"""Writes DIR/deconv.onnx and DIR/x.npy: a decoder of transposed
convolutions as exporters write them (seed 7): a detector's 2x2 stride-2
upsampling with a bias, BatchNormalization and Relu after it; a 4x4 stride-2
one padded by 1; a grouped 3x3 stride-2 one with output_padding; a stride-1
one; and one with auto_pad SAME_UPPER, ending in a Sigmoid."""
import sys

from onnx_graph import Graph

out = sys.argv[1]
G = Graph(7)
const, node, rng = G.const, G.node, G.rng


def deconv(x, cin, cout, name, k, group=1, bias=True, **attrs):
    w = const(name + "_w", rng.standard_normal((cin, cout // group, k, k)) * 0.3)
    ins = [x, w] + ([const(name + "_b", rng.standard_normal(cout) * 0.1)] if bias else [])
    return node("ConvTranspose", ins, name, kernel_shape=[k, k], group=group, **attrs)


x = node("Relu", [node("Conv", ["x", const("c_w", rng.standard_normal((8, 8, 3, 3)) * 0.2)], "conv", pads=[1] * 4)], "conv_relu")
x = deconv(x, 8, 6, "up2x2", 2, strides=[2, 2])
bn = [const("bn_" + p, v) for p, v in [("s", rng.uniform(0.5, 1.5, 6)), ("b", rng.standard_normal(6) * 0.1), ("m", rng.standard_normal(6) * 0.1), ("v", rng.uniform(0.5, 1.5, 6))]]
x = node("Relu", [node("BatchNormalization", [x] + bn, "bn")], "bn_relu")
x = deconv(x, 6, 4, "up4x4", 4, strides=[2, 2], pads=[1, 1, 1, 1])
x = deconv(x, 4, 4, "up_grouped", 3, group=2, bias=False, strides=[2, 2], pads=[1, 1, 1, 1], output_padding=[1, 1])
x = deconv(x, 4, 3, "same", 3, pads=[1, 1, 1, 1])
x = deconv(x, 3, 2, "same_upper", 3, strides=[2, 1], auto_pad="SAME_UPPER")
node("Sigmoid", [x], "y")
G.save(f"{out}/deconv.onnx", "conv_transpose", [1, 8, 5, 6], [1, 2, 80, 48], f"{out}/x.npy")
