"""Runs a text model with model-local functions in ONNX Runtime (which runs the
functions itself) and our inlined export of it, on the same random inputs, and
says whether every output matches (to 1e-6 relative)."""
import sys

import numpy as np
import onnx
import onnx.parser
import onnxruntime as ort

original = onnx.parser.parse_model(open(sys.argv[1]).read())
inlined = onnx.load(sys.argv[2])
rng = np.random.default_rng(0)
mismatch = []
for cond in (True, False):
    feeds = {"X": rng.standard_normal(4).astype(np.float32), "c": np.array(cond)}
    a = ort.InferenceSession(original.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)
    b = ort.InferenceSession(inlined.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)
    for x, y in zip(a, b):
        if x.shape != y.shape or not np.allclose(x, y, rtol=1e-6, atol=0):
            mismatch.append((cond, x, y))
print("outputs match" if not mismatch and len(a) == len(b) else f"outputs differ: {mismatch}")
