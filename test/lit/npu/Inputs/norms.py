"""Writes DIR/norms.onnx and DIR/x.npy: a transformer-style chain on rows of
40 values (three blocks of lanes, the last partial; seed 5): a projection,
LayerNorm as exporters before opset 17 write it out (ReduceMean, Sub, Pow,
ReduceMean, Add, Sqrt, Div, a per-channel Mul and Add), a projection,
LayerNormalization, the written-out form again with Mul(d, d) and no scale
or bias, a Relu, GELU (its Erf), and Softmax over the last axis."""
import sys

from onnx_graph import Graph

out = sys.argv[1]
G = Graph(5)
const, node, rng = G.const, G.node, G.rng
C = 40


def proj(x, name):
    w = const(name + "_w", rng.standard_normal((C, C)) * 0.3)
    b = const(name + "_b", rng.standard_normal(C) * 0.5 + 1.0)
    return node("Add", [node("MatMul", [x, w], name), b], name + "_bias")


def written_out_ln(x, name, square="Pow", affine=True):
    m = node("ReduceMean", [x], name + "_mean", axes=[-1])
    d = node("Sub", [x, m], name + "_sub")
    p = node("Pow", [d, const(name + "_two", 2.0)], name + "_pow") if square == "Pow" else node("Mul", [d, d], name + "_sq")
    v = node("ReduceMean", [p], name + "_var", axes=[-1])
    s = node("Sqrt", [node("Add", [v, const(name + "_eps", 1e-5)], name + "_eps_add")], name + "_sqrt")
    y = node("Div", [d, s], name + "_div")
    if affine:
        y = node("Mul", [y, const(name + "_g", rng.standard_normal(C) * 0.5 + 1.0)], name + "_scale")
        y = node("Add", [y, const(name + "_b", rng.standard_normal(C) * 0.2)], name + "_shift")
    return y


x = proj("x", "fc1")
x = written_out_ln(x, "ln1")
x = proj(x, "fc2")
x = node("LayerNormalization", [x, const("ln2_g", rng.standard_normal(C) * 0.5 + 1.0), const("ln2_b", rng.standard_normal(C) * 0.2)], "ln2", axis=-1, epsilon=1e-6)
x = written_out_ln(proj(x, "fc3"), "ln3", square="Mul", affine=False)
x = node("Relu", [x], "relu")
# GELU as exporters write it: x · (1 + erf(x / √2)) / 2.
e = node("Erf", [node("Div", [x, const("sqrt2", [1.4142135])], "gelu_div")], "gelu_erf")
x = node("Mul", [node("Mul", [x, node("Add", [e, const("one", [1.0])], "gelu_add")], "gelu_mul"), const("half", [0.5])], "gelu_half")
node("Softmax", [node("Mul", [x, const("three", [3.0])], "temp")], "softmax", outs=["y"], axis=-1)
G.save(f"{out}/norms.onnx", "norms", [1, 12, C], [1, 12, C], f"{out}/x.npy")
