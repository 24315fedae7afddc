"""Runs MODEL in ONNX Runtime on the given inputs and compares every output
with OUTDIR/<name>.npy (what npu-run wrote): same shape and dtype, integers
and booleans equal, floats within 1e-5 relative / 1e-6 absolute, a NaN
matched only by a NaN. Prints one line
per output: `NAME: match` or `NAME: differs (...)`. Sequences travel as
npu-run writes and reads them: element i of `s` is `s[i]`, an empty
sequence `s[]`, an empty optional no file at all.
`--atol=A` (first) loosens the float tolerance to A absolute (one output
step of a dequantized int8 result, where ONNX Runtime's integer kernels round
otherwise); the line then says `match (within A)`. `--rtol=R` loosens the
relative tolerance to R (a deep float model whose sums ONNX Runtime orders
otherwise). Where ONNX Runtime's integer GEMM saturates (x86-64 without VNNI)
ONNX's reference evaluator stands in for models with integer ops.
usage: match_ort.py [--atol=A] [--rtol=R] MODEL OUTDIR name=file.npy name[0]=file.npy ..."""
import os
import re
import sys

import numpy as np
import onnxruntime as ort

# The benchmarks' helpers (`ort_integer_gemm_exact`: whether ONNX Runtime's
# integer GEMM is exact on this host).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "bench"))
from cpu_models import ort_integer_gemm_exact  # noqa: E402

args = sys.argv[1:]
atol, rtol = None, 1e-5
while args and args[0].startswith("--"):
    key, value = args.pop(0).split("=", 1)
    if key == "--atol":
        atol = float(value)
    elif key == "--rtol":
        rtol = float(value)
    else:
        sys.exit(f"match_ort.py: unknown option {key}")
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


def reference_outputs():
    """ONNX Runtime's outputs; on a host where its integer GEMM saturates, those
    of ONNX's reference evaluator (exact integer semantics) for a model with
    integer or quantized ops it can run, else ONNX Runtime's with its graph
    optimizations off (QDQ groups evaluated as the spec writes them, not fused
    into its integer kernels). Which one stood in goes to stderr."""
    import onnx

    m = onnx.load(model)
    ops = {n.op_type for n in m.graph.node}
    # Integer products, and QDQ products it fuses into them.
    integer = {"MatMulInteger", "ConvInteger", "QLinearConv", "QLinearMatMul", "DynamicQuantizeLSTM", "DynamicQuantizeMatMul", "QGemm"}
    qdq_product = "QuantizeLinear" in ops and ops & {"Conv", "MatMul", "Gemm"}
    if ort_integer_gemm_exact() or not (ops & integer or qdq_product):
        return sess.run(None, inputs)
    try:
        from onnx.reference import ReferenceEvaluator

        outs = ReferenceEvaluator(m).run(None, inputs)
        print("match_ort: ONNX's reference evaluator stands in for ONNX Runtime, whose integer GEMM saturates on this host", file=sys.stderr)
        return outs
    except Exception:
        o = ort.SessionOptions()
        o.intra_op_num_threads = 1
        o.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        print("match_ort: ONNX Runtime without graph optimizations (its integer GEMM saturates on this host)", file=sys.stderr)
        return ort.InferenceSession(model, o, providers=["CPUExecutionProvider"]).run(None, inputs)


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
    elif np.array_equal(got, want) if got.dtype.kind in "iub" else np.allclose(got, want, rtol=rtol, atol=1e-6, equal_nan=True):
        print(f"{name}: match")
    elif atol is not None and got.dtype.kind == "f" and np.allclose(got, want, rtol=0, atol=atol, equal_nan=True):
        print(f"{name}: match (within {atol})")
    else:
        print(f"{name}: differs (got {got.ravel().tolist()}, ONNX Runtime {want.ravel().tolist()})")


for name, want in zip(names, reference_outputs()):
    compare(name, want)
