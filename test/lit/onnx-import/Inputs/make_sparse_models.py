"""Writes models with sparse tensors into the folder argv[1]: good.onnx (a
sparse initializer with linear indices, a Constant's sparse_value with
coordinate indices) and broken ones (an index out of range, a huge dense
size, indices that do not fit the values)."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def sparse(name, values, indices, dims):
    v = numpy_helper.from_array(np.array(values, dtype=np.float32), name)
    i = numpy_helper.from_array(np.array(indices, dtype=np.int64), name + "_indices")
    return helper.make_sparse_tensor(v, i, dims)


def model(sparse_init, name):
    x = helper.make_tensor_value_info("X", TensorProto.FLOAT, [3, 4])
    y = helper.make_tensor_value_info("Y", TensorProto.FLOAT, [3, 4])
    z = helper.make_tensor_value_info("Z", TensorProto.FLOAT, [2, 3])
    nodes = [
        helper.make_node("Add", ["X", "W"], ["Y"], name="add"),
        helper.make_node("Constant", [], ["C"], name="c", sparse_value=sparse("C", [5.0, 6.0], [[0, 1], [1, 2]], [2, 3])),
        helper.make_node("Add", ["C", "C"], ["Z"], name="twice"),
    ]
    g = helper.make_graph(nodes, "g", [x], [y, z], sparse_initializer=[sparse_init])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    open(os.path.join(out, name), "wb").write(m.SerializeToString())


model(sparse("W", [1.0, 2.0, 3.0], [0, 5, 11], [3, 4]), "good.onnx")
model(sparse("W", [1.0], [12], [3, 4]), "range.onnx")
model(sparse("W", [1.0], [0], [1 << 20, 1 << 20]), "huge.onnx")
model(sparse("W", [1.0, 2.0], [0, 1, 2], [3, 4]), "shape.onnx")
