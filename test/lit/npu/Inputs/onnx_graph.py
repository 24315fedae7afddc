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

    def save(self, path, name, x_shape, y_shape, x_npy):
        """Checks and writes the model (opset 17, shapes inferred) and a random input for `x`."""
        g = helper.make_graph(self.nodes, name, [helper.make_tensor_value_info("x", TensorProto.FLOAT, x_shape)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, y_shape)], self.inits)
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
        onnx.checker.check_model(m)
        onnx.save(onnx.shape_inference.infer_shapes(m, strict_mode=True), path)
        np.save(x_npy, self.rng.standard_normal(x_shape).astype(np.float32))
