"""Writes DIR/attention.onnx and DIR/x.npy: self-attention as exporters
write it (seed 7), on 20 tokens of 40 values (head width 10, so K's rows and
Kᵀ's columns are partial blocks of lanes). Two blocks:
- PyTorch's: Q, K, V projections, each split into 4 heads (Reshape to
  [1, T, H, d] and Transpose [0, 2, 1, 3]), QKᵀ by a Transpose [0, 1, 3, 2],
  the scale after the product, Softmax, AV, heads merged back.
- paddle2onnx's (ppocr's SVTR): one QKV projection reshaped to [1, T, 3, H, d]
  and transposed [2, 0, 3, 1, 4], Q, K and V sliced out and squeezed, the scale
  on Q before the product, and 2 heads.
Then a batched product with constant B (a stack of matrices, [H, d, d]).
Also DIR/map.onnx and DIR/map_x.npy: a map made by a Reshape of a
projection, BatchNormalization, Relu and a Conv (seed 8): an image, not heads."""
import sys

from onnx_graph import Graph

out = sys.argv[1]
G = Graph(7)
const, node, rng = G.const, G.node, G.rng
T, D = 20, 40


def proj(x, name, n=D):
    w = const(name + "_w", rng.standard_normal((D, n)) * 0.12)
    return node("Add", [node("MatMul", [x, w], name), const(name + "_b", rng.standard_normal(n) * 0.1)], name + "_bias")


def i64(name, v):
    return const(name, v, dtype="int64")


def torch_block(x, name, H=4):
    d = D // H

    def heads(v, n):
        r = node("Reshape", [v, i64(n + "_s", [1, T, H, d])], n + "_split")
        return node("Transpose", [r], n + "_heads", perm=[0, 2, 1, 3])

    q, k, v = (heads(proj(x, name + p), name + p) for p in "qkv")
    kt = node("Transpose", [k], name + "_kt", perm=[0, 1, 3, 2])
    s = node("MatMul", [q, kt], name + "_scores")
    s = node("Mul", [s, const(name + "_scale", d ** -0.5)], name + "_scaled")
    a = node("Softmax", [s], name + "_softmax", axis=-1)
    o = node("MatMul", [a, v], name + "_av")
    o = node("Transpose", [o], name + "_merge", perm=[0, 2, 1, 3])
    o = node("Reshape", [o, i64(name + "_m", [1, T, D])], name + "_merged")
    return proj(o, name + "_out")


def paddle_block(x, name, H=2):
    d = D // H
    qkv = node("Reshape", [proj(x, name + "_qkv", 3 * D), i64(name + "_s", [1, T, 3, H, d])], name + "_split")
    qkv = node("Transpose", [qkv], name + "_heads", perm=[2, 0, 3, 1, 4])

    def part(i, n):
        s = node("Slice", [qkv, i64(n + "_a", [i]), i64(n + "_b", [i + 1]), i64(n + "_ax", [0])], n + "_slice")
        return node("Squeeze", [s, i64(n + "_sq", [0])], n)

    q, k, v = (part(i, name + "_" + n) for i, n in enumerate("qkv"))
    q = node("Mul", [q, const(name + "_scale", d ** -0.5)], name + "_scaled")
    kt = node("Transpose", [k], name + "_kt", perm=[0, 1, 3, 2])
    a = node("Softmax", [node("MatMul", [q, kt], name + "_scores")], name + "_softmax", axis=-1)
    o = node("Transpose", [node("MatMul", [a, v], name + "_av")], name + "_merge", perm=[0, 2, 1, 3])
    return node("Reshape", [o, i64(name + "_m", [1, T, D])], name + "_merged")


x = torch_block("x", "t")
x = paddle_block(x, "p")
x = node("Reshape", [x, i64("stack_s", [T, 4, 10])], "stack")
x = node("Transpose", [x], "per_head", perm=[1, 0, 2])
y = node("MatMul", [x, const("stack_w", rng.standard_normal((4, 10, 10)) * 0.3)], "stacked", outs=["y"])
G.save(f"{out}/attention.onnx", "attention", [1, T, D], [4, T, 10], f"{out}/x.npy")

# Not heads: a feature map made by a Reshape of a projection (a generator's
# first block), scaled and shifted per channel by a BatchNormalization: NHWC
# like any image, its [1, C, 1, 1] operands per channel.
G = Graph(8)
const, node, rng = G.const, G.node, G.rng
C, S = 8, 4
x = node("MatMul", ["x", const("fc_w", rng.standard_normal((16, C * S * S)) * 0.3)], "fc")
x = node("Reshape", [x, i64("map_s", [1, C, S, S])], "map")
bn = [const("bn_" + k, v) for k, v in (("g", rng.random(C) + 0.5), ("b", rng.standard_normal(C)), ("m", rng.standard_normal(C) * 0.1), ("v", rng.random(C) + 0.5))]
x = node("Relu", [node("BatchNormalization", [x] + bn, "bn")], "relu")
node("Conv", [x, const("conv_w", rng.standard_normal((C, C, 3, 3)) * 0.2)], "conv", outs=["y"], pads=[1, 1, 1, 1])
G.save(f"{out}/map.onnx", "map", [1, 16], [1, C, S, S], f"{out}/map_x.npy")
