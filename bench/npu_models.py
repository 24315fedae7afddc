#!/usr/bin/env python3
"""The benchmark models on the NPU path (`npu-run --target npu` on the npu16
simulator, CPU fallback for the rest), each checked against the CPU path's
outputs (1e-4 relative), with the whole-model figures the report gives:
total cycles, the roofline bound and the ratio, array utilization, DRAM
traffic against the minimum (every weight, input and output moved once),
how many ops stay on the CPU, and compile time.

    python3 bench/npu_models.py [--only resnet18 ...] [--check]

--check fails (exit 1) on any mismatch, and when the ResNet-18-like model
is not within 2x of its roofline (issue 7's floor).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import cpu_models  # noqa: E402  (the same generated models as the CPU benchmark)

NPU_RUN = os.path.join(ROOT, "target", "release", "npu-run")
FLOOR = {"resnet18": 2.0}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--keep")
    a = ap.parse_args()
    if not os.path.exists(NPU_RUN):
        subprocess.run(["cargo", "build", "--release", "-q", "-p", "tools"], cwd=ROOT, check=True)
    d = a.keep or tempfile.mkdtemp(prefix="npu-models-")
    os.makedirs(d, exist_ok=True)
    bad = []
    print(f"{'model':<12} {'cycles':>11} {'roofline':>11} {'ratio':>6} {'util':>6} {'DRAM MB':>8} {'min MB':>7} {'xmin':>5} {'CPU ops':>9} {'compile s':>9}  outputs")
    for name, build in cpu_models.MODELS.items():
        if a.only and name not in a.only:
            continue
        m = build()
        path = os.path.join(d, f"{name}.onnx")
        onnx.save(m, path)
        x = m.graph.input[0]
        shape = [dim.dim_value for dim in x.type.tensor_type.shape.dim]
        xin = os.path.join(d, f"{name}.x.npy")
        np.save(xin, np.random.default_rng(7).standard_normal(shape).astype(np.float32))
        cpu_out = os.path.join(d, f"{name}.cpu")
        subprocess.run([NPU_RUN, path, "--target", "cpu", "--input", f"{x.name}={xin}", "--output-dir", cpu_out], check=True, capture_output=True)
        rj = os.path.join(d, f"{name}.npu.json")
        r = subprocess.run(
            [NPU_RUN, path, "--target", "npu", "--input", f"{x.name}={xin}", "--compare", cpu_out, "--rtol", "1e-4", "--atol", "1e-5", "--report-json", rj],
            capture_output=True, text=True,
        )
        if not os.path.exists(rj):
            print(f"{name:<12} failed: {r.stderr.strip().splitlines()[-1] if r.stderr.strip() else r.returncode}")
            bad.append(name)
            continue
        j = json.load(open(rj))
        ok = r.returncode == 0
        ratio = j["ratio_to_roofline"]
        total = j["npu_ops"] + j["cpu_ops"]
        cpu = f"{j['cpu_ops']}/{total}"
        print(
            f"{name:<12} {j['cycles']:>11} {j['roofline_cycles']:>11} {ratio:>6.2f} {100 * j['utilization']:>5.1f}% "
            f"{j['dram_bytes'] / 1e6:>8.1f} {j['min_dram_bytes'] / 1e6:>7.1f} {j['dram_bytes'] / max(j['min_dram_bytes'], 1):>5.2f} "
            f"{cpu:>9} {j['compile_ms'] / 1e3:>9.2f}  {'match' if ok else 'MISMATCH'}"
        )
        if not ok:
            print("   " + "\n   ".join(l for l in r.stderr.splitlines() if "MISMATCH" in l or "error" in l))
            bad.append(name)
        if name in FLOOR and j["cycles"] > 0 and ratio > FLOOR[name]:
            print(f"   {name}: {ratio:.2f}x the roofline, above the floor of {FLOOR[name]}x")
            bad.append(name)
    if a.check and bad:
        print("FAILED: " + ", ".join(bad))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
