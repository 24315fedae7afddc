# A small model for ACME's end-to-end test: MatMul -> Relu -> Add run on ACME,
# the Softmax after them falls back to the CPU. Writes the model to argv[1].
import sys
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

w = numpy_helper.from_array((np.arange(64 * 48, dtype=np.float32).reshape(64, 48) % 7 - 3) / 8, "w")
nodes = [
    helper.make_node("MatMul", ["x", "w"], ["h"], name="matmul"),
    helper.make_node("Relu", ["h"], ["r"], name="relu"),
    helper.make_node("Add", ["r", "bias"], ["s"], name="add"),
    helper.make_node("Softmax", ["s"], ["y"], name="softmax", axis=1),
]
graph = helper.make_graph(
    nodes, "mlp",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 64]), helper.make_tensor_value_info("bias", TensorProto.FLOAT, [4, 48])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 48])],
    [w],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
onnx.checker.check_model(model)
onnx.save(model, sys.argv[1])
