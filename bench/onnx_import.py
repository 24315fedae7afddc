#!/usr/bin/env python3
"""Benchmark of the ONNX importer on a ~100 MB model (an MLP with random
weights, built with the `onnx` package, pip-installed if missing): wall time
and peak RSS of `npu-translate --import-onnx`, median of N runs, against the
floors (under 1 s, peak under 1.5x the model's size).

usage: bench/onnx_import.py [--mb 100] [--runs 5]
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def ensure_onnx():
    try:
        import onnx  # noqa: F401
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "onnx==1.22.0"], check=True)


def make_model(path, mb):
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    width = 2048
    layers = max(1, round(mb * 2**20 / (width * width * 4)))
    rng = np.random.default_rng(0)
    nodes, inits = [], []
    prev = "x"
    for i in range(layers):
        w = rng.standard_normal((width, width), dtype=np.float32)
        b = rng.standard_normal((width,), dtype=np.float32)
        inits += [numpy_helper.from_array(w, f"w{i}"), numpy_helper.from_array(b, f"b{i}")]
        nodes.append(helper.make_node("MatMul", [prev, f"w{i}"], [f"m{i}"], name=f"fc{i}"))
        nodes.append(helper.make_node("Add", [f"m{i}", f"b{i}"], [f"a{i}"], name=f"bias{i}"))
        nodes.append(helper.make_node("Relu", [f"a{i}"], [f"r{i}"], name=f"relu{i}"))
        prev = f"r{i}"
    g = helper.make_graph(nodes, "mlp", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", width])],
                          [helper.make_tensor_value_info(prev, TensorProto.FLOAT, ["batch", width])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], producer_name="bench")
    onnx.save(m, path)


def run(cmd):
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{p.stderr.read().decode()}")
    return wall, ru.ru_maxrss / 1024.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=int, default=100)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--make", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.make:
        ensure_onnx()
        make_model(a.make, a.mb)
        return
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "tools"], cwd=ROOT, check=True)
    out = os.path.join(ROOT, "bench", "out")
    os.makedirs(out, exist_ok=True)
    model = os.path.join(out, f"mlp_{a.mb}mb.onnx")
    if not os.path.exists(model):
        # In another process: a forked child's peak RSS starts from its parent's,
        # so this process must stay small while it measures.
        subprocess.run([sys.executable, __file__, "--make", model, "--mb", str(a.mb)], check=True)
    size_mib = os.path.getsize(model) / 2**20
    tool = os.path.join(ROOT, "target", "release", "npu-translate")
    modes = {
        "import + verify": [tool, "--import-onnx", model, "--emit=none"],
        "import + print MLIR": [tool, "--import-onnx", model, "-o", "/dev/null"],
    }
    print(f"ONNX import of {os.path.basename(model)} ({size_mib:.1f} MiB), median of {a.runs} runs")
    print(f"{'':<22} {'wall (s)':>9} {'peak MiB':>9} {'peak/size':>10}")
    for name, cmd in modes.items():
        run(cmd)
        walls, peaks = zip(*[run(cmd) for _ in range(a.runs)])
        w, p = statistics.median(walls), statistics.median(peaks)
        print(f"{name:<22} {w:>9.3f} {p:>9.1f} {p / size_mib:>10.2f}")
    print(f"{'floor':<22} {1.0:>9.3f} {1.5 * size_mib:>9.1f} {1.5:>10.2f}")
    print("(printing MLIR writes every weight as hex text, two bytes per byte: that is the format's cost, not the import's)")


if __name__ == "__main__":
    main()
