"""Runs the sparse model and our dense export of it in ONNX Runtime on the same
input and says whether every output matches exactly."""
import sys

import numpy as np
import onnxruntime as ort

feeds = {"X": np.arange(12, dtype=np.float32).reshape(3, 4)}
run = lambda p: ort.InferenceSession(p, providers=["CPUExecutionProvider"]).run(None, feeds)
a, b = run(sys.argv[1]), run(sys.argv[2])
same = len(a) == len(b) and all(x.shape == y.shape and np.array_equal(x, y) for x, y in zip(a, b))
print("outputs match" if same else f"outputs differ: {a} vs {b}")
