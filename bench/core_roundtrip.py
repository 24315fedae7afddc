#!/usr/bin/env python3
"""Benchmarks of the framework core on a generated 1,000,000-op module, ours
(npu-opt, release) side by side with upstream mlir-opt on the same file:

  --mode roundtrip  parse + verify + print (--mlir-print-op-generic)
  --mode passes     parse + canonicalize + cse + print (--canonicalize --cse)

Runs alternate A B A B ...; prints medians of wall time, per-phase times (from
--mlir-timing; upstream's Parser includes its verifier, and its pass times
include its verification after each pass, which ours reports as Verifier) and
peak RSS, and the ratio ours/upstream (< 1 means we are faster).

usage: bench/core_roundtrip.py [--mode roundtrip|passes] [--ops N] [--runs R]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MLIR_OPT = os.path.join(os.environ.get("LLVM_TOOLS_DIR", "/usr/lib/llvm-22/bin"), "mlir-opt")
NPU_OPT = os.path.join(ROOT, "target", "release", "npu-opt")


def run_once(cmd):
    """Wall seconds, peak RSS in MiB and the phase times of one run."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    err = p.stderr.read().decode()
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit(f"command failed ({p.returncode}): {' '.join(cmd)}\n{err}")
    phases = {m.group(2): float(m.group(1)) for m in re.finditer(r"^\s+([0-9.]+) \(\s*[0-9.]+%\)\s+(\w+)$", err, re.M)}
    return wall, ru.ru_maxrss / 1024.0, phases


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ops", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--mode", choices=["roundtrip", "passes"], default="roundtrip")
    a = ap.parse_args()
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "tools"], cwd=ROOT, check=True)
    os.makedirs(os.path.join(ROOT, "bench", "out"), exist_ok=True)
    src = os.path.join(ROOT, "bench", "out", f"module_{a.ops}.mlir")
    if not os.path.exists(src):
        subprocess.run([sys.executable, os.path.join(ROOT, "bench", "gen_module.py"), src, str(a.ops)], check=True)
    mode_flags = ["--mlir-print-op-generic"] if a.mode == "roundtrip" else ["--canonicalize", "--cse"]
    flags = ["--allow-unregistered-dialect"] + mode_flags + ["--mlir-timing", "-o", "/dev/null", src]
    cmds = {"npu-opt": [NPU_OPT] + flags, "mlir-opt": [MLIR_OPT] + flags}
    runs = {k: [] for k in cmds}
    run_once(cmds["npu-opt"])  # warm the page cache
    for _ in range(a.runs):
        for k, c in cmds.items():
            runs[k].append(run_once(c))

    def med(k, f):
        return statistics.median(f(r) for r in runs[k])

    rows = [("wall (s)", lambda r: r[0])]
    if a.mode == "roundtrip":
        rows.append(("parse+verify (s)", lambda r: r[2].get("Parser", 0) + r[2].get("Verifier", 0)))
    else:
        rows.append(("parse (s)", lambda r: r[2].get("Parser", 0)))
        # Upstream verifies inside its pass timings; count ours the same way.
        rows.append(("canon+cse+verify (s)", lambda r: r[2].get("Canonicalizer", 0) + r[2].get("CSE", 0) + r[2].get("Verifier", 0)))
        rows.append(("  canonicalize (s)", lambda r: r[2].get("Canonicalizer", 0)))
        rows.append(("  cse (s)", lambda r: r[2].get("CSE", 0)))
    rows += [("print+write (s)", lambda r: r[2].get("Output", 0)), ("peak RSS (MiB)", lambda r: r[1])]
    print(f"core {a.mode}: {a.ops} ops, {os.path.getsize(src) / 1e6:.1f} MB, median of {a.runs} alternating runs")
    print(f"{'figure':<22} {'npu-opt':>10} {'mlir-opt':>10} {'ratio':>8}")
    for name, f in rows:
        ours, theirs = med("npu-opt", f), med("mlir-opt", f)
        ratio = f"{ours / theirs:>8.2f}" if theirs > 0 else f"{'-':>8}"
        print(f"{name:<22} {ours:>10.3f} {theirs:>10.3f} {ratio}")
    walls = [x[0] / y[0] for x, y in zip(runs["npu-opt"], runs["mlir-opt"])]
    print(f"pairwise wall ratio (ours/upstream): median {statistics.median(walls):.2f}, min {min(walls):.2f}, max {max(walls):.2f}")


if __name__ == "__main__":
    main()
