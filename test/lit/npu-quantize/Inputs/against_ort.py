"""ONNX Runtime runs our QDQ model (argv[2]) and quantizes the float model
(argv[1]) itself with the same calibration folder (argv[3]) and settings
(minmax, per channel); prints the largest difference between the two int8
models' outputs on the held-out input (argv[4]) in output steps, and each
one's error against the float model."""
import logging
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnxruntime.quantization import CalibrationDataReader, QuantFormat, quantize_static
from onnxruntime.quantization.shape_inference import quant_pre_process

logging.getLogger().setLevel(logging.ERROR)
fp, ours, cal, xin = sys.argv[1:5]
files = sorted(os.path.join(cal, f) for f in os.listdir(cal))


class Reader(CalibrationDataReader):
    def __init__(self):
        self.it = iter([{"x": np.load(f)} for f in files])

    def get_next(self):
        return next(self.it, None)


theirs = ours + ".ort.onnx"
quant_pre_process(fp, theirs + ".pre.onnx", skip_symbolic_shape=True)
quantize_static(theirs + ".pre.onnx", theirs, Reader(), quant_format=QuantFormat.QDQ, per_channel=True)
so = ort.SessionOptions()
so.log_severity_level = 3
x = np.load(xin)
run = lambda p: ort.InferenceSession(p, so).run(None, {"x": x})[0]
f, a, b = run(fp), run(ours), run(theirs)
m = onnx.load(ours)
inits = {i.name: onnx.numpy_helper.to_array(i) for i in m.graph.initializer}
step = next(float(inits[n.input[1]]) for n in m.graph.node if n.op_type == "DequantizeLinear" and n.output[0] == "y")
print(f"ONNX Runtime runs it: ours vs ONNX Runtime's quantizer: {np.abs(a - b).max() / step:.2f} output steps")
print(f"error against float: ours {np.abs(a - f).max() / step:.1f} steps, ONNX Runtime's {np.abs(b - f).max() / step:.1f} steps")
