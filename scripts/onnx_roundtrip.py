#!/usr/bin/env python3
"""Round trip of ONNX's node tests through our importer, onnx-level passes and
exporter, judged by ONNX Runtime (the reference).

For every node test: run ONNX Runtime on the original model and compare with
the expected outputs (the tests ORT passes are the denominator); then
`npu-translate --import-onnx | npu-opt PIPELINE | npu-translate --export-onnx`,
run ORT on what we exported and compare again. Prints a summary table and
writes or checks test/onnx/node-roundtrip.manifest (one outcome per test): with
--check, a test that used to round-trip and no longer does is a failure.

Usage: onnx_roundtrip.py [--check | --update] [--bin target/release] [--jobs N] [filter]
"""
import argparse
import concurrent.futures as cf
import os
import pathlib
import subprocess
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper

ROOT = pathlib.Path(__file__).resolve().parent.parent
PIPELINE = "builtin.module(onnx-shape-inference,canonicalize,cse)"
MANIFEST = ROOT / "test/onnx/node-roundtrip.manifest"


def data_dir():
    if os.environ.get("ONNX_NODE_TESTS"):
        return pathlib.Path(os.environ["ONNX_NODE_TESTS"])
    cache = pathlib.Path(os.environ.get("NPU_CACHE", pathlib.Path.home() / ".cache/npu"))
    return cache / "onnx-1.22.0/node"


def load_value(path, type_proto):
    """A test data file as the value ORT takes: array, list (sequence) or optional."""
    data = path.read_bytes()
    kind = type_proto.WhichOneof("value")
    if kind == "sequence_type":
        s = onnx.SequenceProto()
        s.ParseFromString(data)
        return numpy_helper.to_list(s)
    if kind == "optional_type":
        o = onnx.OptionalProto()
        o.ParseFromString(data)
        return numpy_helper.to_optional(o)
    t = onnx.TensorProto()
    t.ParseFromString(data)
    return numpy_helper.to_array(t)


def close(got, want):
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(close(g, w) for g, w in zip(got, want))
    if want is None:
        return got is None
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        return False
    if want.dtype.kind in "fc":
        return bool(np.allclose(got.astype(want.dtype), want, rtol=1e-3, atol=1e-5, equal_nan=True))
    return bool(np.array_equal(got, want))


def run_ort(model_bytes, case):
    """'ok', or why ORT's outputs differ from the expected ones."""
    model = onnx.load_from_string(model_bytes)
    opts = ort.SessionOptions()
    opts.log_severity_level = 4
    opts.intra_op_num_threads = 1
    try:
        sess = ort.InferenceSession(model_bytes, opts, providers=["CPUExecutionProvider"])
    except Exception as e:  # noqa: BLE001 - ORT raises many kinds
        return "load: " + str(e).splitlines()[0][:160]
    inits = {i.name for i in model.graph.initializer}
    inputs = [i for i in model.graph.input if i.name not in inits]
    outputs = list(model.graph.output)
    for ds in sorted(case.glob("test_data_set_*")):
        feed = {}
        for k, vi in enumerate(inputs):
            p = ds / f"input_{k}.pb"
            if p.exists():
                feed[vi.name] = load_value(p, vi.type)
        try:
            got = sess.run(None, feed)
        except Exception as e:  # noqa: BLE001
            return "run: " + str(e).splitlines()[0][:160]
        for k, vo in enumerate(outputs):
            p = ds / f"output_{k}.pb"
            if p.exists() and not close(got[k], load_value(p, vo.type)):
                return f"output {k} differs"
    return "ok"


def roundtrip(case, bindir):
    name = case.name
    original = (case / "model.onnx").read_bytes()
    ref = run_ort(original, case)
    if ref != "ok":
        return name, "ort-fails", ref
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "model.onnx"
        cmd = (
            f"'{bindir}/npu-translate' --import-onnx '{case}/model.onnx' "
            f"| '{bindir}/npu-opt' --pass-pipeline='{PIPELINE}' "
            f"| '{bindir}/npu-translate' --export-onnx -o '{out}'"
        )
        r = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            first = next((l for l in r.stderr.splitlines() if "error" in l), r.stderr.strip()[:160])
            return name, "fail", "ours: " + first.strip()[:200]
        got = run_ort(out.read_bytes(), case)
    return name, ("ok" if got == "ok" else "fail"), got


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true", help="fail if a test that round-tripped in the manifest no longer does")
    ap.add_argument("--update", action="store_true", help="rewrite the manifest")
    ap.add_argument("--bin", default=str(ROOT / "target/release"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("filter", nargs="?", default="")
    a = ap.parse_args()
    cases = sorted(p for p in data_dir().iterdir() if (p / "model.onnx").exists() and a.filter in p.name)
    if not cases:
        sys.exit(f"no ONNX node tests under {data_dir()}: run scripts/setup.sh")
    with cf.ProcessPoolExecutor(a.jobs) as pool:
        results = sorted(pool.map(roundtrip, cases, [a.bin] * len(cases)))
    ref_ok = [r for r in results if r[1] != "ort-fails"]
    ours_ok = [r for r in ref_ok if r[1] == "ok"]
    print(f"ONNX Runtime {ort.__version__}, onnx {onnx.__version__}, pipeline {PIPELINE}")
    print("| node tests | ORT passes | round trip passes | ratio |")
    print("|---|---|---|---|")
    print(f"| {len(results)} | {len(ref_ok)} | {len(ours_ok)} | {100.0 * len(ours_ok) / max(1, len(ref_ok)):.1f}% |")
    lines = [f"{n} {o}" + ("" if o == "ok" else f": {why}") for n, o, why in results]
    if a.update:
        MANIFEST.write_text("# ONNX node tests: import | npu-opt | export, run in ONNX Runtime (`ok`), or why not; ort-fails = ORT fails the original.\n" + "\n".join(lines) + "\n")
    if a.check:
        expected = {}
        for line in MANIFEST.read_text().splitlines():
            if not line.startswith("#"):
                n, _, o = line.partition(" ")
                expected[n] = o
        lost = [f"{n}: {o} {why}" for n, o, why in results if expected.get(n) == "ok" and o != "ok"]
        if lost:
            print(f"{len(lost)} node tests no longer round-trip:\n" + "\n".join(lost))
            sys.exit(1)
        print(f"roundtrip check: ok ({len(ours_ok)} round-trip, none lost)")


if __name__ == "__main__":
    main()
