"""Writes DIR/bands8.onnx and DIR/x.npy: `bands.py`'s inverted residual
block (seed 12) quantized by ONNX Runtime's static quantizer (QDQ, int8
activations and per-channel weights, symmetric), calibrated on four random
inputs."""
import logging
import os
import subprocess
import sys

import numpy as np
from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static

out = sys.argv[1]
subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "bands.py"), out], check=True)
logging.getLogger().setLevel(logging.ERROR)


class Reader(CalibrationDataReader):
    def __init__(self):
        self.data = iter([{"x": np.random.default_rng(100 + i).standard_normal([1, 3, 112, 112]).astype(np.float32)} for i in range(4)])

    def get_next(self):
        return next(self.data, None)


quantize_static(f"{out}/bands.onnx", f"{out}/bands8.onnx", Reader(), quant_format=QuantFormat.QDQ, activation_type=QuantType.QInt8, weight_type=QuantType.QInt8,
                per_channel=True, extra_options={"ActivationSymmetric": True, "WeightSymmetric": True})
