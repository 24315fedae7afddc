"""A graph built node by node for the test generators: initializers, inputs
with their random values, outputs, then one call writing DIR/m.onnx and
DIR/<input>.npy."""
import os

import numpy as np
import onnx
from onnx import helper as h, numpy_helper as nh


class Graph:
    def __init__(self):
        self.inits, self.nodes, self.inputs, self.outputs, self.feeds = [], [], [], [], {}

    def init(self, name, a):
        self.inits.append(nh.from_array(np.asarray(a), name))
        return name

    def input(self, name, elem, value):
        self.feeds[name] = value
        self.inputs.append(h.make_tensor_value_info(name, elem, list(value.shape)))

    def node(self, op, ins, outs, **attrs):
        self.nodes.append(h.make_node(op, ins, outs, **attrs))

    def result(self, name, elem):
        self.outputs.append(h.make_tensor_value_info(name, elem, None))

    def save(self, out, name, opset=13):
        model = h.make_model(h.make_graph(self.nodes, name, self.inputs, self.outputs, self.inits), opset_imports=[h.make_opsetid("", opset)])
        model.ir_version = 8
        os.makedirs(out, exist_ok=True)
        onnx.save(model, os.path.join(out, "m.onnx"))
        for k, v in self.feeds.items():
            np.save(os.path.join(out, k + ".npy"), v)
