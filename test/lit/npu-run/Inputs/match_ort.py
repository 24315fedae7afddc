"""Runs MODEL in ONNX Runtime on the given inputs and compares every output
with OUTDIR/<name>.npy (what npu-run wrote): same shape and dtype, within
1e-5 relative / 1e-6 absolute, a NaN matched only by a NaN. Prints one line
per output: `NAME: match` or `NAME: differs (...)`.
usage: match_ort.py MODEL OUTDIR name=file.npy ..."""
import sys

import numpy as np
import onnxruntime as ort

model, outdir, *feeds = sys.argv[1:]
inputs = {k: np.load(v) for k, v in (f.split("=", 1) for f in feeds)}
sess = ort.InferenceSession(model, providers=["CPUExecutionProvider"])
names = [o.name for o in sess.get_outputs()]
for name, want in zip(names, sess.run(None, inputs)):
    try:
        got = np.load(f"{outdir}/{name}.npy")
    except OSError as e:
        print(f"{name}: differs (no output: {e})")
        continue
    if got.shape != want.shape or got.dtype != want.dtype:
        print(f"{name}: differs (got {got.dtype}{list(got.shape)}, ONNX Runtime {want.dtype}{list(want.shape)})")
    elif np.allclose(got, want, rtol=1e-5, atol=1e-6, equal_nan=True):
        print(f"{name}: match")
    else:
        print(f"{name}: differs (got {got.ravel().tolist()}, ONNX Runtime {want.ravel().tolist()})")
