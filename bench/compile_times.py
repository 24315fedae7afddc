#!/usr/bin/env python3
"""CPU-path compile time, ours against a baseline build of ours, side by side.

For each model of bench/cpu_models.py and of the real-model corpus: the
median compile time (`npu-run --perf 1 --json`'s `compile_ms`) and the median
run (`p50_ms`) of this checkout's `npu-run` and of `--baseline` (another
build's `npu-run`, e.g. a worktree of an older commit), alternating the two
`--repeat` times so both see the same machine; the ratios new / baseline; the
models over issue 21's 2 s floor. Without `--baseline`, our figures alone.

usage: bench/compile_times.py [--baseline PATH] [--repeat 3] [--only NAME ...] [-- NPU_RUN_FLAGS...]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tomllib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cpu_models  # noqa: E402
import real_models  # noqa: E402


def models(d, only):
    """(name, path, npu-run input flags) of each model."""
    for name, build in cpu_models.MODELS.items():
        if only and name not in only:
            continue
        _, path, x, _, _, xin = cpu_models.write_model(name, build, d)
        yield name, path, ["--input", f"{x.name}={xin}"]
    subprocess.run(["bash", os.path.join(cpu_models.ROOT, "scripts", "fetch-models.sh")], check=True, capture_output=True)
    for m in tomllib.load(open(os.path.join(cpu_models.ROOT, "test", "models", "corpus.toml"), "rb"))["model"]:
        if only and m["name"] not in only:
            continue
        args = []
        for k, v in real_models.make_inputs(m, np.random.default_rng(0)).items():
            f = os.path.join(d, f"{m['name']}.in{len(args)}.npy")
            np.save(f, v)
            args += ["--input", f"{k}={f}"]
        yield m["name"], os.path.join(real_models.CACHE, m["name"] + ".onnx"), args


def once(exe, path, args, extra):
    """(compile s, run ms) of one `--perf 1` run, or None with the reason printed."""
    r = subprocess.run([exe, path, *args, *extra, "--perf", "1", "--json"], capture_output=True, text=True)
    if r.returncode != 0:
        last = r.stderr.strip().splitlines()[-1] if r.stderr.strip() else f"exit {r.returncode}"
        print(f"  {os.path.basename(exe)} on {os.path.basename(path)} failed: {last}", file=sys.stderr)
        return None
    p = json.loads(r.stdout.strip().splitlines()[-1])
    return p["compile_ms"] / 1e3, p["p50_ms"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline", help="another build's npu-run to compare with")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("extra", nargs="*", help="flags for every npu-run (after --)")
    a = ap.parse_args()
    d = cpu_models.setup(None, "npu-compile-")
    exes = [cpu_models.NPU_RUN] + ([a.baseline] if a.baseline else [])
    head = f"{'model':<28} {'compile s':>10} {'run ms':>9}"
    if a.baseline:
        head += f" {'base s':>8} {'base ms':>9} {'compile x':>10} {'run x':>7}"
    print(head)
    over, ratios = [], []
    for name, path, args in models(d, a.only):
        got = [[] for _ in exes]
        for _ in range(a.repeat):
            for i, exe in enumerate(exes):
                r = once(exe, path, args, a.extra)
                if r:
                    got[i].append(r)
        if not got[0]:
            print(f"{name:<28} failed")
            continue
        med = [(statistics.median(c for c, _ in g), statistics.median(t for _, t in g)) if g else None for g in got]
        line = f"{name:<28} {med[0][0]:>10.2f} {med[0][1]:>9.2f}"
        if a.baseline:
            if med[1]:
                line += f" {med[1][0]:>8.2f} {med[1][1]:>9.2f} {med[0][0] / med[1][0]:>10.2f} {med[0][1] / med[1][1]:>7.2f}"
                ratios.append(med[0][0] / med[1][0])
            else:
                line += f" {'failed':>8}"
        print(line, flush=True)
        if med[0][0] > 2.0:
            over.append(f"{name} {med[0][0]:.2f} s")
    if ratios:
        print(f"compile time geometric mean, new / baseline: {cpu_models.geomean(ratios):.2f}")
    print("over 2 s: " + (", ".join(over) if over else "none"))


if __name__ == "__main__":
    sys.exit(main())
