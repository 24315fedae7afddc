"""A small ONNX graph builder for the generated test models of this folder:
initializers and named nodes appended in order, a model of one float input
and one float output saved with its input (`x.npy`)."""
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


class Graph:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.inits, self.nodes = [], []
        self.quantized = 0

    def const(self, name, v, dtype=np.float32):
        self.inits.append(numpy_helper.from_array(np.asarray(v, dtype=dtype), name))
        return name

    def node(self, op, ins, name, outs=None, **attrs):
        self.nodes.append(helper.make_node(op, ins, outs or [name], name=name, **attrs))
        return name

    def qdq(self, x, scale, zp):
        """`x` quantized to int8 with its own scale and zero point and dequantized
        again, as quantizers write activations: nodes `qN`, `dqN`, N counting up."""
        n = self.quantized
        self.quantized += 1
        s, z = self.const("s%d" % n, scale), self.const("z%d" % n, zp, np.int8)
        return self.node("DequantizeLinear", [self.node("QuantizeLinear", [x, s, z], "q%d" % n), s, z], "dq%d" % n)

    def conv(self, x, name, cin, cout):
        """A 3x3 padded Conv of `x` with random int8 weights, symmetric per
        output channel (DequantizeLinear along axis 0), as quantizers write them."""
        w = self.rng.standard_normal((cout, cin, 3, 3)) * 0.3
        ws = np.abs(w).reshape(cout, -1).max(axis=1) / 127
        wq = np.clip(np.round(w / ws[:, None, None, None]), -127, 127)
        wd = self.node("DequantizeLinear", [self.const(name + "_wq", wq, np.int8), self.const(name + "_ws", ws), self.const(name + "_wz", np.zeros(cout), np.int8)], name + "_wdq", axis=0)
        return self.node("Conv", [x, wd], name, pads=[1, 1, 1, 1])

    def save(self, path, name, x_shape, y_shape, x_npy):
        """Checks and writes the model (opset 17, shapes inferred) and a random input for `x`."""
        g = helper.make_graph(self.nodes, name, [helper.make_tensor_value_info("x", TensorProto.FLOAT, x_shape)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, y_shape)], self.inits)
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
        onnx.checker.check_model(m)
        onnx.save(onnx.shape_inference.infer_shapes(m, strict_mode=True), path)
        np.save(x_npy, self.rng.standard_normal(x_shape).astype(np.float32))
