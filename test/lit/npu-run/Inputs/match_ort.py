"""Runs MODEL in ONNX Runtime on the given inputs and compares every output
with OUTDIR/<name>.npy (what npu-run wrote): same shape and dtype, integers
and booleans equal, floats within 1e-5 relative / 1e-6 absolute, a NaN
matched only by a NaN. Prints one line
per output: `NAME: match` or `NAME: differs (...)`. Sequences travel as
npu-run writes and reads them: element i of `s` is `s[i]`, an empty
sequence `s[]`, an empty optional no file at all.
`--atol=A` (first) loosens the float tolerance to A absolute (one output
step of a dequantized int8 result, where ONNX Runtime's integer kernels round
otherwise); the line then says `match (within A)`.
usage: match_ort.py [--atol=A] MODEL OUTDIR name=file.npy name[0]=file.npy ..."""
import os
import re
import sys

import numpy as np
import onnxruntime as ort

args = sys.argv[1:]
atol = float(args.pop(0).split("=", 1)[1]) if args and args[0].startswith("--atol=") else None
model, outdir, *feeds = args
inputs = {}
for k, v in (f.split("=", 1) for f in feeds):
    m = re.fullmatch(r"(.*)\[(\d*)\]", k)
    if m:
        seq = inputs.setdefault(m.group(1), [])
        if m.group(2):
            seq.append(np.load(v))
    else:
        inputs[k] = np.load(v)
# One thread: ONNX Runtime's results can depend on its thread count
# (DynamicQuantizeLSTM splits the batch across threads and quantizes each part
# on its own scale), and the reference must not.
opts = ort.SessionOptions()
opts.intra_op_num_threads = 1
sess = ort.InferenceSession(model, opts, providers=["CPUExecutionProvider"])
names = [o.name for o in sess.get_outputs()]


def compare(name, want):
    if want is None:
        present = [f for f in os.listdir(outdir) if f == f"{name}.npy" or f.startswith(f"{name}[")]
        print(f"{name}: match" if not present else f"{name}: differs (got {present}, ONNX Runtime an empty optional)")
        return
    if isinstance(want, list):
        n = len([f for f in os.listdir(outdir) if re.fullmatch(re.escape(name) + r"\[\d+\]\.npy", f)])
        if n != len(want) or (not want and not os.path.exists(f"{outdir}/{name}[].npy")):
            print(f"{name}: differs (got {n} elements, ONNX Runtime {len(want)})")
            return
        for i, w in enumerate(want):
            compare(f"{name}[{i}]", w)
        if not want:
            print(f"{name}: match")
        return
    try:
        got = np.load(f"{outdir}/{name}.npy")
    except OSError as e:
        print(f"{name}: differs (no output: {e})")
        return
    if got.shape != want.shape or got.dtype != want.dtype:
        print(f"{name}: differs (got {got.dtype}{list(got.shape)}, ONNX Runtime {want.dtype}{list(want.shape)})")
    elif np.array_equal(got, want) if got.dtype.kind in "iub" else np.allclose(got, want, rtol=1e-5, atol=1e-6, equal_nan=True):
        print(f"{name}: match")
    elif atol is not None and got.dtype.kind == "f" and np.allclose(got, want, rtol=0, atol=atol, equal_nan=True):
        print(f"{name}: match (within {atol})")
    else:
        print(f"{name}: differs (got {got.ravel().tolist()}, ONNX Runtime {want.ravel().tolist()})")


for name, want in zip(names, sess.run(None, inputs)):
    compare(name, want)
