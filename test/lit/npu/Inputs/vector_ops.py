"""Writes DIR/vector.onnx and DIR/x.npy: a small CNN built from what exporters
write around convolutions (seed 3): Paddle's hard-swish as Add, Clip, Mul and
Div by constants, a squeeze-and-excitation block (a computed per-channel
scale), SiLU (x times its Sigmoid), HardSigmoid, HardSwish, LeakyRelu, Tanh,
a Relu whose producer has two users, a constant minus a tensor, a
per-channel Max, a full-shape constant table minus and plus a tensor, and a
Gemm's row plus a constant vector."""
import sys

from onnx_graph import Graph

out = sys.argv[1]
G = Graph(3)
const, node, rng = G.const, G.node, G.rng


def conv(x, cin, cout, name, k=1, group=1):
    w = const(name + "_w", rng.standard_normal((cout, cin // group, k, k)) * 0.3)
    b = const(name + "_b", rng.standard_normal(cout) * 0.1)
    return node("Conv", [x, w, b], name, kernel_shape=[k, k], pads=[k // 2] * 4, group=group)


x = conv("x", 3, 20, "conv1", k=3)
# Paddle's hard-swish: x * clip(x + 3, 0, 6) / 6.
t = node("Add", [x, const("three", [3.0])], "hs_add")
t = node("Clip", [t, const("zero", 0.0), const("six", 6.0)], "hs_clip")
t = node("Mul", [x, t], "hs_mul")
x = node("Div", [t, const("six_d", [6.0])], "hs_div")
# Squeeze and excitation: a computed scale per channel.
s = node("GlobalAveragePool", [x], "se_pool")
s = conv(s, 20, 8, "se_fc1")
s = node("Relu", [s], "se_relu")
s = conv(s, 8, 20, "se_fc2")
s = node("HardSigmoid", [s], "se_gate", alpha=0.2, beta=0.5)
x = node("Mul", [x, s], "se_scale")
# SiLU, then a depthwise conv, HardSwish and LeakyRelu standalone.
x = conv(x, 20, 20, "conv2", k=3, group=20)
x = node("Mul", [x, node("Sigmoid", [x], "silu_gate")], "silu")
x = node("HardSwish", [conv(x, 20, 24, "conv3")], "hswish")
x = node("LeakyRelu", [x], "leaky", alpha=0.1)
# A Relu whose producer has two users (it cannot fuse), a constant minus a tensor, Tanh.
c = conv(x, 24, 24, "conv4")
r = node("Relu", [c], "relu4")
x = node("Sub", [const("half", [[[0.5]]]), node("Add", [c, r], "add4")], "rsub")
x = node("Tanh", [x], "tanh")
x = node("Max", [x, const("floor", rng.standard_normal((24, 1, 1)) * 0.1)], "max_c")
x = node("Mul", [x, const("scale", rng.standard_normal((1, 24, 1, 1)))], "mul_c")
# A detector's decode: a full-shape constant table minus a tensor, plus a tensor.
x = node("Sub", [const("table_a", rng.standard_normal((1, 24, 12, 10))), x], "table_sub")
x = node("Add", [const("table_b", rng.standard_normal((1, 24, 12, 10))), x], "table_add")
# A BatchNormalization no Conv precedes (a per-channel product and sum, Relu fused), then global max and mean.
bn = [const("bn_" + k, v) for k, v in (("s", rng.uniform(0.5, 1.5, 24)), ("b", rng.standard_normal(24) * 0.1), ("m", rng.standard_normal(24) * 0.1), ("v", rng.uniform(0.5, 1.5, 24)))]
x = node("Relu", [node("BatchNormalization", [x] + bn, "bn")], "bn_relu")
# A grouped conv (4 groups), a Sum of three (Relu fused), a Mean of two, a Max of three.
g = conv(x, 24, 24, "gconv", k=3, group=4)
x = node("Relu", [node("Sum", [x, g, g], "sum3")], "sum_relu")
x = node("Max", [node("Mean", [x, g], "mean2"), g, x], "max3")
x = node("Add", [node("GlobalMaxPool", [x], "gmp"), node("ReduceMean", [x], "rmean", axes=[2, 3])], "gsum")
x = node("Flatten", [x], "flat")
w = const("fc_w", rng.standard_normal((24, 10)) * 0.3)
x = node("MatMul", [x, w], "fc")
x = node("Add", [x, const("fc_b", rng.standard_normal(10))], "fc_bias")
x = node("Sigmoid", [x], "y")
G.save(f"{out}/vector.onnx", "vector_ops", [1, 3, 12, 10], [1, 10], f"{out}/x.npy")
