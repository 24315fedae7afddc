"""Writes DIR/avg.onnx and DIR/x.npy: int8 AveragePools between a
DequantizeLinear and a QuantizeLinear, as ONNX Runtime's quantizer writes
them (seed 11): 2x2 stride 2 (DenseNet's transitions), 3x3 stride 1 and 3x3
stride 2 over an odd map, each with its own output scale; and DIR/pad.onnx
(DIR/x2.npy): padded 3x3 ones of stride 1 and 2, which do not count the
padding (the divisor changes at the border), and one that counts it
(count_include_pad), which the NPU refuses."""
import sys

from onnx_graph import Graph

out = sys.argv[1]


G = Graph(11)
node, q = G.node, G.qdq
c = q(G.conv(q("x", 0.03, 5), "c1", 4, 20), 0.05, -4)
a = q(node("AveragePool", [c], "avg2", kernel_shape=[2, 2], strides=[2, 2]), 0.04, -3)
b = q(node("AveragePool", [a], "avg3", kernel_shape=[3, 3]), 0.035, 2)
d = q(node("AveragePool", [b], "avg3s2", kernel_shape=[3, 3], strides=[2, 2]), 0.03, -1)
G.node("Identity", [d], "y")
G.save(out + "/avg.onnx", "avg", [1, 4, 18, 18], [1, 20, 3, 3], out + "/x.npy")

G = Graph(12)
node, q = G.node, G.qdq
c = q(G.conv(q("x", 0.03, 5), "c1", 4, 8), 0.05, -4)
p = q(node("AveragePool", [c], "avgpad", kernel_shape=[3, 3], pads=[1, 1, 1, 1]), 0.04, -3)
p2 = q(node("AveragePool", [p], "avgpad2", kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]), 0.035, 2)
c2 = q(G.conv(p2, "c2", 8, 4), 0.1, 0)
y = q(node("AveragePool", [c2], "avgcip", kernel_shape=[2, 2], pads=[1, 1, 0, 0], count_include_pad=1), 0.08, 1)
G.node("Identity", [y], "y")
G.save(out + "/pad.onnx", "pad", [1, 4, 8, 8], [1, 4, 4, 4], out + "/x2.npy")
